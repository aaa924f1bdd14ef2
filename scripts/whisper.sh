#!/usr/bin/env bash
# Builds libwhisper (whisper.cpp, static, with its ggml libraries) into an
# ignored cache folder, from the whisper.cpp source that the npm package
# nodejs-whisper ships, pinned by version and checksum. Idempotent: a
# finished build is reused. Prints the install prefix on its last line.
#
#   scripts/whisper.sh            build (needs npm, cmake, a C++ compiler)
#
# make build runs it when no system libwhisper is found (pkg-config) and
# WHISPER_CPP_DIR is not set.
set -euo pipefail
PKG=nodejs-whisper
VERSION=0.3.1
SHA256=92041caf2b26c74b7f489fedf37bd093f216eebd61df512045ec2d19d0531d37
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${WHISPER_CACHE:-$ROOT/.cache/whisper}
PREFIX=$CACHE/$PKG-$VERSION
if [ -f "$PREFIX/.built" ]; then
  echo "$PREFIX"
  exit 0
fi
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
echo "whisper.sh: building libwhisper (static; about a minute on 2 cores)" >&2
# The compiler's output goes to a log, shown only when the build fails.
log=$work/build.log
{ cmake -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF -DGGML_NATIVE=OFF \
    -DWHISPER_BUILD_TESTS=OFF -DWHISPER_BUILD_EXAMPLES=ON -DWHISPER_BUILD_SERVER=OFF -DCMAKE_INSTALL_PREFIX="$PREFIX" &&
  cmake --build "$work/build" -j"$(nproc 2>/dev/null || echo 2)" --target whisper whisper-cli; } >"$log" 2>&1 ||
  { tail -40 "$log" >&2; echo "whisper.sh: the build failed (the end of its log is above)" >&2; exit 1; }
mkdir -p "$PREFIX/include" "$PREFIX/lib" "$PREFIX/bin"
cp "$src/include/whisper.h" "$src"/ggml/include/*.h "$PREFIX/include/"
find "$work/build" -name '*.a' -exec cp {} "$PREFIX/lib/" \;
find "$work/build" -name 'whisper-cli' -type f -exec cp {} "$PREFIX/bin/" \;
cp "$src/samples/jfk.wav" "$PREFIX/" 2>/dev/null || true
touch "$PREFIX/.built"
echo "$PREFIX"
