#!/bin/sh
# rewind-script.sh GAME IN.rep OUT.rep AT:HOLD... - a replay that rewinds: IN's inputs
# (a recorded run) with the rewind input (GAME_IN_REWIND, 0x100) held for HOLD ticks when the
# run reaches IN's tick AT, then IN's inputs again from the tick the rewind went back to, so
# the run goes on as it went before (the game is deterministic, and the state rewound to is
# the one IN had there). How far HOLD ticks go back follows rules/rewind.h: one tick per
# tick for the first 60, two for the next 60, four after. The ATs are IN's ticks, each past
# where the one before went back to, and no hold may go back further than the run has
# played since its start (or 570 ticks, what the history holds for sure). The script is
# then played by the game GAME, headless, and OUT gets the levels and the hash the game
# ended on, so it checks itself like any recorded replay. Run from the repository's root:
#
#   build/release/game/game --headless --no-save --level levels/01-first-steps.lvl \
#       --autoplay 2 --record /tmp/two.rep
#   sh tools/rewind-script.sh build/release/game/game /tmp/two.rep tests/replays/rewind.rep \
#       400:45 700:90 1150:160 1400:20
#
# Since every rewind is undone by playing IN's inputs again, OUT ends on IN's hash.
set -eu
case "${1:-}" in --help | -h) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
[ $# -ge 4 ] || { echo "usage: rewind-script.sh GAME IN.rep OUT.rep AT:HOLD..." >&2; exit 2; }
game=$1 in=$2 out=$3
shift 3
script=$out.script
awk -v plan="$*" '
function back(hold,   r) { r = hold < 60 ? hold : 60; hold -= 60
    if (hold > 0) { r += (hold < 60 ? hold : 60) * 2; hold -= 60 }
    if (hold > 0) r += hold * 4
    return r }
function emit(hex) { if (n && hex == last) count[n]++; else { n++; runs[n] = hex; count[n] = 1; last = hex }; total++ }
/^seed / { seed = $2 } /^level / { level = $2 }
/^inputs/ { on = 1; next } /^end/ { on = 0 }
on { for (i = 1; i <= NF; i++) { split($i, p, "x"); for (k = 0; k < p[1] + 0; k++) tick[ticks++] = p[2] } }
END {
    np = split(plan, steps, " "); pos = 0
    for (s = 1; s <= np; s++) {
        split(steps[s], ah, ":"); at = ah[1] + 0; hold = ah[2] + 0; r = back(hold)
        if (at <= pos || at > ticks || r > at || r > 570) { print "rewind-script: bad step " steps[s] > "/dev/stderr"; exit 1 }
        for (; pos < at; pos++) emit(tick[pos])
        for (k = 0; k < hold; k++) emit("100")
        pos = at - r
    }
    for (; pos < ticks; pos++) emit(tick[pos])
    printf "replay 2\nseed %s\nlevel %s\nticks %d\ninputs\n", seed, level, total
    for (i = 1; i <= n; i++) printf "%dx%s%s", count[i], runs[i], (i % 12 == 0 || i == n) ? "\n" : " "
    printf "end\n"
}' "$in" > "$script"
verdict=$("$game" --headless --no-save --replay "$script" 2>&1 | grep '^replay .*: played to the end') ||
    { echo "rewind-script: the game did not play $script to its end" >&2; exit 1; }
levels=$(printf '%s\n' "$verdict" | sed -n 's/.*, \([0-9]*\) levels\{0,1\} completed,.*/\1/p')
hash=$(printf '%s\n' "$verdict" | sed -n 's/.* hash \([0-9a-f]*\) .*/\1/p')
{
    echo "# arena-dungeon replay: $(basename "$in") with rewinds held at its ticks $* (tools/rewind-script.sh)"
    echo "# (bits: 1 up, 2 down, 4 left, 8 right, 16 fire, 32 confirm, 64 pause, 128 restart, 256 rewind)"
    sed -n '1,/^ticks /p' "$script"
    echo "levels $levels"
    echo "hash $hash"
    sed -n '/^inputs/,$p' "$script"
} > "$out"
rm -f "$script"
echo "rewind-script: $out: $levels levels, hash $hash"
