#!/usr/bin/env bash
# tools/deb-source.sh - sourced by tools/web.sh and tools/windows.sh: a Debian source package
# (SDL2's libsdl2) unpacked into DEPS/src/DIR, through a private apt configuration (its own
# deb-src list and package lists under DEPS/apt), so the machine's apt sources stay as they
# are. The same mirror and release as the machine's own Debian. Then SDL2's sources compiled
# for another platform with a configuration of ours (SDL's own build system would take
# minutes to configure what one header says).
#   deb_source PACKAGE DIR DEPS
#   sdl_compile LABEL CONFIG DEPS AR "CC FLAGS" ENTRY...   (an ENTRY is a folder of SDL's, or one .c)
if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0; fi
deb_source() {
  local pkg=$1 dir=$2 deps=$3
  local apt=$deps/apt src=$deps/src/$dir.pkg
  # One download for the browser's and Windows' builds alike: the unpacked tree is kept
  # beside their folders (build/deb-src/DIR) and copied from there.
  local shared
  shared=$(dirname "$deps")/deb-src/$dir
  if [[ -f "$shared.done" ]]; then
    echo "deb-source: Debian's $pkg source package from $shared" >&2
    rm -rf "$deps/src/$dir" && mkdir -p "$deps/src" && cp -a "$shared" "$deps/src/$dir"
    return
  fi
  mkdir -p "$apt/lists/partial" "$apt/parts" "$src"
  local suite
  suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
  echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $suite main" \
    >"$apt/sources.list"
  local opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o "Dir::Etc::SourceParts=$apt/parts"
              -o "Dir::State::Lists=$apt/lists" -o "APT::Sandbox::User=root" -q)
  ((EUID == 0)) || opts+=(-o "APT::Sandbox::User=$(id -un)")
  echo "deb-source: fetching Debian's $pkg source package" >&2
  apt-get "${opts[@]}" update >/dev/null
  rm -rf "$src"/* "$deps/src/$dir"
  (cd "$src" && apt-get "${opts[@]}" source --download-only "$pkg" >/dev/null)
  local dsc
  dsc=$(ls "$src"/"${pkg}"_*.dsc | head -1)
  [[ -n "$dsc" ]] || { echo "deb-source: no $pkg source package was downloaded" >&2; return 1; }
  (cd "$src" && dpkg-source --no-check -x "$(basename "$dsc")" "../$dir" >/dev/null)
  rm -rf "$shared" "$shared.done" && mkdir -p "$(dirname "$shared")" && cp -a "$deps/src/$dir" "$shared" &&
    touch "$shared.done"
}

# SDL's headers, with CONFIG as SDL_config.h, into DEPS/include/SDL2; every .c of each ENTRY
# (a folder under DEPS/src/sdl2, or a .c file there) compiled two at a time into DEPS/obj
# and archived into DEPS/lib/libSDL2.a.
sdl_compile() {
  local label=$1 config=$2 deps=$3 ar=$4 cc=$5
  shift 5
  local sdl=$deps/src/sdl2 obj=$deps/obj
  rm -rf "$obj" "$deps/include/SDL2" "$deps/lib"
  mkdir -p "$obj" "$deps/include/SDL2" "$deps/lib"
  cp "$sdl"/include/*.h "$deps/include/SDL2/"
  cp "$config" "$deps/include/SDL2/SDL_config.h"
  local list=$obj/sources.txt entry
  for entry in "$@"; do
    if [[ $entry == *.c ]]; then echo "$sdl/$entry"; else ls "$sdl/$entry"/*.c; fi
  done >"$list"
  echo "$label: compiling SDL2 ($(wc -l <"$list") files)" >&2
  # -I include/SDL2 first: our SDL_config.h, never SDL's own generated one.
  local flags="-O2 -I$deps/include/SDL2 -I$sdl/src -I$sdl/src/video/khronos -DUSING_GENERATED_CONFIG_H -w"
  xargs -P 2 -I{} sh -c 'f={}; o='"$obj"'/$(echo "${f#'"$sdl"'/}" | tr / _).o;
      '"$cc $flags"' -c "$f" -o "$o" || exit 255' <"$list"
  $ar rcs "$deps/lib/libSDL2.a" "$obj"/*.o
}
