#!/usr/bin/env bash
# Builds and runs every test: the release and asan presets, each configured, built and
# run with ctest (every label: ctest -L quick is the quick loop, not CI's), then the web
# leg: the browser build (tools/web.sh) and its ctest, the tests in headless Chromium
# (tests/web/web_test.mjs). Exits non-zero on any failure. Installs missing packages first.
#   tools/test.sh                 release, asan, web
#   tools/test.sh release web     only those (a preset name, or "web")
set -euo pipefail
if [[ "${1:-}" == --help || "${1:-}" == -h ]]; then sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0; fi
cd "$(dirname "$0")/.."
legs=("$@")
((${#legs[@]})) || legs=(release asan web)
for leg in "${legs[@]}"; do
  case $leg in release | asan | debug | dev | web) ;;
  *) echo "test: no leg '$leg' (release, asan, debug, dev or web; tools/test.sh --help)" >&2; exit 2 ;;
  esac
done
source tools/deps.sh
deps_install

# The browser leg. Chromium is the one thing it may do without: where it cannot be
# installed the browser tests are skipped, saying so (the web build itself still has to
# build); anything else that fails, fails the run.
web_leg() {
  local t0=$SECONDS
  deps_install_web || { echo "test: the web build's packages (emscripten, dpkg-dev) could not be installed" >&2; return 1; }
  tools/web.sh
  if ! command -v chromium >/dev/null && ! deps_install_web --browser; then
    echo "== web: SKIPPED the browser tests: chromium could not be installed (apt-get install chromium failed)"
    return 0
  fi
  # The browser tests are the browser build's ctest (tests/web/CMakeLists.txt); web_replay
  # also compares with the native release game's run when there is one.
  local native=
  [[ -x build/release/game/game ]] && native=$PWD/build/release/game/game
  AD_NATIVE_GAME=$native ctest --test-dir build/web --verbose
  echo "== web: done in $((SECONDS - t0)) s"
}

for leg in "${legs[@]}"; do
  echo "== $leg"
  if [[ "$leg" == web ]]; then
    web_leg
    continue
  fi
  cmake --preset "$leg" >/dev/null
  cmake --build --preset "$leg" -j2
  ctest --preset "$leg" -j2
done
