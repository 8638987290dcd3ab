#!/bin/sh
# level_ir_bound.sh COUNTS BUILD MAX - the .lvl parse of bench_level's 1024x1024 level (10,000
# enemies, each with an `enemy` line) costs at most MAX instructions per byte of the file,
# counted by callgrind in bench_level --callgrind's cg_lvl alone (--toggle-collect; the
# count tools/level_ir.sh BUILD 1024 made in the fixture ir_counts, folder COUNTS): the
# figure of README "## Figures" (Level loading) that the timings cannot guard, since
# instruction counts do not depend on the machine's load. Skips (77) without valgrind.
counts=$1 build=$2 max=$3
. "$(dirname "$0")/ir_read.sh"
ir_read "$counts" "tools/level_ir.sh $build 1024"
[ "$ir_rc" -eq 0 ] || { cat "$ir_out" "${ir_out%.out}.err"; echo "tools/level_ir.sh failed: exit $ir_rc"; exit 1; }
awk -v max="$max" '/^1024x1024 counts: / { ir = $4; b = $5 }
  END {
    if (!ir || !b) { print "no count: no \"1024x1024 counts:\" line in the output of tools/level_ir.sh"; exit 1 }
    v = ir / b
    printf "the .lvl parse, 1024x1024: %d instructions for %d bytes, %.2f per byte (at most %s)\n", ir, b, v, max
    if (v > max) { print "FAIL: over the bound (README \"## Figures\", Level loading)"; exit 1 }
  }' "$ir_out"
