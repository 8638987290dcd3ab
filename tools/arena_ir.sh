#!/usr/bin/env bash
# Instructions per arena push and per scratch scope, counted by callgrind in bench_arena's
# --callgrind loops (compiled apart from arena.c, like any caller): each loop's count minus
# an empty loop's, divided by the iterations.
# Usage: tools/arena_ir.sh [build dir]   (default build/release)
set -euo pipefail
if [[ "${1:-}" == --help || "${1:-}" == -h ]]; then sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0; fi
cd "$(dirname "$0")/.."
bin=${1:-build/release}/tools/bench/bench_arena
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ir() {
  valgrind --tool=callgrind --callgrind-out-file="$tmp/$1" --toggle-collect="$1" \
    "$bin" --callgrind >/dev/null 2>&1
  awk '/^totals:/ { print $2 }' "$tmp/$1"
}
loops=$("$bin" --callgrind | awk '/^loops/ { print $2 }')
empty=$(ir cg_empty)
while read -r fn what; do
  awk -v n="$(ir "$fn")" -v e="$empty" -v l="$loops" -v w="$what" \
    'BEGIN { printf "%-48s %6.1f instructions\n", w, (n - e) / l }'
done <<'LIST'
cg_push_raw st_arena_push_raw (32 bytes, align 8)
cg_push_zero st_arena_push on reused memory (32 bytes zeroed)
cg_frame frame loop: 100 pushes + st_arena_clear, per push
cg_scratch st_scratch_begin + st_arena_push_raw + st_scratch_end
LIST
