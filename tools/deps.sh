#!/usr/bin/env bash
# Installs what the build and the tests need, and only what is missing. Sourced by
# tools/test.sh and tools/play.sh so a fresh Debian machine needs nothing done by hand.
deps_install() {
  local missing=()
  command -v cmake >/dev/null       || missing+=(cmake)
  command -v ninja >/dev/null       || missing+=(ninja-build)
  command -v pkg-config >/dev/null  || missing+=(pkg-config)
  command -v cc >/dev/null          || missing+=(gcc)
  command -v clang >/dev/null       || missing+=(clang)
  pkg-config --exists sdl2 2>/dev/null || missing+=(libsdl2-dev)
  [[ -f /usr/include/stb/stb_image.h ]] || missing+=(libstb-dev)
  [[ -f /usr/include/cglm/cglm.h ]]     || missing+=(libcglm-dev)
  [[ -f /usr/include/mimalloc.h ]]      || missing+=(libmimalloc-dev)
  # Tiled maps (.tmj) are JSON, parsed with cJSON.
  pkg-config --exists libcjson 2>/dev/null || missing+=(libcjson-dev)
  # libFuzzer's runtime for the level-parser fuzz test.
  compgen -G "/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a" >/dev/null \
    || missing+=(libclang-rt-dev)
  # valgrind memcheck of a replay through the game (tests/valgrind).
  command -v valgrind >/dev/null    || missing+=(valgrind)
  # The window under a real X server, with and without a window manager (ctest window_x11);
  # installed without their recommends (openbox's would bring a desktop's worth).
  local lean=()
  command -v Xvfb >/dev/null        || lean+=(xvfb)
  command -v openbox >/dev/null     || lean+=(openbox)
  command -v xdotool >/dev/null     || lean+=(xdotool)
  command -v xwininfo >/dev/null    || lean+=(x11-utils)
  # The Tiled editor's command line re-exports the .tmj fixtures (ctest tiled_reexport) and
  # draws maps (tmxrasterizer); without recommends it is 20 packages, about 5 s to install.
  command -v tiled >/dev/null       || lean+=(tiled)
  for extra in "$@"; do
    command -v "$extra" >/dev/null || missing+=("$extra")
  done
  ((${#missing[@]} + ${#lean[@]} == 0)) && return 0
  echo "deps: installing ${missing[*]} ${lean[*]}" >&2
  local sudo=""
  ((EUID == 0)) || sudo=sudo
  $sudo apt-get update -qq
  if ((${#missing[@]})); then
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
  fi
  if ((${#lean[@]})); then
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${lean[@]}"
  fi
}

# ---- The web build (tools/web.sh) and its browser tests (tests/web). Kept apart from
# deps_install: a native build needs none of it. emscripten brings clang/lld/binaryen and
# node's acorn; dpkg-dev's dpkg-source unpacks Debian's SDL2 source package; chromium
# runs the page headless. Installed without recommends (chromium's would bring a desktop's
# worth). Returns 1 only when something could not be installed.
deps_install_web() {
  local missing=()
  command -v emcc >/dev/null         || missing+=(emscripten)
  command -v dpkg-source >/dev/null  || missing+=(dpkg-dev)
  command -v node >/dev/null         || missing+=(nodejs)
  [[ -d /usr/share/nodejs/acorn ]]   || missing+=(node-acorn)
  [[ -f /usr/include/stb/stb_image.h ]] || missing+=(libstb-dev)
  [[ -f /usr/include/cglm/cglm.h ]]     || missing+=(libcglm-dev)
  command -v ninja >/dev/null        || missing+=(ninja-build)
  command -v cmake >/dev/null        || missing+=(cmake)
  if [[ "${1:-}" == --browser ]]; then
    command -v chromium >/dev/null   || missing+=(chromium)
  fi
  ((${#missing[@]} == 0)) && return 0
  echo "deps: installing ${missing[*]}" >&2
  local sudo=""
  ((EUID == 0)) || sudo=sudo
  $sudo apt-get update -qq || return 1
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}
