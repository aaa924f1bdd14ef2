#!/usr/bin/env bash
# The fresh-machine test, run before every release: a new Debian 12
# (bookworm) root with only Go, gcc, git and make, a clean clone of this
# checkout's HEAD, and the README's commands run in it literally, as root:
# `make run` until GET /healthz answers, then `make test`.
#
#   scripts/fresh-machine.sh           the whole test (about an hour on 2 cores)
#   scripts/fresh-machine.sh --quick   only make run: system packages, build, serve, health
#   scripts/fresh-machine.sh --suite trixie   a Debian 13 root instead (any suite
#                                      deb.debian.org serves; default bookworm)
#   scripts/fresh-machine.sh --suite noble    an Ubuntu 24.04 root (main and universe, as
#                                      Ubuntu installs it; also jammy)
#   scripts/fresh-machine.sh --keep    leave the root in place afterwards (to look around)
#
# Needs root (debootstrap, mount, chroot), the Debian mirror (DEBIAN_MIRROR,
# default deb.debian.org) or Ubuntu's (UBUNTU_MIRROR, default
# archive.ubuntu.com) and, in the root, whatever the README's commands
# fetch (the npm registry). debootstrap is installed with apt-get when
# missing. The root lives in FRESH_MACHINE_DIR (default
# /tmp/hearth-fresh-machine); the packages debootstrap downloads are kept in
# HEARTH_BUILD_CACHE (default .cache) so that the next run downloads them no
# more. Each step prints its wall time; the logs stay in FRESH_MACHINE_DIR.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
quick=0 keep=0 suite=bookworm
usage() { echo "usage: scripts/fresh-machine.sh [--quick] [--suite bookworm|trixie|noble] [--keep]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --keep) keep=1 ;;
    --suite) [ $# -ge 2 ] || usage; suite=$2; shift ;;
    --suite=*) suite=${1#--suite=} ;;
    *) usage ;;
  esac
  shift
done
case $suite in *[!a-z]* | "") usage ;; esac
DIR=${FRESH_MACHINE_DIR:-/tmp/hearth-fresh-machine}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
distro=debian
case $suite in jammy | noble) distro=ubuntu MIRROR=${UBUNTU_MIRROR:-http://archive.ubuntu.com/ubuntu} ;; esac
CACHE=${HEARTH_BUILD_CACHE:-$ROOT/.cache}/fresh-machine
rootfs=$DIR/root
say() { echo "fresh-machine: $*" >&2; }
fail() { say "$*"; exit 1; }

[ "$(id -u)" -eq 0 ] || fail "needs root: debootstrap, mount and chroot (run it with sudo)"
if ! command -v debootstrap >/dev/null 2>&1; then
  command -v apt-get >/dev/null 2>&1 || fail "needs debootstrap, and this machine has no apt-get to install it"
  say "installing debootstrap"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null || fail "apt-get could not install debootstrap"
fi
GOROOT_HOST=$(go env GOROOT 2>/dev/null) || fail "needs Go on this machine (it is copied into the new root as /usr/local/go)"

started=$(date +%s)
step_start=$started
step() { # ends the step running, names the next
  local now
  now=$(date +%s)
  [ -n "${step_name:-}" ] && say "$step_name took $((now - step_start)) s"
  step_name=$1 step_start=$now
  [ -n "$step_name" ] && say "$step_name…"
  return 0
}

mounts=()
serve_pid=
cleanup() {
  [ -n "$serve_pid" ] && kill -INT -- "-$serve_pid" 2>/dev/null && sleep 2 && kill -KILL -- "-$serve_pid" 2>/dev/null
  # Processes the tests left in the root (none should) would hold mounts.
  for pid in $(ls /proc | grep -E '^[0-9]+$'); do
    [ "$(readlink "/proc/$pid/root" 2>/dev/null)" = "$rootfs" ] && kill -KILL "$pid" 2>/dev/null
  done
  local i
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[i]}" 2>/dev/null || true; done
  if [ "$keep" = 0 ]; then rm -rf "$rootfs"; else say "the root stays in $rootfs"; fi
  return 0
}
trap cleanup EXIT

