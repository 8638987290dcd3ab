#!/bin/sh
# Regenerates the Tiled fixtures from their sources, with the real Tiled (Debian: tiled):
#   levels/   every shipped level as lvl2tiled writes it (.tmx, tiles.tsx, sprites.tsx),
#             exported by Tiled as .tmj (external tilesets); 02 also with its tilesets
#             embedded (-embedded.tmj), 07 also minimised (-minimized.tmj)
#   variants/ hand-written .tmx (flip flags, a base64 layer, an embedded tileset; a zlib
#             layer and an infinite map, which the loader refuses), exported the same way
#   bad/      hand-made .tmj, one per error message: not generated, edited by hand
#   tests/game/tiled/regen.sh BUILD_DIR     (BUILD_DIR holds tools/lvl2tiled/lvl2tiled)
# Every Tiled call is bounded by timeout: Tiled 1.8.2 spins forever on some corrupt
# compressed layers.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=${1:?usage: regen.sh BUILD_DIR}
command -v tiled >/dev/null || { echo "regen: tiled not installed (apt-get install --no-install-recommends tiled)"; exit 1; }
export QT_QPA_PLATFORM=offscreen
HOME=$(mktemp -d)
export HOME
trap 'rm -rf "$HOME"' EXIT
export_map() { timeout 20 tiled "$@" 2>/dev/null; }

rm -f "$here"/levels/*
"$build/tools/lvl2tiled/lvl2tiled" --assets "$root/assets" -o "$here/levels" "$root"/levels/*.lvl
for f in "$here"/levels/*.tmx "$here"/variants/*.tmx; do
    export_map --export-map json "$f" "${f%.tmx}.tmj"
done
export_map --embed-tilesets --export-map json "$here/levels/02-keys-and-doors.tmx" "$here/levels/02-keys-and-doors-embedded.tmj"
export_map --minimize --export-map json "$here/levels/07-the-vault.tmx" "$here/levels/07-the-vault-minimized.tmj"
echo "regen: $(ls "$here"/levels/*.tmj "$here"/variants/*.tmj | wc -l) maps exported by $(tiled --version 2>/dev/null | head -n 1)"
