#!/bin/sh
# check-layering.sh [ROOT] - the layering of CONVENTIONS.md, checked on the sources of ROOT
# (default: the project this script is in). Prints "file:line: rule: code" for every break
# and exits 1 when there is one, 0 when there is none:
#
#   os-call      only engine/core/os_file.* and os_memory.* call the OS on files and folders
#                (open, stat, mkdir, opendir, rename, unlink, access, realpath, fopen,
#                SDL_GetBasePath, ...): everything else goes through os_file.h
#   tool-write   the tools (tools/*, but the benchmarks and the tools' tests) open, create,
#                rename and remove files through os_file.h too: every file the project
#                writes goes through its one writer
#   core         engine/core includes no SDL and nothing of engine/ outside core/
#   engine-root  engine/ includes nothing outside engine/ (no game/, no ../)
#   cycle        engine/core, platform, render, asset and audio include each other without a cycle
#   circle       no module (x.c with x.h) of the engine or the game reaches itself through
#                the headers it includes, however far round
#   backend      the render backends (render_core.h, gl/, sdl/) include render_types.h, the
#                core and each other: not render.h, the font, the camera, the overlay, platform/
#   game-layer   game/ is in folders, bottom to top level, rules, front, editor, app: a
#                folder includes game headers of its own and of the folders below, named by
#                their folder ("rules/sim.h"); a game source in no such folder is a break
#   game-logic   level/ and rules/ include no SDL, platform/, render/, asset/ or audio/
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

OS_CALLS='open|openat|creat|stat|lstat|fstat|fstatat|mkdir|mkdirat|opendir|fdopendir|readdir|scandir|rename|renameat|unlink|unlinkat|rmdir|remove|access|faccessat|realpath|readlink|chdir|getdents64|fopen|freopen|SDL_GetBasePath|SDL_RWFromFile'
CALL_RE="(^|[^A-Za-z0-9_.>])($OS_CALLS)[[:space:]]*\\("
INCLUDE_RE='^[[:space:]]*#[[:space:]]*include[[:space:]]*'

# The file with comments removed and string/char literals emptied, line for line; on
# preprocessor lines the literals are kept, so #include names survive.
strip() {
    awk '
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
      print out }' "$1"
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
count=0
for f in $SOURCES; do
    mkdir -p "$TMP/$(dirname "$f")"
    strip "$f" >"$TMP/$f"
    count=$((count + 1))
done
# A check that saw nothing would pass: the sources must be there, and the call pattern
# must find the calls the OS module itself makes.
if [ "$count" -lt 10 ] || ! grep -qE "$CALL_RE" "$TMP/engine/core/os_file.c"; then
    echo "check-layering: the check itself is broken ($count sources; no call seen in os_file.c)" >&2
    exit 2
fi

for f in $SOURCES; do
    case $f in engine/core/os_file.[ch] | engine/core/os_memory.[ch]) continue ;; esac
    grep -nE "$CALL_RE" "$TMP/$f" | sed "s|^|$f:|" >"$TMP/hits"
    report "os-call: call the OS through core/os_file.h" <"$TMP/hits"
done

# The tools write their files through the one writer too (os_write_file_atomic); the
# benchmarks may touch the OS directly (they measure it), and the tools' own tests set up
# their fixtures as they like.
WRITE_RE="(^|[^A-Za-z0-9_.>])(open|openat|creat|fopen|freopen|rename|renameat|unlink|unlinkat|remove|mkdir)[[:space:]]*\\("
TOOL_SOURCES=$(find tools -type f -name '*.c' ! -path 'tools/bench/*' ! -name 'test_*.c' | sort)
for f in $TOOL_SOURCES; do
    mkdir -p "$TMP/$(dirname "$f")"
    strip "$f" >"$TMP/$f"
    grep -nE "$WRITE_RE" "$TMP/$f" | sed "s|^|$f:|" >"$TMP/hits"
    report "tool-write: write files through core/os_file.h" <"$TMP/hits"
done

