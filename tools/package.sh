#!/usr/bin/env bash
# tools/package.sh - the release packages, in dist/ (README: "Packages"):
#   arena-dungeon-VER-linux-x86_64.tar.gz   the game, its art and levels, the level tools
#                                           and SDL2 in lib/, runnable where unpacked
#   arena-dungeon-VER-windows-x86_64.zip    game.exe (static: no DLL), the same files, the
#                                           tools as .exe, README.txt and LICENSE.txt (CRLF)
#   arena-dungeon-VER-web.zip               index.html at the top, game.js, game.wasm,
#                                           game.data: an itch.io HTML5 upload as it is
# VER is the project's version (engine/cmake/version.cmake).
#
#   tools/package.sh [linux] [windows] [web]     (default: all three)
#     --release-dir DIR   the native build to package (default build/release)
#     --windows-dir DIR   the Windows build (default build/windows)
#     --web-dir DIR       the browser build (default build/web)
#     --out DIR           where the packages go (default dist/)
#
# A default build folder is brought up to date first (cmake --preset release, tools/windows.sh,
# tools/web.sh); a folder given with --*-dir is packaged as it is (a test packages the build
# it runs in), and one that lacks a file says what to build. The game in the Linux and
# Windows packages is game_dist (game/CMakeLists.txt): it looks for its art and levels
# beside itself only, never in the source tree, so a package that lacks them fails.
set -euo pipefail
if [[ "${1:-}" == --help || "${1:-}" == -h ]]; then sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0; fi
src=$(cd "$(dirname "$0")/.." && pwd)
release_dir="" windows_dir="" web_dir="" out=$src/dist
want=()
while [[ $# -gt 0 ]]; do
  case $1 in
    linux | windows | web) want+=("$1") ;;
    --release-dir) release_dir=$(realpath -m "$2"); shift ;;
    --windows-dir) windows_dir=$(realpath -m "$2"); shift ;;
    --web-dir) web_dir=$(realpath -m "$2"); shift ;;
    --out) out=$(realpath -m "$2"); shift ;;
    *) echo "package: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
