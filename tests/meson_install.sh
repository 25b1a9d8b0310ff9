#!/bin/sh
# meson_install.sh SRCDIR OUTDIR: a packager's build (-Dtests=false
# -Dbench=false) has nothing to compile, and `meson install` puts exactly
# the header and the pkg-config file (as data) in place; a program then
# builds against the installed copy through pkg-config.
src=$1
out=$2
rm -rf "$out" && mkdir -p "$out"
fail=0
check() { # name, command...
    name=$1; shift
    if "$@" >>"$out/log" 2>&1; then echo "ok   $name"; else echo "FAIL $name"; fail=$((fail + 1)); fi
}
check setup meson setup "$out/build" "$src" -Dtests=false -Dbench=false --prefix="$out/prefix"
# `ninja -n` lists what a build would run: nothing but the phony targets
check nothing-to-compile sh -c "ninja -C '$out/build' -n | tee '$out/dry' | grep -q 'no work to do'"
check install meson install -C "$out/build" --no-rebuild
(cd "$out/prefix" && find . -type f | sort) >"$out/files"
printf '%s\n' ./include/quant.h ./share/pkgconfig/quant.pc >"$out/want"
check installed-files cmp "$out/files" "$out/want"
check header-identical cmp "$src/quant.h" "$out/prefix/include/quant.h"
awk '/^```c$/ { f = 1; next } /^```/ { if (f) exit; } f' "$src/README.md" >"$out/use.c"
check pkg-config-consumer sh -c "cc \$(PKG_CONFIG_PATH='$out/prefix/share/pkgconfig' pkg-config --cflags quant) \
    '$out/use.c' -o '$out/use' -lm && '$out/use'"
[ $fail -eq 0 ] || { echo "--- log"; tail -30 "$out/log"; cat "$out/files"; }
echo "meson_install: 6 checks, $fail failed"
[ $fail -eq 0 ]
