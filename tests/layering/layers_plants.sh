#!/bin/sh
# layers_plants.sh ROOT WORK - tools/layers.sh --check (ctest layers_picture) must fail when
# the picture is not what the tree builds. WORK gets a mirror of ROOT (links; docs/ a real
# copy), which must pass as it is; then one change at a time is planted and the check must
# fail naming it: a link added, a link taken away, a source added to a layer, a new engine
# program in engine/app linking the engine as a whole archive (drawn without the link's
# markers; where Graphviz is installed, the redraw must put it in the engine's row and pass
# again), a folder in no layer, a drawing not made from the .dot. A test program's link
# must not count.
set -u
root=$1 work=$2
tree=$work/tree out=$work/check.log
fails=0

# The mirror is made once; fresh undoes the last plant (the files it owned or made).
planted=""
# Only the folders a plant changes are real (OPEN); everything else is one link, file or
# folder, so the mirror is a few hundred links, not the fuzz corpora's thousands.
OPEN=" engine game game/rules tools tools/levelfmt tests tests/game "
link_tree() { # link_tree REL: $tree/REL a real folder of links to $root/REL's entries
    mkdir -p "$tree/$1" || exit 1
    for e in "$root/$1"/*; do
        rel=${e#"$root"/}
        case "$OPEN" in
        *" $rel "*) link_tree "$rel" ;;
        *) ln -s "$e" "$tree/$rel" || exit 1 ;;
        esac
    done
}
mirror() {
    rm -rf "$work" && mkdir -p "$tree" || exit 1
    for e in "$root"/*; do
        rel=${e##*/}
        case $rel in build | docs) continue ;; esac
        case "$OPEN" in
        *" $rel "*) link_tree "$rel" ;;
        *) ln -s "$e" "$tree/$rel" || exit 1 ;;
        esac
    done
    cp -R "$root/docs" "$tree/docs" || exit 1
}
fresh() {
    for f in $planted; do
        rm -rf "$tree/$f"
        if [ -e "$root/$f" ]; then
            case $f in docs/*) cp "$root/$f" "$tree/$f" ;; *) ln -s "$root/$f" "$tree/$f" ;; esac || exit 1
        fi
    done
    planted=""
}
# own FILE: FILE in the mirror becomes a real copy, so a plant does not reach ROOT.
own() {
    planted="$planted $1"
    rm -f "$tree/$1" && cp "$root/$1" "$tree/$1" || exit 1
}
# made PATH: PATH is new in the mirror; fresh takes it away.
made() {
    planted="$planted $1"
}
check() {
    bash "$tree/tools/layers.sh" --check "$work/build" >"$out" 2>&1
}
# expect fail|pass WHAT TEXT: the check on the mirror as planted fails (or passes) and its
# output holds TEXT.
expect() {
    check
    rc=$?
    if [ "$1" = fail ] && [ $rc -ne 1 ]; then
        echo "NOT CAUGHT: $2 (exit $rc)"
    elif [ "$1" = pass ] && [ $rc -ne 0 ]; then
        echo "FALSE ALARM: $2 (exit $rc)"
    elif ! grep -qF -- "$3" "$out"; then
        echo "NOT NAMED: $2: '$3' is not in the output"
    else
        echo "ok: $1: $2"
        return 0
    fi
    sed 's/^/    /' "$out"
    fails=$((fails + 1))
}

mirror
expect pass "the tree as it is" "are the tree's"

fresh
own tools/levelfmt/CMakeLists.txt
echo 'target_link_libraries(levelfmt PRIVATE game_rules)' >>"$tree/tools/levelfmt/CMakeLists.txt"
expect fail "a link added (levelfmt -> game_rules)" '+  "levelfmt" -> "game_rules" [style=dashed];'
grep -qF 'run tools/layers.sh' "$out" || { echo "NOT SAID: the command to run"; fails=$((fails + 1)); }

fresh
own engine/CMakeLists.txt
sed -i 's/PUBLIC PkgConfig::SDL2 /PUBLIC /' "$tree/engine/CMakeLists.txt"
expect fail "a link taken away (engine -> SDL2)" '-  "engine" -> "sys:SDL2";'

fresh
made game/rules/planted.c
echo 'int rules_planted(void) { return 1; }' >"$tree/game/rules/planted.c"
n=$(ls "$tree"/game/rules/*.c | wc -l) # the planted one included: the folder's count as redrawn
expect fail "a source added to game/rules" "+  \"game_rules\" [label=\"game_rules\\ngame/rules  $((n)) .c\""

fresh
own engine/CMakeLists.txt
own docs/layers.dot
own docs/layers.svg
made engine/app
mkdir -p "$tree/engine/app"
echo 'int main(void) { return 0; }' >"$tree/engine/app/host.c"
printf 'add_executable(engine_app app/host.c)\ntarget_link_libraries(engine_app PRIVATE $<LINK_LIBRARY:WHOLE_ARCHIVE,engine>)\n' >>"$tree/engine/CMakeLists.txt"
expect fail "a new engine program in engine/app" '+  "engine_app" -> "engine" [style=dashed];'
if grep -q LINK_LIBRARY "$out"; then
    echo "DRAWN WRONG: the whole-archive link's markers are in the picture"
    sed 's/^/    /' "$out"
    fails=$((fails + 1))
fi
if command -v dot >/dev/null; then
    if bash "$tree/tools/layers.sh" "$work/build" >"$out" 2>&1 &&
        grep -qE '\{ rank=same; "layer:engine";.* "engine_app";' "$tree/docs/layers.dot"; then
        expect pass "the redraw has engine_app in the engine's row" "are the tree's"
    else
        echo "NOT DRAWN: the redraw did not put engine_app in the engine's row"
        sed 's/^/    /' "$out"
        fails=$((fails + 1))
    fi
else
    echo "skipped: the redraw with engine_app (Graphviz's dot is not installed)"
fi

fresh
own game/CMakeLists.txt
made game/extra
mkdir -p "$tree/game/extra"
echo 'int extra_planted(void) { return 1; }' >"$tree/game/extra/extra.c"
echo 'add_library(game_extra STATIC extra/extra.c)' >>"$tree/game/CMakeLists.txt"
expect fail "a folder in no layer (game/extra)" "game/extra (target game_extra) is in no layer"

fresh
own docs/layers.svg
sed -i 's/drawn from layers.dot sha256 [0-9a-f]*/drawn from layers.dot sha256 0000/' "$tree/docs/layers.svg"
expect fail "a drawing not made from the .dot" "docs/layers.svg was not drawn from docs/layers.dot"

fresh
own tests/game/CMakeLists.txt
echo 'target_link_libraries(test_level PRIVATE gamelib)' >>"$tree/tests/game/CMakeLists.txt"
expect pass "a test program's link (test programs are not drawn)" "are the tree's"

rm -rf "$work"
[ $fails -eq 0 ] && echo "every plant caught" || echo "$fails plant(s) not caught"
exit $((fails != 0))
