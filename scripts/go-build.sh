#!/usr/bin/env bash
# go build with its arguments, saying how far it is: the first build
# compiles a few hundred packages, SQLite and sqlite-vec among them in C
# (cgo), which takes several minutes on a 2-core machine (over ten on a
# loaded one); later builds reuse Go's build cache and take seconds.
set -euo pipefail
start=$(date +%s)
# -v names each package as its compilation starts; the rest (errors) is
# passed through unchanged.
go build -v "$@" 2>&1 | awk -v start="$start" '
  /^[A-Za-z0-9._~\/-]+$/ {
    n++; e = systime() - start
    if ($0 ~ /go-sqlite3$|sqlite-vec/) printf "go build: compiling %s (C, the longest step) after %dm%02ds\n", $0, e / 60, e % 60
    else if (n % 50 == 0) printf "go build: %d packages compiled (%dm%02ds)\n", n, e / 60, e % 60
    fflush(); next }
  { print; fflush() }
  END { e = systime() - start; if (n > 0) printf "go build: %d packages compiled in %dm%02ds\n", n, e / 60, e % 60 }' >&2
