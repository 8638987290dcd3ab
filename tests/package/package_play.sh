# package_play.sh - sourced by package_linux.sh and package_windows.sh: what both check of an
# unpacked package's game, started by its path from WORK/elsewhere (no assets/ or levels/
# there), through RUN (empty natively, wine64 for game.exe):
#   - the full committed replay plays to its hash ("(matches)") on the unpacked levels (the
#     exit report names each level it played by path, matched by LEVELS_RE + the number),
#     with its sound mixed offline into a WAV (--audio-out: headless, the sounds and music
#     would not be read otherwise), all of it loaded and no error reported;
#   - with its assets/ taken away, it fails saying no assets folder was found: it never falls
#     back on the source tree's art (which is what would hide a package without its own).
#   package_play NAME "RUN" GAME REPLAY WORK TOP LEVELS_RE
package_play() {
    name=$1 run=$2 game=$3 replay=$4 work=$5 top=$6 levels_re=$7
    # The replay names its level "levels/01-first-steps.lvl": found beside the game's assets.
    out=$(cd "$work/elsewhere" && $run "$game" --headless --no-save --replay "$replay" \
        --audio-out "$work/run.wav" 2>&1); rc=$?
    rm -f "$work/run.wav"
    out=$(printf '%s\n' "$out" | tr -d '\r')
    printf '%s\n' "$out" | grep -v '^  '
    [ $rc -eq 0 ] || fail "the full replay exited $rc"
    printf '%s\n' "$out" | grep -q "^replay .*: played to the end, 7 levels completed, hash .* (matches)$" ||
        fail "the full replay did not end on its hash"
    printf '%s\n' "$out" | grep -q "^sound data: .* files, 0 missing)$" || fail "the sounds and music did not all load"
    if printf '%s\n' "$out" | grep -q "error:"; then fail "the run reported an error"; fi
    for n in 01 02 03 04 05 06 07; do
        printf '%s\n' "$out" | grep -q "^  $levels_re$n-" || fail "level $n was not played from the package's levels"
    done

    mv "$top/assets" "$top/assets.away"
    out=$(cd "$work/elsewhere" && $run "$game" --headless --no-save --frames 2 --level "$top/levels/01-first-steps.lvl" 2>&1); rc=$?
    mv "$top/assets.away" "$top/assets"
    [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -q "no assets folder found" ||
        fail "without its assets/ the game exited $rc and said: $out"
}
