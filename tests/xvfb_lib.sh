# xvfb_lib.sh - sourced by the tests that need a real X server. xvfb_start WxH DIR starts
# an Xvfb on a free display number (it picks one and reports it through -displayfd), exports
# DISPLAY, and keeps its pid in XPID; when no server can be started it prints why and exits
# 77, which ctest reports as a skip (SKIP_RETURN_CODE), never as a pass. -noreset: by
# default the server resets when its last client leaves, and refuses connections a while.
# poll COMMAND...: COMMAND again until it succeeds; false once POLL_GUARD seconds have
# passed, a bound only a hang reaches (on a machine busy with builds the X server, a window
# manager and a game can take seconds to settle; a pass takes milliseconds).
POLL_GUARD=${POLL_GUARD:-180}
poll() {
    _poll_end=$(($(date +%s) + POLL_GUARD))
    until "$@"; do
        [ "$(date +%s)" -lt "$_poll_end" ] || return 1
        sleep 0.05
    done
}

# xvfb_up DIR: the display number is written, or the server is gone.
xvfb_up() { [ -s "$1/displayfd" ] || ! kill -0 $XPID 2>/dev/null; }
xvfb_start() {
    if ! command -v Xvfb >/dev/null; then
        echo "SKIP: Xvfb is not installed (tools/deps.sh installs xvfb)"
        exit 77
    fi
    rm -f "$2/displayfd"
    Xvfb -displayfd 3 -screen 0 "$1x24" -nolisten tcp -noreset 3>"$2/displayfd" >"$2/xvfb.log" 2>&1 &
    XPID=$!
    poll xvfb_up "$2"
    if [ ! -s "$2/displayfd" ]; then
        echo "SKIP: Xvfb did not start:"; cat "$2/xvfb.log"
        exit 77
    fi
    export DISPLAY=":$(head -n 1 "$2/displayfd")"
}
