#!/bin/sh
# with_xvfb.sh COMMAND [ARG...] - runs COMMAND with DISPLAY on a fresh Xvfb (1280x800) and
# exits with its status; exits 77 (a ctest skip) when no X server can be started.
set -u
tmp=$(mktemp -d) || exit 1
. "$(dirname "$0")/xvfb_lib.sh"
XPID=
trap 'kill ${XPID:-} 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
xvfb_start 1280x800 "$tmp"
export SDL_VIDEODRIVER=x11
"$@"
