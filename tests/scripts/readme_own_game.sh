#!/bin/sh
# readme_own_game.sh SRC BUILD WORK - the README's "Make your own game on the engine" works as
# written for a user with only the installed package: the engine of BUILD installed into a
# prefix in WORK, the README's mygame/main.c and mygame/CMakeLists.txt written out from its
# blocks (<!-- file: PATH --> names each), built outside the tree with find_package and again
# with pkg-config alone, and run headless: 60 frames, a screenshot the same as the committed
# one (the square 60 pixels along, "x = 60" in the default font), and a trace arenasize
# reads. FLAGS (optional): what the engine was compiled with that a program linking it
# needs too (the asan preset's sanitizers).
set -u
src=$1 build=$2 work=$3 flags=${4:-}
rm -rf "$work" && mkdir -p "$work/mygame" || exit 2
cmake --install "$build" --prefix "$work/prefix" >"$work/install.log" 2>&1 || { cat "$work/install.log"; exit 1; }
# Each block that follows a "<!-- file: PATH" line, written to WORK/PATH.
awk -v dir="$work" '
    /^<!-- file: / { path = $3; next }
    path != "" && /^```/ { if (inblock) { close(out); path = ""; inblock = 0 } else { out = dir "/" path; inblock = 1 }; next }
    inblock { print > out }' "$src/README.md"
for f in mygame/main.c mygame/CMakeLists.txt; do
    [ -s "$work/$f" ] || { echo "readme_own_game: the README has no block for $f"; exit 1; }
done
cd "$work" || exit 2
gen=""
command -v ninja >/dev/null && gen="-G Ninja"
# shellcheck disable=SC2086
cmake -S mygame -B mygame/build $gen -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_C_FLAGS="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS="$flags" >cmake.log 2>&1 &&
    cmake --build mygame/build >>cmake.log 2>&1 || { cat cmake.log; echo "readme_own_game: find_package build failed"; exit 1; }
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
# shellcheck disable=SC2046
cc -std=c11 $flags mygame/main.c $(pkg-config --cflags --libs strata) -o mygame/mygame-pc ||
    { echo "readme_own_game: pkg-config build failed"; exit 1; }
for bin in mygame/build/mygame mygame/mygame-pc; do
    SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy "$bin" --headless --frames 60 --screenshot shot.png \
        --arena-trace run.csv >run.log 2>&1 || { cat run.log; echo "readme_own_game: $bin failed"; exit 1; }
    cmp shot.png "$src/tests/scripts/readme_own_game.png" ||
        { echo "readme_own_game: $bin's frame differs from tests/scripts/readme_own_game.png ($work/shot.png)"; exit 1; }
    grep -q 'arena: peak' run.log || { cat run.log; echo "readme_own_game: no arena report"; exit 1; }
done
"$work/prefix/bin/arenasize" run.csv | grep -Eq '^  frame +[0-9]+ ' || { echo "readme_own_game: arenasize read no frame arena"; exit 1; }
echo "readme_own_game: built with find_package and with pkg-config, 60 frames headless, the frame as committed"
