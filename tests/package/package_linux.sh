#!/bin/sh
# package_linux.sh SRC BUILD WORK - the Linux tarball as a player gets it: made by
# tools/package.sh from BUILD, unpacked into WORK/unpacked, and started by its path from
# WORK/elsewhere (no assets/ or levels/ there), where it must
#   - load SDL2 from its own lib/ (ldd), and carry no path of the source tree;
#   - play the full committed replay to its hash ("(matches)"), on the unpacked levels (the
#     exit report names each level it played by path), with its sound mixed offline into a
#     WAV (--audio-out: headless, the sounds and music would not be read), all of it loaded;
#   - with its assets/ taken away, fail saying no assets folder was found: it never falls
#     back on the source tree's art (which is what would hide a package without its own);
#   - run its levelcheck over its own levels.
set -u
src=$1 build=$2 work=$3
rm -rf "$work" && mkdir -p "$work/unpacked" "$work/elsewhere" || exit 1
unset AD_ASSET_DIR LD_LIBRARY_PATH
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
fail() { echo "package_linux: FAIL: $*"; exit 1; }

"$src/tools/package.sh" linux --release-dir "$build" --out "$work/dist" || fail "tools/package.sh linux failed"
tarball=$(ls "$work"/dist/arena-dungeon-*-linux-x86_64.tar.gz) || fail "no tarball in $work/dist"
tar -C "$work/unpacked" -xzf "$tarball" || fail "cannot unpack $tarball"
top=$(ls -d "$work"/unpacked/arena-dungeon-*) || fail "no arena-dungeon-VER/ folder at the top"
[ "$(ls "$work/unpacked" | wc -l)" -eq 1 ] || fail "more than one thing at the top: $(ls "$work/unpacked")"
game=$top/game

for lib in libSDL2-2.0.so.0; do
    ldd "$game" | grep -qF "$lib => $top/lib/$lib" || fail "the game does not load $top/lib/$lib: $(ldd "$game" | grep "$lib")"
done
# The tree's path as a string of its own (the game's compiled-in search); a sanitizer build
# names its source files beneath it, which is not a search.
if LC_ALL=C grep -qaP "\\Q$src\\E\\x00" "$game"; then fail "the game names the source tree $src"; fi

# The replay names its level "levels/01-first-steps.lvl": found beside the game's assets.
out=$(cd "$work/elsewhere" && "$game" --headless --no-save --replay "$src/tests/replays/full-run.rep" \
    --audio-out "$work/run.wav" 2>&1); rc=$?
rm -f "$work/run.wav"
printf '%s\n' "$out" | grep -v '^  '
[ $rc -eq 0 ] || fail "the full replay exited $rc"
printf '%s\n' "$out" | grep -q "^replay .*: played to the end, 7 levels completed, hash .* (matches)$" ||
    fail "the full replay did not end on its hash"
printf '%s\n' "$out" | grep -q "^sound data: .* files, 0 missing)$" || fail "the sounds and music did not all load"
if printf '%s\n' "$out" | grep -q "error:"; then fail "the run reported an error"; fi
for n in 01 02 03 04 05 06 07; do
    printf '%s\n' "$out" | grep -q "^  $top/levels/$n-" || fail "level $n was not played from $top/levels"
done

mv "$top/assets" "$top/assets.away"
out=$(cd "$work/elsewhere" && "$game" --headless --no-save --frames 2 --level "$top/levels/01-first-steps.lvl" 2>&1); rc=$?
mv "$top/assets.away" "$top/assets"
[ $rc -ne 0 ] && printf '%s\n' "$out" | grep -q "no assets folder found" ||
    fail "without its assets/ the game exited $rc and said: $out"

(cd "$work/elsewhere" && "$top/levelcheck" "$top"/levels/*.lvl >/dev/null) || fail "levelcheck over the shipped levels failed"
echo "package_linux: $(basename "$tarball") ($(stat -c %s "$tarball") bytes) plays the full run from elsewhere"
