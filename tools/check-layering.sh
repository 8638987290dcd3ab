#!/bin/sh
# check-layering.sh [ROOT] - the layering of CONVENTIONS.md, checked on the sources of ROOT
# (default: the project this script is in). Prints "file:line: rule: code" for every break
# and exits 1 when there is one, 0 when there is none:
#
#   os-call      only engine/core/os_file.* (its Windows half os_file_win32.c too) and
#                os_memory.* call the OS on files and folders (open, stat, mkdir, opendir,
#                rename, unlink, access, realpath, fopen, CreateFileW, MoveFileExW,
#                FindFirstFileExW, SDL_GetBasePath, ...): everything else goes through os_file.h
#   tool-write   the tools (tools/*, but the benchmarks and the tools' tests) open, create,
#                rename and remove files through os_file.h too: every file the project
#                writes goes through its one writer
#   core         engine/core includes no SDL and nothing of engine/ outside core/
#   engine-root  engine/ includes nothing outside engine/ (no game/, no ../): its own headers
#                by their installed names, <strata/core/arena.h>, and never in quotes
#   cycle        engine/core, platform, render, asset and audio include each other without a cycle
#   circle       no module (x.c with x.h) of the engine or the game reaches itself through
#                the headers it includes, however far round
#   names        every function a header declares starts with its module's name, after st_
#                in the engine (st_arena_push in arena.h, sim_step in game/rules/sim.h), or
#                its family's: st_os_ (os_file.h, os_memory.h), st_scratch_ (arena.h),
#                level_ (game/level/)
#   backend      the render backends (render_core.h, gl/, sdl/) include render_types.h, the
#                core and each other: not render.h, the font, the camera, the overlay, platform/
#   game-layer   game/ is in folders, bottom to top level, rules, front, editor, app: a
#                folder includes game headers of its own and of the folders below, named by
#                their folder ("rules/sim.h"); a game source in no such folder is a break
#   game-logic   level/ and rules/ include no SDL, platform/, render/, asset/ or audio/
#   errors       one error value: no source of engine/, game/ or tools/ calls
#                st_arena_last_error() (a module reads an arena's refusal with st_arena_error,
#                core/arena.h), and no header but core/error.h defines an error struct
#                (typedef struct ...Error)
#
# It is a grep, so comments and the insides of string literals are blanked out first (a
# comment may say "rename()"); the code it cannot see through is a macro that builds a
# call's name. tests/layering/plants.sh proves each rule fails on a planted break.
set -u
case ${1:-} in --help | -h) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
ROOT=${1:-$(dirname "$0")/..}
cd "$ROOT" || exit 2
[ -f engine/core/os_file.c ] && [ -f game/CMakeLists.txt ] || {
    echo "check-layering: $ROOT is not the project (no engine/core/os_file.c)" >&2
    exit 2
}
TMP=$(mktemp -d) || exit 2
trap 'rm -rf "$TMP"' EXIT
fails=0

OS_CALLS='open|openat|creat|stat|lstat|fstat|fstatat|mkdir|mkdirat|opendir|fdopendir|readdir|scandir|rename|renameat|unlink|unlinkat|rmdir|remove|access|faccessat|realpath|readlink|chdir|getdents64|fopen|freopen|SDL_GetBasePath|SDL_RWFromFile|CreateFileW?|CreateDirectoryW?|DeleteFileW?|MoveFileExW?|ReplaceFileW?|GetFileAttributes(Ex)?W?|FindFirstFile(Ex)?W?|GetModuleFileNameW?|GetFullPathNameW?|_wfopen|_wopen'
CALL_RE="(^|[^A-Za-z0-9_.>])($OS_CALLS)[[:space:]]*\\("
INCLUDE_RE='^[[:space:]]*#[[:space:]]*include[[:space:]]*'