: >"$TMP/edges"
for f in $(echo "$SOURCES" | grep '^engine/'); do
    module=$(echo "$f" | cut -d/ -f2)
    grep -nE "$INCLUDE_RE" "$TMP/$f" | sed "s|^|$f:|" >"$TMP/incs"
    # Quoted includes are rooted at engine/: "core/arena.h". Anything else leaves engine/.
    grep -E ':[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$TMP/incs" |
        grep -vE '"(core|platform|render|asset|audio)/' >"$TMP/hits"
    report "engine-root: engine includes only engine/<module>/ headers" <"$TMP/hits"
    if [ "$module" = core ]; then
        grep -E 'include[[:space:]]*[<"](SDL|(platform|render|asset|audio)/)' "$TMP/incs" >"$TMP/hits"
        report "core: engine/core includes no SDL and nothing above it" <"$TMP/hits"
    fi
    sed -n 's|.*include[[:space:]]*"\([a-z]*\)/.*|\1|p' "$TMP/incs" | sort -u |
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
    grep -nE "${INCLUDE_RE}\"(platform/|render/(render|font|camera|debug_overlay)\.h)" "$TMP/$f" |
        sed "s|^|$f:|" >"$TMP/hits"
    report "backend: a render backend includes only render_types.h, render_core.h and the core" <"$TMP/hits"
done

# No circle anywhere: a module (x.c with x.h) includes no header whose module includes it
# back, however far round, in the engine and the game alike.
: >"$TMP/files"
for f in $SOURCES; do
    from=${f%.*}
    case $f in engine/*) base=engine ;; *) base=game ;; esac
    sed -n 's|^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)\.h".*|\1|p' "$TMP/$f" |
        while read -r h; do
            to="$base/$h"
            [ -f "$to.h" ] || continue
            [ "$to" != "$from" ] && echo "$from $to"
        done
done | sort -u >"$TMP/files"
if ! tsort "$TMP/files" >/dev/null 2>"$TMP/loop"; then
    echo "circle: modules include each other in a circle: $(grep -v '^tsort: input contains a loop' "$TMP/loop" | sed 's/^tsort: //' | tr '\n' ' ')"
    fails=$((fails + 1))
fi

# The game's folders, bottom to top: a folder includes game headers of its own folder and
# of the folders below it, always by their folder ("rules/sim.h"); level/ and rules/ see no
# SDL, no platform, render, asset or audio header.
GAME_LAYERS="level rules front editor app"
layer_rank() { # the position of folder $1 in GAME_LAYERS, 0 when it is none of them
    i=1
    for l in $GAME_LAYERS; do
        [ "$l" = "$1" ] && { echo $i; return; }
        i=$((i + 1))
    done
    echo 0
}
game_files=0
for f in $(echo "$SOURCES" | grep '^game/'); do
    game_files=$((game_files + 1))
    folder=$(echo "$f" | cut -d/ -f2)
    rank=$(layer_rank "$folder")
    if [ "$rank" -eq 0 ]; then
        echo "$f:1: game-folder: a game source lies in no layer's folder ($GAME_LAYERS)"
        fails=$((fails + 1))
        continue
    fi
    grep -nE "$INCLUDE_RE\"" "$TMP/$f" | sed "s|^|$f:|" >"$TMP/incs"
    : >"$TMP/hits"
    while IFS= read -r hit; do
        name=$(echo "$hit" | sed -n 's|.*include[[:space:]]*"\([^"]*\)".*|\1|p')
        case $name in
        core/* | platform/* | render/* | asset/* | audio/* | game_layout.h | ../../assets/atlas.h) continue ;; # the engine's, generated, the art's cells
        */*)
            to=${name%%/*}
            to_rank=$(layer_rank "$to")
            if [ "$to_rank" -eq 0 ] || [ "$to_rank" -gt "$rank" ]; then echo "$hit" >>"$TMP/hits"; fi ;;
        *) echo "$hit" >>"$TMP/hits" ;; # a bare name: which layer's?
        esac
    done <"$TMP/incs"
    report "game-layer: a game folder includes only its own and the folders below it ($GAME_LAYERS), by their names" <"$TMP/hits"
    if [ "$rank" -le 2 ]; then
        grep -nE "${INCLUDE_RE}[<\"](SDL|(platform|render|asset|audio)/)" "$TMP/$f" | sed "s|^|$f:|" >"$TMP/hits"
        report "game-logic: level/ and rules/ include no SDL, platform, render, asset or audio header" <"$TMP/hits"
    fi
done
[ "$game_files" -gt 10 ] || { echo "check-layering: the check itself is broken (only $game_files game sources)" >&2; exit 2; }

if [ "$fails" -gt 0 ]; then
    echo "check-layering: $fails break(s) of the layering (CONVENTIONS.md)"
    exit 1
fi
echo "check-layering: $count sources, $game_files of them the game's in its folders ($GAME_LAYERS): layering holds"
