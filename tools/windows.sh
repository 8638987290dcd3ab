#!/usr/bin/env bash
# tools/windows.sh - builds the Windows version from Linux into build/windows/: game.exe,
# the tools (levelcheck.exe, levelfmt.exe, ...) and the test programs, cross-compiled with
# Debian's mingw-w64 and linked statically (no DLL to ship beside them). Installs what is
# missing first (tools/deps.sh: deps_install_windows). Everything comes from Debian: SDL2
# compiled from Debian's source package into build/windows-deps/ once (about a minute on 2
# cores), then reused.
#
#   tools/windows.sh            build (incremental)
#   tools/windows.sh --sdl      rebuild SDL2 for Windows too
#
# Run the result under Wine: `wine64 build/windows/game/game.exe` (Wine's own binary is
# /usr/lib/wine/wine64 on Debian), or on Windows itself; `tools/test.sh windows` runs the
# tests under Wine. SDL's own CMake would take minutes to configure; its sources are
# compiled here directly, with the configuration in tools/windows/SDL_config.h.
set -euo pipefail
if [[ "${1:-}" == --help || "${1:-}" == -h ]]; then sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0; fi
cd "$(dirname "$0")/.."
root=$PWD
source tools/deps.sh
deps_install_windows
source tools/deb-source.sh

cc=x86_64-w64-mingw32-gcc
deps=$root/build/windows-deps
mkdir -p "$deps"
sdl_stamp="$deps/sdl.stamp"
sdl_key="$(cat tools/windows/SDL_config.h tools/windows.sh tools/deb-source.sh | sha256sum | cut -c1-16) $($cc -dumpversion)"

# Compiles the SDL sources a Windows game needs (tools/windows/SDL_config.h says which back
# ends) into build/windows-deps/lib/libSDL2.a, SDL_windows_main.c into libSDL2main.a (main
# with a UTF-8 argv), and puts the headers, with our SDL_config.h, in include/SDL2.
sdl_build() {
  [[ -f "$deps/src/sdl2/src/SDL.c" ]] || deb_source libsdl2 sdl2 "$deps"
  # Windows threads, with the generic condition variable beside them (SDL_config_windows.h's
  # SDL_THREAD_GENERIC_COND_SUFFIX: SRW locks' own condition when there is one).
  sdl_compile windows tools/windows/SDL_config.h "$deps" x86_64-w64-mingw32-ar "$cc" \
    src src/atomic src/audio src/audio/directsound src/audio/wasapi src/audio/winmm \
    src/audio/disk src/audio/dummy src/core/windows src/cpuinfo src/dynapi src/events \
    src/file src/filesystem/windows src/haptic src/haptic/windows src/hidapi \
    src/joystick src/joystick/windows src/joystick/virtual src/libm src/loadso/windows \
    src/locale src/locale/windows src/misc src/misc/windows src/power \
    src/power/windows src/render src/render/direct3d src/render/direct3d11 \
    src/render/direct3d12 src/render/opengl src/render/software src/sensor \
    src/sensor/dummy src/stdlib src/thread src/thread/windows src/timer src/timer/windows \
    src/video src/video/dummy src/video/windows src/video/yuv2rgb \
    src/thread/generic/SDL_syscond.c
  local sdl=$deps/src/sdl2 obj=$deps/obj/main
  mkdir -p "$obj"
  $cc -O2 -I"$deps/include/SDL2" -I"$sdl/src" -DUSING_GENERATED_CONFIG_H -w \
    -c "$sdl/src/main/windows/SDL_windows_main.c" -o "$obj/SDL_windows_main.o"
  x86_64-w64-mingw32-ar rcs "$deps/lib/libSDL2main.a" "$obj/SDL_windows_main.o"
  echo "$sdl_key" >"$sdl_stamp"
}

# stb by its own folder: /usr/include itself would put glibc's headers ahead of mingw's.
mkdir -p "$deps/include"
ln -sfn /usr/include/stb "$deps/include/stb"

if [[ "${1:-}" == --sdl || ! -f "$deps/lib/libSDL2.a" || "$(cat "$sdl_stamp" 2>/dev/null)" != "$sdl_key" ]]; then
  t0=$SECONDS
  sdl_build
  echo "windows: SDL2 built in $((SECONDS - t0)) s -> $deps/lib/libSDL2.a" >&2
fi

[[ -f build/windows/build.ninja ]] || cmake --preset windows >/dev/null
cmake --build --preset windows -j2
ls -l build/windows/game/game.exe | awk '{printf "windows: %-28s %9d bytes\n", $NF, $5}' >&2
