#!/usr/bin/env bash
# Regenerates the golden frames, tests/golden/<level>.png, one per levels/*.lvl, on purpose:
# after a change to the art, the drawing, a level, the rules or the bot that is meant to
# change what the levels look like. Look at every image it reports as changed before
# committing it (git diff --stat tests/golden; any PNG viewer).
#   tools/golden-update.sh [GAME]   GAME defaults to build/release/game/game, built first
# Or: cmake --build build/release --target golden_update
set -euo pipefail
if [[ "${1:-}" == --help || "${1:-}" == -h ]]; then sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0; fi
cd "$(dirname "$0")/.."
game=${1:-}
if [[ -z "$game" ]]; then
  cmake --preset release >/dev/null
  cmake --build --preset release -j2 --target game
  game=build/release/game/game
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
changed=0
for lvl in levels/*.lvl; do
  name=$(basename "$lvl" .lvl)
  sh tests/golden/shot.sh "$game" "$PWD/$lvl" "$tmp/$name.png"
  if cmp -s "$tmp/$name.png" "tests/golden/$name.png"; then
    echo "golden: $name unchanged"
  else
    cp "$tmp/$name.png" "tests/golden/$name.png"
    echo "golden: $name UPDATED -> tests/golden/$name.png"
    changed=$((changed + 1))
  fi
done
for png in tests/golden/*.png; do
  [[ -f "levels/$(basename "$png" .png).lvl" ]] || echo "golden: $png has no level any more; git rm it"
done
echo "golden: $changed image(s) updated"
