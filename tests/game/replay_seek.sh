#!/bin/sh
# replay_seek.sh GAME REPLAY TICK... - the viewer's --seek through the real game binary,
# headless: for each TICK, `--seek TICK` must print "seek: tick TICK hash H" and end with the
# replay's verdict "(matches)" (the viewer's pass played it to the end), and H must be the
# hash a straight replay stopped at that tick reports (--frames TICK: one tick a frame).
# Then a tick past the end is the end; a history arena too small for the viewer fails a
# headless --seek (saying why and what holds it) and plays the replay straight in a window
# (with a warning); a recording the viewer's pass does not end on fails a --seek; and
# --seek without --replay is a usage error.
set -u
GAME=$1
REPLAY=$2
shift 2
fail=0
run() { ${AD_RUN:-} "$GAME" --headless --no-save --replay "$REPLAY" "$@" 2>&1; }
for t in "$@"; do
    out=$(run --seek "$t")
    rc=$?
    seek=$(printf '%s\n' "$out" | sed -n "s/^seek: tick $t hash \([0-9a-f]\{16\}\)$/\1/p")
    straight=$(run --frames "$t" | sed -n 's/^replay .*: stopped early, .*, hash \([0-9a-f]\{16\}\) (unchecked)$/\1/p')
    echo "tick $t: seek ${seek:-none}, straight ${straight:-none}"
    [ "$rc" -eq 0 ] || { echo "replay_seek: FAIL: --seek $t: exit status $rc"; fail=1; }
    printf '%s\n' "$out" | grep -q "^replay .*: played to the end, .* (matches)$" ||
        { echo "replay_seek: FAIL: --seek $t: no matching verdict"; printf '%s\n' "$out" | tail -5; fail=1; }
    [ -n "$seek" ] && [ "$seek" = "$straight" ] || { echo "replay_seek: FAIL: tick $t"; fail=1; }
done
ticks=$(sed -n 's/^ticks \([0-9]*\).*/\1/p' "$REPLAY")
end=$(run --seek 99999999 | sed -n 's/^seek: tick \([0-9]*\) hash \([0-9a-f]*\)$/\1 \2/p')
want=$(sed -n 's/^hash \([0-9a-f]*\).*/\1/p' "$REPLAY")
echo "past the end: $end (the replay: $ticks $want)"
[ "$end" = "$ticks $want" ] || { echo "replay_seek: FAIL: a seek past the end is not the end"; fail=1; }
# A history arena too small for the viewer: headless, --seek has no answer and fails,
# saying why and what would hold it; in a window the replay plays straight, with a warning.
out=$(run --seek 100 --history-arena 300K)
rc=$?
printf '%s\n' "$out" | grep -q "^game: --seek 100: cannot seek: viewer: .*; --history-arena [0-9]*M holds it$" &&
    ! printf '%s\n' "$out" | grep -q "^seek: " && [ $rc -ne 0 ] ||
    { echo "replay_seek: FAIL: no viewer, headless: not a failure that says why (exit $rc)"; printf '%s\n' "$out" | grep -v '^  '; fail=1; }
out=$(SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy ${AD_RUN:-} "$GAME" --no-save --replay "$REPLAY" --seek 100 --frames 200 --history-arena 300K 2>&1)
rc=$?
printf '%s\n' "$out" | grep -q "^warning: .*: the replay plays straight, without the viewer$" &&
    ! printf '%s\n' "$out" | grep -q "^seek: " && [ $rc -eq 0 ] &&
    printf '%s\n' "$out" | grep -q "^replay .*: stopped early, " ||
    { echo "replay_seek: FAIL: no viewer, in a window: not played straight with a warning (exit $rc)"; printf '%s\n' "$out" | grep -v '^  '; fail=1; }
# A recording whose end the viewer's pass does not reach (its hash changed): no seek
# answers with a state the recorded run never had.
bad=${TMPDIR:-/tmp}/replay_seek_$$.rep
sed 's/^hash .*/hash 0123456789abcdef/' "$REPLAY" >"$bad"
out=$(${AD_RUN:-} "$GAME" --headless --no-save --replay "$bad" --seek 100 2>&1)
rc=$?
rm -f "$bad"
printf '%s\n' "$out" | grep -q "^game: --seek 100: cannot seek: viewer: the run played through ends on hash .*, the recording on 0123456789abcdef, " &&
    ! printf '%s\n' "$out" | grep -q "^seek: " && [ $rc -ne 0 ] ||
    { echo "replay_seek: FAIL: a pass that ends elsewhere: a seek answered (exit $rc)"; printf '%s\n' "$out" | grep -v '^  '; fail=1; }
out=$(${AD_RUN:-} "$GAME" --headless --no-save --seek 5 2>&1)
[ $? -eq 2 ] || { echo "replay_seek: FAIL: --seek without --replay: not a usage error"; fail=1; }
exit $fail
