#!/usr/bin/env bash
# The game's window under a real X server (Xvfb), with and without a window manager:
# - under openbox: WM_NORMAL_HINTS carries the minimum size (480x270) and WM_CLASS is
#   "arena-dungeon"; the WM refuses to shrink the window below it; the default 3x window,
#   too large for a 1280x1024 display, comes up at 2x; F11 covers the display and comes back;
# - with no window manager, F11 still covers the display: the X window's real geometry
#   (xwininfo) is what the platform believes (window_probe's report), and the picture
#   (viewport) lies inside it; the settings calls resize and clamp; a 320x200 window shows
#   the whole view scaled below 1x; the same on SDL's software renderer;
# - on a 320x240 display: the window and its minimum fit the display, fullscreen letterboxes
#   the whole view.
# With ImageMagick's `import`, the probe's test card is also checked on screen: its four
# corner colours are where the viewport says.
# Skips (exit 77) when Xvfb, openbox, xdotool or x11-utils are missing or no X server starts.
# $1: the game, $2: window_probe, $3: a scratch directory, $4: the shipped levels.
game=$1 probe=$2 dir=$3 levels=$4
SKIP=77
for tool in Xvfb openbox xdotool xprop xwininfo; do
    if ! command -v "$tool" >/dev/null; then
        echo "SKIP: $tool is not installed (tools/deps.sh installs xvfb openbox xdotool x11-utils)"
        exit $SKIP
    fi
done
rm -rf "$dir" && mkdir -p "$dir" || exit 1
level=$(ls "$levels"/01-*.lvl | head -n 1)
export SDL_VIDEODRIVER=x11 SDL_AUDIODRIVER=dummy
unset SDL_VIDEO_X11_WMCLASS SDL_VIDEO_WAYLAND_WMCLASS
# Mesa and Xlib keep allocations to the end of the process: not this test's business.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

XPID= WMPID= APPID=
cleanup() {
    for p in $APPID $WMPID $XPID; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
}
trap cleanup EXIT

# start_x WxH: an Xvfb on a free display (xvfb_lib.sh; exits 77 when none can start).
. "$(dirname "$0")/../xvfb_lib.sh"
start_x() { xvfb_start "$1" "$dir"; }
stop_x() { stop_app; stop_wm; kill $XPID 2>/dev/null; wait $XPID 2>/dev/null; XPID=; }

wm_running() { xprop -root _NET_SUPPORTING_WM_CHECK 2>/dev/null | grep -q 'window id'; }
start_wm() {
    openbox >"$dir/openbox.log" 2>&1 &
    WMPID=$!
    # openbox owns the WM_S0 selection once it manages the screen; xprop -root shows it took
    # _NET_SUPPORTING_WM_CHECK.
    poll wm_running && return 0
    fail "openbox did not start"; cat "$dir/openbox.log"
}
stop_wm() {
    [ -n "$WMPID" ] || return 0
    kill $WMPID 2>/dev/null; wait $WMPID 2>/dev/null; WMPID=
    xprop -root -remove _NET_SUPPORTING_WM_CHECK 2>/dev/null
}

# start_app CLASS COMMAND...: runs it, its output in $dir/app.out, and finds its window.
start_app() {
    local class=$1; shift
    "$@" >"$dir/app.out" 2>"$dir/app.err" &
    APPID=$!
    WIN=
    find_window() {
        WIN=$(xdotool search --onlyvisible --class "^$class\$" 2>/dev/null | head -n 1)
        [ -n "$WIN" ] || ! kill -0 $APPID 2>/dev/null
    }
    poll find_window
    if [ -z "$WIN" ]; then
        fail "no visible window of class $class from $*"; cat "$dir/app.err"
        stop_app
        return 1
    fi
    # Under a window manager, until it has framed the window (it sets the frame's extents).
    framed() { xprop -id "$WIN" _NET_FRAME_EXTENTS 2>/dev/null | grep -q ' = ' || ! kill -0 $APPID 2>/dev/null; }
    [ -z "$WMPID" ] || poll framed || fail "openbox did not frame the window of $class"
}
stop_app() {
    [ -n "$APPID" ] || return 0
    kill $APPID 2>/dev/null
    for _ in $(seq 100); do kill -0 $APPID 2>/dev/null || break; sleep 0.05; done
    kill -9 $APPID 2>/dev/null; wait $APPID 2>/dev/null; APPID=
}

