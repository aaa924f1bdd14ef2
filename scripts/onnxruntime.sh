#!/usr/bin/env bash
# Fetches the onnxruntime shared library (for the ONNX speaker extractor)
# from the npm package onnxruntime-node, pinned by version and checksum,
# into an ignored cache folder. Idempotent. Prints the library's path on
# its last line.
#
#   scripts/onnxruntime.sh        fetch (needs npm)
set -euo pipefail
PKG=onnxruntime-node
VERSION=1.30.0
SHA256=6e3390d6b783e7be946fad629292799da28d0b42f84856e50d2c1b0383291e75
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${ONNXRUNTIME_CACHE:-$ROOT/.cache/onnxruntime}
PREFIX=$CACHE/$PKG-$VERSION
case "$(uname -s)/$(uname -m)" in
  Linux/x86_64) dir=linux/x64 lib=libonnxruntime.so.1 ;;
  Linux/aarch64) dir=linux/arm64 lib=libonnxruntime.so.1 ;;
  Darwin/*) dir=darwin/$(uname -m | sed 's/x86_64/x64/') lib=libonnxruntime.1.dylib ;;
  *) echo "onnxruntime.sh: no onnxruntime library for $(uname -s)/$(uname -m) in $PKG" >&2; exit 1 ;;
esac
if [ -f "$PREFIX/$lib" ]; then
  echo "$PREFIX/$lib"
  exit 0
fi
command -v npm >/dev/null 2>&1 || { echo "onnxruntime.sh: npm is missing (scripts/deps.sh installs it)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "onnxruntime.sh: fetching $PKG@$VERSION from the npm registry (110 MB, once)" >&2
(cd "$work" && npm pack --silent "$PKG@$VERSION" >/dev/null)
tgz=$work/$PKG-$VERSION.tgz
echo "$SHA256  $tgz" | sha256sum -c --quiet - || { echo "onnxruntime.sh: $tgz does not match the pinned checksum" >&2; exit 1; }
tar -xzf "$tgz" -C "$work" "package/bin/napi-v6/$dir/$lib"
mkdir -p "$PREFIX"
mv "$work/package/bin/napi-v6/$dir/$lib" "$PREFIX/$lib"
echo "$PREFIX/$lib"
