#!/usr/bin/env bash
# Instructions per arena push and per scratch scope, counted by callgrind in bench_arena's
# --callgrind loops (tools/bench/arena_user.c: a user's code, compiled at -O2 apart from
# arena.c, no LTO), for the engine's arena and, in the same program and run, a naive inline
# bump, a RAD-Debugger-style arena, glibc malloc and mimalloc. Two figures each: "loop", the
# operation repeated in a loop (its count minus an empty loop's, per iteration), and "call",
# the operation alone in a function of its own called in a loop (minus an empty function's),
# where nothing it loads stays in a register from one to the next; then the ratio of each to
# the naive contestant's.
# Usage: tools/arena_ir.sh [--check] [build dir]   (default build/release)
#   --check: exit 1 unless a push costs at most the naive bump + 2, in the loop and as a
#            call, and a scope at most 17 in the loop and 2x the naive save/restore as a call
#            (what the inline code reaches at -O2 with every guarantee kept, so that a slower
#            one fails); exit 77 without valgrind
set -euo pipefail
if [[ "${1:-}" == --help || "${1:-}" == -h ]]; then sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0; fi
check=0
if [[ "${1:-}" == --check ]]; then check=1; shift; fi
cd "$(dirname "$0")/.."
bin=${1:-build/release}/tools/bench/bench_arena
command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null || # deps: valgrind
  { echo "valgrind (callgrind) is not installed" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# One run counts every loop: each is a function of its own, and callgrind_annotate gives
# each one's inclusive count.
valgrind --tool=callgrind --callgrind-out-file="$tmp/out" "$bin" --callgrind >"$tmp/log" 2>"$tmp/err" ||
  { cat "$tmp/err" >&2; exit 1; }
callgrind_annotate --inclusive=yes --threshold=100 "$tmp/out" |
  awk '$NF ~ /^\[/ { n = $1; gsub(",", "", n); f = $(NF - 1); sub(/.*:/, "", f); if (f ~ /^cg_/) print f, n }' >"$tmp/ir"
awk -v logf="$tmp/log" -v check="$check" '
  BEGIN {
    while ((getline l < logf) > 0) { split(l, w, " "); if (w[1] == "loops") loops = w[2]; if (w[1] == "clears") clears = w[2] }
  }
  { ir[$1] = $2 }
  function r1(x) { return int(x * 10 + 0.5) / 10 }
  function per(f, base) { if (!(f in ir)) return -1; return (ir[f] - ir[base]) / loops }
  function row(what, loopf, callf, nl, nc,   l, c) {
    l = per(loopf, "cg_empty"); c = callf == "" ? -1 : per(callf, "cg_op_empty")
    if (l < 0) return
    if (c < 0) printf "  %-50s %6.1f %6s  %6.2fx %7s\n", what, l, "", l / nl, ""
    else printf "  %-50s %6.1f %6.1f  %6.2fx %6.2fx\n", what, l, c, l / nl, c / nc
  }
  END {
    np = per("cg_naive_push", "cg_empty"); npc = per("cg_op_naive_push", "cg_op_empty")
    ns = per("cg_naive_scope", "cg_empty"); nsc = per("cg_op_naive_scope", "cg_op_empty")
    printf "instructions per push (32 bytes, align 8)           %6s %6s  %7s %7s\n", "loop", "call", "/naive", "/naive"
    row("naive inline bump (base, pos, cap)", "cg_naive_push", "cg_op_naive_push", np, npc)
    row("st_arena_push_raw", "cg_push_raw", "cg_op_push_raw", np, npc)
    row("st_arena_push on reused memory (zeroed)", "cg_push_zero", "", np, npc)
    row("frame loop: 100 pushes + st_arena_clear, per push", "cg_frame", "", np, npc)
    row("RAD-style arena push", "cg_rad_push", "cg_op_rad_push", np, npc)
    row("glibc malloc", "cg_malloc", "", np, npc)
    row("mimalloc mi_malloc", "cg_mimalloc", "", np, npc)
    printf "instructions per scope (begin, one push, a write, end)\n"
    row("naive save, push, write, restore", "cg_naive_scope", "cg_op_naive_scope", ns, nsc)
    row("SCRATCH_SCOPE(tmp, out) + st_arena_push_raw", "cg_scratch_scope", "cg_op_scratch_scope", ns, nsc)
    row("st_scratch_begin + push + st_scratch_end", "cg_scratch", "", ns, nsc)
    row("RAD-style scratch_begin + push + scratch_end", "cg_rad_scope", "cg_op_rad_scope", ns, nsc)
    row("glibc malloc + write + free", "cg_malloc_scope", "", ns, nsc)
    row("mimalloc mi_malloc + write + mi_free", "cg_mimalloc_scope", "", ns, nsc)
    a = ir["cg_clear_1k"] / clears; b = ir["cg_clear_1m"] / clears
    printf "st_arena_clear holding 1,000 allocations: %.0f instructions; holding 1,000,000: %.0f (%.2fx)\n", a, b, b / a
    if (!check) exit 0
    # Compared as printed, to a tenth: the counts carry a few instructions of set-up.
    p = r1(per("cg_push_raw", "cg_empty")); s = r1(per("cg_scratch_scope", "cg_empty")); np = r1(np); bad = 0
    pc = r1(per("cg_op_push_raw", "cg_op_empty")); sc = r1(per("cg_op_scratch_scope", "cg_op_empty"))
    if (p > np + 2) { printf "FAIL: a push costs %.1f instructions, more than the naive bump (%.1f) + 2\n", p, np; bad = 1 }
    nsc = r1(nsc)
    if (s > 17) { printf "FAIL: a scratch scope costs %.1f instructions, more than 17\n", s; bad = 1 }
    npc = r1(npc)
    if (pc > npc + 2) { printf "FAIL: a push as a call costs %.1f instructions, more than the naive bump (%.1f) + 2\n", pc, npc; bad = 1 }
    if (sc > 2 * nsc) { printf "FAIL: a scratch scope as a call costs %.1f instructions, more than 2x the naive %.1f\n", sc, nsc; bad = 1 }
    if (!bad) printf "ok: push %.1f <= naive %.1f + 2, call %.1f <= naive %.1f + 2; scope %.1f <= 17, call %.1f <= 2x the naive %.1f (%.2fx)\n", p, np, pc, npc, s, sc, nsc, sc / nsc
    exit bad
  }' "$tmp/ir"
