#!/usr/bin/env bash
# Instructions per operation, counted by callgrind, of a benchmark's --callgrind mode: the
# program marks each contestant's loop (bench.h's bench_callgrind_begin/end: collection on,
# the loop, collection off, a dump named for it) and prints "callgrind: NAME OPS UNIT
# LABEL"; this runs it once under callgrind with collection off elsewhere, reads every
# dump's total (all threads: SDL_mixer mixes on its audio thread) and prints Ir per UNIT.
# A "callgrind-pair: KEY OURS ALT" line adds ALT / OURS, and a "summary-ir: KEY | ..." line
# that tools/bench.sh puts in its summary table. Instruction counts do not change with the
# machine's load: they are the figures the README quotes and tests/scripts/readme_figures.sh
# checks.
# Usage: tools/bench_ir.sh BENCH [build dir [args...]]   (bench_mixer, bench_containers,
#        bench_trace, bench_render, bench_seek; build dir default build/release)
set -euo pipefail
if [[ "${1:-}" == --help || "${1:-}" == -h || -z "${1:-}" ]]; then sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0; fi
cd "$(dirname "$0")/.."
name=$1
bin=${2:-build/release}/tools/bench/$name
shift $(($# < 2 ? $# : 2))
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 77; }
[[ -x $bin ]] || { echo "bench_ir: no $bin (build the release preset first)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$tmp/cg.%p" "$bin" --callgrind "$@" \
  >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
# Each dump: "desc: Trigger: Client Request: NAME" and "summary: IR" (or "totals: IR").
for f in "$tmp"/cg.*.*; do
  awk '/^desc: Trigger: Client Request:/ { n = $5 } /^(summary|totals):/ { t = $2 }
       END { if (n != "") print n, t }' "$f"
done >"$tmp/dumps"
echo "instructions (callgrind, tools/bench_ir.sh $name):"
awk 'FNR == NR { ir[$1] = $2; next }
  $1 == "callgrind:" {
    n = $2; label = $5; for (i = 6; i <= NF; i++) label = label " " $i
    if (!(n in ir)) { printf "bench_ir: no dump for %s\n", n > "/dev/stderr"; bad = 1; next }
    per[n] = ir[n] / $3
    printf "  %-58s %12.1f Ir per %s\n", label, per[n], $4
  }
  $1 == "callgrind-pair:" && ($3 in per) && ($4 in per) {
    printf "  %-58s %11.2fx\n", $4 " / " $3, per[$4] / per[$3]
    pair[++np] = sprintf("summary-ir: %s | %.1f / %.1f Ir (%.2fx)", $2, per[$3], per[$4], per[$4] / per[$3])
  }
  END { for (i = 1; i <= np; i++) print pair[i]; exit bad }' "$tmp/dumps" "$tmp/out"
