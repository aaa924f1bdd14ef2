#!/usr/bin/env bash
# Prints where make build finds libwhisper: "system" when pkg-config knows
# it (a distribution's or Homebrew's whisper-cpp), WHISPER_CPP_DIR when set
# (a prefix with include/ and lib/, e.g. a Windows build), else the cache
# scripts/whisper.sh builds when cmake and npm are there (its build cache,
# scripts/cache.sh); nothing when
# none is possible (the binary is then built without the whisper route).
# Only with --build does it build the cache; otherwise it reports one
# already built.
if pkg-config --exists whisper 2>/dev/null; then
  echo system
elif [ -n "${WHISPER_CPP_DIR:-}" ]; then
  echo "$WHISPER_CPP_DIR"
elif [ "${1:-}" = --build ]; then
  if command -v cmake >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 && command -v c++ >/dev/null 2>&1; then
    # whisper.sh's status, not a pipe's: a failed fetch or build must stop
    # make build with its reason, not leave a binary silently without it.
    if ! out=$("$(dirname "$0")/whisper.sh"); then
      echo "whisper.cpp did not build (the reason is above): the build stops here rather than make a binary without the whisper route; fix the cause and run it again" >&2
      exit 1
    fi
    printf '%s\n' "$out" | tail -1
  else
    echo "whisper.cpp needs cmake, npm and a C++ compiler to build (scripts/deps.sh installs them); the binary is built without the whisper route" >&2
  fi
else
  "$(dirname "$0")/whisper.sh" --where 2>/dev/null || true
fi
exit 0