[[ ${#want[@]} -gt 0 ]] || want=(linux windows web)

version=$(sed -n 's/^set(STRATA_VERSION \([0-9.]*\))$/\1/p' "$src/engine/cmake/version.cmake")
[[ -n "$version" ]] || { echo "package: no set(STRATA_VERSION X.Y.Z) in $src/engine/cmake/version.cmake" >&2; exit 1; }
name=arena-dungeon-$version
# Every file's time is the last commit's, so the same tree makes the same archive.
epoch=$(git -C "$src" log -1 --format=%ct 2>/dev/null || date +%s)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

die() { echo "package: $*" >&2; exit 1; }
need() { # FILE WHAT-TO-RUN
  [[ -f "$1" ]] || die "$1 is missing: $2"
}

# The files a player's game reads (the web build preloads the same: tools/web/web.cmake):
# the art, sounds and music, the levels and their format's README for level authors.
copy_data() { # DEST
  mkdir -p "$1/assets"
  cp "$src"/assets/{tiles,sprites,font}.png "$1/assets/"
  cp -r "$src/assets/sounds" "$src/assets/music" "$1/assets/"
  cp -r "$src/levels" "$1/levels"
}

# The player's README: PLATFORM is linux or windows.
readme() {
  local run keys saves tools
  if [[ $1 == windows ]]; then
    run="Double-click game.exe, or from a command prompt in this folder: game.exe --help"
    saves="Progress and settings are kept in the game's own folder, %APPDATA%\\arena-dungeon\\
(text files of 'key value' lines). Delete them to start afresh."
    tools="levelcheck.exe, levelfmt.exe and lvl2tiled.exe"
  else
    run="Run ./game from this folder, or from anywhere by its path (it finds its art and
levels beside itself). ./game --help lists the options. SDL2 is in lib/;
the rest (X11 or Wayland, ALSA or PulseAudio, libc) is any desktop Linux's."
    saves="Progress is kept in \$XDG_DATA_HOME/arena-dungeon/progress (else
~/.local/share/arena-dungeon/progress), the settings in
\$XDG_CONFIG_HOME/arena-dungeon/settings (else ~/.config/arena-dungeon/settings): text
files of 'key value' lines. Delete them to start afresh."
    tools="levelcheck, levelfmt and lvl2tiled"
  fi
  cat <<EOF
Arena Dungeon $version
=====================

A small tile dungeon: seven levels of keys, doors, spikes, patrols and a vault.

Running
-------
$run

Keys
----
Arrows or WASD move, Space or J fires, Enter chooses, Esc or P pauses and goes back,
R restarts the level, E opens the level editor on it, M mutes. Settings changes the keys.

Saves
-----
$saves

Making levels
-------------
levels/ holds the game's levels and levels/README.md their format. E in the game edits
the level being played; game --edit FILE --size 30x17 starts a new one. The tools:
$tools
  levelcheck FILE...        checks levels as the game loads them, and the memory they need
  levelfmt -w FILE...       rewrites levels in the canonical form (before sharing them)
  lvl2tiled -o DIR FILE...  makes Tiled maps of levels (--assets assets), for the Tiled editor
Each answers --help.

Licence: zlib (LICENSE).
EOF
}

size_of() { stat -c %s "$1"; }
report() { printf 'package: %-44s %9d bytes\n' "$(basename "$1")" "$(size_of "$1")"; }

package_linux() {
  local dir=${release_dir:-$src/build/release}
  if [[ -z "$release_dir" ]]; then
    (cd "$src" && cmake --preset release >/dev/null &&
      cmake --build --preset release -j2 --target game_dist levelcheck levelfmt lvl2tiled)
  fi
  local run="cmake --build $dir --target game_dist levelcheck levelfmt lvl2tiled"
  need "$dir/game/game_dist" "$run"
  local top=$work/linux/$name
  mkdir -p "$top/lib"
  cp "$dir/game/game_dist" "$top/game"
  local t
  for t in levelcheck levelfmt lvl2tiled; do
    need "$dir/tools/$t/$t" "$run"
    cp "$dir/tools/$t/$t" "$top/$t"
  done
  # The libraries a desktop may lack, as this build linked them (ldd's answer for the game).
  local lib path
  for lib in libSDL2-2.0.so.0; do
    path=$(ldd "$top/game" | awk -v l="$lib" '$1 == l { print $3 }')
    [[ -f "$path" ]] || die "the game does not link $lib (ldd $top/game)"
    cp -L "$path" "$top/lib/$lib"
  done
  strip --strip-unneeded "$top"/game "$top"/levelcheck "$top"/levelfmt "$top"/lvl2tiled "$top"/lib/*
  copy_data "$top"
  cp "$src/LICENSE" "$top/LICENSE"
  readme linux >"$top/README.txt"
  local file=$out/$name-linux-x86_64.tar.gz
  tar -C "$work/linux" --sort=name --owner=0 --group=0 --numeric-owner --mtime=@"$epoch" \
    -cf - "$name" | gzip -9n >"$file"
  report "$file"
}

# What a Windows program may import: Windows' own DLLs. Anything else (SDL2.dll, the
# compiler's libgcc or winpthread) would have to be shipped beside it.
WINDOWS_DLLS="kernel32 user32 gdi32 msvcrt advapi32 shell32 ole32 oleaut32 imm32 version winmm
setupapi dinput8 hid cfgmgr32 ws2_32 bcrypt comdlg32 shlwapi"
windows_imports_ok() { # EXE
  local dll bad=0
  for dll in $(x86_64-w64-mingw32-objdump -p "$1" | awk '/DLL Name:/ { print tolower($3) }'); do
    case " $(echo $WINDOWS_DLLS) " in
      *" ${dll%.dll} "*) ;;
      *) case $dll in api-ms-win-*) ;; *) echo "package: $1 imports $dll, not a Windows DLL" >&2; bad=1 ;; esac ;;
    esac
  done
  return $bad
}

package_windows() {
  local dir=${windows_dir:-$src/build/windows}
  if [[ -z "$windows_dir" ]]; then
    # tools/windows.sh makes the cross build (SDL2, the configure) once; the package
    # then needs its programs only.
    [[ -f "$dir/build.ninja" && -f "$src/build/windows-deps/lib/libSDL2.a" ]] || "$src/tools/windows.sh"
    (cd "$src" && cmake --build --preset windows -j2 --target game_dist levelcheck levelfmt lvl2tiled)
  fi
  local run="tools/windows.sh (or cmake --build $dir)"
  need "$dir/game/game_dist.exe" "$run"
  local top=$work/windows/$name
  mkdir -p "$top"
  cp "$dir/game/game_dist.exe" "$top/game.exe"
  local t
  for t in levelcheck levelfmt lvl2tiled; do
    need "$dir/tools/$t/$t.exe" "$run"
    cp "$dir/tools/$t/$t.exe" "$top/$t.exe"
  done
  x86_64-w64-mingw32-strip "$top"/*.exe
  for t in "$top"/*.exe; do windows_imports_ok "$t" || die "$t needs a DLL the package does not have"; done
  copy_data "$top"
  sed 's/$/\r/' "$src/LICENSE" >"$top/LICENSE.txt"
  readme windows | sed 's/$/\r/' >"$top/README.txt"
  local file=$out/$name-windows-x86_64.zip
  command -v zip >/dev/null || die "zip is not installed (apt-get install zip)"
  rm -f "$file"
  find "$top" -exec touch -h -d @"$epoch" {} +
  (cd "$work/windows" && find "$name" | LC_ALL=C sort | zip -q -X -9 "$file" -@)
  report "$file"
}

package_web() {
  local dir=${web_dir:-$src/build/web}
  [[ -n "$web_dir" ]] || "$src/tools/web.sh"
  local f
  for f in index.html game.js game.wasm game.data; do need "$dir/$f" "tools/web.sh"; done
  # itch.io serves the page from a folder of its own, in an iframe, as plain files: every
  # URL must be relative, and nothing may need a server's headers (threads want COOP/COEP)
  # or a service worker.
  if grep -Eq '(src|href)="/' "$dir/index.html"; then die "$dir/index.html names an absolute URL"; fi
  if grep -q "serviceWorker" "$dir/index.html" "$dir/game.js"; then die "the page registers a service worker"; fi
  if grep -q "new Worker(" "$dir/game.js"; then die "game.js starts workers (threads need COOP/COEP headers)"; fi
  local top=$work/web
  mkdir -p "$top"
  cp "$dir"/index.html "$dir"/game.js "$dir"/game.wasm "$dir"/game.data "$top/"
  local file=$out/$name-web.zip
  command -v zip >/dev/null || die "zip is not installed (apt-get install zip)"
  rm -f "$file"
  touch -d @"$epoch" "$top"/*
  (cd "$top" && zip -q -X -9 "$file" index.html game.js game.wasm game.data)
  report "$file"
}

for p in "${want[@]}"; do "package_$p"; done