# The file with comments removed and string/char literals emptied, line for line; on
# preprocessor lines the literals are kept, so #include names survive.
# strip FILE...: each file, so blanked, to $TMP/FILE, in one awk for all of them.
strip() {
    for f in "$@"; do mkdir -p "$TMP/$(dirname "$f")"; done
    awk -v tmp="$TMP" '
    FNR == 1 { if (dest) close(dest); dest = tmp "/" FILENAME; incomment = 0 }
    # Most lines hold no comment or literal at all: as they are, without the walk below.
    !incomment && $0 !~ /[\/"\047]/ { print > dest; next }
    incomment && index($0, "*/") == 0 { print "" > dest; next }
    { line = $0; out = ""; n = length(line); i = 1
      pp = (!incomment && line ~ /^[ \t]*#/)
      while (i <= n) {
          c = substr(line, i, 1); c2 = substr(line, i, 2)
          if (incomment) { if (c2 == "*/") { incomment = 0; out = out " "; i += 2 } else i++; continue }
          if (c2 == "/*") { incomment = 1; i += 2; continue }
          if (c2 == "//") break
          if (c == "\"" || c == "\047") {
              q = c; out = out q; i++
              while (i <= n) {
                  d = substr(line, i, 1)
                  if (d == "\\") { if (pp) out = out substr(line, i, 2); i += 2; continue }
                  if (d == q) break
                  if (pp) out = out d
                  i++
              }
              out = out q; i++; continue
          }
          out = out c; i++
      }
      print out > dest }' "$@"
}

report() { # rule, then "file:line:code" lines on stdin
    while IFS= read -r hit; do
        file=${hit%%:*} rest=${hit#*:}
        line=${rest%%:*}
        echo "$file:$line: $1: $(sed -n "${line}s/^[[:space:]]*//p" "$file")"
        fails=$((fails + 1))
    done
}

# Every source once, stripped, under $TMP with the same path.
SOURCES=$(find engine game -type f \( -name '*.c' -o -name '*.h' \) | sort)
count=$(echo "$SOURCES" | grep -c .)
# shellcheck disable=SC2086 # the names hold no spaces
strip $SOURCES
# A check that saw nothing would pass: the sources must be there, and the call pattern
# must find the calls the OS module itself makes.
if [ "$count" -lt 10 ] || ! grep -qE "$CALL_RE" "$TMP/engine/core/os_file.c" ||
    ! grep -qE "$CALL_RE" "$TMP/engine/core/os_file_win32.c"; then
    echo "check-layering: the check itself is broken ($count sources; no call seen in os_file.c or os_file_win32.c)" >&2
    exit 2
fi

# One grep over all of them (in $TMP, so the names it prints are the sources').
others=$(echo "$SOURCES" | grep -vE '^engine/core/os_(file|file_win32|memory)\.[ch]$')
# shellcheck disable=SC2086
(cd "$TMP" && grep -nHE "$CALL_RE" $others) >"$TMP/hits"
report "os-call: call the OS through core/os_file.h" <"$TMP/hits"

# The tools write their files through the one writer too (st_os_write_file_atomic); the
# benchmarks may touch the OS directly (they measure it), and the tools' own tests set up
# their fixtures as they like.
WRITE_RE="(^|[^A-Za-z0-9_.>])(open|openat|creat|fopen|freopen|rename|renameat|unlink|unlinkat|remove|mkdir)[[:space:]]*\\("
TOOL_SOURCES=$(find tools -type f -name '*.c' ! -path 'tools/bench/*' ! -name 'test_*.c' | sort)
# shellcheck disable=SC2086
strip $TOOL_SOURCES
# shellcheck disable=SC2086
(cd "$TMP" && grep -nHE "$WRITE_RE" $TOOL_SOURCES) >"$TMP/hits"
report "tool-write: write files through core/os_file.h" <"$TMP/hits"

: >"$TMP/edges"
for f in $(echo "$SOURCES" | grep '^engine/'); do
    module=$(echo "$f" | cut -d/ -f2)
    grep -nE "$INCLUDE_RE" "$TMP/$f" | sed "s|^|$f:|" >"$TMP/incs"
    # The engine's headers by their installed names, <strata/core/arena.h>; a quoted include
    # or a <strata/...> in no engine folder leaves engine/.
    grep -E ':[[:space:]]*#[[:space:]]*include[[:space:]]*("|<strata/)' "$TMP/incs" |
        grep -vE '<strata/(core|platform|render|asset|audio|host)/' >"$TMP/hits"
    report "engine-root: engine includes only its own headers, as <strata/<module>/...>" <"$TMP/hits"
    if [ "$module" = core ]; then
        grep -E 'include[[:space:]]*[<"](SDL|strata/(platform|render|asset|audio|host)/)' "$TMP/incs" >"$TMP/hits"
        report "core: engine/core includes no SDL and nothing above it" <"$TMP/hits"
    fi
    sed -n 's|.*include[[:space:]]*<strata/\([a-z]*\)/.*|\1|p' "$TMP/incs" | sort -u |
        while read -r to; do
            [ "$to" != "$module" ] && echo "$module $to"
        done >>"$TMP/edges"
done
if ! tsort "$TMP/edges" >/dev/null 2>"$TMP/loop"; then
    echo "engine: cycle: engine modules include each other in a circle ($(tr '\n' ' ' <"$TMP/loop"))"
    echo "  includes between modules: $(sort -u "$TMP/edges" | sed 's/ / -> /' | tr '\n' ';')"
    fails=$((fails + 1))
fi

# The render backends (render_core.h and its gl/ and sdl/ folders) see the shared types
# (render_types.h), the core and each other's internals, never the front end (render.h,
# font, camera, the overlay) nor the platform.
for f in $(echo "$SOURCES" | grep -E '^engine/render/(render_core\.h|gl/|sdl/)'); do
    grep -nE "${INCLUDE_RE}<strata/(platform/|render/(render|font|camera|debug_overlay)\.h)" "$TMP/$f" |
        sed "s|^|$f:|" >"$TMP/hits"
    report "backend: a render backend includes only render_types.h, render_core.h and the core" <"$TMP/hits"
done

# No circle anywhere: a module (x.c with x.h) includes no header whose module includes it
# back, however far round, in the engine and the game alike.
: >"$TMP/files"
(cd "$TMP" && awk '
    FNR == 1 { from = FILENAME; sub(/\.[ch]$/, "", from); base = FILENAME; sub(/\/.*/, "", base) }
    /^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*\.h"/ {
        h = $0
        sub(/^[^"]*"/, "", h)
        sub(/\.h".*/, "", h)
        to = base "/" h
        if (to != from) print from, to
    }
    /^[[:space:]]*#[[:space:]]*include[[:space:]]*<strata\/[^>]*\.h>/ {
        h = $0
        sub(/^[^<]*<strata\//, "", h)
        sub(/\.h>.*/, "", h)
        to = "engine/" h
        if (to != from) print from, to
    }' $SOURCES) | sort -u | while read -r from to; do
    [ -f "$to.h" ] && echo "$from $to"
done >"$TMP/files"
if ! tsort "$TMP/files" >/dev/null 2>"$TMP/loop"; then
    echo "circle: modules include each other in a circle: $(grep -v '^tsort: input contains a loop' "$TMP/loop" | sed 's/^tsort: //' | tr '\n' ' ')"
    fails=$((fails + 1))
fi

# One error value: an arena's refusal reaches a module's Error through st_arena_error, never
# a read of a per-thread string, and no module brings back an error struct of its own.
ALL_TOOL_SOURCES=$(find tools -type f \( -name '*.c' -o -name '*.h' \) | sort)
# shellcheck disable=SC2086
strip $ALL_TOOL_SOURCES
# shellcheck disable=SC2086
(cd "$TMP" && grep -nHE "(^|[^A-Za-z0-9_])(st_)?arena_last_error[[:space:]]*\(" $SOURCES $ALL_TOOL_SOURCES) >"$TMP/hits"
report "errors: an arena's refusal is read with st_arena_error (core/arena.h)" <"$TMP/hits"
# shellcheck disable=SC2086
(cd "$TMP" && grep -nHE "typedef[[:space:]]+struct[[:space:]]+[A-Za-z0-9_]*Error[[:space:]]*\{" $SOURCES |
    grep -v '^engine/core/error\.h:') >"$TMP/hits"
report "errors: one error value, core/error.h's Error" <"$TMP/hits"

# Names: every function a header declares starts with its module's name (the header's:
# st_arena_push in arena.h, after the engine's st_), or with the name of the family it
# belongs to: st_os_ for the two OS headers, st_scratch_ for arena.h's scratch arenas,
# level_ for the headers of game/level/.
headers=$(echo "$SOURCES" | grep '\.h$')
(cd "$TMP" && awk '
    FNR == 1 {
        module = FILENAME
        sub(/.*\//, "", module)
        sub(/\.h$/, "", module)
        allowed = module
        if (FILENAME ~ /^engine\/core\/os_/) allowed = "os"
        if (FILENAME == "engine/core/arena.h") allowed = "arena scratch"
        if (FILENAME ~ /^engine\//) gsub(/[^ ]+/, "st_&", allowed)
        if (FILENAME ~ /^game\/level\//) allowed = module " level"
    }
    /^[[:space:]]*(static|typedef|#|return)/ { next }
    /^[A-Za-z_][A-Za-z0-9_ *]*[ *][a-z_][a-z0-9_]*\(/ {
        line = $0
        sub(/\(.*/, "", line)
        n = split(line, w, /[ *]+/)
        name = w[n]
        ok = 0
        m = split(allowed, a, " ")
        for (i = 1; i <= m; i++)
            if (name == a[i] || index(name, a[i] "_") == 1) ok = 1
        if (!ok) printf "%s:%d: names: '\''%s'\'' does not start with its module'\''s name (%s)\n", FILENAME, FNR, name, allowed
    }' $headers) >"$TMP/names"
if [ -s "$TMP/names" ]; then
    cat "$TMP/names"
    fails=$((fails + $(wc -l <"$TMP/names")))
fi

# The game's folders, bottom to top: a folder includes game headers of its own folder and
# of the folders below it, always by their folder ("rules/sim.h"); level/ and rules/ see no
# SDL, no platform, render, asset or audio header.
GAME_LAYERS="level rules front editor app"
game_sources=$(echo "$SOURCES" | grep '^game/')
game_files=$(echo "$game_sources" | grep -c .)
(cd "$TMP" && awk -v layers="$GAME_LAYERS" '
    BEGIN { n = split(layers, l, " "); for (i = 1; i <= n; i++) rank[l[i]] = i }
    FNR == 1 {
        split(FILENAME, parts, "/")
        me = rank[parts[2]] + 0
        if (!me) printf "%s:1: game-folder: a game source lies in no layer'\''s folder (%s)\n", FILENAME, layers
    }
    !me { next }
    /^[[:space:]]*#[[:space:]]*include[[:space:]]*"/ {
        name = $0
        sub(/^[^"]*"/, "", name)
        sub(/".*/, "", name)
        if (name == "game_layout.h" || name == "../../assets/atlas.h") next
        to = name
        if (index(to, "/") == 0) to = ""
        else sub(/\/.*/, "", to)
        if (to == "" || !(to in rank) || rank[to] > me)
            printf "%s:%d: game-layer: a game folder includes only its own and the folders below it (%s), by their names: %s\n", FILENAME, FNR, layers, $0
    }
    /^[[:space:]]*#[[:space:]]*include[[:space:]]*<(SDL|strata\/(platform|render|asset|audio|host)\/)/ {
        if (me <= 2) printf "%s:%d: game-logic: level/ and rules/ include no SDL, platform, render, asset, audio or host header: %s\n", FILENAME, FNR, $0
    }' $game_sources) >"$TMP/game_hits"
if [ -s "$TMP/game_hits" ]; then
    cat "$TMP/game_hits"
    fails=$((fails + $(wc -l <"$TMP/game_hits")))
fi
[ "$game_files" -gt 10 ] || { echo "check-layering: the check itself is broken (only $game_files game sources)" >&2; exit 2; }

if [ "$fails" -gt 0 ]; then
    echo "check-layering: $fails break(s) of the layering (CONVENTIONS.md)"
    exit 1
fi
echo "check-layering: $count sources, $game_files of them the game's in its folders ($GAME_LAYERS): layering holds"
