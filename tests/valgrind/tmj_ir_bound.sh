#!/bin/sh
# tmj_ir_bound.sh BENCH_LEVEL MAX_RATIO MAX_ARRAY MAX_BASE64 - bench_level's 1024x1024 level
# as a Tiled map (.tmj) costs at most MAX_RATIO times the instructions per byte of the same
# level's .lvl parse, with its tile layer as a JSON array and in base64, and at most
# MAX_ARRAY and MAX_BASE64 instructions per byte: callgrind counts bench_level --callgrind's
# cg_lvl, cg_tmj and cg_tmj64 in one run (--toggle-collect, each function's inclusive count),
# the figures of README "## Figures" (Tiled maps) that the timings cannot guard, since
# instruction counts do not depend on the machine's load. Skips (77) without valgrind.
bin=$1 max_ratio=$2 max_array=$3 max_b64=$4
command -v valgrind >/dev/null 2>&1 || { echo "valgrind is not installed: skipped"; exit 77; }
command -v callgrind_annotate >/dev/null 2>&1 || { echo "callgrind_annotate is not installed: skipped"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" --toggle-collect=cg_lvl --toggle-collect=cg_tmj \
  --toggle-collect=cg_tmj64 "$bin" --callgrind 1024 >"$tmp/out" 2>"$tmp/err" ||
  { cat "$tmp/out" "$tmp/err"; echo "bench_level --callgrind failed under callgrind"; exit 1; }
callgrind_annotate --inclusive=yes --threshold=100 "$tmp/cg" >"$tmp/ann" 2>&1 || { cat "$tmp/ann"; exit 1; }
awk -v maxr="$max_ratio" -v maxa="$max_array" -v maxb="$max_b64" '
  FNR == NR { for (i = 1; i < NF; i++) if ($i ~ /^cg_/) bytes[$i] = $(i + 1); next }
  { for (f in bytes) if ($0 ~ (":" f " ")) if (!(f in ir)) { v = $1; gsub(",", "", v); ir[f] = v } }
  END {
    for (f in bytes) if (!(f in ir) || !bytes[f]) { print "no count for " f; exit 1 }
    l = ir["cg_lvl"] / bytes["cg_lvl"]; a = ir["cg_tmj"] / bytes["cg_tmj"]; b = ir["cg_tmj64"] / bytes["cg_tmj64"]
    printf "1024x1024 .lvl         %6.2f instructions per byte (%d bytes)\n", l, bytes["cg_lvl"]
    printf "1024x1024 .tmj array   %6.2f per byte, %.2fx the .lvl (at most %s per byte, %sx)\n", a, a / l, maxa, maxr
    printf "1024x1024 .tmj base64  %6.2f per byte, %.2fx the .lvl (at most %s per byte, %sx)\n", b, b / l, maxb, maxr
    bad = a / l > maxr || b / l > maxr || a > maxa || b > maxb
    if (bad) { print "FAIL: over the bound (README \"## Figures\", Tiled maps)"; exit 1 }
  }' "$tmp/out" "$tmp/ann"
