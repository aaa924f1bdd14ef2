#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages Hearth needs, when run as root;
# otherwise prints the one command that does. Idempotent: packages already
# installed are skipped without touching the network.
#
#   scripts/deps.sh run    what building and running need (make run)
#   scripts/deps.sh test   that, plus what the end-to-end tests drive (make test, CI)
#   scripts/deps.sh release  that, plus cross compilers, wine64 and qemu-user
set -euo pipefail
mode=${1:-run}

# Ubuntu (and its derivatives) keeps much of what follows in its universe
# component (festival and its voices, pocketsphinx, liblc3, the asterisk
# sounds, npm), and ships Chromium only as a snap (below).
ubuntu=0
case " $( (. /etc/os-release 2>/dev/null && echo "${ID:-} ${ID_LIKE:-}") || true) " in *" ubuntu "*) ubuntu=1 ;; esac

# make: the build and test entry points.
# libsqlite3-dev: sqlite-vec's cgo bindings include sqlite3.h.
# pkg-config: how cgo finds the codec libraries.
# curl: the Quick start talks to the appliance with it.
# liblc3-dev, libavcodec-dev: the LC3 and AAC codecs of live audio (optional:
# a build without them refuses those codecs, the others work).
# libavformat-dev: uploads in MP3, M4A, WebM, FLAC and other containers
# (optional: WAV and Ogg Opus are read without it).
# libpocketsphinx-dev, pocketsphinx-en-us: English speech recognition that
# works out of the box, no model download (optional: without them live
# sessions need a whisper model, a remote route or custom_stt).
# libopus-dev: the Opus encoder of `hearth listen --codec opus` (optional).
# cmake, g++, npm: make build compiles whisper.cpp from the pinned source in
# the npm package nodejs-whisper (scripts/whisper.sh), once.
PACKAGES=(make libsqlite3-dev pkg-config curl liblc3-dev libavcodec-dev libavformat-dev libpocketsphinx-dev pocketsphinx-en-us cmake g++ libopus-dev)
command -v npm >/dev/null 2>&1 || PACKAGES+=(npm)
if [ "$mode" = release ]; then
  # make release / test-release: the cross compilers, and wine64 and
  # qemu-user to run what they build.
  PACKAGES+=(gcc-mingw-w64-x86-64 gcc-aarch64-linux-gnu libc6-dev-arm64-cross wine64 qemu-user)
fi
if [ "$mode" = test ]; then
  # festival + festvox-us-slt-hts: natural test speech; ffmpeg, opus-tools
  # and liblc3-tools encode it as wearables do and decode it as references.
  # festvox-kallpc16k, festvox-kdlpc16k (male voices) and espeak-ng: the
  # speaker tests' other voices.
  PACKAGES+=(festival festvox-us-slt-hts festvox-kallpc16k festvox-kdlpc16k espeak-ng sox ffmpeg opus-tools liblc3-tools)
  # Recorded human speech for the real-speech tests, the speaker tests and
  # the benchmark (appliance/stt/realspeech, appliance/speaker): five
  # asterisk voices (the -g722 packages hold the audio, the others the
  # prompts' texts), pocketsphinx-testdata's LibriVox reader, cards and
  # TIDIGITS, alsa-utils' channel names.
  PACKAGES+=(asterisk-core-sounds-en asterisk-core-sounds-en-g722 asterisk-core-sounds-fr asterisk-core-sounds-fr-g722
    asterisk-core-sounds-it asterisk-core-sounds-it-g722 asterisk-core-sounds-es asterisk-core-sounds-es-g722
    asterisk-core-sounds-ru asterisk-core-sounds-ru-g722 pocketsphinx-testdata alsa-utils)
  # pocketsphinx: its pocketsphinx_continuous is the engine alone the route
  # is measured against.
  PACKAGES+=(pocketsphinx)
  # strace observes that a default appliance connects nowhere; iproute2 and
  # util-linux build the network namespaces the mDNS tests run in; zbar-tools
  # reads the pairing QR code back.
  PACKAGES+=(strace iproute2 util-linux zbar-tools)
  # chromium: the console's end-to-end test runs in it (driven by the npm
  # package playwright-core, which downloads no browser of its own).
  # Ubuntu's chromium-browser package only installs the snap, which needs
  # snapd (containers and CI have none): there, and with
  # HEARTH_CHROMIUM=npm, scripts/chromium.sh fetches a headless Chromium
  # from the npm registry instead, which needs libnss3.
  # fonts-noto-color-emoji: the console's screenshots show conversations' emoji.
  if [ "$ubuntu" = 1 ] || [ "${HEARTH_CHROMIUM:-}" = npm ]; then
    PACKAGES+=(libnss3 fonts-noto-color-emoji)
  else
    PACKAGES+=(chromium fonts-noto-color-emoji)
  fi
  # node and npm: an end-to-end test drives the MCP server with the official
  # TypeScript MCP client. Skipped when a Node.js is already installed. Where
  # the distribution's is older than the tools need (Debian 12 and Ubuntu
  # 24.04 ship 18), make test runs them on one scripts/node.sh fetches.
  command -v node >/dev/null 2>&1 || PACKAGES+=(nodejs)
fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "Hearth needs these packages (or your system's equivalents): ${missing[*]}" >&2
  echo "On macOS: xcode-select --install provides sqlite3.h; Node.js and curl come from Homebrew." >&2
  exit 0
fi
# universe_enabled says whether an apt source lists Ubuntu's universe
# component (one-line .list files and deb822 .sources files alike).
universe_enabled() {
  grep -Eqs '^[^#]*[[:space:]]universe([[:space:]]|$)' /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources
}
enable_universe=
if [ "$ubuntu" = 1 ] && ! universe_enabled; then
  enable_universe="add-apt-repository -y universe"
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "Hearth needs: ${missing[*]}. Install them with:" >&2
  if [ -n "$enable_universe" ]; then
    echo "  (Ubuntu keeps several in its universe component, which this system does not enable; add-apt-repository is in software-properties-common)" >&2
    echo "  sudo $enable_universe && sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  else
    echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  fi
  exit 1
fi
if [ -n "$enable_universe" ]; then
  command -v add-apt-repository >/dev/null 2>&1 || {
    echo "Hearth needs packages from Ubuntu's universe component, which this system does not enable: add universe to the" >&2
    echo "Components: line of /etc/apt/sources.list.d/ubuntu.sources (or install software-properties-common and run" >&2
    echo "add-apt-repository universe), then run this again. The packages: ${missing[*]}" >&2
    exit 1
  }
  echo "enabling Ubuntu's universe component, where several of these packages are" >&2
  add-apt-repository -y universe >/dev/null || { echo "add-apt-repository could not enable universe (its error is above)" >&2; exit 1; }
fi
echo "installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