# geom: X Y W H of $WIN on the root window, as the X server has it.
geom() {
    xwininfo -id "$WIN" | awk '/Absolute upper-left X/ {x=$4} /Absolute upper-left Y/ {y=$4}
        /^ *Width:/ {w=$2} /^ *Height:/ {h=$2} END {print x, y, w, h}'
}
# state: the probe's last report.
state() { grep -a '^state ' "$dir/app.out" | tail -n 1; }
# wait_for DESCRIPTION COMMAND...: poll COMMAND, and a failure that says what it waited for.
wait_for() {
    local what=$1; shift
    poll "$@" && return 0
    fail "$what (geometry: $(geom); probe: $(state))"
    return 1
}
geom_is() { [ "$(geom)" = "$*" ]; }
geom_size_is() { set -- $(geom) "$@"; [ "$3 $4" = "$5 $6" ]; }
state_has() { local s; s=$(state); for k in "$@"; do [[ " $s " == *" $k "* ]] || return 1; done; }
# The probe and the X server agree on the window's size, and the picture is inside it.
consistent() {
    local x y w h s
    read -r x y w h <<<"$(geom)"
    s=$(state)
    [[ $s =~ out=([0-9]+)x([0-9]+)\ viewport=(-?[0-9]+),(-?[0-9]+),([0-9]+)x([0-9]+) ]] || return 1
    local ow=${BASH_REMATCH[1]} oh=${BASH_REMATCH[2]} vx=${BASH_REMATCH[3]} vy=${BASH_REMATCH[4]}
    local vw=${BASH_REMATCH[5]} vh=${BASH_REMATCH[6]}
    [ "$ow" = "$w" ] && [ "$oh" = "$h" ] && [ "$vx" -ge 0 ] && [ "$vy" -ge 0 ] &&
        [ $((vx + vw)) -le "$w" ] && [ $((vy + vh)) -le "$h" ]
}
# on_screen SW SH: the whole window is on the SWxSH display.
on_screen() {
    local x y w h
    read -r x y w h <<<"$(geom)"
    [ "$x" -ge 0 ] && [ "$y" -ge 0 ] && [ $((x + w)) -le "$1" ] && [ $((y + h)) -le "$2" ]
}
# check_probe WHAT SW SH: consistent, on screen and, with `import`, the test card's four
# corners are on screen where the viewport puts them.
check_probe() {
    local what=$1 sw=$2 sh=$3
    wait_for "$what: the probe's window and the X window agree, the picture inside" consistent || return
    on_screen "$sw" "$sh" || fail "$what: window $(geom) is not all on the ${sw}x$sh display"
    command -v import >/dev/null || return 0
    # ImageMagick's own convert, beside its import: a convert earlier on PATH may be another.
    local convert
    convert=$(dirname "$(command -v import)")/convert
    # Until a frame at the new size is on screen.
    corner_why=
    wait_for "$what: the test card's four corners where the viewport puts them" corners_match ||
        echo "    $corner_why"
}
# corners_match: the screen now has the test card's corners where the probe's viewport is
# (the last mismatch in corner_why).
corners_match() {
    import -window root "$dir/shot.png" 2>/dev/null || { corner_why="import failed"; return 1; }
    local x y w h
    read -r x y w h <<<"$(geom)"
    [[ $(state) =~ viewport=([0-9]+),([0-9]+),([0-9]+)x([0-9]+) ]] || { corner_why="no viewport in: $(state)"; return 1; }
    local vx=$((x + BASH_REMATCH[1])) vy=$((y + BASH_REMATCH[2])) vw=${BASH_REMATCH[3]} vh=${BASH_REMATCH[4]}
    local want=("255,0,0" "0,255,0" "0,0,255" "255,255,0") got c px py
    for c in 0 1 2 3; do
        px=$((c % 2 ? vx + vw - 4 : vx + 3)) py=$((c / 2 ? vy + vh - 4 : vy + 3))
        got=$("$convert" "$dir/shot.png" -format "%[fx:int(255*p{$px,$py}.r+.5)],%[fx:int(255*p{$px,$py}.g+.5)],%[fx:int(255*p{$px,$py}.b+.5)]" info:)
        [ "$got" = "${want[$c]}" ] || { corner_why="corner $c at $px,$py is $got on screen, want ${want[$c]}"; return 1; }
    done
}
key() { xdotool key --window "$WIN" "$@"; }

