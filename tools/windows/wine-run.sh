#!/bin/sh
# wine-run.sh PROGRAM [ARGS...] - a Windows program under wine64 (or wine), as ctest and
# the build's own commands start it (the Windows build's CMAKE_CROSSCOMPILING_EMULATOR). Its
# status and output are the program's; a status none of the project's programs returns
# (0, 1, 2 and 77 are theirs: a crash's code, or Wine's own refusal to start it) is
# reported on stderr with what was running, so a failure under Wine never reads as nothing.
# AD_WINE_BIN: the wine to run it with (a test's stand-in).
wine=${AD_WINE_BIN:-/usr/lib/wine/wine64}
[ -x "$wine" ] || wine=$(command -v wine64 || command -v wine) || { echo "wine-run: no wine64 or wine to run $1" >&2; exit 127; } # deps: wine64
start=$(date +%s%N)
"$wine" "$@"
rc=$?
case $rc in
0 | 1 | 2 | 77) ;;
*)
    ms=$((($(date +%s%N) - start) / 1000000))
    server=none
    for s in /tmp/.wine-"$(id -u)"/server-*/socket; do [ -S "$s" ] && server=$s; done
    echo "wine-run: $1 exited with status $rc after $ms ms under $wine (WINEPREFIX=${WINEPREFIX:-~/.wine}, wineserver socket: $server)" >&2
    ;;
esac
exit $rc
