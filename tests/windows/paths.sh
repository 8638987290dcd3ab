#!/bin/sh
# paths.sh GAME LEVELCHECK SRC OUT - UTF-8 paths with a space on Windows ($AD_RUN: Wine):
# the levels copied to "OUT/Café levels/", the first as "01 first steps.lvl", which is
# checked by levelcheck (its name in the table as given) and played by the game for 240
# frames by the bot, whose screenshot goes to a path of the same folder. (Where saves go,
# %APPDATA%\arena-dungeon, test_app and test_os_file check.)
set -u
GAME=$1
LC=$2
SRC=$3
OUT=$4
rm -rf "$OUT"
dir="$OUT/Café levels"
mkdir -p "$dir" || exit 1
lvl="$dir/01 first steps.lvl"
# The level set beside it (its exit names the next one), the first under a new name.
cp "$SRC"/levels/*.lvl "$dir/" && mv "$dir/01-first-steps.lvl" "$lvl" || exit 1
out=$(${AD_RUN:-} "$LC" "$lvl" 2>&1) || { echo "FAIL: levelcheck on '$lvl' failed:"; echo "$out"; exit 1; }
printf '%s\n' "$out" | grep -q "01 first steps.lvl" || { echo "FAIL: levelcheck's table does not name the file:"; echo "$out"; exit 1; }
printf '%s\n' "$out" | grep -q "Café levels" || { echo "FAIL: the path in levelcheck's table lost its é:"; echo "$out"; exit 1; }
shot="$dir/shot é.png"
out=$(AD_ASSET_DIR="$SRC/assets" ${AD_RUN:-} "$GAME" --headless --no-save --level "$lvl" --autoplay 1 --frames 240 \
    --screenshot "$shot" 2>&1) || { echo "FAIL: the game did not play '$lvl':"; echo "$out"; exit 1; }
printf '%s\n' "$out" | grep -q "^level arena: peak .*01 first steps.lvl)$" ||
    { echo "FAIL: the exit report does not name the level:"; echo "$out"; exit 1; }
[ -s "$shot" ] || { echo "FAIL: no screenshot at '$shot'"; echo "$out"; exit 1; }
echo "windows_paths: '$lvl' checked and played; '$(basename "$shot")' written"