# ---- 1. A window manager, a 1280x1024 display: the game ----
start_x 1280x1024
start_wm
# The game sets its minimum size once its window is up: until then the hints have none.
min_hints() { xprop -id "$WIN" WM_NORMAL_HINTS 2>/dev/null | grep -q 'minimum size: 480 by 270'; }
if start_app arena-dungeon "$game" --no-save --level "$level"; then
    wait_for "game: WM_NORMAL_HINTS with a minimum size of 480x270" min_hints
    hints=$(xprop -id "$WIN" WM_NORMAL_HINTS)
    class=$(xprop -id "$WIN" WM_CLASS)
    echo "game window: $(geom)"; echo "$hints"; echo "$class"
    grep -q 'program specified minimum size: 480 by 270' <<<"$hints" ||
        fail "WM_NORMAL_HINTS has no minimum size of 480x270"
    [ "$class" = 'WM_CLASS(STRING) = "arena-dungeon", "arena-dungeon"' ] || fail "WM_CLASS: $class"
    # 3x (1440x810) does not fit the display: 2x.
    geom_size_is 960 540 || fail "the default window is $(geom), want 960x540 (2x)"
    # openbox answers a resize below the minimum with the minimum: wait for the answer.
    xdotool windowsize "$WIN" 320 200
    wait_for "game, resized to 320x200: a new size" eval '! geom_size_is 960 540'
    read -r _ _ w h <<<"$(geom)"
    [ "$w" -ge 480 ] && [ "$h" -ge 270 ] || fail "the window manager shrank the game to ${w}x$h"
    xdotool windowsize "$WIN" 960 540
    key F11
    wait_for "game, F11 under openbox: the display" geom_is 0 0 1280 1024
    key F11
    wait_for "game, F11 again: the window back" geom_size_is 960 540
    xprop -id "$WIN" WM_NORMAL_HINTS | grep -q 'minimum size: 480 by 270' ||
        fail "the minimum size is gone after fullscreen"
    stop_app
fi
# The probe under the window manager: fullscreen and the settings calls.
if start_app window-probe "$probe"; then
    check_probe "probe under openbox" 1280 1024
    key F11
    wait_for "probe, F11 under openbox" state_has fullscreen=1 out=1280x1024 viewport=160,242,960x540
    check_probe "probe fullscreen under openbox" 1280 1024
    key 1
    wait_for "probe, scale 1 under openbox" state_has fullscreen=0 out=480x270 window_scale=1
    check_probe "probe at 1x under openbox" 1280 1024
    stop_app
fi
stop_wm

# ---- 2. No window manager: F11 used to leave the view cropped ----
if start_app arena-dungeon "$game" --no-save --level "$level"; then
    wait_for "no WM: WM_NORMAL_HINTS with a minimum size of 480x270" min_hints
    key F11
    wait_for "game, F11 with no window manager: the display" geom_is 0 0 1280 1024
    key F11
    wait_for "game, F11 again with no window manager: the window back" geom_size_is 960 540
    stop_app
