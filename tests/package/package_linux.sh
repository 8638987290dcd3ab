#!/bin/sh
# package_linux.sh SRC BUILD WORK - the Linux tarball as a player gets it: made by
# tools/package.sh from BUILD, unpacked into WORK/unpacked, and started by its path from
# WORK/elsewhere (no assets/ or levels/ there), where it must
#   - load SDL2 from its own lib/ (ldd), and carry no path of the source tree;
#   - play the full committed replay to its hash, and fail without its assets/
#     (package_play.sh, shared with the Windows zip's test);
#   - run its levelcheck over its own levels.
set -u
src=$1 build=$2 work=$3
rm -rf "$work" && mkdir -p "$work/unpacked" "$work/elsewhere" || exit 1
unset AD_ASSET_DIR LD_LIBRARY_PATH
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
fail() { echo "package_linux: FAIL: $*"; exit 1; }
. "$(dirname "$0")/package_play.sh"

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

package_play package_linux "" "$game" "$src/tests/replays/full-run.rep" "$work" "$top" "$top/levels/"
(cd "$work/elsewhere" && "$top/levelcheck" "$top"/levels/*.lvl >/dev/null) || fail "levelcheck over the shipped levels failed"
echo "package_linux: $(basename "$tarball") ($(stat -c %s "$tarball") bytes) plays the full run from elsewhere"
