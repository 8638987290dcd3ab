#!/bin/sh
# replay_headless.sh GAME REPLAY - plays one recorded run through the real game binary,
# headless, and passes only when all of these hold:
#   - the game exits with status 0 (a crash, a sanitizer report or a leak check that fires
#     after the output is complete still fails the test);
#   - the replay played to its end and its final hash matched ("(matches)");
#   - the arena report at exit has its five lines, in the documented format.
# ctest's PASS_REGULAR_EXPRESSION would look at the output only, hence this script.
set -u
GAME=$1
REPLAY=$2
out=$(${AD_RUN:-} "$GAME" --headless --no-save --replay "$REPLAY" 2>&1)
rc=$?
printf '%s\n' "$out"
fail=0
[ "$rc" -eq 0 ] || { echo "replay_headless: FAIL: exit status $rc"; fail=1; }
printf '%s\n' "$out" | grep -q "^replay .*: played to the end, .* (matches)$" ||
    { echo "replay_headless: FAIL: the replay did not play to the end with a matching hash"; fail=1; }
for arena in level permanent frame scratch history; do
    printf '%s\n' "$out" | grep -Eq "^$arena arena: peak [0-9]+ of [0-9]+ bytes" ||
        { echo "replay_headless: FAIL: no '$arena arena: peak N of M bytes' line"; fail=1; }
done
exit $fail
