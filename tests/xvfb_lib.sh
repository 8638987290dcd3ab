# xvfb_lib.sh - sourced by the tests that need a real X server. xvfb_start WxH DIR starts
# an Xvfb on a free display number (it picks one and reports it through -displayfd), exports
# DISPLAY, and keeps its pid in XPID; when no server can be started it prints why and exits
# 77, which ctest reports as a skip (SKIP_RETURN_CODE), never as a pass. -noreset: by
# default the server resets when its last client leaves, and refuses connections a while.
xvfb_start() {
    if ! command -v Xvfb >/dev/null; then
        echo "SKIP: Xvfb is not installed (tools/deps.sh installs xvfb)"
        exit 77
    fi
    rm -f "$2/displayfd"
    Xvfb -displayfd 3 -screen 0 "$1x24" -nolisten tcp -noreset 3>"$2/displayfd" >"$2/xvfb.log" 2>&1 &
    XPID=$!
    for _ in $(seq 100); do
        [ -s "$2/displayfd" ] && break
        kill -0 $XPID 2>/dev/null || break
        sleep 0.05
    done
    if [ ! -s "$2/displayfd" ]; then
        echo "SKIP: Xvfb did not start:"; cat "$2/xvfb.log"
        exit 77
    fi
    export DISPLAY=":$(head -n 1 "$2/displayfd")"
}
