#!/bin/sh
# deps_probes.sh SRC - every package the build or a test probes for is one that tools/deps.sh
# installs: a fresh machine runs the same tests as this one. The probes are the CMake calls
# find_package, pkg_check_modules, pkg_search_module, find_program, find_library, find_path,
# find_file and check_include_file(s) in every CMakeLists.txt and *.cmake, and the shell's
# `command -v NAME`, `pkg-config --exists NAME` and `[ -f /usr/...` in every script of
# tests/ and tools/, and the programs their JavaScript starts by name (execFileSync("NAME",
# spawn("NAME", ...). A probe is covered when a check line of tools/deps.sh (one that adds to
# a list of packages to install) names what it looks for, or when the probe's line says why
# it needs none, in a comment:
#   # deps: NAME             what it looks for comes with the package deps.sh checks by NAME
#   # deps: this tree        a program the project builds itself
#   # deps: essential        a program of Debian's Essential set (bash, coreutils, sed), on
#                            every Debian
#   # deps: optional: WHY    no test's verdict depends on it (WHY says how)
# Prints each probe that is not covered as FILE:LINE: error: ..., and exits 1 on any.
#   deps_probes.sh --plants WORK SRC   proves the check fails on planted probes (and passes
#                                      on the harmless ones), in copies of SRC under WORK
if [ "${1:-}" = --plants ]; then
    work=$2 src=$3
    sh=$0
    rm -rf "$work" && mkdir -p "$work" || exit 2
    fail=0
    # copy_tree DIR: the files the check reads, from SRC.
    copy_tree() {
        mkdir -p "$1" && (cd "$src" && find . -path ./build -prune -o -path ./.git -prune -o \
            \( -name CMakeLists.txt -o -name '*.cmake' -o -name '*.sh' -o -name '*.mjs' \) -print | tar -cf - -T -) |
            tar -xf - -C "$1" || exit 2
    }
    # plant NAME FILE TEXT WANT: a copy with TEXT appended to FILE; WANT is "pass" or the
    # word the check's error must hold, at FILE's last line.
    plant() {
        name=$1 file=$2 text=$3 want=$4 copy=$work/$1
        copy_tree "$copy"
        printf '%s\n' "$text" >>"$copy/$file"
        line=$(wc -l <"$copy/$file" | tr -d ' ')
        out=$(sh "$sh" "$copy" 2>&1)
        rc=$?
        if [ "$want" = pass ]; then
            [ $rc -eq 0 ] || { echo "FAIL plant $name: a harmless probe failed the check:"; echo "$out"; fail=1; }
        elif [ $rc -ne 1 ] || ! printf '%s\n' "$out" | grep -q "^$file:$line: error: .*'$want'"; then
            echo "FAIL plant $name: the check did not name $file:$line '$want' (exit $rc):"; echo "$out"; fail=1
        fi
    }
    plant pkg_module engine/CMakeLists.txt 'pkg_check_modules(SDL2_TTF REQUIRED IMPORTED_TARGET SDL2_ttf>=2.0)' SDL2_ttf
    plant package tools/bench/CMakeLists.txt 'find_package(Vulkan QUIET)' Vulkan
    plant program tests/engine/window_test.sh 'command -v shellcheck >/dev/null || exit 77' shellcheck
    plant header tests/game/hot_static_data.sh '[ -f /usr/include/zstd.h ] || exit 77' zstd.h
    plant library tools/bench/CMakeLists.txt 'find_library(JEMALLOC_LIB NAMES jemalloc jemalloc_pic)' 'jemalloc jemalloc_pic'
    plant bad_via tests/layering/format.sh 'command -v xmllint >/dev/null # deps: libxml2-utils' libxml2-utils
    plant bare_optional tests/layering/format.sh 'command -v xmllint >/dev/null # deps: optional' xmllint
    plant module tests/web/cdp.mjs 'execFileSync("xz", ["-t", "x"]);' xz
    plant optional tests/layering/format.sh 'command -v xmllint >/dev/null # deps: optional: only adds a hint to a message' pass
    plant comment engine/CMakeLists.txt '# find_package(Vulkan) is not a probe' pass
    plant alternative tools/bench/CMakeLists.txt 'find_program(VG_PROG NAMES valgrind-not-here valgrind)' pass
    # deps.sh without its SDL_mixer check: bench's probe for it is no longer covered.
    copy=$work/unlisted
    copy_tree "$copy"
    sed -i '/SDL2_mixer.*missing+=/d' "$copy/tools/deps.sh"
    out=$(sh "$sh" "$copy" 2>&1)
    printf '%s\n' "$out" | grep -q "^tools/bench/CMakeLists.txt:[0-9]*: error: .*'SDL2_mixer'" ||
        { echo "FAIL plant unlisted: deps.sh without SDL_mixer, and the check said:"; echo "$out"; fail=1; }
    [ $fail -eq 0 ] && echo "deps_probes: every planted probe named at its line, every harmless one passed"
    exit $fail
fi

src=${1:?usage: deps_probes.sh SRC | --plants WORK SRC}
cd "$src" || exit 2
[ -f tools/deps.sh ] || { echo "deps_probes: no tools/deps.sh under $src"; exit 2; }
# The names deps.sh's check lines hold, one a line: every word between the separators of a
# path, a package or a command (so /usr/include/mimalloc.h gives usr, include, mimalloc.h
# and mimalloc).
covered=$(grep -E '(missing|lean)\+=' tools/deps.sh | sed 's/#.*//' |
    tr -s ' \t/()[]{}"=|&>;:*' '\n' | grep . | sed 'p; s/\.[a-z]*$//' | sort -u)
