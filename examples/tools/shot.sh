#!/bin/sh
# shot.sh COMPARE GOLDEN OUT PROGRAM ARGS... - runs a windowed example headless with ARGS
# (its --frames), takes its last frame as OUT and compares it with GOLDEN, exactly.
# EXAMPLES_GOLDEN_UPDATE=1 copies OUT over GOLDEN instead (look at it before committing).
set -u
COMPARE=$1 GOLDEN=$2 OUT=$3
shift 3
mkdir -p "$(dirname "$OUT")" && rm -f "$OUT"
SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy "$@" --headless --screenshot "$OUT" || { echo "FAIL: $* exited $?"; exit 1; }
if [ "${EXAMPLES_GOLDEN_UPDATE:-}" = 1 ]; then cp "$OUT" "$GOLDEN" && echo "updated $GOLDEN"; exit 0; fi
[ -f "$GOLDEN" ] || { echo "FAIL: no golden $GOLDEN (make it with EXAMPLES_GOLDEN_UPDATE=1)"; exit 1; }
exec "$COMPARE" "$GOLDEN" "$OUT"
