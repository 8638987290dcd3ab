#!/bin/sh
# wine_run.sh WINE_RUN - tools/windows/wine-run.sh, with a stand-in for wine that exits with
# the status it is given: 0, 1, 2 and 77 (the project's programs' own) pass through with
# nothing added; any other status passes through too, said on stderr with the program.
run=$1
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
printf '#!/bin/sh\necho "the program: $1"\nexit "$2"\n' >"$t/wine" && chmod +x "$t/wine" || exit 2
fail=0
for status in 0 1 2 77 3 134; do
    AD_WINE_BIN=$t/wine sh "$run" prog.exe "$status" >"$t/out" 2>"$t/err"
    rc=$?
    [ $rc -eq "$status" ] || { echo "FAIL: status $status came out as $rc"; fail=1; }
    grep -qx 'the program: prog.exe' "$t/out" || { echo "FAIL: status $status: the program's output is not through:"; cat "$t/out"; fail=1; }
    case $status in
    0 | 1 | 2 | 77)
        [ -s "$t/err" ] && { echo "FAIL: status $status, a status of ours, was said:"; cat "$t/err"; fail=1; } ;;
    *)
        grep -q "^wine-run: prog.exe exited with status $status after [0-9]* ms under $t/wine (WINEPREFIX=.*, wineserver socket: .*)\$" "$t/err" ||
            { echo "FAIL: status $status was not said:"; cat "$t/err"; fail=1; }
        echo "status $status: $(cat "$t/err")" ;;
    esac
done
[ $fail -eq 0 ] && echo "wine-run: every status through, the ones none of ours returns said"
exit $fail
