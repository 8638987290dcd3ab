#!/usr/bin/env bash
# tools/web.sh - builds the browser version into build/web/: index.html (our page),
# game.js, game.wasm and game.data (the art, sounds, music and levels preloaded), and the
# replays beside the page (fetched when the command line names one).
# Installs what is missing first (tools/deps.sh: deps_install_web). Everything comes from
# Debian: emscripten, and SDL2 compiled from Debian's libsdl2 source package into
# build/web-deps/ once (about 25 s on 2 cores), then reused.
#
#   tools/web.sh            build (incremental)
#   tools/web.sh --sdl      rebuild SDL2 for the web too
#
# SDL's own CMake works under emcmake but takes minutes to configure; its sources are
# compiled here directly, with the configuration in tools/web/SDL_config.h. Emscripten's
# SDL port (-sUSE_SDL=2) would download SDL from the internet and is not used.
set -euo pipefail
if [[ "${1:-}" == --help || "${1:-}" == -h ]]; then sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0; fi
cd "$(dirname "$0")/.."
root=$PWD
source tools/deps.sh
deps_install_web

# Debian's emscripten 3.1.6 traps (found when the browser build was first tried):
#  - its optimiser passes need acorn, which Debian keeps in /usr/share/nodejs;
#  - node >= 18's fetch breaks 3.1.6's loader when emcc runs generated code under node.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
export NODE_OPTIONS="--no-experimental-fetch${NODE_OPTIONS:+ $NODE_OPTIONS}"
# emcc would write its cache next to itself (/usr/share/emscripten/cache, root's, frozen).
deps=$root/build/web-deps
mkdir -p "$deps"

sdl_version=2.26.5
sdl_stamp="$deps/sdl.stamp"
sdl_key="$sdl_version $(sha256sum tools/web/SDL_config.h tools/web.sh tools/deb-source.sh | sha256sum | cut -c1-16)"

source tools/deb-source.sh

sdl_fetch() {
  local src=$deps/src
  deb_source libsdl2 sdl2 "$deps"
  grep -q "^$sdl_version" "$src/sdl2/VERSION.txt" 2>/dev/null ||
    grep -q "SDL_PATCHLEVEL *${sdl_version##*.}" "$src/sdl2/include/SDL_version.h" ||
    echo "web: note: Debian's SDL2 is not $sdl_version; building it anyway" >&2
}

# Compiles the SDL sources a browser needs (tools/web/SDL_config.h says which back ends)
# into build/web-deps/lib/libSDL2.a and puts the headers, with our SDL_config.h, in
# build/web-deps/include/SDL2.
sdl_build() {
  [[ -f "$deps/src/sdl2/src/SDL.c" ]] || sdl_fetch
  sdl_compile web tools/web/SDL_config.h "$deps" emar emcc \
    src src/atomic src/audio src/audio/emscripten src/audio/dummy src/cpuinfo \
    src/dynapi src/events src/file src/filesystem/emscripten src/haptic \
    src/haptic/dummy src/hidapi src/joystick src/joystick/emscripten src/libm \
    src/loadso/dummy src/locale src/locale/emscripten src/misc src/misc/emscripten \
    src/power src/power/emscripten src/render src/render/opengles2 \
    src/render/software src/sensor src/sensor/dummy src/stdlib src/thread \
    src/thread/generic src/timer src/timer/unix src/video src/video/emscripten \
    src/video/yuv2rgb
  echo "$sdl_key" >"$sdl_stamp"
}

# stb by its own folder: /usr/include itself would put glibc's headers ahead
# of emscripten's libc.
mkdir -p "$deps/include"
ln -sfn /usr/include/stb "$deps/include/stb"

if [[ "${1:-}" == --sdl || ! -f "$deps/lib/libSDL2.a" || "$(cat "$sdl_stamp" 2>/dev/null)" != "$sdl_key" ]]; then
  t0=$SECONDS
  sdl_build
  echo "web: SDL2 built in $((SECONDS - t0)) s -> $deps/lib/libSDL2.a" >&2
fi


if [[ ! -f build/web/build.ninja ]]; then
  emcmake cmake -S . -B build/web -G Ninja -DCMAKE_BUILD_TYPE=Release -DAD_WEB_DEPS="$deps" >/dev/null
fi
cmake --build build/web -j2
ls -l build/web/index.html build/web/game.js build/web/game.wasm build/web/game.data |
  awk '{printf "web: %-24s %9d bytes\n", $NF, $5}' >&2
