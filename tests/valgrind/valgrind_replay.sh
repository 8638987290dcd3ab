#!/bin/sh
# valgrind_replay.sh GAME REPLAY - plays one recorded run through the real game binary,
# headless, under valgrind memcheck, and passes only when:
#   - valgrind reports 0 errors (invalid reads/writes, uninitialised values, bad frees...)
#     and no definitely or indirectly lost bytes (--errors-for-leak-kinds makes those
#     errors, --error-exitcode makes any error exit 99);
#   - the game exits 0 and the replay played to its end with a matching hash.
# Still-reachable blocks (SDL's and libc's start-up allocations, 630 bytes here) are not
# errors. No suppressions file: with the dummy video and audio drivers no third-party frame
# reports anything; if a system library ever does, suppress its frames (and only those) in
# a committed valgrind.supp next to this script, with a comment saying why.
# Exit 77 (ctest SKIP_RETURN_CODE) when valgrind is not installed.
set -u
GAME=$1
REPLAY=$2
VALGRIND=$(command -v valgrind || true)
if [ -z "$VALGRIND" ]; then
    echo "valgrind_replay: valgrind not found (tools/deps.sh installs it), skipping"
    exit 77
fi
SUPP=
[ -f "$(dirname "$0")/valgrind.supp" ] && SUPP="--suppressions=$(dirname "$0")/valgrind.supp"
out=$(SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy "$VALGRIND" --tool=memcheck --error-exitcode=99 \
    --leak-check=full --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect \
    --track-origins=yes $SUPP "$GAME" --headless --no-save --replay "$REPLAY" 2>&1)
rc=$?
printf '%s\n' "$out"
fail=0
[ "$rc" -eq 0 ] || { echo "valgrind_replay: FAIL: exit status $rc (99: valgrind found errors or leaks)"; fail=1; }
printf '%s\n' "$out" | grep -Eq "^==[0-9]+== ERROR SUMMARY: 0 errors from 0 contexts" ||
    { echo "valgrind_replay: FAIL: valgrind's error summary is not 0 errors"; fail=1; }
printf '%s\n' "$out" | grep -q "^replay .*: played to the end, .* (matches)$" ||
    { echo "valgrind_replay: FAIL: the replay did not play to the end with a matching hash"; fail=1; }
[ $fail -eq 0 ] && echo "valgrind_replay: 0 errors, 0 bytes definitely or indirectly lost"
exit $fail
