#!/usr/bin/env bash
# Fetches the onnxruntime shared library (for the ONNX speaker extractor)
# from the npm package onnxruntime-node, pinned by version and checksum,
# into the build cache (scripts/cache.sh). Idempotent. Prints the library's
# path on its last line; a fetch that fails exits non-zero with npm's
# reason (make test stops there rather than fail the ONNX tests later).
#
#   scripts/onnxruntime.sh        fetch (needs npm)
set -euo pipefail
. "$(dirname "$0")/cache.sh"
PKG=onnxruntime-node
VERSION=1.30.0
SHA256=6e3390d6b783e7be946fad629292799da28d0b42f84856e50d2c1b0383291e75
case "$(uname -s)/$(uname -m)" in
  Linux/x86_64) dir=linux/x64 lib=libonnxruntime.so.1 ;;
  Linux/aarch64) dir=linux/arm64 lib=libonnxruntime.so.1 ;;
  Darwin/*) dir=darwin/$(uname -m | sed 's/x86_64/x64/') lib=libonnxruntime.1.dylib ;;
  *) echo "onnxruntime.sh: no onnxruntime library for $(uname -s)/$(uname -m) in $PKG" >&2; exit 1 ;;
esac
PREFIX=$(cache_dir onnxruntime "$PKG-$VERSION" "$PKG" "$VERSION" "$SHA256" "$dir/$lib")
if [ -f "$PREFIX/$lib" ]; then
  cache_link onnxruntime "$PREFIX"
  echo "$PREFIX/$lib"
  exit 0
fi
command -v npm >/dev/null 2>&1 || { echo "onnxruntime.sh: npm is missing (scripts/deps.sh installs it)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "onnxruntime.sh: fetching $PKG@$VERSION from the npm registry (110 MB, once)" >&2
(cd "$work" && npm pack --loglevel=error "$PKG@$VERSION" >/dev/null) ||
  { echo "onnxruntime.sh: npm could not fetch $PKG@$VERSION (its error is above)" >&2; exit 1; }
tgz=$work/$PKG-$VERSION.tgz
echo "$SHA256  $tgz" | sha256sum -c --quiet - || { echo "onnxruntime.sh: $tgz does not match the pinned checksum" >&2; exit 1; }
tar -xzf "$tgz" -C "$work" "package/bin/napi-v6/$dir/$lib" ||
  { echo "onnxruntime.sh: $PKG@$VERSION has no $dir/$lib" >&2; exit 1; }
mkdir -p "$PREFIX"
mv "$work/package/bin/napi-v6/$dir/$lib" "$PREFIX/$lib"
cache_link onnxruntime "$PREFIX"
echo "$PREFIX/$lib"
