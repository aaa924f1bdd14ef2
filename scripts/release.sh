#!/usr/bin/env bash
# make release: cross-compiled binaries in dist/.
#   hearth-linux-amd64    native, every codec this machine has
#   hearth-linux-arm64    gcc-aarch64-linux-gnu (Raspberry Pi 5, ARM mini-PCs)
#   hearth-windows-amd64.exe  gcc-mingw-w64-x86-64
# The cross builds carry SQLite (FTS5), sqlite-vec, pure-Go Opus and the
# microphone (miniaudio, compiled in); the codecs and recognisers that need
# a C library of the target (LC3, libavcodec/libavformat, PocketSphinx,
# whisper.cpp) are left out, and the binary says so when they are asked for.
# macOS: build natively, see the README.
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}
OUT=${OUT:-dist}
mkdir -p "$OUT" .cache/xinclude
# sqlite-vec's cgo binding includes <sqlite3.h>; the cross compilers do not
# search the host's /usr/include, and the header is the same on every target.
cp /usr/include/sqlite3.h /usr/include/sqlite3ext.h .cache/xinclude/
COMMIT_DATE=${COMMIT_DATE:-$(git log -1 --format=%cs 2>/dev/null || true)}
LDFLAGS="-s -w -X main.version=$VERSION -X main.commitDate=$COMMIT_DATE"

build() { # GOOS GOARCH CC OUTPUT
  echo "building $4" >&2
  CGO_ENABLED=1 GOOS=$1 GOARCH=$2 CC=$3 CGO_CFLAGS="-O2 -I$PWD/.cache/xinclude -Wno-stringop-overflow" \
    go build -tags sqlite_fts5 -trimpath -ldflags "$LDFLAGS" -o "$OUT/$4" ./cmd/hearth
}
for cc in x86_64-w64-mingw32-gcc aarch64-linux-gnu-gcc; do
  command -v $cc >/dev/null || { echo "release needs $cc: scripts/deps.sh release" >&2; exit 1; }
done
CGO_ENABLED=1 go build -tags "${NATIVE_TAGS:-sqlite_fts5}" -trimpath -ldflags "$LDFLAGS" -o "$OUT/hearth-linux-amd64" ./cmd/hearth
build windows amd64 x86_64-w64-mingw32-gcc hearth-windows-amd64.exe
build linux arm64 aarch64-linux-gnu-gcc hearth-linux-arm64
ls -l "$OUT"
