#!/usr/bin/env bash
# Installs what the build and the tests need, and only what is missing. Sourced by
# tools/test.sh (deps_install: everything) and tools/play.sh (deps_install_play: only what
# building and playing the game needs), so a fresh Debian machine needs nothing done by hand.
# What building and playing the game needs, and what only the tests and benchmarks do; the
# functions print the Debian packages of theirs that are missing, one line, and the
# installers install only those. DEPS_DRY_RUN=1: say what would be installed, install nothing.
deps_missing_play() {
  local missing=()
  command -v cmake >/dev/null       || missing+=(cmake)
  command -v ninja >/dev/null       || missing+=(ninja-build)
  command -v pkg-config >/dev/null  || missing+=(pkg-config)
  command -v cc >/dev/null          || missing+=(gcc)
  pkg-config --exists sdl2 2>/dev/null || missing+=(libsdl2-dev)
  [[ -f /usr/include/stb/stb_image.h ]] || missing+=(libstb-dev)
  echo "${missing[*]}"
}

deps_missing_test() {
  local missing=()
  command -v clang >/dev/null       || missing+=(clang)
  command -v clang-format >/dev/null || missing+=(clang-format)
  [[ -f /usr/include/mimalloc.h ]]  || missing+=(libmimalloc-dev)
  # libFuzzer's runtime for the fuzz targets (tests/fuzz).
  compgen -G "/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a" >/dev/null \
    || missing+=(libclang-rt-dev)
  # valgrind memcheck of a replay through the game (tests/valgrind).
  command -v valgrind >/dev/null    || missing+=(valgrind)
  # cJSON: examples/07 hands a C library's malloc hooks an arena (tests/package builds it).
  pkg-config --exists libcjson 2>/dev/null || missing+=(libcjson-dev)
  # SDL_mixer, the peer bench_mixer measures the engine's mixer against in the same run: the
  # README's figure (ctest readme_figures) and the layers' picture (ctest layers_picture)
  # come from the build with it. The game never links it.
  pkg-config --exists SDL2_mixer 2>/dev/null || missing+=(libsdl2-mixer-dev)
  echo "${missing[*]}"
}

# Installed without their recommends (openbox's would bring a desktop's worth): the window
# under a real X server, with and without a window manager (ctest window_x11); the Tiled
# editor's command line re-exports the .tmj fixtures (ctest tiled_reexport) and draws maps
# (tmxrasterizer): without recommends it is 20 packages, about 5 s to install. Graphviz
# without its recommends is the layout programs and their libraries.
deps_missing_test_lean() {
  local lean=()
  command -v Xvfb >/dev/null        || lean+=(xvfb)
  command -v openbox >/dev/null     || lean+=(openbox)
  command -v xdotool >/dev/null     || lean+=(xdotool)
  command -v xwininfo >/dev/null    || lean+=(x11-utils)
  # ImageMagick's import reads the window's pixels back from the X server (ctest window_x11).
  command -v import >/dev/null      || lean+=(imagemagick)
  command -v tiled >/dev/null       || lean+=(tiled)
  # Graphviz's dot draws docs/layers.svg (tools/layers.sh); only the docs need it.
  command -v dot >/dev/null         || lean+=(graphviz)
  echo "${lean[*]}"
}

# deps_apt [--lean] PACKAGE...: apt-get install, as root or through sudo.
deps_apt() {
  local flags=(-y -qq)
  if [[ "${1:-}" == --lean ]]; then flags+=(--no-install-recommends); shift; fi
  (($#)) || return 0
  if [[ "${DEPS_DRY_RUN:-0}" == 1 ]]; then
    echo "deps: would install $*"
    return 0
  fi
  echo "deps: installing $*" >&2
  local sudo=""
  ((EUID == 0)) || sudo=sudo
  if [[ -z "${DEPS_UPDATED:-}" ]]; then
    $sudo apt-get update -qq || return 1
    DEPS_UPDATED=1
  fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install "${flags[@]}" "$@"
}

# What tools/play.sh needs: a compiler, CMake, Ninja and the game's libraries.
deps_install_play() {
  # shellcheck disable=SC2046 # the lists are word lists
  deps_apt $(deps_missing_play)
}

# What tools/test.sh needs: the above, and the test stack. Extra command names may follow
# (installed by the package of the same name when missing).
deps_install() {
  local extra=()
  for e in "$@"; do command -v "$e" >/dev/null || extra+=("$e"); done
  # shellcheck disable=SC2046
  deps_apt $(deps_missing_play) $(deps_missing_test) "${extra[@]}" &&
    deps_apt --lean $(deps_missing_test_lean)
}

# What tools/bench.sh needs: the test stack (its peers, mimalloc and SDL_mixer, among it).
deps_install_bench() {
  deps_install "$@"
}

# ---- The web build (tools/web.sh) and its browser tests (tests/web). Kept apart from
# deps_install: a native build needs none of it. emscripten brings clang/lld/binaryen and
# node's acorn; dpkg-dev's dpkg-source unpacks Debian's SDL2 source package; zip and unzip
# make and open the itch.io zip; chromium
# runs the page headless. Installed without recommends (chromium's would bring a desktop's
# worth). Returns 1 only when something could not be installed.
deps_install_web() {
  local missing=()
  command -v emcc >/dev/null         || missing+=(emscripten)
  command -v dpkg-source >/dev/null  || missing+=(dpkg-dev)
  command -v node >/dev/null         || missing+=(nodejs)
  [[ -d /usr/share/nodejs/acorn ]]   || missing+=(node-acorn)
  [[ -f /usr/include/stb/stb_image.h ]] || missing+=(libstb-dev)
  command -v ninja >/dev/null        || missing+=(ninja-build)
  command -v cmake >/dev/null        || missing+=(cmake)
  # The itch.io zip (tools/package.sh web) and package_web, which unpacks it.
  command -v zip >/dev/null          || missing+=(zip)
  command -v unzip >/dev/null        || missing+=(unzip)
  if [[ "${1:-}" == --browser ]]; then
    command -v chromium >/dev/null   || missing+=(chromium)
  fi
  deps_apt --lean "${missing[@]}"
}

# ---- The Windows build (tools/windows.sh) and its tests under Wine (tools/test.sh windows).
# mingw-w64's C compiler for 64-bit Windows, wine64 to run what it makes, dpkg-dev to unpack
# Debian's SDL2 source package, zip for the release package. Without recommends: wine's
# would bring fonts, gstreamer and a desktop's worth. Returns 1 only when something could
# not be installed.
deps_install_windows() {
  local missing=()
  command -v x86_64-w64-mingw32-gcc >/dev/null || missing+=(gcc-mingw-w64-x86-64-posix)
  [[ -x /usr/lib/wine/wine64 ]] || command -v wine64 >/dev/null || missing+=(wine64)
  command -v dpkg-source >/dev/null  || missing+=(dpkg-dev)
  command -v zip >/dev/null          || missing+=(zip)
  command -v unzip >/dev/null        || missing+=(unzip)
  command -v ninja >/dev/null        || missing+=(ninja-build)
  command -v cmake >/dev/null        || missing+=(cmake)
  [[ -f /usr/include/stb/stb_image.h ]] || missing+=(libstb-dev)
  deps_apt --lean "${missing[@]}"
}

# ---- The fresh-machine leg (tools/fresh.sh): debootstrap makes the new Debian, git clones
# the committed tree into it.
deps_install_fresh() {
  local missing=()
  command -v debootstrap >/dev/null  || missing+=(debootstrap)
  command -v git >/dev/null          || missing+=(git)
  deps_apt --lean "${missing[@]}"
}
