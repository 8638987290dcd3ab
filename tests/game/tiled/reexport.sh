#!/bin/sh
# The Tiled fixtures are what lvl2tiled and Tiled write today: exports every shipped level
# with lvl2tiled into a temporary folder, has the real Tiled export each map (and each
# variants/*.tmx) as JSON, and compares every file with the committed one, byte for byte;
# then levelcheck loads the fresh maps. Skips (77) when Tiled is not installed.
#   reexport.sh SOURCE_DIR LVL2TILED LEVELCHECK
set -u
src=$1 lvl2tiled=$2 levelcheck=$3
fix=$src/tests/game/tiled
if ! command -v tiled >/dev/null; then
    echo "SKIP: tiled is not installed (apt-get install --no-install-recommends tiled): the committed .tmj files are not re-checked"
    exit 77
fi
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
export QT_QPA_PLATFORM=offscreen HOME="$tmp/home"
# The variants' tilesets name the art by a relative path: the same tree, so it is the same.
out=$tmp/tests/game/tiled
mkdir -p "$HOME" "$out/levels" "$out/variants"
ln -s "$src/assets" "$tmp/assets"
"$lvl2tiled" --assets "$src/assets" -o "$out/levels" "$src"/levels/*.lvl || { echo "FAIL: lvl2tiled"; exit 1; }
cp "$fix"/variants/*.tmx "$out/variants/"
fails=0 maps=0
for f in "$out"/levels/*.tmx "$out"/variants/*.tmx; do
    rel=${f#"$out"/}
    # Tiled 1.8.2 can spin forever on corrupt layer data: never call it unbounded.
    if ! timeout 20 tiled --export-map json "$f" "${f%.tmx}.tmj" 2>/dev/null; then
        echo "FAIL: tiled could not export $rel"; fails=$((fails + 1)); continue
    fi
    maps=$((maps + 1))
    for o in "$f" "${f%.tmx}.tmj"; do
        r=${o#"$out"/}
        cmp -s "$o" "$fix/$r" || { echo "FAIL: $r differs from the committed tests/game/tiled/$r (tests/game/tiled/regen.sh)"; fails=$((fails + 1)); }
    done
done
"$levelcheck" "$out"/levels/*.tmj >"$tmp/levelcheck.out" 2>&1 || { cat "$tmp/levelcheck.out"; echo "FAIL: levelcheck"; fails=$((fails + 1)); }
[ "$fails" -eq 0 ] || exit 1
echo "reexport: $maps maps exported by $(tiled --version 2>/dev/null | head -n 1), all as committed, all load"
