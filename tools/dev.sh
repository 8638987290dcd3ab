#!/usr/bin/env bash
# dev.sh - change the game while it runs. Builds the dev preset (optimised, debug info),
# starts the engine's host with no game in it (engine/host/host_run.c) on the game's
# library (libgame_hot.so), and rebuilds the library whenever a file under game/ changes;
# the running host swaps the new code in within about a second - the simulation, the
# screens, the editor, everything of game/ - and goes on from the same state: same level,
# same positions, same frame. A change to the layout of the game's state (a field of a
# state struct) cannot be swapped into the running process, whose state has the old
# layout: the host restarts the level in a new process on the new library. Extra arguments
# go to the game; Ctrl+C (or quitting the game) ends both.
#   tools/dev.sh --level levels/04-patrol.lvl
set -euo pipefail
if [[ "${1:-}" == --help || "${1:-}" == -h ]]; then sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0; fi
cd "$(dirname "$0")/.."
source tools/deps.sh
deps_install

cmake --preset dev >/dev/null
cmake --build --preset dev -j2 --target engine_host game_hot
build/dev/engine/strata-host --hot-reload --hot-library build/dev/game/libgame_hot.so "$@" &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT

# A polled fingerprint of game/ (names and modification times): no watcher package needed.
fingerprint() { find game -type f \( -name '*.c' -o -name '*.h' \) -printf '%T@ %p\n' | sort | md5sum; }
last=$(fingerprint)
while kill -0 $pid 2>/dev/null; do
  sleep 0.3
  now=$(fingerprint)
  [[ $now == "$last" ]] && continue
  last=$now
  echo "dev: game/ changed: rebuilding libgame_hot.so" >&2
  if cmake --build --preset dev -j2 --target game_hot >/dev/null; then
    echo "dev: rebuilt; the game takes it at its next look (twice a second)" >&2
  else
    cmake --build --preset dev -j2 --target game_hot 2>&1 | grep -E "error|warning" >&2 || true
    echo "dev: the build failed; the game keeps the code it has" >&2
  fi
done
wait $pid
