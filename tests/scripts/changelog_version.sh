#!/bin/sh
# The version the programs and packages carry (engine/cmake/version.cmake) is the
# CHANGELOG's newest release, dated: nothing built says a version the CHANGELOG calls
# unreleased. Changes since go under "## Unreleased" until the version line moves.
#   sh tests/scripts/changelog_version.sh SOURCE_DIR
src=${1:?usage: changelog_version.sh SOURCE_DIR}
v=$(sed -n 's/^set(STRATA_VERSION \([0-9.]*\))$/\1/p' "$src/engine/cmake/version.cmake")
[ -n "$v" ] || { echo "changelog_version: no set(STRATA_VERSION X.Y.Z) in engine/cmake/version.cmake"; exit 1; }
first=$(grep -E '^## [0-9]' "$src/CHANGELOG.md" | head -n 1)
case "$first" in
"## $v - "[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*) echo "changelog_version: $v, released: $first"; exit 0 ;;
esac
echo "changelog_version: version.cmake says $v, and the CHANGELOG's newest version is '$first'" \
    "(expected '## $v - YYYY-MM-DD')"
exit 1
