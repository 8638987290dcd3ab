#!/usr/bin/env bash
# The editor's unsaved edits and a real window and process, under Xvfb with openbox:
# - closing the window (Alt+F4, the window manager's close) with an unsaved edit asks, and
#   the game keeps running; closing again quits without saving, and keeps nothing;
# - closing, then Ctrl+S at the question: saved, and the game quits;
# - SIGTERM (kill) with an unsaved edit: the game ends, FILE.unsaved holds the edit, FILE
#   does not, and stderr says where it went; SIGINT the same;
# - the next --edit FILE asks; Enter takes the edit back, Ctrl+S saves it into FILE, the
#   .unsaved goes.
# The edit is the level's name (N, a letter, Enter): keys only, wherever the map lies.
# Skips (exit 77) when Xvfb, openbox or xdotool are missing or no X server starts.
# $1: the game, $2: a scratch directory.
game=$1 dir=$2
SKIP=77
for tool in Xvfb openbox xdotool; do
    if ! command -v "$tool" >/dev/null; then
        echo "SKIP: $tool is not installed (tools/deps.sh installs xvfb openbox xdotool)"
        exit $SKIP
    fi
done
rm -rf "$dir" && mkdir -p "$dir" || exit 1
export SDL_VIDEODRIVER=x11 SDL_AUDIODRIVER=dummy XDG_DATA_HOME="$dir/data"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

XPID= WMPID= APPID=
cleanup() {
    for p in $APPID $WMPID $XPID; do kill -9 "$p" 2>/dev/null; done
    wait 2>/dev/null
}
trap cleanup EXIT
. "$(dirname "$0")/../xvfb_lib.sh"
xvfb_start 1280x800 "$dir"
openbox >"$dir/openbox.log" 2>&1 &
WMPID=$!
wm_running() { xprop -root _NET_SUPPORTING_WM_CHECK 2>/dev/null | grep -q 'window id'; }
poll wm_running

level="$dir/w.lvl"
original='name: Window
map:
############
#@.........#
#..........#
#.........X#
############
end'

# find_window: the game's window in WIN, or the game is gone.
find_window() {
    WIN=$(xdotool search --onlyvisible --class '^arena-dungeon$' 2>/dev/null | head -n 1)
    [ -n "$WIN" ] || ! kill -0 $APPID 2>/dev/null
}
# start: the game editing $level, its window found and focused.
start() {
    "$game" --edit "$level" --no-save >"$dir/out" 2>"$dir/err" &
    APPID=$!
    WIN=
    poll find_window
    [ -n "$WIN" ] || { fail "no window"; cat "$dir/err"; return 1; }
    xdotool windowactivate --sync "$WIN" 2>/dev/null
    synced
}
# synced: F12, then wait for its screenshot: the game has handled every key sent before it,
# so each key sent after lands in a later frame (a slow frame gets them all at once, and a
# key that opens a prompt leaves the rest of its frame's keys unseen).
shots="$XDG_DATA_HOME/arena-dungeon/screenshots"
synced() {
    local before
    before=$(ls "$shots" 2>/dev/null | wc -l)
    xdotool key F12
    shot_or_gone() { [ "$(ls "$shots" 2>/dev/null | wc -l)" -gt "$before" ] || ! kill -0 $APPID 2>/dev/null; }
    if poll shot_or_gone; then kill -0 $APPID 2>/dev/null; return; fi
    fail "the game did not answer F12"
    return 1
}
keys() { xdotool key "$@"; synced; }
rename() { keys n; xdotool type "$1"; synced; keys Return; }
close_window() { keys alt+F4; }
# ended: true once the game has exited (its status in $RC).
gone() { ! kill -0 $APPID 2>/dev/null; }
ended() {
    poll gone || return 1
    wait $APPID; RC=$?; APPID=
}
# wm_synced: openbox has handled every key sent before (Alt+F4 included, so the game has
# its close): it changes the number of desktops only after them, and the root window says so.
desktops() { xprop -root _NET_NUMBER_OF_DESKTOPS 2>/dev/null | awk '{print $NF}'; }
wm_synced() {
    local want=2
    [ "$(desktops)" = 2 ] && want=1
    xdotool set_num_desktops $want
    desktops_are() { [ "$(desktops)" = "$want" ]; }
    poll desktops_are || { fail "openbox did not change the number of desktops"; return 1; }
}
# running: still there once the game has handled the close (and a key after it).
running() { wm_synced && synced && kill -0 $APPID 2>/dev/null; }

# 1. Close, asked; close again: quits without saving, keeps nothing.
printf '%s\n' "$original" >"$level"
start || exit 1
rename Z
close_window
running || fail "the first close quit with an unsaved edit"
close_window
ended || fail "the second close did not quit"
[ "${RC:-1}" = 0 ] || fail "quit without saving: status $RC"
grep -q 'WindowZ' "$level" && fail "quit without saving saved"
[ -e "$level.unsaved" ] && fail "quit without saving kept $level.unsaved"

# 2. Close, then Ctrl+S at the question: saved, and quits.
start || exit 1
rename Y
close_window
running || fail "the close quit with an unsaved edit"
keys ctrl+s
ended || fail "Ctrl+S at the question did not quit"
grep -q '^name: WindowY$' "$level" || { fail "Ctrl+S at the question did not save"; cat "$level"; }

# 3. SIGTERM, then SIGINT: the edit beside the file, said on stderr.
for sig in TERM INT; do
    printf '%s\n' "$original" >"$level"
    touch -d '2001-01-01' "$level"
    rm -f "$level.unsaved" "$level.unsaved.old"
    start || exit 1
    rename X
    kill -$sig $APPID
    ended || fail "SIG$sig did not end the game"
    grep -q '^name: WindowX$' "$level.unsaved" 2>/dev/null || fail "SIG$sig: the edit is not in $level.unsaved"
    grep -q 'WindowX' "$level" && fail "SIG$sig: the file was changed"
    grep -q "SIG$sig.*kept in $level.unsaved" "$dir/err" || { fail "SIG$sig: stderr does not say so"; cat "$dir/err"; }
done

# 4. The next --edit asks; Enter takes it back; Ctrl+S saves it; Esc quits.
start || exit 1
keys Return
keys ctrl+s
keys Escape
ended || fail "Esc after saving did not quit"
grep -q '^name: WindowX$' "$level" || { fail "the edit taken back was not saved"; cat "$level"; }
[ -e "$level.unsaved" ] && fail "$level.unsaved is still there after its edits were saved"

[ $fails -eq 0 ] && echo "edit_window: all passed"
exit $((fails > 0))
