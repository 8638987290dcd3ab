#!/usr/bin/env bash
# Installs what is missing, builds the release preset and starts the game on the first
# level. Without a display ($DISPLAY and $WAYLAND_DISPLAY empty) it says so and plays the
# committed full-run replay headless instead, which ends with the arena report.
# Extra arguments go to the game: tools/play.sh --level levels/05-the-hunt.lvl
#
# tools/play.sh --web [PORT] builds the browser version (tools/web.sh), serves build/web on
# 127.0.0.1 (port 8080, or a free one) and prints the URL to open.
set -euo pipefail
if [[ "${1:-}" == --help || "${1:-}" == -h ]]; then sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0; fi
cd "$(dirname "$0")/.."

if [[ "${1:-}" == --web ]]; then
  tools/web.sh
  exec node tools/web/serve.mjs build/web "${2:-8080}"
fi
source tools/deps.sh
deps_install_play # only what playing needs: tools/test.sh installs the test stack

cmake --preset release >/dev/null
cmake --build --preset release -j2 --target game
game=build/release/game/game

if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]]; then
  echo "play.sh: no display (DISPLAY and WAYLAND_DISPLAY are empty); playing the recorded" >&2
  echo "play.sh: full run headless instead - run this script from a desktop session to play." >&2
  exec "$game" --headless --no-save --replay tests/replays/full-run.rep --screenshot build/release/last-frame.png "$@"
fi
exec "$game" --level levels/01-first-steps.lvl "$@"