if [ -e "$rootfs" ]; then
  grep -q " $rootfs/" /proc/mounts && fail "$rootfs still has mounts from an earlier run; unmount them first"
  rm -rf "$rootfs"
fi
mkdir -p "$DIR" "$CACHE"

# What the README assumes: Debian 12 (or 13) with Go, gcc, git and make.
# minbase is the smallest Debian (what a container image has), so every
# other package the commands need must come from scripts/deps.sh.
step "debootstrap $suite into $rootfs"
arch=$(dpkg --print-architecture)
tarball=$CACHE/$suite-$arch-minbase.tgz
include=gcc,libc6-dev,git,make,ca-certificates
# debootstrap_args: what an Ubuntu root needs besides Debian's defaults.
debootstrap_args=() script=()
if [ "$distro" = ubuntu ]; then
  # Ubuntu installs main and universe; a Debian host has no Ubuntu keyring,
  # so the archive's key comes from Ubuntu's own package, pinned by its
  # checksum (Release files are then checked against it as usual).
  keyring_deb=$CACHE/ubuntu-keyring_2023.11.28.1_all.deb
  keyring_sha=36de43b15853ccae0028e9a767613770c704833f82586f28eb262f0311adb8a8
  if [ ! -f "$keyring_deb" ]; then
    curl -fsS -o "$keyring_deb.part" "$MIRROR/pool/main/u/ubuntu-keyring/ubuntu-keyring_2023.11.28.1_all.deb" ||
      fail "could not download Ubuntu's keyring package from $MIRROR"
    mv "$keyring_deb.part" "$keyring_deb"
  fi
  echo "$keyring_sha  $keyring_deb" | sha256sum -c --quiet - || { rm -f "$keyring_deb"; fail "Ubuntu's keyring package does not have the pinned checksum"; }
  rm -rf "$DIR/keyring" && dpkg-deb -x "$keyring_deb" "$DIR/keyring"
  debootstrap_args=(--components=main,universe --keyring="$DIR/keyring/usr/share/keyrings/ubuntu-archive-keyring.gpg")
  # Debian's debootstrap may predate the suite; every Ubuntu suite since
  # 7.10 bootstraps with the same script.
  [ -e "/usr/share/debootstrap/scripts/$suite" ] || script=(/usr/share/debootstrap/scripts/gutsy)
fi
if [ ! -f "$tarball" ]; then
  debootstrap --variant=minbase --include=$include "${debootstrap_args[@]}" --make-tarball="$tarball.part" "$suite" "$DIR/tarball-work" "$MIRROR" "${script[@]}" \
    >"$DIR/debootstrap.log" 2>&1 || { tail -20 "$DIR/debootstrap.log" >&2; rm -rf "$DIR/tarball-work"; fail "debootstrap could not download $suite from $MIRROR"; }
  rm -rf "$DIR/tarball-work"
  mv "$tarball.part" "$tarball"
fi
debootstrap --variant=minbase --include=$include "${debootstrap_args[@]}" --unpack-tarball="$tarball" "$suite" "$rootfs" "$MIRROR" "${script[@]}" \
  >"$DIR/debootstrap.log" 2>&1 || { tail -20 "$DIR/debootstrap.log" >&2; fail "debootstrap failed (its log: $DIR/debootstrap.log)"; }

step "mounting /proc, /sys and /dev, and trying chroot"
for m in proc sys dev dev/pts; do
  case $m in
    proc) mount -t proc proc "$rootfs/proc" ;;
    sys) mount -t sysfs sys "$rootfs/sys" ;;
    dev) mount --bind /dev "$rootfs/dev" ;;
    dev/pts) mount -t devpts devpts "$rootfs/dev/pts" -o newinstance,ptmxmode=0666 ;;
  esac 2>"$DIR/mount.err" || fail "mounting /$m in the root is forbidden here ($(cat "$DIR/mount.err")); this test needs a machine or VM where root may mount and chroot"
  mounts+=("$rootfs/$m")
