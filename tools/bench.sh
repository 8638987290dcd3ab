#!/usr/bin/env bash
# Builds the release preset and runs every benchmark in tools/bench/ (or the ones named:
# tools/bench.sh bench_arena), each with its instruction counts beside it where callgrind
# can give them (tools/bench_ir.sh, arena_ir.sh, level_ir.sh, startup_ir.sh), then one
# summary table: what, our figure, the alternative measured in the same run, the ratio as
# the median of interleaved rounds' ratios (min-max), and the instruction counts. Every
# bench times CPU (thread or process) in rotating rounds; on a shared machine absolute
# times are noise, the ratios and the instruction counts are the result.
# BENCH_NO_IR=1: no callgrind runs (they take a minute or two in all).
set -euo pipefail
if [[ "${1:-}" == --help || "${1:-}" == -h ]]; then sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0; fi
cd "$(dirname "$0")/.."
source tools/deps.sh
deps_install_bench
cmake --preset release >/dev/null
cmake --build --preset release -j2 >/dev/null
export AD_ASSET_DIR=${AD_ASSET_DIR:-$PWD/assets}
names=("$@")
if ((${#names[@]} == 0)); then
  for src in tools/bench/bench_*.c; do names+=("$(basename "$src" .c)"); done
  names+=(game_backends)
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ir=${BENCH_NO_IR:-0}
command -v valgrind >/dev/null || ir=1
# Runs a command under an X server: the one there is, else Xvfb (tests/with_xvfb.sh), else
# SDL's dummy driver (the window sections then say they were skipped).
windowed() {
  if [[ -n ${DISPLAY:-} ]]; then "$@"
  elif command -v Xvfb >/dev/null; then sh tests/with_xvfb.sh "$@"
  else SDL_VIDEODRIVER=${SDL_VIDEODRIVER:-dummy} "$@"; fi
}
# The summary's lines (summary: / summary-ir:) are kept for the table, not shown here.
show() { tee -a "$tmp/all" | grep -v -E '^(summary|summary-ir|callgrind): ' || true; }
for name in "${names[@]}"; do
  echo "== $name"
  if [[ -f tools/bench/$name.sh ]]; then bash "tools/bench/$name.sh" build/release | show; echo; continue; fi
  bin=build/release/tools/bench/$name
  [[ -x $bin ]] || { echo "no benchmark named $name" >&2; exit 1; }
  case $name in
    bench_render | bench_startup) windowed "$bin" | show ;;
    *) SDL_VIDEODRIVER=${SDL_VIDEODRIVER:-dummy} "$bin" 2> >(grep -v '^CRITICAL' >&2) | show ;;
  esac
  if [[ $ir == 0 ]]; then
    case $name in
      bench_mixer | bench_containers | bench_trace | bench_render | bench_seek)
        SDL_VIDEODRIVER=dummy tools/bench_ir.sh "$name" build/release 2> >(grep -v '^CRITICAL' >&2) | show ;;
      bench_arena) echo "instructions per operation (callgrind, tools/arena_ir.sh):"; tools/arena_ir.sh build/release | show ;;
      bench_level) echo "instructions per byte (callgrind, tools/level_ir.sh):"; tools/level_ir.sh build/release | show ;;
      bench_startup) windowed tools/startup_ir.sh build/release | show ;;
    esac
  fi
  echo
done
[[ -f $tmp/all ]] || exit 0
# The benches other helpers own print no summary lines of their own: their figures, as
# printed, are rows of the table (the arena's and the level's Ir lines).
awk '/ instructions$/ && NF >= 3 { v = $(NF - 1); $NF = ""; $(NF - 1) = ""; sub(/ +$/, "")
       printf "summary-ir: arena:%s | %s Ir\n", $0, v }
     /Ir\/byte/ { line = $0; sub(/^ +/, "", line); printf "summary-raw: %s\n", line }' "$tmp/all" >>"$tmp/all"
echo "== summary (CPU ratios: the median of rotating rounds' ratios, min-max; Ir: callgrind, ours / the alternative's)"
awk -F' [|] ' '
  function trim(s) { sub(/^ +/, "", s); sub(/ +$/, "", s); return s }
  /^summary: / { k = substr($1, 10); if (!(k in what)) order[++n] = k
                 what[k] = $2; ours[k] = $3; alt[k] = $4; ratio[k] = $5 }
  /^summary-ir: / { k = substr($1, 13); irs[k] = $2; if (!(k in what)) { order[++n] = k; what[k] = k } }
  /^summary-raw: / { raw[++nr] = substr($0, 14) }
  END {
    printf "%-54s | %-28s | %-32s | %-20s | %s\n", "what", "ours", "alternative, same run", "ratio (min-max)", "Ir"
    for (i = 1; i <= n; i++) { k = order[i]; w = what[k]; sub(/^arena:/, "", w)
      printf "%-54s | %-28s | %-32s | %-20s | %s\n", w, ours[k], alt[k], ratio[k], irs[k] }
    for (i = 1; i <= nr; i++) printf "%s\n", raw[i]
  }' "$tmp/all"
