#!/bin/sh
# tmj_ir_bound.sh COUNTS BUILD MAX_RATIO MAX_ARRAY MAX_BASE64 - bench_level's 1024x1024 level
# as a Tiled map (.tmj) costs at most MAX_RATIO times the instructions per byte of the same
# level's .lvl parse, with its tile layer as a JSON array and in base64, and at most
# MAX_ARRAY and MAX_BASE64 instructions per byte: callgrind counts bench_level --callgrind's
# cg_lvl, cg_tmj and cg_tmj64 in one run (--toggle-collect, each function's inclusive count;
# tools/level_ir.sh BUILD 1024 in the fixture ir_counts, folder COUNTS), the figures of README
# "## Figures" (Tiled maps) that the timings cannot guard, since instruction counts do not
# depend on the machine's load. Skips (77) without valgrind.
counts=$1 build=$2 max_ratio=$3 max_array=$4 max_b64=$5
. "$(dirname "$0")/ir_read.sh"
ir_read "$counts" "tools/level_ir.sh $build 1024"
[ "$ir_rc" -eq 0 ] || { cat "$ir_out" "${ir_out%.out}.err"; echo "tools/level_ir.sh failed: exit $ir_rc"; exit 1; }
awk -v maxr="$max_ratio" -v maxa="$max_array" -v maxb="$max_b64" '
  /^1024x1024 counts: / { li = $4; lb = $5; ti = $7; tb = $8; xi = $10; xb = $11 }
  END {
    if (!li || !lb || !ti || !tb || !xi || !xb) { print "no counts: no full \"1024x1024 counts:\" line"; exit 1 }
    l = li / lb; a = ti / tb; b = xi / xb
    printf "1024x1024 .lvl         %6.2f instructions per byte (%d bytes)\n", l, lb
    printf "1024x1024 .tmj array   %6.2f per byte, %.2fx the .lvl (at most %s per byte, %sx)\n", a, a / l, maxa, maxr
    printf "1024x1024 .tmj base64  %6.2f per byte, %.2fx the .lvl (at most %s per byte, %sx)\n", b, b / l, maxb, maxr
    bad = a / l > maxr || b / l > maxr || a > maxa || b > maxb
    if (bad) { print "FAIL: over the bound (README \"## Figures\", Tiled maps)"; exit 1 }
  }' "$ir_out"
