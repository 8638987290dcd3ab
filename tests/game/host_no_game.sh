#!/bin/sh
# host_no_game.sh HOST GAME LIBRARY REPLAY - the hot-reload build's executable (engine_host)
# holds no game code: no function the game's library defines is defined in it too (the
# only copy of the game is the library it loads), and it plays a committed replay to its
# hash on that library alone (compared: the host's global functions, since a static helper
# of the same name in both, such as a file's own fail(), is not the same code). GAME, the release executable with the table linked in, is
# the plant: the same symbol check must find the game in it, or it proves nothing.
set -u
HOST=$1 GAME=$2 LIB=$3 REPLAY=$4
command -v nm >/dev/null || # deps: gcc (binutils)
    { echo "SKIP: nm is not installed"; exit 77; }
# What the toolchain puts in every object, the engine's or not.
CRT='^(_init|_fini|_start|frame_dummy|register_tm_clones|deregister_tm_clones|__do_global_dtors_aux|__libc_csu_.*|_dl_relocate_static_pie|main)$'
game_functions=$(nm --defined-only "$LIB" | awk '$2 ~ /^[tT]$/ { print $3 }' | grep -Ev "$CRT" | sort -u)
[ -n "$game_functions" ] || { echo "FAIL: $LIB defines no function: nothing to compare"; exit 1; }
shared() { nm --defined-only "$1" | awk '$2 == "T" { print $3 }' | sort -u | comm -12 - "$TMP"; }
TMP=$(mktemp)
trap 'rm -f "$TMP"' EXIT
echo "$game_functions" >"$TMP"
both=$(shared "$HOST")
if [ -n "$both" ]; then
    echo "FAIL: $HOST defines game code the library has too: $(echo "$both" | head -5 | tr '\n' ' ')"
    exit 1
fi
[ -n "$(shared "$GAME")" ] || { echo "FAIL: the plant: $GAME (the game linked in) shows no game code either"; exit 1; }
# The replay names its level as the repository does: played from there.
cd "$(dirname "$REPLAY")/../.." || exit 1
out=$(SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy "$HOST" --hot-reload --hot-library "$LIB" --replay "$REPLAY" --headless 2>&1)
rc=$?
if [ $rc -ne 0 ] || ! echo "$out" | grep -q "(matches)"; then
    echo "FAIL: $HOST on $LIB: exit $rc"
    echo "$out" | tail -5
    exit 1
fi
echo "host_no_game: $(basename "$HOST") has none of the library's $(echo "$game_functions" | wc -l) functions and plays $(basename "$REPLAY") to its hash on it"