done
mount -t tmpfs tmpfs "$rootfs/tmp" && mounts+=("$rootfs/tmp")
chroot "$rootfs" /bin/true 2>"$DIR/mount.err" || fail "chroot is forbidden here ($(cat "$DIR/mount.err"))"
cp /etc/resolv.conf "$rootfs/etc/resolv.conf"
# Every installed system and container image names localhost in /etc/hosts;
# a minbase root has no such file (mcp-remote's OAuth callback, for one,
# is on http://localhost:PORT).
if [ ! -s "$rootfs/etc/hosts" ]; then
  printf '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n' >"$rootfs/etc/hosts"
fi
# An installed Ubuntu also takes updates and security fixes.
if [ "$distro" = ubuntu ]; then
  echo "deb $MIRROR $suite main universe
deb $MIRROR $suite-updates main universe
deb $MIRROR $suite-security main universe" >"$rootfs/etc/apt/sources.list"
fi
# Behind a proxy that intercepts TLS with its own CA (some offices, some
# sandboxes), the host trusts that CA locally: the root does too, and Node
# (npm) is pointed at the system's store as the host's is.
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
  cp /usr/local/share/ca-certificates/*.crt "$rootfs/usr/local/share/ca-certificates/"
  chroot "$rootfs" update-ca-certificates >/dev/null 2>&1 || fail "update-ca-certificates failed in the root"
fi

step "copying Go ($GOROOT_HOST) and a clean clone of HEAD"
head=$(git -C "$ROOT" rev-parse HEAD)
cp -a "$GOROOT_HOST" "$rootfs/usr/local/go"
git clone -q --no-checkout "$ROOT" "$rootfs/root/hearth"
git -C "$rootfs/root/hearth" fetch -q "$ROOT" "$head"
git -C "$rootfs/root/hearth" checkout -q --detach "$head"
say "clone at $(git -C "$rootfs/root/hearth" log --oneline -1)"

# Inside: a login shell's environment and nothing of this one's.
inside() {
  chroot "$rootfs" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 ${NODE_EXTRA_CA_CERTS:+NODE_EXTRA_CA_CERTS=$NODE_EXTRA_CA_CERTS} \
    PATH=/usr/local/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    /bin/bash -c "cd /root/hearth && $1"
}
export -f inside
export rootfs

# The root shares this machine's network: make run's port must be free, or
# the health check would ask someone else's server.
port=8080
if (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null; then
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null || echo 18080)
  say "port 8080 is taken on this machine: make run ADDR=0.0.0.0:$port instead"
fi
run_cmd="make run"
[ "$port" != 8080 ] && run_cmd="make run ADDR=0.0.0.0:$port"

step "$run_cmd until GET /healthz answers (system packages, whisper.cpp, go build: many minutes on 2 cores)"
setsid bash -c 'inside "$0"' "$run_cmd" >"$DIR/run.log" 2>&1 &
serve_pid=$!
run_start=$(date +%s)
while :; do
  if curl -fsS -o /dev/null --max-time 5 "http://127.0.0.1:$port/healthz" 2>/dev/null; then break; fi
  if ! kill -0 "$serve_pid" 2>/dev/null; then
    tail -40 "$DIR/run.log" >&2
    fail "$run_cmd ended before /healthz answered (the end of its log is above; all of it: $DIR/run.log)"
  fi
  if [ $(($(date +%s) - run_start)) -gt 5400 ]; then
    tail -20 "$DIR/run.log" >&2
    fail "/healthz did not answer within 90 minutes"
  fi
  sleep 5
done
say "healthy $(($(date +%s) - run_start)) s after $run_cmd started; what make run printed:"
grep -E '^(installing|whisper\.sh: (building|libwhisper built|built)|built with|go build: [0-9]+ packages compiled in|Hearth|  create)' "$DIR/run.log" >&2 || true
kill -INT -- "-$serve_pid" 2>/dev/null || true
wait "$serve_pid" 2>/dev/null || true
serve_pid=

if [ "$quick" = 0 ]; then
  step "make test"
  if ! inside "make test" >"$DIR/test.log" 2>&1; then
    grep -E -- '^(--- FAIL|FAIL|ok|panic)' "$DIR/test.log" | tail -40 >&2
    fail "make test failed (the summary is above; all of it: $DIR/test.log)"
  fi
  grep -E '^(ok|---)' "$DIR/test.log" | tail -60 >&2
fi
step ""
say "passed in $(($(date +%s) - started)) s (logs in $DIR)"
