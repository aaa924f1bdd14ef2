#!/usr/bin/env bash
# Prints where make build finds libwhisper: "system" when pkg-config knows
# it (a distribution's or Homebrew's whisper-cpp), WHISPER_CPP_DIR when set
# (a prefix with include/ and lib/, e.g. a Windows build), else the cache
# scripts/whisper.sh builds when cmake and npm are there; nothing when
# none is possible (the binary is then built without the whisper route).
# Only with --build does it build the cache; otherwise it reports one
# already built.
if pkg-config --exists whisper 2>/dev/null; then
  echo system
elif [ -n "${WHISPER_CPP_DIR:-}" ]; then
  echo "$WHISPER_CPP_DIR"
elif [ "${1:-}" = --build ]; then
  if command -v cmake >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 && command -v c++ >/dev/null 2>&1; then
    "$(dirname "$0")/whisper.sh" | tail -1 || echo "whisper.cpp did not build; the binary is built without the whisper route" >&2
  else
    echo "whisper.cpp needs cmake, npm and a C++ compiler to build (scripts/deps.sh installs them); the binary is built without the whisper route" >&2
  fi
else
  built=$(ls -d "$(dirname "$0")"/../.cache/whisper/*/.built 2>/dev/null | head -1)
  [ -n "$built" ] && (cd "$(dirname "$built")" && pwd)
fi
exit 0
