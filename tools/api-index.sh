#!/bin/sh
# api-index.sh [--check] - docs/api.md, the engine's API index: one line per public function
# (and function-like macro) each header of engine/ declares, by header, with the comment that
# ends its line when there is one. Read from the headers themselves, so it cannot drift:
# --check compares docs/api.md with what the headers declare now and fails, with the diff,
# when they differ (the ctest api_index). Each header's opening comment is its manual.
set -eu
case ${1:-} in --help | -h) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
headers=$(find engine -name '*.h' | LC_ALL=C sort)
gen() {
    echo "# The engine's API, one line per function"
    echo
    echo "Every public function of strata, the engine, by header: \`#include <strata/core/arena.h>\`"
    echo "for the first group, and so on. Made from the headers by \`tools/api-index.sh\` (the"
    echo "ctest \`api_index\` fails when this file and the headers differ); each header opens with"
    echo "the comment that says what its module is for and how to use it."
    # shellcheck disable=SC2086 # the paths hold no spaces
    LC_ALL=C awk '
    function flush() { if (decl != "") { gsub(/[ \t]+/, " ", decl); sub(/ __attribute__.*$/, "", decl); print "- `" decl "`" (note != "" ? " " note : ""); decl = "" } }
    FNR == 1 { flush(); shown = 0; h = FILENAME; sub(/^engine\//, "", h); open = 0 }
    /^\/\*/ && FNR == 1 { incomment = 1 }
    incomment { if ($0 ~ /\*\//) incomment = 0; next }
    open {
        line = $0; sub(/^[ \t]+/, " ", line)
        decl = decl line
        if (line ~ /[;{]/) { sub(/[ \t]*[;{].*$/, "", decl); open = 0; flush() }
        next
    }
    /^(static inline )?[A-Za-z_][A-Za-z0-9_ *]*[ *]st_[a-z0-9_]+\(/ || /^#define st_[a-z0-9_]+\(/ {
        if (!shown) { print ""; print "## " h; print ""; shown = 1 }
        line = $0; note = ""
        if (line ~ /^#define/) { sub(/^#define /, "", line); sub(/\).*/, ")", line); decl = line; flush(); next }
        if (match(line, /\/\*.*\*\/[ \t]*$/)) { note = substr(line, RSTART + 2, RLENGTH - 2); sub(/\*\/[ \t]*$/, "", note); gsub(/^ +| +$/, "", note); note = "- " note; line = substr(line, 1, RSTART - 1) }
        sub(/^static inline /, "", line)
        decl = line
        if (line ~ /[;{]/) { sub(/[ \t]*[;{].*$/, "", decl); flush() } else open = 1
    }
    END { flush() }' $headers
}
if [ "${1:-}" = --check ]; then
    tmp=$(mktemp) && trap 'rm -f "$tmp"' EXIT
    gen >"$tmp"
    n=$(grep -c '^- `' "$tmp")
    [ "$n" -ge 100 ] || { echo "api-index: only $n functions read from the headers: the reader is broken"; exit 1; }
    if ! diff -u docs/api.md "$tmp"; then
        echo "api-index: docs/api.md is not what the headers declare: run tools/api-index.sh and commit it"
        exit 1
    fi
    echo "api-index: docs/api.md lists the $n functions the headers declare"
else
    gen >docs/api.md
    echo "api-index: docs/api.md, $(grep -c '^- `' docs/api.md) functions"
fi
