#!/usr/bin/env bash
# Instructions per byte of a level parse, .lvl beside the same level as a Tiled map (.tmj,
# its tile layer as a JSON array and in base64), at 64x64 and 1024x1024: callgrind counts
# each of bench_level --callgrind's parse functions alone (--toggle-collect), and each count
# is divided by its text's bytes. The target: a .tmj within 10x the .lvl per byte. A last
# line a side gives the counts themselves ("SxS counts: lvl IR BYTES tmj IR BYTES tmj64 IR
# BYTES"), for the bounds that tests/valgrind checks on them.
# Usage: tools/level_ir.sh [build dir [side...]]   (default build/release, sides 64 1024)
set -euo pipefail
if [[ "${1:-}" == --help || "${1:-}" == -h ]]; then sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0; fi
cd "$(dirname "$0")/.."
bin=${1:-build/release}/tools/bench/bench_level
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v callgrind_annotate >/dev/null || # deps: valgrind
    { echo "callgrind_annotate is not installed" >&2; exit 77; }
shift $(($# > 0 ? 1 : 0))
sides=("$@")
((${#sides[@]})) || sides=(64 1024)
# One run a side: collection on in the three parse functions alone, each one's inclusive
# count read from callgrind_annotate (the level's generation is not counted).
for side in "${sides[@]}"; do
  bytes=$("$bin" --callgrind "$side")
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" --toggle-collect=cg_lvl --toggle-collect=cg_tmj \
    --toggle-collect=cg_tmj64 "$bin" --callgrind "$side" >/dev/null 2>&1
  callgrind_annotate --inclusive=yes --threshold=100 "$tmp/cg" >"$tmp/ann"
  ir() { awk -v f="$1" '$0 ~ (":" f " ") { v = $1; gsub(",", "", v); print v; exit }' "$tmp/ann"; }
  lvl=$(ir cg_lvl) tmj=$(ir cg_tmj) b64=$(ir cg_tmj64)
  awk -v s="$side" -v b="$bytes" -v l="$lvl" -v t="$tmj" -v x="$b64" 'BEGIN {
    split(b, f, " "); lb = f[3]; tb = f[5]; xb = f[7]; lv = l / lb
    printf "%4dx%-4d .lvl          %6.1f Ir/byte (%d bytes)\n", s, s, lv, lb
    printf "%4dx%-4d .tmj array    %6.1f Ir/byte (%d bytes), %.1fx the .lvl per byte\n", s, s, t / tb, tb, t / tb / lv
    printf "%4dx%-4d .tmj base64   %6.1f Ir/byte (%d bytes), %.1fx the .lvl per byte\n", s, s, x / xb, xb, x / xb / lv
    printf "%4dx%-4d counts: lvl %s %d tmj %s %d tmj64 %s %d\n", s, s, l, lb, t, tb, x, xb
  }'
done
