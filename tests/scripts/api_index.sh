#!/bin/sh
# api_index.sh SRC WORK - docs/api.md is what the engine's headers declare (tools/api-index.sh
# --check), and the check catches a function added to a header, or one taken out, without
# the index being made again: both planted in a copy of the tree in WORK.
set -u
src=$1 work=$2
sh "$src/tools/api-index.sh" --check || exit 1
plant() { # what, then a sed script for engine/core/list.h
    rm -rf "$work" && mkdir -p "$work/tools" && cp -r "$src/engine" "$src/docs" "$work/" &&
        cp "$src/tools/api-index.sh" "$work/tools/" || exit 2
    sed -i "$2" "$work/engine/core/list.h"
    if sh "$work/tools/api-index.sh" --check >"$work/out" 2>&1; then
        echo "NOT CAUGHT: $1"
        exit 1
    fi
    echo "caught: $1"
}
plant "a function added to list.h" '/^void \*st_list_add(/a void st_list_planted(List *l);'
plant "a function taken out of list.h" '/^void \*st_list_add(/d'
rm -rf "$work"
