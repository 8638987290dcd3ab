#!/bin/sh
# paths.sh GAME LEVELCHECK SRC OUT - UTF-8 paths with a space on Windows ($AD_RUN: Wine):
# a level copied to "OUT/Café levels/01 first steps.lvl" is checked by levelcheck (its name
# in the table as given) and played by the game for 30 frames, which then saves its
# progress under %APPDATA%\arena-dungeon (APPDATA pointed at OUT/Roaming here).
set -u
GAME=$1
LC=$2
SRC=$3
OUT=$4
rm -rf "$OUT"
dir="$OUT/Café levels"
mkdir -p "$dir" "$OUT/Roaming" || exit 1
lvl="$dir/01 first steps.lvl"
cp "$SRC/levels/01-first-steps.lvl" "$lvl" || exit 1
out=$(${AD_RUN:-} "$LC" "$lvl" 2>&1) || { echo "FAIL: levelcheck on '$lvl' failed:"; echo "$out"; exit 1; }
printf '%s\n' "$out" | grep -q "01 first steps.lvl" || { echo "FAIL: levelcheck's table does not name the file:"; echo "$out"; exit 1; }
printf '%s\n' "$out" | grep -q "Café levels" || { echo "FAIL: the path in levelcheck's table lost its é:"; echo "$out"; exit 1; }
# Wine's own APPDATA is the prefix's; ours is a Windows path to a folder of this test's
# (Wine's drive Z: is the Linux root).
appdata="Z:$(printf '%s' "$OUT/Roaming" | tr / '\\')"
out=$(APPDATA="$appdata" AD_ASSET_DIR="$SRC/assets" ${AD_RUN:-} "$GAME" --headless --level "$lvl" --frames 30 2>&1) ||
    { echo "FAIL: the game did not play '$lvl':"; echo "$out"; exit 1; }
printf '%s\n' "$out" | grep -q "^level arena: peak" || { echo "FAIL: no exit report:"; echo "$out"; exit 1; }
[ -f "$OUT/Roaming/arena-dungeon/settings" ] || [ -f "$OUT/Roaming/arena-dungeon/progress" ] ||
    { echo "FAIL: nothing saved under APPDATA ($OUT/Roaming):"; find "$OUT/Roaming"; echo "$out"; exit 1; }
echo "windows_paths: '$lvl' checked and played; saved under $(ls "$OUT/Roaming/arena-dungeon" | tr '\n' ' ')"
