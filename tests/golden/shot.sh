#!/bin/sh
# shot.sh GAME LEVEL OUT.png - the golden frame of one level: the real game binary, headless
# (SDL's dummy video driver, software renderer, 480x270), the bot playing from the level's
# start with the default seed (1), the frame after 240 ticks (4 s: past the turrets' 90-tick
# grace, so shots, particles and moved enemies are in it). Headless time is frames / 60, so
# every run draws the same pixels. The one place these settings live: the golden tests and
# tools/golden-update.sh both call this script.
set -u
GAME=$1
LEVEL=$2
OUT=$3
SRC=$(cd "$(dirname "$0")/../.." && pwd)
rm -f "$OUT"
SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy AD_ASSET_DIR="$SRC/assets" \
    ${AD_RUN:-} "$GAME" --headless --no-save --seed 1 --level "$LEVEL" --autoplay 1 --frames 240 --screenshot "$OUT" >"$OUT.log" 2>&1
rc=$?
if [ $rc -ne 0 ] || [ ! -s "$OUT" ]; then
    cat "$OUT.log"
    echo "shot: FAIL: the game exited with status $rc and wrote ${OUT}: $([ -s "$OUT" ] && echo yes || echo no)"
    exit 1
fi
exit 0
