#!/bin/sh
# strict_build.sh SOURCE_DIR WORK_DIR CMAKE GENERATOR C_COMPILER - a missing piece of the
# tree is a configure error, never a test or tool that quietly is not there. WORK_DIR gets
# a mirror of the source tree (real folders, files as links), configured once as it is
# (it must configure), then again with one piece taken away (or one unlisted test added)
# at a time: each configure must fail, and its error must name the piece. Configure only,
# nothing is built.
set -u
src=$1 work=$2 cmake=$3 gen=$4 cc=$5
tree=$work/tree build=$work/build log=$work/configure.log
rm -rf "$work" && mkdir -p "$tree" || exit 1
for e in "$src"/*; do
    [ "${e##*/}" = build ] || cp -as "$e" "$tree/" || exit 1
done

configure() {
    "$cmake" -S "$tree" -B "$build" -G "$gen" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER="$cc" >"$log" 2>&1
}
if ! configure; then
    cat "$log"
    echo "FAIL: the untouched mirror of the tree does not configure (see above)"
    exit 1
fi
echo "the tree as it is configures"

fails=0
# expect_failure WHAT MESSAGE: the tree as it is now must not configure, saying MESSAGE.
expect_failure() {
    if configure; then
        echo "FAIL: $1: the configure succeeded"
        fails=$((fails + 1))
    elif ! tr -s '\n ' '  ' <"$log" | grep -q "$2"; then
        cat "$log"
        echo "FAIL: $1: the configure failed without naming it ('$2' not in the output above)"
        fails=$((fails + 1))
    else
        echo "$1: the configure fails, naming it"
    fi
}
# without PATH [NAME]: the mirror without PATH must not configure, and the error names PATH
# (or NAME, as CMake's own error does: a target's source by the name its CMakeLists gives).
without() {
    mv "$tree/$1" "$work/away" || exit 1
    expect_failure "without $1" "${2:-$1}"
    mv "$work/away" "$tree/$1"
}
without tests/core/test_arena.c     # a test program's source
without tests/audio/test_mixer.c    # one of a folder's list of tests
without tools/levelcheck            # a tool (the tests that use it would be gone too)
without tools/levelfmt/levelfmt.c "Cannot find source file: levelfmt.c"  # a tool's source: CMake's own error
without tests/game/fault_sweep.sh   # a test's script
without tests/fuzz/tmj.sh           # a fuzz target's description
without tests/layering              # a folder of tests
# A test source that no list names would never run.
: >"$tree/tests/core/test_unlisted.c"
expect_failure "with an unlisted tests/core/test_unlisted.c" "tests/core/test_unlisted.c is in no list"
rm -f "$tree/tests/core/test_unlisted.c"

[ "$fails" -eq 0 ] || exit 1
echo "every missing piece is a configure error"
