#!/bin/sh
# fault_sweep.sh GAME REPLAY [PASS...] - fault injection at every OS call of the memory
# layer. Plays REPLAY headless through the real game once to count its memory
# calls (st_os_reserve + st_os_commit, STRATA_OS_COUNT=1), then once per call n with that call
# refused by the OS (the hooks of engine/core/os_memory.h). Every run must either
#   - finish: exit 0, the replay played to the end with a matching hash (a degraded frame,
#     a sprite not drawn because the frame arena was refused, still counts), or
#   - stop cleanly: exit 1..127 with a message that names the arena ("arena 'frame' ...");
# and never crash (a signal, exit >= 128), hang (timeout), print a sanitizer report, or
# touch the save directory (XDG_DATA_HOME is a fresh directory that must stay empty; the
# runs are --no-save, and a replay never saves anyway).
#
# A PASS is one of (default: all four)
#   once        STRATA_OS_FAIL_AFTER=n: call n fails, later ones succeed (recovery paths)
#   from        STRATA_OS_FAIL_FROM=n: call n and every later one fail (the OS is out for good)
#   page-once   the same with STRATA_ARENA_COMMIT=<page>: arenas commit page by page, so the
#   page-from   game asks the OS at more points, level loads and first frames included
#
# Every run (the counting ones too) has STRATA_NO_RASTER=1 (engine/render/sdl/render_sdl.h):
# the frames are built, clipped and counted as always, only SDL's pixels are not drawn, 0.4 s
# a full run instead of 7; the sweep judges exits, hashes and messages, never pixels (the
# replays and the goldens do).
#
# The only time limit is the hang guard, scaled to this machine: 20 times the counting
# run's duration, and at least 5 minutes, per run. AD_SWEEP_STRIDE=k (default 1) takes
# every k-th site only (1, 1+k, ...), to try a change by hand; the suite takes every one.
set -u
GAME=$1
REPLAY=$2
shift 2
PASSES=${*:-once from page-once page-from}
STRIDE=${AD_SWEEP_STRIDE:-1}

export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy STRATA_NO_RASTER=1
unset STRATA_OS_FAIL_AFTER STRATA_OS_FAIL_FROM STRATA_OS_COUNT STRATA_ARENA_COMMIT
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT
export XDG_DATA_HOME="$TMP/xdg"
mkdir "$XDG_DATA_HOME"
PAGE=$(getconf PAGESIZE)

began=$(date +%s)
total_sites=0 total_finished=0 total_stopped=0 total_bad=0

# run_game OUT [VAR=VALUE...]: one headless replay; sets $rc.
run_game() {
    out=$1
    shift
    env "$@" timeout "$LIMIT" "$GAME" --headless --no-save --replay "$REPLAY" >"$out" 2>&1
    rc=$?
}

# judge N OUT: classifies one run with call N failing; prints the bad ones.
judge() {
    n=$1
    out=$2
    why=""
    if grep -Eq "AddressSanitizer|LeakSanitizer|runtime error:" "$out"; then
        why="sanitizer report"
    elif [ "$rc" -eq 124 ]; then
        why="hang: killed after ${LIMIT}s"
    elif [ "$rc" -ge 128 ]; then
        why="crash: exit status $rc"
    elif [ -n "$(ls -A "$XDG_DATA_HOME")" ]; then
        why="the save directory was touched: $(ls -A "$XDG_DATA_HOME")"
    elif ! grep -q "^os: injected failure of memory call $n " "$out"; then
        why="call $n was never made (the count of the first run is not reproducible)"
    elif [ "$rc" -eq 0 ]; then
        if grep -q "^replay .*: played to the end, .* (matches)$" "$out"; then
            finished=$((finished + 1))
            return
        fi
        why="exit 0 without a matching replay"
    elif grep -Eq "arena '[^']+'" "$out"; then
        stopped=$((stopped + 1))
        return
    else
        why="exit status $rc with no message naming an arena"
    fi
    bad=$((bad + 1))
    echo "fault sweep: $pass: memory call $n of $N: FAIL: $why; output tail:"
    tail -n 15 "$out" | sed 's/^/    /'
    rm -rf "$XDG_DATA_HOME"
    mkdir "$XDG_DATA_HOME"
}

for pass in $PASSES; do
    case $pass in
    once) fail_var=STRATA_OS_FAIL_AFTER commit="" ;;
    from) fail_var=STRATA_OS_FAIL_FROM commit="" ;;
    page-once) fail_var=STRATA_OS_FAIL_AFTER commit="STRATA_ARENA_COMMIT=$PAGE" ;;
    page-from) fail_var=STRATA_OS_FAIL_FROM commit="STRATA_ARENA_COMMIT=$PAGE" ;;
    *) echo "fault_sweep.sh: unknown pass '$pass'"; exit 2 ;;
    esac
    # The counting run, once per commit step (once and from share it): no limit yet, since
    # there is nothing to measure it against; a hang here is a hang of the plain replay,
    # which replay_headless.sh reports.
    if [ "$commit" != "${counted-unset}" ]; then
        LIMIT=0
        start=$(date +%s)
        run_game "$TMP/count" STRATA_OS_COUNT=1 $commit
        secs=$(($(date +%s) - start + 1))
        N=$(sed -n 's/^os: \([0-9]*\) memory calls.*/\1/p' "$TMP/count")
        if [ "$rc" -ne 0 ] || [ -z "$N" ] || ! grep -q "(matches)$" "$TMP/count"; then
            echo "fault sweep: $pass: the counting run failed (exit $rc):"
            tail -n 15 "$TMP/count" | sed 's/^/    /'
            exit 1
        fi
        counted=$commit
        LIMIT=$((secs * 20 > 300 ? secs * 20 : 300))
    fi
    # Every site: most runs stop at start-up within milliseconds, so a pass costs a few
    # plain replays (the runs that recover and play to the end), not N of them.
    finished=0 stopped=0 bad=0
    for n in $(seq 1 "$STRIDE" "$N"); do
        run_game "$TMP/run" "$fail_var=$n" $commit
        judge "$n" "$TMP/run"
    done
    [ "$STRIDE" -eq 1 ] || echo "fault sweep: $pass: every ${STRIDE}th of the $N sites"
    echo "fault sweep: $pass: $N sites, $finished finished, $stopped stopped cleanly, $bad bad;" \
         "one plain run took ${secs}s"
    total_sites=$((total_sites + N))
    total_finished=$((total_finished + finished))
    total_stopped=$((total_stopped + stopped))
    total_bad=$((total_bad + bad))
done
echo "fault sweep: $total_sites sites, $total_finished finished, $total_stopped stopped cleanly" \
     "($PASSES; $(($(date +%s) - began))s)"
[ "$total_bad" -eq 0 ] || { echo "fault sweep: FAIL: $total_bad bad runs (listed above)"; exit 1; }
exit 0
