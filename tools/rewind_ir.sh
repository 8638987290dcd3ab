#!/usr/bin/env bash
# Instructions per snapshot and per rewound tick of the rewind's history (game/rules/rewind.h),
# on the first shipped level and the largest: callgrind counts bench_rewind --callgrind's
# functions alone (--toggle-collect): the ticks alone (cg_tick), the same ticks with their
# snapshots (cg_snapshot), then the rewind held over them (cg_rewind: a tick back is one
# restore, the keyframe's copy and the delta's XOR).
# Usage: tools/rewind_ir.sh [build dir]   (default build/release)
set -euo pipefail
if [[ "${1:-}" == --help || "${1:-}" == -h ]]; then sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0; fi
cd "$(dirname "$0")/.."
bin=${1:-build/release}/tools/bench/bench_rewind
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ir() { # level function
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" --toggle-collect="$2" \
    "$bin" --callgrind "$1" >/dev/null 2>&1
  awk '/^totals:/ { print $2 }' "$tmp/cg"
}
for level in levels/01-first-steps.lvl levels/07-the-vault.lvl; do
  line=$("$bin" --callgrind "$level" | awk '/^ticks/ { print $2, $4 }')
  tick=$(ir "$level" cg_tick) snap=$(ir "$level" cg_snapshot) back=$(ir "$level" cg_rewind)
  awk -v l="$(basename "$level")" -v n="$line" -v t="$tick" -v s="$snap" -v b="$back" 'BEGIN {
    split(n, f, " "); ticks = f[1]; rewound = f[2]
    printf "%-22s a tick %6.0f Ir, a snapshot %6.0f Ir (%.1fx the tick), a tick back %6.0f Ir (%d restores)\n",
      l, t / ticks, (s - t) / ticks, (s - t) / t, b / rewound, rewound
  }'
done