fi
if start_app window-probe "$probe"; then
    # The default backend in a window is OpenGL (Mesa's llvmpipe under Xvfb). The window
    # can be up before the probe has written its first line.
    wait_for "the probe's renderer line" grep -q '^renderer ' "$dir/app.out"
    grep -Eq '^renderer gl: OpenGL [34]\.' "$dir/app.out" || fail "default backend: $(head -n 1 "$dir/app.out"), want OpenGL 3.3 or later"
    check_probe "probe, no WM" 1280 1024
    state_has out=960x540 window_scale=2 || fail "no WM: the probe starts as $(state), want 2x"
    # 3x (1440x810) does not fit 1280x1024: a settings menu offers up to 2x.
    state_has max_scale=2 || fail "1280x1024 display: $(state), want max_scale=2"
    key F11
    wait_for "probe, F11 with no WM" state_has fullscreen=1 out=1280x1024 viewport=160,242,960x540 scale=2.0000
    wait_for "probe, F11 with no WM: the X window covers the display" geom_is 0 0 1280 1024
    check_probe "probe fullscreen, no WM" 1280 1024
    key F11
    wait_for "probe, F11 again with no WM" state_has fullscreen=0 out=960x540
    check_probe "probe back from fullscreen, no WM" 1280 1024
    key 1
    wait_for "probe, scale 1" state_has out=480x270 window_scale=1 viewport=0,0,480x270
    check_probe "probe at 1x" 1280 1024
    key 6
    wait_for "probe, scale 6 clamped to the display" state_has out=960x540 window_scale=2
    key f
    wait_for "probe, st_platform_set_fullscreen" state_has fullscreen=1 out=1280x1024
    check_probe "probe fullscreen by the settings call" 1280 1024
    key 1
    wait_for "probe, scale 1 leaves fullscreen" state_has fullscreen=0 out=480x270 window_scale=1
    # Below 1x: no WM enforces the minimum size, so the window can be 320x200.
    xdotool windowsize "$WIN" 320 200
    wait_for "probe at 320x200: the whole view, below 1x" state_has out=320x200 viewport=0,10,320x180
    check_probe "probe at 320x200" 1280 1024
    stop_app
fi
# The same fullscreen on SDL's software renderer (no GPU: the game's fallback).
if SDL_RENDER_DRIVER=software start_app window-probe "$probe" --renderer sdl; then
    wait_for "SDL_RENDER_DRIVER=software: the renderer line ($(head -n 1 "$dir/app.out"))" \
        grep -qx 'renderer sdl: SDL_Renderer (software)' "$dir/app.out"
    key F11
    wait_for "software renderer, F11 with no WM" state_has fullscreen=1 out=1280x1024
    check_probe "software renderer fullscreen, no WM" 1280 1024
    stop_app
fi
stop_x

# ---- 3. A 320x240 display, with a window manager: smaller than the logical size ----
start_x 320x240
start_wm
if start_app window-probe "$probe" --scale 3; then
    check_probe "probe on a 320x240 display" 320 240
    state_has window_scale=1 max_scale=1 || fail "320x240 display: $(state), want window_scale=1 max_scale=1"
    hints=$(xprop -id "$WIN" WM_NORMAL_HINTS)
    [[ $hints =~ minimum\ size:\ ([0-9]+)\ by\ ([0-9]+) ]] &&
        [ "${BASH_REMATCH[1]}" -le 320 ] && [ "${BASH_REMATCH[2]}" -le 240 ] ||
        fail "320x240 display: the minimum size does not fit it: $hints"
    key F11
    wait_for "probe fullscreen on 320x240" state_has fullscreen=1 out=320x240 viewport=0,30,320x180
    check_probe "probe fullscreen on 320x240" 320 240
    stop_app
fi
stop_x

if [ $fails -ne 0 ]; then
    echo "$fails check(s) failed"
    exit 1
fi
echo "window test: all checks passed"
