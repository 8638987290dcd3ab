#!/usr/bin/env bash
# Builds and runs every test: the release and asan presets, each configured, built and
# run with ctest (every label: ctest -L quick is the quick loop, not CI's), then the web
# leg: the browser build (tools/web.sh) and its ctest, the tests in headless Chromium
# (tests/web/web_test.mjs), then the windows leg: the Windows build (tools/windows.sh,
# mingw-w64) and its ctest under wine64 (preset windows). Exits non-zero on any failure.
# Installs missing packages first.
#   tools/test.sh                 release, asan, web, windows
#   tools/test.sh release web     only those (a preset name, "web" or "windows")
set -euo pipefail
if [[ "${1:-}" == --help || "${1:-}" == -h ]]; then sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0; fi
cd "$(dirname "$0")/.."
legs=("$@")
((${#legs[@]})) || legs=(release asan web windows)
for leg in "${legs[@]}"; do
  case $leg in release | asan | debug | dev | web | windows) ;;
  *) echo "test: no leg '$leg' (release, asan, debug, dev, web or windows; tools/test.sh --help)" >&2; exit 2 ;;
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

# The Windows leg: the game, the tools and the tests cross-built (tools/windows.sh), then
# run under wine64 (ctest --preset windows). Wine is the one thing it may do without: where
# it cannot start a program here, the tests are skipped, saying so (the build itself still
# has to build); anything else that fails, fails the run.
windows_leg() {
  local t0=$SECONDS
  deps_install_windows || { echo "test: the Windows build's packages (mingw-w64, wine64) could not be installed" >&2; return 1; }
  tools/windows.sh
  # levelcheck_same_as_native compares with the native levelcheck.
  if [[ ! -x build/release/tools/levelcheck/levelcheck ]]; then
    cmake --preset release >/dev/null
    cmake --build --preset release -j2 --target levelcheck
  fi
  local wine=/usr/lib/wine/wine64
  [[ -x $wine ]] || wine=$(command -v wine64 || command -v wine || true)
  export WINEDEBUG=-all WINEPREFIX=$PWD/build/windows/wine
  # The prefix (Wine's C: drive) once, before the tests start programs side by side.
  if [[ -z "$wine" ]] || ! "$wine" wineboot --init >/dev/null 2>&1 ||
     ! "$wine" build/windows/tools/levelcheck/levelcheck.exe --version >/dev/null 2>&1; then
    echo "== windows: SKIPPED the tests (exit 77): wine64 cannot run a Windows program on this machine"
    return 0
  fi
  ctest --preset windows -j2
  echo "== windows: done in $((SECONDS - t0)) s"
}

for leg in "${legs[@]}"; do
  echo "== $leg"
  if [[ "$leg" == web ]]; then
    web_leg
    continue
  fi
  if [[ "$leg" == windows ]]; then
    windows_leg
    continue
  fi
  cmake --preset "$leg" >/dev/null
  cmake --build --preset "$leg" -j2
  ctest --preset "$leg" -j2
done
