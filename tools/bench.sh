#!/usr/bin/env bash
# Builds the release preset and runs every benchmark in tools/bench/ (or the ones named:
# tools/bench.sh bench_arena). Benchmarks compare against the alternative in the same run
# and print ratios; absolute figures on a shared machine are noise, ratios are the result.
set -euo pipefail
if [[ "${1:-}" == --help || "${1:-}" == -h ]]; then sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0; fi
cd "$(dirname "$0")/.."
source tools/deps.sh
deps_install
cmake --preset release >/dev/null
cmake --build --preset release -j2 >/dev/null
names=("$@")
if ((${#names[@]} == 0)); then
  for src in tools/bench/bench_*.c; do names+=("$(basename "$src" .c)"); done
  names+=(game_backends)
fi
for name in "${names[@]}"; do
  echo "== $name"
  if [[ -f tools/bench/$name.sh ]]; then bash "tools/bench/$name.sh" build/release; echo; continue; fi
  bin=$(find build/release/tools/bench -maxdepth 1 -name "$name" -type f -perm -u+x | head -n1)
  [[ -n $bin ]] || { echo "no benchmark named $name" >&2; exit 1; }
  # The render and start-up benchmarks want a real X server (windows): without a display
  # it gets one from Xvfb (tests/with_xvfb.sh), or, failing that, SDL's dummy driver.
  if [[ -n ${DISPLAY:-} ]]; then "$bin"
  elif [[ $name == bench_render || $name == bench_startup ]] && command -v Xvfb >/dev/null; then sh tests/with_xvfb.sh "$bin"
  else SDL_VIDEODRIVER=${SDL_VIDEODRIVER:-dummy} "$bin"; fi
  # Beside the timed ratios, instructions per operation: deterministic, whatever the load.
  if [[ $name == bench_arena ]] && command -v valgrind >/dev/null; then
    echo "instructions per operation (callgrind, tools/arena_ir.sh):"
    tools/arena_ir.sh build/release
  fi
  if [[ $name == bench_seek ]] && command -v valgrind >/dev/null; then
    echo "instructions (callgrind, tools/seek_ir.sh):"
    tools/seek_ir.sh build/release
  fi
  if [[ $name == bench_startup ]] && command -v valgrind >/dev/null; then
    if [[ -n ${DISPLAY:-} ]]; then tools/startup_ir.sh build/release
    elif command -v Xvfb >/dev/null; then sh tests/with_xvfb.sh tools/startup_ir.sh build/release; fi
  fi
  echo
done
