#!/usr/bin/env bash
# Builds libwhisper (whisper.cpp, static, with its ggml libraries) into the
# build cache (scripts/cache.sh), from the whisper.cpp source that the npm
# package nodejs-whisper ships, pinned by version and checksum. Idempotent:
# a finished build is reused. Prints the install prefix on its last line.
#
#   scripts/whisper.sh            build (needs npm, cmake, a C++ compiler)
#   scripts/whisper.sh --where    print the prefix only if it is built
#
# make build runs it when no system libwhisper is found (pkg-config) and
# WHISPER_CPP_DIR is not set.
set -euo pipefail
. "$(dirname "$0")/cache.sh"
PKG=nodejs-whisper
VERSION=0.3.1
SHA256=92041caf2b26c74b7f489fedf37bd093f216eebd61df512045ec2d19d0531d37
CMAKE_FLAGS=(-DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF -DGGML_NATIVE=OFF
  -DWHISPER_BUILD_TESTS=OFF -DWHISPER_BUILD_EXAMPLES=ON -DWHISPER_BUILD_SERVER=OFF)
# The key: what the library is built from and how, and for which machine
# and compiler.
cxx=$(c++ -dumpfullversion -dumpversion 2>/dev/null | head -1 || true)
PREFIX=$(cache_dir whisper "$PKG-$VERSION" "$PKG" "$VERSION" "$SHA256" "${CMAKE_FLAGS[*]}" "$(uname -sm)" "c++ $cxx")
if [ -f "$PREFIX/.built" ]; then
  cache_link whisper "$PREFIX"
  echo "$PREFIX"
  exit 0
fi
[ "${1:-}" = --where ] && exit 0
for tool in npm cmake c++; do
  command -v "$tool" >/dev/null 2>&1 || { echo "whisper.sh: $tool is missing (scripts/deps.sh installs it)" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "whisper.sh: fetching $PKG@$VERSION (whisper.cpp source) from the npm registry" >&2
(cd "$work" && npm pack --loglevel=error "$PKG@$VERSION" >/dev/null) ||
  { echo "whisper.sh: npm could not fetch $PKG@$VERSION (its error is above)" >&2; exit 1; }
tgz=$work/$PKG-$VERSION.tgz
echo "$SHA256  $tgz" | sha256sum -c --quiet - || { echo "whisper.sh: $tgz does not match the pinned checksum" >&2; exit 1; }
tar -xzf "$tgz" -C "$work"
src=$work/package/cpp/whisper.cpp
jobs=$(nproc 2>/dev/null || echo 2)
echo "whisper.sh: building libwhisper once into $PREFIX with $jobs jobs: several minutes on 2 cores (4 on an idle one, over 20 on a loaded one); later builds reuse it" >&2
# The compiler's output goes to a log, shown only when the build fails;
# cmake's progress is summarised every 10%.
log=$work/build.log
progress() { # LABEL: cmake's output to the log, its percentage every 10%
  local line p shown=0
  while IFS= read -r line; do
    printf '%s\n' "$line" >>"$log"
    [[ $line =~ ^\[\ *([0-9]+)%\] ]] || continue
    p=${BASH_REMATCH[1]}
    if ((p >= shown + 10)); then
      shown=$((p - p % 10))
      printf 'whisper.sh: %s %d%% (%dm%02ds)\n' "$1" "$p" $((SECONDS / 60)) $((SECONDS % 60)) >&2
    fi
  done
}
failed() {
  tail -40 "$log" >&2
  echo "whisper.sh: the build failed (the end of its log is above)" >&2
  exit 1
}
SECONDS=0
cmake -S "$src" -B "$work/build" "${CMAKE_FLAGS[@]}" -DCMAKE_INSTALL_PREFIX="$PREFIX" >"$log" 2>&1 || failed
cmake --build "$work/build" -j"$jobs" --target whisper 2>&1 | progress "libwhisper" || failed
# whisper-cli: whisper.cpp's own command line, which the benchmarks compare
# the route with (its objects take a few more minutes).
echo "whisper.sh: libwhisper built in $((SECONDS / 60))m$((SECONDS % 60))s; now whisper-cli, which the benchmarks compare with" >&2
cmake --build "$work/build" -j"$jobs" --target whisper-cli 2>&1 | progress "whisper-cli" || failed
mkdir -p "$PREFIX/include" "$PREFIX/lib" "$PREFIX/bin"
cp "$src/include/whisper.h" "$src"/ggml/include/*.h "$PREFIX/include/"
find "$work/build" -name '*.a' -exec cp {} "$PREFIX/lib/" \;
find "$work/build" -name 'whisper-cli' -type f -exec cp {} "$PREFIX/bin/" \;
cp "$src/samples/jfk.wav" "$PREFIX/" 2>/dev/null || true
touch "$PREFIX/.built"
cache_link whisper "$PREFIX"
echo "whisper.sh: built in $((SECONDS / 60))m$((SECONDS % 60))s (once: later builds reuse $PREFIX)" >&2
echo "$PREFIX"
