#!/usr/bin/env bash
# Prints a folder whose `chromium` is the browser the console's end-to-end
# test drives: TestConsoleInChromium looks `chromium` up on PATH, and make
# test puts this folder first there. Which browser, by HEARTH_CHROMIUM:
#
#   auto (default)  the distribution's chromium when it runs here, else npm
#   system          the distribution's chromium (Debian's `chromium` package)
#   npm             the headless Chromium inside the npm package
#                   @sparticuz/chromium, pinned here by version and checksum,
#                   unpacked once into the build cache (scripts/cache.sh)
#
# Why a second source: Ubuntu ships no Chromium deb. Its chromium-browser
# package only installs the snap, which needs snapd, and containers, chroots
# and most CI runners have none; its `chromium` command, where there is one,
# is then a stub. @sparticuz/chromium carries a brotli-compressed
# chrome-headless-shell built for Linux x64 (for AWS Lambda) that needs only
# glibc, libnss3 and libexpat1 (scripts/deps.sh installs libnss3 where it
# installs no chromium), and playwright-core drives it as it drives
# Debian's. The package has no arm64 build.
#
#   scripts/chromium.sh     print the folder (unpacking the npm one when needed; needs npm and node)
set -euo pipefail
. "$(dirname "$0")/cache.sh"
WANT=${HEARTH_CHROMIUM:-auto}
VERSION=153.0.0
SHA256=20e5656fcdcf4118ede85edfb9d6bb9cc1bbb7ffb8b75622fffbcf36a835c3c0
say() { echo "chromium.sh: $*" >&2; }
work=
trap '[ -z "$work" ] || rm -rf "$work"' EXIT

# system_chromium prints the distribution's chromium when it runs here: not
# a snap, not a stub that names one, and answering --version. This script's
# own folders are left out of the search, so that it finds the same browser
# when make test has already put one of them on PATH.
system_chromium() {
  local path c real
  path=$(printf '%s\n' "$PATH" | tr : '\n' | grep -v -e "^$BUILD_CACHE/chromium" -e "^$ROOT/.cache/chromium" | paste -sd:)
  c=$(PATH=$path command -v chromium 2>/dev/null) || return 1
  real=$(readlink -f "$c")
  case $real in /snap/*) return 1 ;; esac
  if [ "$(head -c 2 "$real")" = '#!' ] && grep -q snap "$real"; then return 1; fi
  timeout 60 "$c" --version 2>/dev/null | grep -q Chromium || return 1
  echo "$c"
}

# link_system puts a link to the distribution's chromium in a folder of
# its own: the folder goes first on PATH, and /usr/bin there would hide
# whatever PATH found before it (a newer go, node).
link_system() {
  local dir=$BUILD_CACHE/chromium/system
  mkdir -p "$dir"
  ln -sfn "$1" "$dir/chromium"
  cache_link chromium "$dir"
  echo "$dir"
}

npm_chromium() {
  [ "$(uname -s)/$(uname -m)" = Linux/x86_64 ] ||
    { say "@sparticuz/chromium has only a Linux x64 build (this is $(uname -s)/$(uname -m)): install your distribution's chromium"; exit 1; }
  local prefix tgz f missing
  prefix=$(cache_dir chromium "sparticuz-chromium-$VERSION" "@sparticuz/chromium" "$VERSION" "$SHA256")
  if [ ! -x "$prefix/chromium" ]; then
    command -v npm >/dev/null 2>&1 || { say "npm is missing (scripts/deps.sh test installs it)"; exit 1; }
    command -v node >/dev/null 2>&1 || { say "node is missing (scripts/deps.sh test installs it)"; exit 1; }
    say "fetching @sparticuz/chromium@$VERSION (a headless Chromium, 70 MB) from the npm registry, once"
    work=$(mktemp -d)
    (cd "$work" && npm pack --loglevel=error "@sparticuz/chromium@$VERSION" >/dev/null) ||
      { say "npm could not fetch @sparticuz/chromium@$VERSION (its error is above)"; exit 1; }
    tgz=$work/sparticuz-chromium-$VERSION.tgz
    echo "$SHA256  $tgz" | sha256sum -c --quiet - || { say "$tgz does not match the pinned checksum"; exit 1; }
    tar -xzf "$tgz" -C "$work" package/bin
    # The browser, and SwiftShader (software GL, which Chromium loads from
    # its own folder when there is no GPU); the package's fonts and Amazon
    # Linux libraries are for Lambda, the distribution's serve here.
    mkdir -p "$work/out"
    for f in chromium.br swiftshader.tar.br; do
      node -e 'const fs = require("fs"), zlib = require("zlib");
        fs.writeFileSync(process.argv[2], zlib.brotliDecompressSync(fs.readFileSync(process.argv[1])))' \
        "$work/package/bin/$f" "$work/out/${f%.br}" || { say "node could not decompress $f"; exit 1; }
    done
    tar -xf "$work/out/swiftshader.tar" -C "$work/out"
    rm "$work/out/swiftshader.tar"
    chmod +x "$work/out/chromium"
    missing=$(ldd "$work/out/chromium" 2>/dev/null | awk '/not found/ {print $1}' | paste -sd' ' || true)
    [ -z "$missing" ] || { say "the npm Chromium needs $missing (on Debian and Ubuntu: apt-get install libnss3 libexpat1)"; exit 1; }
    "$work/out/chromium" --version >/dev/null || { say "the npm Chromium does not run on this machine"; exit 1; }
    mkdir -p "$(dirname "$prefix")"
    rm -rf "$prefix"
    mv "$work/out" "$prefix"
  fi
  cache_link chromium "$prefix"
  say "using $("$prefix/chromium" --version 2>/dev/null) from @sparticuz/chromium@$VERSION in $prefix"
  echo "$prefix"
}

case $WANT in
  system)
    c=$(system_chromium) || { say "HEARTH_CHROMIUM=system, but no chromium that runs here is on PATH (Debian: apt-get install chromium)"; exit 1; }
    link_system "$c"
    ;;
  npm) npm_chromium ;;
  auto)
    if c=$(system_chromium); then
      link_system "$c"
    else
      say "no usable chromium on this system (none, a snap, or a stub that needs snapd): the npm one instead"
      npm_chromium
    fi
    ;;
  *) say "HEARTH_CHROMIUM is auto, system or npm, not $WANT"; exit 2 ;;
esac
