#!/bin/sh
# level_ir_bound.sh BENCH_LEVEL MAX - the .lvl parse of bench_level's 1024x1024 level (10,000
# enemies, each with an `enemy` line) costs at most MAX instructions per byte of the file,
# counted by callgrind in bench_level --callgrind's cg_lvl alone (--toggle-collect): the
# figure of README "## Figures" (Level loading) that the timings cannot guard, since
# instruction counts do not depend on the machine's load. Skips (77) without valgrind.
bin=$1 max=$2
command -v valgrind >/dev/null 2>&1 || { echo "valgrind is not installed: skipped"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
bytes=$("$bin" --callgrind 1024 lvl | awk '/^bytes/ { print $3 }')
valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" --toggle-collect=cg_lvl "$bin" --callgrind 1024 lvl \
  >"$tmp/out" 2>&1 || { cat "$tmp/out"; echo "bench_level --callgrind failed under callgrind"; exit 1; }
ir=$(awk '/^totals:/ { print $2 }' "$tmp/cg")
[ -n "$bytes" ] && [ -n "$ir" ] || { echo "no count: bytes '$bytes', instructions '$ir'"; exit 1; }
awk -v ir="$ir" -v b="$bytes" -v max="$max" 'BEGIN {
  v = ir / b
  printf "the .lvl parse, 1024x1024: %d instructions for %d bytes, %.2f per byte (at most %s)\n", ir, b, v, max
  if (v > max) { print "FAIL: over the bound (README \"## Figures\", Level loading)"; exit 1 }
}'
