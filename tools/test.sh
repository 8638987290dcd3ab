#!/usr/bin/env bash
# Builds and runs every test: the release and asan presets, each configured, built and
# run with ctest (every label: ctest -L quick is the quick loop, not CI's), then the web
# leg: the browser build (tools/web.sh) and its ctest, the tests in headless Chromium
# (tests/web/web_test.mjs), then the windows leg: the Windows build (tools/windows.sh,
# mingw-w64) and its ctest under wine64 (preset windows). Installs missing packages first.
# Every leg named runs, whatever the one before did; each ends with its ten slowest tests,
# and the run ends with one line a leg (passed, failed or skipped and why, its counts, its
# time) and the tests' total. Exits non-zero when any leg failed. A leg is skipped only
# when this machine cannot run it (no browser can be installed, wine cannot start a
# program), and says so; a leg that stops for any other reason has failed.
#   tools/test.sh                 release, asan, web, windows
#   tools/test.sh release web     only those (a preset name, "web" or "windows")
#   tools/test.sh fresh           the README's two commands in a new minimal Debian 12
#                                 (tools/fresh.sh: long, not a default leg)
# Logs: build/test-logs/LEG.log.
set -euo pipefail
if [[ "${1:-}" == --help || "${1:-}" == -h ]]; then sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0; fi
cd "$(dirname "$0")/.."
legs=("$@")
((${#legs[@]})) || legs=(release asan web windows)
for leg in "${legs[@]}"; do
  case $leg in release | asan | debug | dev | web | windows | fresh) ;;
  *) echo "test: no leg '$leg' (release, asan, debug, dev, web, windows or fresh; tools/test.sh --help)" >&2; exit 2 ;;
  esac
done
source tools/deps.sh
logs=build/test-logs
mkdir -p "$logs"

# A leg that cannot run on this machine says why in $logs/LEG.skip and exits 77.
skip_leg() {
  echo "$1" >"$logs/$leg.skip"
  echo "== $leg: SKIPPED: $1"
  exit 77
}

# ctest ARGS...: ctest, its output kept in the leg's log for the summary (slowest tests,
# counts) as well as shown.
leg_ctest() {
  ctest "$@" 2>&1 | tee "$logs/$leg.ctest"
  return "${PIPESTATUS[0]}"
}

preset_leg() {
  deps_install
  cmake --preset "$leg" >/dev/null
  cmake --build --preset "$leg" -j2
  leg_ctest --preset "$leg" -j2
}

# The browser leg. Chromium is the one thing it may do without: where it cannot be
# installed the browser tests are skipped, saying so (the web build itself still has to
# build); anything else that fails, fails the run.
web_leg() {
  deps_install_web || { echo "test: the web build's packages (emscripten, dpkg-dev) could not be installed" >&2; return 1; }
  tools/web.sh
  command -v chromium >/dev/null || deps_install_web --browser ||
    skip_leg "the browser tests: chromium could not be installed here (apt-get install chromium failed)"
  # The browser tests are the browser build's ctest (tests/web/CMakeLists.txt); web_replay
  # also compares with the native release game's run when there is one.
  local native=
  [[ -x build/release/game/game ]] && native=$PWD/build/release/game/game
  AD_NATIVE_GAME=$native leg_ctest --test-dir build/web --verbose
}

# The Windows leg: the game, the tools and the tests cross-built (tools/windows.sh), then
# run under wine64 (ctest --preset windows). Wine is the one thing it may do without: where
# it cannot start a program here, the tests are skipped, saying so (the build itself still
# has to build); anything else that fails, fails the run.
windows_leg() {
  deps_install_windows || { echo "test: the Windows build's packages (mingw-w64, wine64) could not be installed" >&2; return 1; }
  deps_install_play
  tools/windows.sh
  # levelcheck_same_as_native compares with the native levelcheck.
  if [[ ! -x build/release/tools/levelcheck/levelcheck ]]; then
    cmake --preset release >/dev/null
    cmake --build --preset release -j2 --target levelcheck
  fi
  local wine=/usr/lib/wine/wine64 server=/usr/lib/wine/wineserver64
  [[ -x $wine ]] || wine=$(command -v wine64 || command -v wine || true)
  [[ -x $server ]] || server=$(command -v wineserver || true) # deps: wine64
  export WINEDEBUG=-all WINEPREFIX=$PWD/build/windows/wine
  # One wineserver for the whole run, with Wine's own services (services.exe, winedevice)
  # started here, on /dev/null, by the first program below: left to itself the server exits
  # a few seconds after its last program and starts again, services and all, under the next
  # one, which may be any test (tools/windows/wine-run.sh reports a start that fails), and a
  # service started by a test holds that test's output open, so ctest waits on it.
  mkdir -p "$WINEPREFIX" # the server runs in it; wineboot fills it
  [[ -z "$server" ]] || { "$server" -k 2>/dev/null || true; "$server" -w 2>/dev/null || true; "$server" -p; }
  # The prefix (Wine's C: drive) once, before the tests start programs side by side.
  if [[ -z "$wine" ]] || ! "$wine" wineboot --init >/dev/null 2>&1 ||
     ! "$wine" build/windows/tools/levelcheck/levelcheck.exe --version >/dev/null 2>&1; then
    [[ -z "$server" ]] || "$server" -k 2>/dev/null || true
    skip_leg "the tests: wine64 cannot run a Windows program on this machine"
  fi
  local rc=0
  leg_ctest --preset windows -j2 || rc=$?
  [[ -z "$server" ]] || "$server" -k 2>/dev/null || true
  return $rc
}

fresh_leg() {
  bash tools/fresh.sh
}

# A ctest log's results, a line each: "SECONDS NAME STATUS".
results() {
  sed -n 's/^ *[0-9]*\/[0-9]* Test *#[0-9]*: \([^ ]*\) [ .*]*\([A-Za-z: ]*[A-Za-z]\) *\([0-9.]*\) sec.*/\3 \1 \2/p' "$1"
}
# The ten slowest tests of a ctest log, then the counts "total passed failed skipped" and
# the skipped tests' names.
slowest() {
  results "$1" | sort -rn | head -n 10 |
    awk '{ printf "  %8.2f s  %s%s\n", $1, $2, ($3 == "Passed" ? "" : " (" $3 ")") }'
}
counts() {
  results "$1" |
    awk '{ n++; if ($3 == "Passed") p++; else if ($3 == "Skipped") { s++; names = names (names ? ", " : "") $2 } else f++ }
         END { printf "%d %d %d %d %s\n", n, p, f, s, names }'
}

summary=() total_p=0 total_f=0 total_s=0 failed_legs=0
for leg in "${legs[@]}"; do
  echo "== $leg"
  rm -f "$logs/$leg.skip" "$logs/$leg.ctest"
  t0=$SECONDS
  set +e
  (
    set -e
    case $leg in
    web) web_leg ;;
    windows) windows_leg ;;
    fresh) fresh_leg ;;
    *) preset_leg ;;
    esac
  ) 2>&1 | tee "$logs/$leg.log"
  rc=${PIPESTATUS[0]}
  set -e
  secs=$((SECONDS - t0))
  line=""
  if [[ -s "$logs/$leg.ctest" ]]; then
    echo "== $leg: the ten slowest tests"
    slowest "$logs/$leg.ctest"
    read -r n p f s names < <(counts "$logs/$leg.ctest")
    total_p=$((total_p + p)) total_f=$((total_f + f)) total_s=$((total_s + s))
    line="$n tests: $p passed, $f failed, $s skipped${names:+ ($names)}"
  elif [[ $leg == fresh && -f build/fresh/test.log ]]; then
    # The new machine's own total (tools/fresh.sh prints its legs' lines).
    read -r p f s < <(sed -n 's/^tests: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p' build/fresh/test.log | tail -n 1)
    total_p=$((total_p + ${p:-0})) total_f=$((total_f + ${f:-0})) total_s=$((total_s + ${s:-0}))
  fi
  if ((rc == 77)) && [[ -f "$logs/$leg.skip" ]]; then
    verdict="skipped: $(cat "$logs/$leg.skip") (this machine cannot run it)"
  elif ((rc == 0)); then
    verdict=passed
  else
    verdict="FAILED (exit $rc)"
    failed_legs=$((failed_legs + 1))
  fi
  summary+=("$(printf 'test: %-8s %s%s, %d s' "$leg" "$verdict" "${line:+; $line}" "$secs")")
done
echo "== summary (logs in $logs)"
printf '%s\n' "${summary[@]}"
echo "tests: $total_p passed, $total_f failed, $total_s skipped"
((failed_legs == 0))
