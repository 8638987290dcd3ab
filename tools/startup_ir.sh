#!/usr/bin/env bash
# Instructions to the first frame, counted by callgrind: the game (`--frames 1`, 1440x810,
# GL) against bench_startup's minimal program, on the main thread (callgrind runs the
# threads one at a time; the audio thread's count would be how long valgrind took). A run
# under valgrind first fills Mesa's shader cache for valgrind's CPU, so both counts are of a
# warm cache, as the timed rounds are. Needs an X server: run by tools/bench.sh under Xvfb.
# Usage: tools/startup_ir.sh [build dir]   (default build/release)
set -euo pipefail
if [[ "${1:-}" == --help || "${1:-}" == -h ]]; then sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0; fi
cd "$(dirname "$0")/.."
build=${1:-build/release}
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 77; }
[[ -n ${DISPLAY:-} ]] || { echo "no X server (DISPLAY)" >&2; exit 77; }
export SDL_AUDIODRIVER=${SDL_AUDIODRIVER:-dummy}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
game=("$build/game/game" --frames 1 --no-save --scale 3 --renderer gl)
minimal=("$build/tools/bench/bench_startup" --minimal --frames 1 --scale 3 --renderer gl)
valgrind --tool=none "${game[@]}" >/dev/null 2>&1
ir() {
  valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$tmp/$1.%p" "${@:2}" >/dev/null 2>&1
  # The process's own main thread: the largest "-01" file (a shell the driver runs is smaller).
  for f in "$tmp/$1".*-01; do awk '/^summary:/ { print $2 }' "$f"; done | sort -n | tail -n1
}
g=$(ir game "${game[@]}")
m=$(ir minimal "${minimal[@]}")
awk -v g="$g" -v m="$m" 'BEGIN {
  printf "instructions to the first frame, main thread (callgrind, warm shader cache):\n"
  printf "  the game %.0f M, the minimal program %.0f M: %.2fx\n", g / 1e6, m / 1e6, g / m
  printf "summary-ir: startup | %.0f M / %.0f M Ir (%.2fx)\n", g / 1e6, m / 1e6, g / m }'
