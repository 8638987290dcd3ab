#!/bin/sh
# backends_test.sh GAME COMPARE OUT_DIR LEVEL... - the same frame from both render backends.
#
# For each level, the game runs in a real window under Xvfb (Mesa's llvmpipe) at scale 1
# with --fixed-clock, so the run is tick for tick the headless one that made the level's
# golden frame (tests/golden/<level>.png, SDL's software renderer), once with
# --renderer gl and once with --renderer sdl (SDL's own OpenGL renderer there). Each frame
# must match the golden within TOLERANCE per channel, and the two backends each other:
#
#   TOLERANCE = 6: positions are whole pixels in every backend (render.c snaps them), so
#   only alpha blending differs. SDL's software blitter truncates each blend where a GPU
#   rounds it, a unit per blend, and translucent quads stack (shadow, effect, card): on
#   the shipped levels under 1% of the pixels differ, by at most 4. A wrong texel, a
#   position off by one or a lost quad differ by tens to hundreds.
#
# The GL run must be drawn by the GL backend: a fallback to SDL_Renderer ("drawing with
# SDL_Renderer" in its log) fails; and where no GL 3.3 context can be made, the fallback
# must say so in one line and draw the same frame. Skips (77) when no X server can be
# started.
set -u
GAME=$1 COMPARE=$2 OUT=$3
shift 3
TOLERANCE=6
SRC=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$OUT" && mkdir -p "$OUT" || exit 1
. "$SRC/tests/xvfb_lib.sh"
XPID=
trap 'kill ${XPID:-} 2>/dev/null; wait 2>/dev/null' EXIT
xvfb_start 1280x800 "$OUT"
export SDL_VIDEODRIVER=x11 SDL_AUDIODRIVER=dummy AD_ASSET_DIR="$SRC/assets"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" # Mesa's and Xlib's to keep
fails=0
for level in "$@"; do
    name=$(basename "$level" .lvl)
    for r in gl sdl; do
        timeout 120 "$GAME" --renderer "$r" --fixed-clock --scale 1 --no-save --seed 1 --level "$level" \
            --autoplay 1 --frames 240 --screenshot "$OUT/$name-$r.png" >"$OUT/$name-$r.log" 2>&1
        rc=$?
        if [ $rc -ne 0 ] || [ ! -s "$OUT/$name-$r.png" ]; then
            cat "$OUT/$name-$r.log"; echo "FAIL: $name with --renderer $r: status $rc"
            fails=$((fails + 1))
            continue
        fi
        if [ $r = gl ] && grep -q "drawing with SDL_Renderer" "$OUT/$name-$r.log"; then
            cat "$OUT/$name-$r.log"; echo "FAIL: $name: --renderer gl fell back to SDL_Renderer"
            fails=$((fails + 1))
        fi
        "$COMPARE" "$SRC/tests/golden/$name.png" "$OUT/$name-$r.png" $TOLERANCE || {
            echo "FAIL: $name drawn by --renderer $r differs from its golden frame"
            fails=$((fails + 1))
        }
    done
    "$COMPARE" "$OUT/$name-sdl.png" "$OUT/$name-gl.png" $TOLERANCE || {
        echo "FAIL: $name: the two backends differ"
        fails=$((fails + 1))
    }
done
# The GL backend's screenshot of a scaled window (--scale 3, which the 1280x800 display
# clamps to 2), read from its offscreen picture and scaled as the blit scales it, is the
# same frame, each pixel a k x k block.
level=$1 name=$(basename "$1" .lvl)
timeout 120 "$GAME" --renderer gl --fixed-clock --scale 3 --no-save --seed 1 --level "$level" \
    --autoplay 1 --frames 240 --screenshot "$OUT/$name-gl3.png" >"$OUT/$name-gl3.log" 2>&1 &&
    "$COMPARE" "$SRC/tests/golden/$name.png" "$OUT/$name-gl3.png" $TOLERANCE || {
        cat "$OUT/$name-gl3.log"; echo "FAIL: $name in a scaled window with --renderer gl"
        fails=$((fails + 1))
    }
# No OpenGL 3.3 (Mesa told to offer 2.1): the game says why in one line, on the log and in
# the HUD's message bar at the bottom, draws with SDL_Renderer, and the frame is the same
# but for that bar (what differs from the golden starts below y 240).
MESA_GL_VERSION_OVERRIDE=2.1 timeout 120 "$GAME" --renderer gl --fixed-clock --scale 1 --no-save --seed 1 \
    --level "$level" --autoplay 1 --frames 240 --screenshot "$OUT/$name-fallback.png" >"$OUT/$name-fallback.log" 2>&1
rc=$?
if [ $rc -ne 0 ] || [ "$(grep -c '^renderer: .*; drawing with SDL_Renderer$' "$OUT/$name-fallback.log")" != 1 ]; then
    cat "$OUT/$name-fallback.log"; echo "FAIL: without GL 3.3: status $rc, want 0 and one line saying why"
    fails=$((fails + 1))
else
    box=$("$COMPARE" "$SRC/tests/golden/$name.png" "$OUT/$name-fallback.png" $TOLERANCE | grep 'differing pixels lie in')
    y0=$(echo "$box" | sed -n 's/.*, y \([0-9]*\)\.\..*/\1/p')
    if [ -z "$y0" ] || [ "$y0" -lt 240 ]; then
        echo "FAIL: $name drawn by the fallback differs from its golden frame outside the message bar: ${box:-no message bar at all}"
        fails=$((fails + 1))
    fi
fi
[ $fails -eq 0 ] && echo "backends: gl and sdl match the golden frames within $TOLERANCE"
exit $((fails != 0))
