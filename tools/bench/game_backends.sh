#!/usr/bin/env bash
# game_backends.sh [BUILD_DIR] - the real game in a window under Xvfb, once per render
# backend: process CPU per frame (user + system, every thread: Mesa's llvmpipe rasterises on
# several) and peak RSS. The bot plays level 1 for 900 frames with --fixed-clock (no vsync,
# one tick per frame), so both runs do the same work; 3 interleaved rounds, medians.
# Run by tools/bench.sh (tools/bench.sh game_backends).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/release}
[[ -x /usr/bin/time ]] || { echo "game_backends: installing GNU time" >&2; apt-get install -y -qq time >/dev/null; }
tmp=$(mktemp -d)
. tests/xvfb_lib.sh
XPID=
trap 'kill ${XPID:-} 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
xvfb_start 1600x1000 "$tmp"
export SDL_VIDEODRIVER=x11 SDL_AUDIODRIVER=dummy AD_ASSET_DIR=$PWD/assets
frames=900
declare -A cpu rss
for round in 1 2 3; do
  for r in gl sdl; do
    /usr/bin/time -f "%U %S %M" -o "$tmp/t" "$build/game/game" --renderer "$r" --fixed-clock --no-save \
      --seed 1 --level levels/01-first-steps.lvl --autoplay 1 --frames $frames >/dev/null 2>&1
    read -r u s m <"$tmp/t"
    cpu[$r]+="$(awk -v u="$u" -v s="$s" -v f=$frames 'BEGIN { printf "%.3f", (u + s) * 1000 / f }') "
    rss[$r]+="$m "
  done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "the game in a 1440x810 window (scale 3) under Xvfb, $frames frames, medians of 3:"
printf "  %-4s %14s %14s\n" "" "CPU ms/frame" "peak RSS MiB"
for r in gl sdl; do
  c=$(echo "${cpu[$r]}" | median); m=$(echo "${rss[$r]}" | median)
  printf "  %-4s %14.2f %14.1f\n" "$r" "$c" "$(awk -v m="$m" 'BEGIN { print m / 1024 }')"
done
g=$(echo "${cpu[gl]}" | median); s=$(echo "${cpu[sdl]}" | median)
awk -v g="$g" -v s="$s" 'BEGIN { printf "  gl / sdl CPU per frame: %.2fx\n", g / s }'
