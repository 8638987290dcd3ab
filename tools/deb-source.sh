#!/usr/bin/env bash
# tools/deb-source.sh - sourced by tools/web.sh and tools/windows.sh: a Debian source package
# (SDL2's libsdl2, cJSON's cjson) unpacked into DEPS/src/DIR, through a private apt
# configuration (its own deb-src list and package lists under DEPS/apt), so the machine's
# apt sources stay as they are. The same mirror and release as the machine's own Debian.
#   deb_source PACKAGE DIR DEPS
if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0; fi
deb_source() {
  local pkg=$1 dir=$2 deps=$3
  local apt=$deps/apt src=$deps/src/$dir.pkg
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
}
