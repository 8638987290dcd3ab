#!/bin/sh
# function_length.sh ROOT - no function of engine/ or game/ (every .c under them, however
# deep) is longer than 80 lines, counted from the first line of its signature to its
# closing brace. Prints "file:line: name is N lines (limit 80)" for each one that is and
# exits 1; exits 0 when there is none.
#
# function_length.sh --plants WORK ROOT - proves the check can fail: on copies of ROOT's
# engine/ and game/ in WORK, a planted 81-line function must be named, a planted 80-line one,
# a one-line one and a prototype over several lines must not; a body the scan cannot see the
# end of must fail the check too.
#
# What the scan assumes, true of sources that clang-format lays out (ctest `format`): a
# definition starts at column 0 with a name and has a `(` on its first line and no `=` (an
# initializer has one, a signature never; a one-line function that has one is skipped, and
# is short anyway); its signature ends at the first line ending in `{` (a body follows) or
# `;` (a prototype, skipped), or `}` (a one-line function); its body ends at the first `}`
# at column 0, since everything inside a body is indented. Checked once against ctags: the
# same definitions (but EM_JS's JavaScript, which the scan counts too), the same lengths.
#
# There is no allow-list: the last long functions (the game's start-up and frame) were split
# when the host moved into the engine.
LIMIT=80

scan() { # scan ROOT: "file line name length" for every definition over LIMIT ("open": no end)
    (cd "$1" && find engine game -type f -name '*.c' | LC_ALL=C sort | while read -r f; do
        awk -v file="$f" -v limit=$LIMIT '
        function name_of(s,    i, depth, c) {
            # Past any __attribute__((...)) in front: the name is the one before the next (.
            while (match(s, /__attribute__[ \t]*\(/)) {
                i = RSTART + RLENGTH; depth = 1
                for (; i <= length(s) && depth > 0; i++) {
                    c = substr(s, i, 1)
                    if (c == "(") depth++
                    else if (c == ")") depth--
                }
                s = substr(s, 1, RSTART - 1) substr(s, i)
            }
            if (!match(s, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) return "?"
            s = substr(s, RSTART, RLENGTH - 1)
            sub(/[ \t]+$/, "", s)
            return s
        }
        state == "body" {
            if ($0 ~ /^}/) {
                if (NR - start + 1 > limit) print file, start, name, NR - start + 1
                state = ""
            }
            next
        }
        state == "" && /^[A-Za-z_]/ && /\(/ && !/=/ && !/^typedef/ { state = "sig"; start = NR; name = name_of($0) }
        state == "sig" {
            line = $0
            sub(/[ \t]*(\/\/.*|\/\*.*\*\/)[ \t]*$/, "", line)
            if (line ~ /\}$/) { state = "" }           # one line: never long
            else if (line ~ /;$/) { state = "" }       # a prototype
            else if (line ~ /\{$/) { state = "body" }
        }
        END { if (state != "") print file, start, name, "open" }
        ' "$f"
    done)
}

check() { # check ROOT: 0 when only the allowed functions are long, and all of them are
    long=$(scan "$1") || return 2
    bad=0
    while read -r file line name len; do
        [ -n "$file" ] || continue
        if [ "$len" = open ]; then
            echo "$file:$line: $name has no closing brace at column 0: the scan's assumptions (above) do not hold"
        else
            echo "$file:$line: $name is $len lines (limit $LIMIT): split it into helpers that each do one thing"
        fi
        bad=$((bad + 1))
    done <<EOF
$long
EOF
    if [ $bad -ne 0 ]; then
        echo "function-length: $bad function(s) over $LIMIT lines"
        return 1
    fi
    echo "function-length: no function of engine/ or game/ is over $LIMIT lines"
}

# plant_fn FILE NAME BODY_LINES: appends a function of 2 + BODY_LINES lines to FILE.
plant_fn() {
    {
        echo "static int $2(int x) {"
        i=0
        while [ $i -lt "$3" ]; do
            echo "    x += $i;"
            i=$((i + 1))
        done
        echo "}"
    } >>"$1"
}

plants() { # plants WORK ROOT
    WORK=$1 ROOT=$2 failures=0
    fresh() { rm -rf "$WORK" && mkdir -p "$WORK" && cp -R "$ROOT/engine" "$ROOT/game" "$WORK/" || exit 2; }
    # expect pass|fail WHAT [PATTERN]: runs the check on WORK as planted.
    expect() {
        out=$(check "$WORK" 2>&1)
        rc=$?
        if [ "$1" = fail ] && { [ $rc -ne 1 ] || ! echo "$out" | grep -q "$3"; }; then
            echo "NOT CAUGHT: $2 -> exit $rc"
            echo "$out" | sed 's/^/    /'
            failures=$((failures + 1))
        elif [ "$1" = pass ] && [ $rc -ne 0 ]; then
            echo "FALSE ALARM: $2 -> exit $rc"
            echo "$out" | sed 's/^/    /'
            failures=$((failures + 1))
        else
            echo "ok: $1: $2"
        fi
    }
    fresh
    if ! check "$WORK" >/dev/null 2>&1; then
        echo "the unplanted copy does not pass, so no plant would prove anything:"
        check "$WORK"
        exit 1
    fi

    f=game/rules/sim.c
    at=$(($(wc -l <"$WORK/$f") + 1))
    plant_fn "$WORK/$f" planted_long 79
    expect fail "an 81-line function in $f" "^$f:$at: planted_long is 81 lines"

    fresh
    f=engine/render/gl/render_gl.c
    at=$(($(wc -l <"$WORK/$f") + 1))
    plant_fn "$WORK/$f" planted_deep 100
    expect fail "a 102-line function two folders down, in $f" "^$f:$at: planted_deep is 102 lines"

    fresh
    plant_fn "$WORK/game/rules/sim.c" planted_at_limit 78
    expect pass "an 80-line function (the limit)"

    fresh
    {
        echo "static int planted_proto(int a,"
        echo "                         int b);"
        echo "static int planted_one(int x) { return x; }"
        echo "static const int planted_table[] = {(1), 2};"
    } >>"$WORK/game/rules/bot.c"
    plant_fn "$WORK/game/rules/bot.c" planted_short 10
    expect pass "a prototype over two lines, a one-line function and an initializer before a short one"

    fresh
    f=game/front/draw.c
    printf 'static int planted_open(int x) {\n    return x;\n    }\n' >>"$WORK/$f"
    expect fail "a body whose closing brace is not at column 0, in $f" "planted_open has no closing brace"

    rm -rf "$WORK"
    [ $failures -eq 0 ] || { echo "function-length plants: $failures not as expected"; exit 1; }
    echo "function-length plants: every plant caught, no false alarm"
}

if [ "${1:-}" = --plants ]; then
    [ $# -eq 3 ] || { echo "usage: $0 --plants WORK ROOT"; exit 2; }
    plants "$2" "$3"
    exit 0
fi
[ $# -eq 1 ] || { echo "usage: $0 ROOT | --plants WORK ROOT"; exit 2; }
[ -d "$1/engine" ] && [ -d "$1/game" ] || { echo "function-length: no engine/ and game/ under $1"; exit 2; }
check "$1"
