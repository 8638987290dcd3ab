#!/usr/bin/env bash
# Builds the release preset and runs every benchmark in tools/bench/ (or the ones named:
# tools/bench.sh bench_arena). Benchmarks compare against the alternative in the same run
# and print ratios; absolute figures on a shared machine are noise, ratios are the result.
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/deps.sh
deps_install
cmake --preset release >/dev/null
cmake --build --preset release -j2 >/dev/null
names=("$@")
if ((${#names[@]} == 0)); then
  for src in tools/bench/bench_*.c; do names+=("$(basename "$src" .c)"); done
fi
for name in "${names[@]}"; do
  echo "== $name"
  bin=$(find build/release/tools/bench -maxdepth 1 -name "$name" -type f -perm -u+x | head -n1)
  [[ -n $bin ]] || { echo "no benchmark named $name" >&2; exit 1; }
  # The render benchmark wants a video driver; without a display it uses SDL's dummy one.
  if [[ -z ${DISPLAY:-} ]]; then SDL_VIDEODRIVER=${SDL_VIDEODRIVER:-dummy} "$bin"; else "$bin"; fi
  echo
done