files=$(find . -path ./build -prune -o -path ./.git -prune -o \( -name CMakeLists.txt -o -name '*.cmake' \) -print | sort)
scripts=$(find tests tools -path '*/build' -prune -o -name '*.sh' -print | grep -v -e '^tools/deps.sh$' -e '^tests/scripts/deps_probes.sh$' | sort)
modules=$(find tests tools -path '*/build' -prune -o -name '*.mjs' -print | sort)
# One probe a line: FILE<TAB>LINE<TAB>KIND<TAB>NAMES (alternatives, space apart)<TAB>COMMENT
probes=$(
    # shellcheck disable=SC2086 # the file lists
    awk '
    function flush(   call, args, n, a, i, kind, names, start) {
        if (text == "") return
        call = tolower(text); sub(/\(.*/, "", call)
        args = text; sub(/^[^(]*\(/, "", args); sub(/\).*$/, "", args)
        n = split(args, a, /[ \t\n]+/)
        kind = call; names = ""
        if (call == "find_package") names = a[1]
        else if (call == "pkg_check_modules" || call == "pkg_search_module") {
            for (i = 2; i <= n; i++)
                if (a[i] !~ /^(REQUIRED|QUIET|NO_CMAKE_PATH|NO_CMAKE_ENVIRONMENT_PATH|IMPORTED_TARGET|GLOBAL)$/ && a[i] != "") {
                    sub(/[<>=].*/, "", a[i]); names = names " " a[i]
                }
        } else if (call ~ /^find_(program|library|path|file)$/) {
            start = 2
            for (i = 2; i <= n; i++) if (a[i] == "NAMES") { start = i + 1; break }
            if (start == 2) names = a[2]
            else for (i = start; i <= n && a[i] !~ /^[A-Z_]+$/; i++) names = names " " a[i]
        } else if (call ~ /^check_include_files?$/) names = a[1]
        sub(/^ /, "", names)
        if (names != "") printf "%s\t%d\t%s\t%s\t%s\n", FILENAME, at, kind, names, note
        text = ""
    }
    FNR == 1 { flush() }
    {
        line = $0; c = ""
        if (match(line, /#.*/)) { c = substr(line, RSTART); line = substr(line, 1, RSTART - 1) }
        if (text != "") { text = text " " line; if (c != "") note = c }
        else if (match(line, /(^|[^A-Za-z0-9_])(find_package|pkg_check_modules|pkg_search_module|find_program|find_library|find_path|find_file|check_include_files?|CHECK_INCLUDE_FILES?)[ \t]*\(/)) {
            text = substr(line, RSTART); sub(/^[^A-Za-z_]/, "", text); at = FNR; note = c
        }
        if (text != "" && index(text, ")")) flush()
    }
    END { flush() }' $files
    awk '
    {
        line = $0; c = ""
        if (match(line, /(^|[ \t])#.*/)) { c = substr(line, RSTART); line = substr(line, 1, RSTART - 1) }
        while (match(line, /command -v [A-Za-z0-9_.+-]+|pkg-config --exists [A-Za-z0-9_.+-]+|-f \/usr\/[^ \]"]+/)) {
            w = substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH)
            kind = w; sub(/ [^ ]*$/, "", kind); name = w; sub(/^.* /, "", name); sub(/^.*\//, "", name)
            printf "%s\t%d\t%s\t%s\t%s\n", FILENAME, FNR, kind, name, c
        }
    }' $scripts
    awk '
    {
        line = $0; c = ""
        if (match(line, /\/\/.*/)) { c = substr(line, RSTART); sub(/^\/\//, "#", c); line = substr(line, 1, RSTART - 1) }
        while (match(line, /(execFileSync|execFile|spawnSync|spawn)\("[A-Za-z0-9_.+-]+"/)) {
            w = substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH)
            kind = w; sub(/\(.*/, "", kind); name = w; sub(/^[^"]*"/, "", name); sub(/"$/, "", name)
            printf "%s\t%d\t%s\t%s\t%s\n", FILENAME, FNR, kind, name, c
        }
    }' $modules
)
fail=0 n=0
is_covered() { printf '%s\n' "$covered" | grep -qxF -- "$1"; }
tab=$(printf '\t')
while IFS=$tab read -r file line kind names note; do
    [ -n "$file" ] || continue
    n=$((n + 1))
    file=${file#./}
    via=$(printf '%s\n' "$note" | sed -n 's/.*# deps: *//p')
    case $via in
    "this tree"* | essential*) continue ;;
    optional:?*) continue ;;
    optional*)
        echo "$file:$line: error: $kind '$names' is marked optional without saying why ('# deps: optional: WHY': how no test's verdict depends on it)"
        fail=1; continue ;;
    ?*)
        set -- $via
        is_covered "$1" && continue
        echo "$file:$line: error: $kind '$names' is said to come with '$1', which no check line of tools/deps.sh names"
        fail=1; continue ;;
    esac
    ok=0
    for name in $names; do is_covered "$name" && ok=1; done
    [ $ok -eq 1 ] && continue
    echo "$file:$line: error: $kind '$names': tools/deps.sh installs nothing that provides it; add a check line there for the leg that needs it, or say on the probe's line '# deps: NAME' (the package deps.sh checks by NAME brings it), '# deps: this tree', '# deps: essential' or '# deps: optional: WHY'"
    fail=1
done <<EOF
$probes
EOF
[ $n -gt 0 ] || { echo "deps_probes: found no probe under $src: the check reads nothing"; exit 2; }
[ $fail -eq 0 ] && echo "deps_probes: all $n probes are installed by tools/deps.sh or say why they need not be"
exit $fail
