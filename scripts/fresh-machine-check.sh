#!/usr/bin/env bash
# Proves the Quick start on a fresh Debian 12: builds a minimal root with debootstrap (only `make`
# added), clones the committed tree into it and runs `make demo` then `make test` inside as root,
# each printing its exit code and time. Everything mounted is unmounted and the root removed
# afterwards, whatever happens.
#
# Usage: scripts/fresh-machine-check.sh [--commit COMMIT] [TARGET...]
#   --commit COMMIT  what to clone (default: HEAD); uncommitted changes are never part of the check
#   TARGET...        the make targets to run, in order (default: demo test; the two must work in
#                    either order, so `test demo` is a check too)
# Environment: HITSCAN_DEBIAN_MIRROR (default: the first Debian mirror in this machine's apt
# sources, else http://deb.debian.org/debian), HITSCAN_FRESH_DIR (where the root is made,
# default /var/tmp).
set -euo pipefail

args=("$@")
ref=HEAD
if [ "${1:-}" = "--commit" ]; then
  ref=${2:?--commit needs a commit}
  shift 2
fi
order=("$@")
[ ${#order[@]} -gt 0 ] || order=(demo test)
repo=$(cd "$(dirname "$0")/.." && pwd)
commit=$(git -C "$repo" rev-parse --verify "$ref^{commit}")

if [ "$(id -u)" -ne 0 ]; then
  exec sudo -E "$0" "${args[@]}"
fi

if ! command -v debootstrap >/dev/null 2>&1; then
  echo "fresh-machine-check: installing debootstrap" >&2
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap
fi

mirror=${HITSCAN_DEBIAN_MIRROR:-}
if [ -z "$mirror" ]; then
  mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
    grep -oE 'https?://[^ ]+/debian/?( |$)' | head -n 1 | tr -d ' ' || true)
  mirror=${mirror:-http://deb.debian.org/debian}
fi

root=$(mktemp -d "${HITSCAN_FRESH_DIR:-/var/tmp}/hitscan-fresh.XXXXXX")
mounts=()
cleanup() {
  local i
  for ((i = ${#mounts[@]} - 1; i >= 0; --i)); do
    umount -R "${mounts[i]}" 2>/dev/null || umount -R -l "${mounts[i]}" 2>/dev/null || true
  done
  # Never delete through a mount that is still there (the bound /dev above all).
  if findmnt -rno TARGET | grep -q "^$root/"; then
    echo "fresh-machine-check: $root still has mounts; left in place" >&2
  else
    rm -rf --one-file-system "$root"
  fi
}
trap cleanup EXIT

echo "fresh-machine-check: Debian 12 (bookworm) from $mirror into $root" >&2
start=$(date +%s)
debootstrap --variant=minbase --include=make bookworm "$root" "$mirror" >"$root.debootstrap.log" 2>&1 || {
  tail -n 30 "$root.debootstrap.log" >&2
  rm -f "$root.debootstrap.log"
  echo "fresh-machine-check: debootstrap failed" >&2
  exit 1
}
rm -f "$root.debootstrap.log"
echo "debootstrap: $(($(date +%s) - start)) s"

cp /etc/resolv.conf "$root/etc/resolv.conf"
git clone --quiet --no-checkout "file://$repo" "$root/root/hitscan"
git -C "$root/root/hitscan" checkout --quiet --detach "$commit"
echo "fresh-machine-check: commit $commit"

mount -t proc proc "$root/proc" && mounts+=("$root/proc")
mount -t sysfs sysfs "$root/sys" && mounts+=("$root/sys")
mount --rbind /dev "$root/dev" && mounts+=("$root/dev")
mount --make-rslave "$root/dev"

failed=0
for target in "${order[@]}"; do
  start=$(date +%s)
  status=0
  chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    /bin/sh -c "cd /root/hitscan && make $target" || status=$?
  echo "make $target: exit $status, $(($(date +%s) - start)) s"
  [ "$status" -eq 0 ] || failed=1
done
exit $failed
