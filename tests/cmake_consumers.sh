#!/bin/sh
# cmake_consumers.sh SRCDIR OUTDIR: quant::quant through the three ways a
# CMake project takes it (add_subdirectory, FetchContent from a local
# clone, find_package of an installed copy); each consumer builds and runs
# the README's first example.
src=$1
out=$2
command -v cmake >/dev/null || { echo "FAIL cmake missing"; exit 1; }
rm -rf "$out" && mkdir -p "$out"
awk '/^```c$/ { f = 1; next } /^```/ { if (f) exit; } f' "$src/README.md" >"$out/use.c"
fail=0
consumer() { # name, cmake lines that make quant::quant exist, extra configure args
    name=$1; body=$2; shift 2
    d="$out/$name"
    mkdir -p "$d"
    cp "$out/use.c" "$d/use.c"
    cat >"$d/CMakeLists.txt" <<EOT
cmake_minimum_required(VERSION 3.14)
project(consumer_$name C)
$body
add_executable(use use.c)
target_link_libraries(use PRIVATE quant::quant)
EOT
    if cmake -S "$d" -B "$d/build" "$@" >"$d.log" 2>&1 && cmake --build "$d/build" >>"$d.log" 2>&1 &&
       "$d/build/use" >>"$d.log" 2>&1; then
        echo "ok   $name"
    else
        echo "FAIL $name"; tail -20 "$d.log" | sed 's/^/     /'; fail=$((fail + 1))
    fi
}
consumer add_subdirectory "add_subdirectory(\"$src\" quant)"
# FetchContent from a git clone of the sources (no network)
mkdir -p "$out/repo" && cp "$src/quant.h" "$src/CMakeLists.txt" "$out/repo/" && cp -r "$src/cmake" "$out/repo/"
(cd "$out/repo" && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm t) || fail=$((fail + 1))
consumer fetchcontent "include(FetchContent)
FetchContent_Declare(quant GIT_REPOSITORY \"$out/repo\" GIT_TAG HEAD)
FetchContent_MakeAvailable(quant)"
# install, then find_package
if cmake -S "$src" -B "$out/inst-build" -DCMAKE_INSTALL_PREFIX="$out/prefix" >"$out/install.log" 2>&1 &&
   cmake --install "$out/inst-build" >>"$out/install.log" 2>&1 && [ -f "$out/prefix/include/quant.h" ]; then
    echo "ok   install"
else
    echo "FAIL install"; tail -20 "$out/install.log"; fail=$((fail + 1))
fi
consumer find_package "find_package(quant 0.1 REQUIRED)" -DCMAKE_PREFIX_PATH="$out/prefix"
echo "cmake_consumers: 4 checks, $fail failed"
[ $fail -eq 0 ]
