#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages Hearth's build and tests need, when run
# as root; otherwise prints the one command that does. Idempotent: packages
# already installed are skipped without touching the network.
set -euo pipefail

# make: the build and test entry points.
# libsqlite3-dev: sqlite-vec's cgo bindings include sqlite3.h.
# pkg-config: how cgo finds the codec libraries.
# curl: an end-to-end test speaks raw JSON-RPC to the MCP server with it.
PACKAGES=(make libsqlite3-dev pkg-config curl)
# node and npm: the end-to-end test drives the MCP server with the official
# TypeScript MCP client. Skipped when a Node.js is already installed (the
# machine's own, possibly newer than Debian's).
command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || PACKAGES+=(nodejs npm)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "Hearth needs these packages (or your system's equivalents): ${missing[*]}" >&2
  echo "On macOS: xcode-select --install provides sqlite3.h." >&2
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "Hearth needs: ${missing[*]}. Install them with:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
