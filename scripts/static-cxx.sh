#!/usr/bin/env bash
# Prints the external linker flags that link whisper.cpp's C++ runtime
# (libstdc++, libgomp, libgcc) into bin/hearth instead of loading them as
# shared libraries when it starts. Every start of `hearth serve` paid the
# dynamic loader's mapping and symbol lookups for them (~1 ms of a ~6 ms
# start before main, docs/benchmarks.md "Start: inits and libraries before
# main"), though only the whisper route ever calls them.
#
# The whisper.cpp Go bindings ask for -lstdc++ and -fopenmp (-lgomp) by
# name, which -static-libstdc++ does not change; the linker takes a
# library from the first -L folder that has it, so a folder holding only
# the compiler's static archives makes it link those. Prints nothing (the
# shared libraries, as before) when the compiler has no static archives.
set -euo pipefail
. "$(dirname "$0")/cache.sh"
CC=${CC:-gcc}
stdcxx=$("$CC" -print-file-name=libstdc++.a 2>/dev/null || true)
gomp=$("$CC" -print-file-name=libgomp.a 2>/dev/null || true)
# -print-file-name prints the bare name when it finds no such file.
[[ $stdcxx == /* && -f $stdcxx && $gomp == /* && -f $gomp ]] || exit 0
dir=$(cache_dir static-cxx "$(basename "$CC")" "$stdcxx" "$gomp")
if [[ ! -e $dir/libstdc++.a || ! -e $dir/libgomp.a ]]; then
  mkdir -p "$dir"
  ln -sfn "$stdcxx" "$dir/libstdc++.a"
  ln -sfn "$gomp" "$dir/libgomp.a"
fi
printf -- '-L%s -static-libgcc\n' "$dir"
