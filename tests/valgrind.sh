#!/bin/sh
# Meson test wrapper: memcheck, any error fails the test.
exec valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite "$@"
