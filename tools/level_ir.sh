#!/usr/bin/env bash
# Instructions per byte of a level parse, .lvl beside the same level as a Tiled map (.tmj,
# its tile layer as a JSON array and in base64), at 64x64 and 1024x1024: callgrind counts
# each of bench_level --callgrind's parse functions alone (--toggle-collect), and each count
# is divided by its text's bytes. The target: a .tmj within 10x the .lvl per byte.
# Usage: tools/level_ir.sh [build dir]   (default build/release)
set -euo pipefail
if [[ "${1:-}" == --help || "${1:-}" == -h ]]; then sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0; fi
cd "$(dirname "$0")/.."
bin=${1:-build/release}/tools/bench/bench_level
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ir() { # side function
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" --toggle-collect="$2" \
    "$bin" --callgrind "$1" >/dev/null 2>&1
  awk '/^totals:/ { print $2 }' "$tmp/cg"
}
for side in 64 1024; do
  bytes=$("$bin" --callgrind "$side")
  lvl=$(ir "$side" cg_lvl) tmj=$(ir "$side" cg_tmj) b64=$(ir "$side" cg_tmj64)
  awk -v s="$side" -v b="$bytes" -v l="$lvl" -v t="$tmj" -v x="$b64" 'BEGIN {
    split(b, f, " "); lb = f[3]; tb = f[5]; xb = f[7]; lv = l / lb
    printf "%4dx%-4d .lvl          %6.1f Ir/byte (%d bytes)\n", s, s, lv, lb
    printf "%4dx%-4d .tmj array    %6.1f Ir/byte (%d bytes), %.1fx the .lvl per byte\n", s, s, t / tb, tb, t / tb / lv
    printf "%4dx%-4d .tmj base64   %6.1f Ir/byte (%d bytes), %.1fx the .lvl per byte\n", s, s, x / xb, xb, x / xb / lv
  }'
done
