# Sourced by the scripts that fetch or build something once (whisper.sh,
# onnxruntime.sh, node.sh): where the result is kept, and under which key.
#
# HEARTH_BUILD_CACHE names a cache folder outside the clone (CI keeps it
# between runs, so a fresh clone reuses what an earlier one built); the
# default is the clone's .cache. Each result lives in a folder named after
# a hash of what makes it (the pinned version and checksum, the build's
# flags, the machine), so a changed pin builds anew beside the old one and
# never reuses a stale result. A result kept outside the clone is linked
# into the clone's .cache too, where the tests look for it.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_CACHE=${HEARTH_BUILD_CACHE:-$ROOT/.cache}

# cache_dir KIND NAME INPUT... prints BUILD_CACHE/KIND/NAME-<hash of INPUTs>.
cache_dir() {
  local kind=$1 name=$2
  shift 2
  printf '%s/%s/%s-%s\n' "$BUILD_CACHE" "$kind" "$name" "$(printf '%s\n' "$@" | sha256sum | cut -c1-12)"
}

# cache_link KIND DIR links DIR into the clone's .cache/KIND when the build
# cache is elsewhere.
cache_link() {
  local kind=$1 dir=$2
  [ "$(cd "$BUILD_CACHE" 2>/dev/null && pwd -P)" = "$(cd "$ROOT/.cache" 2>/dev/null && pwd -P)" ] && return 0
  mkdir -p "$ROOT/.cache/$kind"
  ln -sfn "$dir" "$ROOT/.cache/$kind/$(basename "$dir")"
}
