#!/bin/sh
# The game executable and the assets folder, headless:
# - run from a directory whose ./assets holds a broken tiles.png, it still plays on its own
#   art (found by the executable, before ./assets);
# - --assets DIR wins: given that decoy, it fails on the decoy's tiles.png;
# - --assets /nonexistent fails (exit 1, not a usage error) with a message naming it.
# $1: the game executable, $2: a scratch directory, $3: the shipped levels (a decoy assets
# folder has no levels/ beside it, so that run names its level).
game=$1 dir=$2
level=$(ls "$3"/01-*.lvl | head -n 1)
rm -rf "$dir" && mkdir -p "$dir/assets" || exit 1
printf 'not a png\n' > "$dir/assets/tiles.png"
unset AD_ASSET_DIR
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
fail=0

# Twice: finding its first level beside its own assets, and with the level named (so that
# only the art can be at stake).
for args in "" "--level $level"; do
    out=$(cd "$dir" && "$game" --headless --no-save --frames 2 $args 2>&1); rc=$?
    if [ $rc -ne 0 ]; then
        echo "FAIL: with a decoy ./assets ($args) the game exited $rc:"; echo "$out"; fail=1
    fi
done

out=$(cd "$dir" && "$game" --headless --no-save --frames 2 --level "$level" --assets "$dir/assets" 2>&1); rc=$?
printf '%s\n' "$out" | head -n 1
if [ $rc -ne 1 ] || ! printf '%s\n' "$out" | grep -qF "$dir/assets/tiles.png: cannot load image"; then
    echo "FAIL: --assets $dir/assets: exit $rc, expected 1 and an error about its tiles.png"; fail=1
fi

out=$("$game" --headless --no-save --frames 2 --assets /nonexistent 2>&1); rc=$?
printf '%s\n' "$out" | head -n 1
if [ $rc -ne 1 ] || ! printf '%s\n' "$out" | grep -qF "/nonexistent: cannot use as the assets folder"; then
    echo "FAIL: --assets /nonexistent: exit $rc, expected 1 and a message naming it:"; echo "$out"; fail=1
fi
exit $fail
