#!/bin/sh
# hot_swap.sh HOST LIB_A LIB_B WORK - 13_hot_reload built twice (speed 1 and speed 3):
# strata-host runs A from WORK/hot.so; once A says it is ready, B is moved over that file;
# the host's watch takes it, the same state goes on at B's speed (180 px in 60 ticks) and
# the game ends the run. Bounded by --frames, not by a clock: a swap never taken fails.
set -u
HOST=$1 A=$2 B=$3 WORK=$4
mkdir -p "$WORK" && cp "$A" "$WORK/hot.so" && rm -f "$WORK/out"
SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy "$HOST" --hot-reload --hot-library "$WORK/hot.so" --headless \
    --frames 500000 >"$WORK/out" 2>"$WORK/err" &
pid=$!
while kill -0 $pid 2>/dev/null && ! grep -q '^ready' "$WORK/out"; do sleep 0.05; done
cp "$B" "$WORK/hot.new" && mv "$WORK/hot.new" "$WORK/hot.so"
wait $pid
rc=$?
cat "$WORK/out"
[ $rc -eq 0 ] || { echo "FAIL: strata-host exited $rc"; tail -5 "$WORK/err"; exit 1; }
grep -q 'now speed 3' "$WORK/out" || { echo "FAIL: the new library was never taken"; exit 1; }
grep -q '180 px in 60 ticks' "$WORK/out" || { echo "FAIL: the state did not go on at the new speed"; exit 1; }
