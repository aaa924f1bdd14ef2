#!/usr/bin/env bash
# Prints, on one line, which optional features the binary make build is
# about to link lacks, and why, from the build tags the Makefile chose
# (GOFLAGS) and the system packages present. A binary without one refuses
# that feature with a message when asked for it.
tags=",${GOFLAGS#-tags=},"
missing=()
has() { [[ $tags == *",$1,"* ]]; }
if ! has whisper; then
  why=()
  for tool in cmake npm c++; do command -v $tool >/dev/null 2>&1 || why+=("no $tool"); done
  [ ${#why[@]} -eq 0 ] && why=("not built")
  missing+=("whisper ($(IFS=,; echo "${why[*]}" | sed 's/,/, /g'))")
fi
has pocketsphinx || missing+=("PocketSphinx (no libpocketsphinx-dev)")
has lc3 || missing+=("LC3 (no liblc3-dev)")
has libavcodec || missing+=("AAC (no libavcodec-dev)")
has libavformat || missing+=("MP3/M4A/WebM uploads (no libavformat-dev)")
has libopus || missing+=("the Opus encoder of listen (no libopus-dev)")
if [ ${#missing[@]} -eq 0 ]; then
  echo "built with every optional feature: whisper, PocketSphinx, LC3, AAC, container uploads, Opus encoder"
else
  out=$(printf '%s; ' "${missing[@]}")
  echo "built without: ${out%; } (scripts/deps.sh installs what is missing)"
fi
