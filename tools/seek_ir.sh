#!/usr/bin/env bash
# Instructions the replay viewer costs on the full committed run, counted by callgrind in
# bench_seek's --callgrind functions: the pass that opens it (the run played through, a
# keyframe a second kept) and a seek to each keyframe's last tick (restore, 59 ticks), per seek.
# Usage: tools/seek_ir.sh [build dir]   (default build/release)
set -euo pipefail
if [[ "${1:-}" == --help || "${1:-}" == -h ]]; then sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0; fi
cd "$(dirname "$0")/.."
bin=${1:-build/release}/tools/bench/bench_seek
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ir() {
  valgrind --tool=callgrind --callgrind-out-file="$tmp/$1" --toggle-collect="$1" \
    "$bin" --callgrind >/dev/null 2>&1
  awk '/^totals:/ { print $2 }' "$tmp/$1"
}
seeks=$("$bin" --callgrind | awk '/^seeks/ { print $2 }')
awk -v n="$(ir cg_pass)" 'BEGIN { printf "%-52s %12.0f instructions\n", "the pass (7,681 ticks, keyframes kept)", n }'
awk -v n="$(ir cg_seeks)" -v s="$seeks" \
  'BEGIN { printf "%-52s %12.0f instructions (mean of %d)\n", "a seek to a keyframe'"'"'s last tick", n / s, s }'
