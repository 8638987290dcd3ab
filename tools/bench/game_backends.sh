#!/usr/bin/env bash
# game_backends.sh [BUILD_DIR] - the real game in a window under Xvfb, once per render
# backend: process CPU per frame (user + system, every thread: Mesa's llvmpipe rasterises on
# several) and peak RSS. The bot plays level 1 for 900 frames with --fixed-clock (no vsync,
# one tick per frame), so both runs do the same work; ROUNDS (5) rounds in rotating order
# (round r starts with the other backend each time), gl / sdl as the median of the rounds'
# ratios with its min-max. Run by tools/bench.sh (tools/bench.sh game_backends).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/release}
rounds=${ROUNDS:-5}
[[ -x /usr/bin/time ]] || { echo "game_backends: installing GNU time" >&2; apt-get install -y -qq time >/dev/null; }
tmp=$(mktemp -d)
. tests/xvfb_lib.sh
XPID=
trap 'kill ${XPID:-} 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
xvfb_start 1600x1000 "$tmp"
export SDL_VIDEODRIVER=x11 SDL_AUDIODRIVER=dummy AD_ASSET_DIR=$PWD/assets
frames=900
backends=(gl sdl)
declare -A cpu rss this
ratios=
for ((round = 0; round < rounds; round++)); do
  for ((j = 0; j < 2; j++)); do
    r=${backends[$(((round + j) % 2))]}
    /usr/bin/time -f "%U %S %M" -o "$tmp/t" "$build/game/game" --renderer "$r" --fixed-clock --no-save \
      --seed 1 --level levels/01-first-steps.lvl --autoplay 1 --frames $frames >/dev/null 2>&1
    read -r u s m <"$tmp/t"
    this[$r]=$(awk -v u="$u" -v s="$s" -v f=$frames 'BEGIN { printf "%.3f", (u + s) * 1000 / f }')
    cpu[$r]+="${this[$r]} "
    rss[$r]+="$m "
  done
  ratios+="$(awk -v g="${this[gl]}" -v s="${this[sdl]}" 'BEGIN { printf "%.4f", g / s }') "
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)], v[1], v[NR] }'; }
echo "the game in a 1440x810 window (scale 3) under Xvfb, $frames frames, $rounds rounds in rotating order, medians:"
printf "  %-4s %14s %14s\n" "" "CPU ms/frame" "peak RSS MiB"
for r in gl sdl; do
  read -r c _ <<<"$(echo "${cpu[$r]}" | median)"; read -r m _ <<<"$(echo "${rss[$r]}" | median)"
  printf "  %-4s %14.2f %14.1f\n" "$r" "$c" "$(awk -v m="$m" 'BEGIN { print m / 1024 }')"
done
read -r q lo hi <<<"$(echo "$ratios" | median)"
read -r g _ <<<"$(echo "${cpu[gl]}" | median)"; read -r s _ <<<"$(echo "${cpu[sdl]}" | median)"
printf "  gl / sdl CPU per frame: %.2fx (%.2f-%.2f)\n" "$q" "$lo" "$hi"
printf "summary: game_backends | the game, a frame: --renderer gl / sdl | %.2f ms/frame | sdl %.2f ms | %.2fx (%.2f-%.2f)\n" \
  "$g" "$s" "$q" "$lo" "$hi"
