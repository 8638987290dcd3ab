#!/usr/bin/env bash
# Runs one of the project's tools as written in the README, from any folder: builds it in the
# release preset when it is missing or out of date (installing what building needs, as
# tools/play.sh does), then runs it with the arguments given, in the folder you are in.
#   tools/tool.sh NAME [ARGS...]     e.g. tools/tool.sh levelfmt --check levels/*.lvl
#   tools/tool.sh --help             the tools, one line each
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tools=(levelcheck levelfmt arenaplot arenasize lvl2tiled mkassets mksounds mkfont)
if [[ $# -eq 0 || "$1" == --help || "$1" == -h ]]; then
  cat <<'TEXT'
usage: tools/tool.sh NAME [ARGS...]   (NAME --help says more about each)
  levelcheck  checks level files and says how big the level arena must be
  levelfmt    prints level files in the canonical form (-w rewrites, --check lists)
  arenaplot   draws an --arena-trace CSV as a PNG
  arenasize   says from an --arena-trace CSV how large each arena must be
  lvl2tiled   exports levels as Tiled maps (.tmx) with their tilesets
  mkassets    draws the game's art (tiles.png, sprites.png, font.png) into a folder
  mksounds    synthesises the game's sound effects (WAV) into a folder
  mkfont      writes the engine's default font's glyphs as C data
TEXT
  [[ $# -eq 0 ]] && exit 2
  exit 0
fi
name=$1
shift
found=0
for t in "${tools[@]}"; do [[ "$t" == "$name" ]] && found=1; done
if ((!found)); then
  echo "tool.sh: no tool '$name' (tools/tool.sh --help lists them)" >&2
  exit 2
fi
(
  cd "$root"
  source tools/deps.sh
  deps_install_play >&2
  [[ -f build/release/build.ninja ]] || cmake --preset release >/dev/null
  cmake --build --preset release --target "$name" >/dev/null || cmake --build --preset release --target "$name" >&2
)
exec "$root/build/release/tools/$name/$name" "$@"
