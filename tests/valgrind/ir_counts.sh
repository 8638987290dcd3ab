#!/bin/sh
# ir_counts.sh SRC BUILD OUT - the callgrind drivers whose counts more than one test checks,
# run once each (ctest's fixture ir_counts), their output in OUT/NAME.out, .err and .rc:
#   tools/level_ir.sh BUILD 1024   the parses at 1024x1024: level_parse_ir, tmj_parse_ir and
#                                  readme_figures read it
#   tools/arena_ir.sh --check BUILD  the arena's counts and bars: arena_ir and readme_figures
#                                  (the same lines as without --check, and the verdict)
# NAME is the driver's words as readme_figures.sh names them (BUILD for the build folder,
# without --check), every character but letters and digits an underscore. Always exits 0:
# the tests that read a count judge it (a driver's exit status is in .rc, 77 without
# valgrind).
src=$1 build=$2 out=$3
rm -rf "$out" && mkdir -p "$out" || exit 1
cd "$src" || exit 1
run() { # run NAME DRIVER...
    name=$(echo "$1" | sed "s|BUILD|$build|" | tr -c 'a-zA-Z0-9\n' _)
    shift
    bash "$@" >"$out/$name.out" 2>"$out/$name.err"
    echo $? >"$out/$name.rc"
    echo "$*: exit $(cat "$out/$name.rc")"
    cat "$out/$name.out"
}
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
run "tools/level_ir.sh BUILD 1024" tools/level_ir.sh "$build" 1024
run "tools/arena_ir.sh BUILD" tools/arena_ir.sh --check "$build"
exit 0
