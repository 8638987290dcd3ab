#!/usr/bin/env bash
# The README's two commands on a new machine: a minimal Debian 12 (debootstrap
# --variant=minbase bookworm) made in build/fresh/root, a clone of the committed tree (HEAD:
# what is not committed is not in it) at /src/strata inside it, and in a chroot there first
# tools/play.sh (no display: it plays the recorded run headless), then tools/test.sh. From
# the host it takes only the apt sources (and the Acquire settings apt reaches them with)
# and the resolver (debootstrap's own copy). Prints the time each command took and the test
# counts, and exits non-zero when either failed. Needs root (mounts, chroot). Run by
# tools/test.sh fresh; legs given here go to the inner tools/test.sh (default: every
# default leg).
#   tools/fresh.sh                 play.sh, then test.sh with every default leg
#   tools/fresh.sh release         play.sh, then test.sh release
# Logs: build/fresh/play.log, build/fresh/test.log (and the inner build/test-logs).
set -euo pipefail
if [[ "${1:-}" == --help || "${1:-}" == -h ]]; then sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0; fi
cd "$(dirname "$0")/.."
((EUID == 0)) || { echo "fresh: needs root (debootstrap, mount, chroot): sudo tools/fresh.sh" >&2; exit 2; }
source tools/deps.sh
deps_install_fresh
dir=$PWD/build/fresh root=$PWD/build/fresh/root

unmount_all() {
  local m
  # Deepest first: /dev's submounts before /dev.
  for m in $(awk -v r="$root/" 'index($2, r) == 1 { print $2 }' /proc/mounts | sort -r); do
    umount -l "$m" 2>/dev/null || true
  done
}
trap unmount_all EXIT
unmount_all
# Never a removal through a mount that is still there (the host's /dev, bound in).
if awk -v r="$root/" 'index($2, r) == 1 { found = 1 } END { exit !found }' /proc/mounts; then
  echo "fresh: $root still has mounts; not removing it" >&2
  exit 1
fi
rm -rf --one-file-system "$dir"
mkdir -p "$dir"

# The Debian mirror the host's apt uses (its first deb.debian.org-like URI), else Debian's.
mirror=$( { sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null
            sed -n 's/^deb  *\(\[[^]]*\]  *\)\{0,1\}\([^ ]*\)  *bookworm .*/\2/p' /etc/apt/sources.list 2>/dev/null; } |
          grep -v security | head -n 1) || true
mirror=${mirror:-http://deb.debian.org/debian}
t0=$SECONDS
echo "fresh: debootstrap --variant=minbase bookworm from $mirror"
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$dir/debootstrap.log" 2>&1 ||
  { tail -n 20 "$dir/debootstrap.log"; echo "fresh: debootstrap failed (build/fresh/debootstrap.log)" >&2; exit 1; }
echo "fresh: the base system in $((SECONDS - t0)) s"
# The host's apt sources, and the settings apt reaches them with (a proxy, a snapshot's
# validity): nothing else of the host's.
rm -f "$root/etc/apt/sources.list"
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
  [[ -f $f ]] && cp "$f" "$root$f"
done
for f in /etc/apt/apt.conf.d/*; do
  [[ -f $f ]] && grep -q '^ *Acquire::' "$f" && grep '^ *Acquire::' "$f" >"$root$f"
done
mount -t proc proc "$root/proc"
mount -t sysfs sysfs "$root/sys"
mount --rbind /dev "$root/dev"
mount -t tmpfs tmpfs "$root/tmp"
git clone -q "$PWD" "$root/src/strata"
echo "fresh: cloned $(git -C "$root/src/strata" log -1 --format='%h %s' | cut -c1-72)"

# in_chroot LOG COMMAND: the command in the new system, with no environment of the host's
# but CI; its output shown and kept in LOG.
in_chroot() {
  local log=$1
  shift
  chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LANG=C.UTF-8 TERM=dumb ${CI:+CI=$CI} /bin/bash -c "cd /src/strata && $*" 2>&1 | tee "$log"
  return "${PIPESTATUS[0]}"
}

rc=0
t0=$SECONDS
in_chroot "$dir/play.log" tools/play.sh || rc=$?
play_secs=$((SECONDS - t0)) play_rc=$rc
verdict=$(grep -m1 '^replay .*played to the end' "$dir/play.log" || true)
t0=$SECONDS
test_rc=0
in_chroot "$dir/test.log" tools/test.sh "$@" || test_rc=$?
test_secs=$((SECONDS - t0))
echo "== fresh: the README's two commands in a new minimal Debian 12"
echo "fresh: tools/play.sh $( ((play_rc == 0)) && echo passed || echo "FAILED (exit $play_rc)") in $play_secs s: ${verdict:-no replay verdict}"
echo "fresh: tools/test.sh $( ((test_rc == 0)) && echo passed || echo "FAILED (exit $test_rc)") in $test_secs s:"
grep -E '^(test: |tests: )' "$dir/test.log" | sed 's/^/  /' || true
((play_rc == 0 && test_rc == 0))
