#!/usr/bin/env bash
# go build with its arguments, saying how far it is: the first build
# compiles a few hundred packages, SQLite and sqlite-vec among them in C
# (cgo), which takes several minutes on a 2-core machine (over ten on a
# loaded one); later builds reuse Go's build cache and take seconds.
set -euo pipefail
# -v names each package once it is compiled; the rest (errors) is passed
# through unchanged. A minute without a package (SQLite's C is one long
# step) says it is still going.
n=0
SECONDS=0
elapsed() { printf '%dm%02ds' $((SECONDS / 60)) $((SECONDS % 60)); }
status=1
while :; do
  if IFS= read -r -t 60 line; then
    :
  elif (($? > 128)); then
    echo "go build: still compiling after $(elapsed) ($n packages so far)" >&2
    continue
  else
    break
  fi
  if [[ $line == "go-build-status "* ]]; then
    status=${line#go-build-status }
  elif [[ $line =~ ^[A-Za-z0-9._~/-]+$ ]]; then
    n=$((n + 1))
    if [[ $line == *go-sqlite3 || $line == *sqlite-vec* ]]; then
      echo "go build: $line compiled (C, the longest step) after $(elapsed)" >&2
    elif ((n % 50 == 0)); then
      echo "go build: $n packages compiled ($(elapsed))" >&2
    fi
  else
    printf '%s\n' "$line" >&2
  fi
done < <(go build -v "$@" 2>&1; echo "go-build-status $?")
((n > 0 && status == 0)) && echo "go build: $n packages compiled in $(elapsed)" >&2
exit "$status"
