#!/bin/sh
# heap_check.sh PRELOAD WORK PROGRAM ARGS... - zero heap calls per frame: the program's
# heap calls (counted by the PRELOAD library, tools/heap_count.c) are the same for 30
# frames as for 300, so the 270 frames between made none.
set -u
PRELOAD=$1 WORK=$2
shift 2
mkdir -p "$WORK"
count() {
    n=$1
    shift
    HEAP_COUNT_FILE="$WORK/heap.$n" LD_PRELOAD="$PRELOAD" SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy \
        "$@" --headless --frames "$n" >/dev/null 2>&1 || { echo "FAIL: $* --frames $n failed" >&2; exit 1; }
    cat "$WORK/heap.$n"
}
short=$(count 30 "$@") || exit 1
long=$(count 300 "$@") || exit 1
echo "heap calls: $short for 30 frames, $long for 300"
[ "$short" -gt 0 ] || { echo "FAIL: nothing counted: the preload did not take"; exit 1; }
[ "$short" = "$long" ] || { echo "FAIL: $((long - short)) heap calls in 270 frames"; exit 1; }
