#!/usr/bin/env bash
# go build with its arguments, saying how far it is: the first build
# compiles a few hundred packages, SQLite and sqlite-vec among them in C
# (cgo), which takes several minutes on a 2-core machine (over ten on a
# loaded one); later builds reuse Go's build cache and take seconds.
set -euo pipefail
# -v names each package as its compilation starts; the rest (errors) is
# passed through unchanged.
n=0
SECONDS=0
elapsed() { printf '%dm%02ds' $((SECONDS / 60)) $((SECONDS % 60)); }
status=1
while IFS= read -r line; do
  if [[ $line == "go-build-status "* ]]; then
    status=${line#go-build-status }
  elif [[ $line =~ ^[A-Za-z0-9._~/-]+$ ]]; then
    n=$((n + 1))
    if [[ $line == *go-sqlite3 || $line == *sqlite-vec* ]]; then
      echo "go build: compiling $line (C, the longest step) after $(elapsed)" >&2
    elif ((n % 50 == 0)); then
      echo "go build: $n packages compiled ($(elapsed))" >&2
    fi
  else
    printf '%s\n' "$line" >&2
  fi
done < <(go build -v "$@" 2>&1; echo "go-build-status $?")
((n > 0 && status == 0)) && echo "go build: $n packages compiled in $(elapsed)" >&2
exit "$status"
