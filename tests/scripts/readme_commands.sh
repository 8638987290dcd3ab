#!/bin/sh
# The README's commands work as written. Blocks it marks with a comment are checked:
#   <!-- checked: the synopsis of `game --help` ... -->  the block is game --help's synopsis
#   <!-- checked: run as written ... -->                every line of the sh block runs, in
#       a folder laid out as the source tree (tools, levels, assets, build/release: links),
#       with exit status 0; a line that starts the game gets "--headless --no-save
#       --frames 30" after it (what it does not give itself), so it plays a moment
#       without a window and ends.
# readme_commands.sh SOURCE_DIR BUILD_DIR MODE (synopsis or recipes). Skips (77) when a
# command a block needs (tiled) is not installed.
src=$1 build=$2 mode=$3
readme=$src/README.md
# The block after the marker line $1, without its fences.
block() {
    awk -v m="$1" 'index($0, m) == 1 { found = 1; next }
        found && /^```/ { if (inside) exit; inside = 1; next }
        inside { print }' "$readme"
}
case $mode in
synopsis)
    want=$(block '<!-- checked: the synopsis of `game --help`')
    got=$("$build/game/game" --help | awk '/^  --/ { exit } { print }')
    [ -n "$want" ] || { echo "FAIL: no synopsis block in the README"; exit 1; }
    if [ "$want" != "$got" ]; then
        echo "FAIL: the README's synopsis is not game --help's:"
        printf '%s\n' "$want" >"$build/readme.want"; printf '%s\n' "$got" >"$build/readme.got"
        diff "$build/readme.want" "$build/readme.got"
        exit 1
    fi
    echo "the synopsis ($(printf '%s\n' "$want" | wc -l) lines) is game --help's"
    exit 0 ;;
recipes) ;;
*) echo "usage: readme_commands.sh SOURCE_DIR BUILD_DIR synopsis|recipes"; exit 2 ;;
esac

grep -c '^<!-- checked: run as written' "$readme" >/dev/null || { echo "FAIL: no block marked to run"; exit 1; }
command -v tiled >/dev/null || { echo "SKIP: tiled is not installed (the Tiled recipe needs it)"; exit 77; }
dir=$(mktemp -d) || exit 2
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/tree/build" "$dir/home"
for f in tools levels assets CMakePresets.json CMakeLists.txt engine game tests; do ln -s "$src/$f" "$dir/tree/$f"; done
ln -s "$build" "$dir/tree/build/release"
export HOME="$dir/home" XDG_DATA_HOME="$dir/home/data" XDG_CONFIG_HOME="$dir/home/config"
export QT_QPA_PLATFORM=offscreen SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
n=0 fail=0
# Each marked block, one line at a time (a comment after '#' is the README's, not the shell's).
awk '/^<!-- checked: run as written/ { found = 1; next }
     found && /^```/ { if (inside) { found = 0; inside = 0 } else inside = 1; next }
     inside { print }' "$readme" >"$dir/lines"
while IFS= read -r line; do
    [ -n "$line" ] || continue
    case $line in
    build/release/game/game*)
        # A moment without a window, for the flags the line does not give itself.
        for flag in --headless --no-save; do
            case " $line " in *" $flag "*) ;; *) line="$line $flag" ;; esac
        done
        case " $line " in *" --frames "* | *" --replay "*) ;; *) line="$line --frames 30" ;; esac ;;
    esac
    n=$((n + 1))
    if ! (cd "$dir/tree" && sh -c "$line") >"$dir/out" 2>&1; then
        echo "FAIL: as written, this exits non-zero: $line"
        tail -n 15 "$dir/out"
        fail=1
    else
        echo "ran: $line"
    fi
done <"$dir/lines"
[ $n -gt 0 ] || { echo "FAIL: the marked blocks hold no command"; exit 1; }
exit $fail
