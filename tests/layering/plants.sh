#!/bin/sh
# plants.sh CHECK ROOT WORK - tools/check-layering.sh must catch each kind of break. Copies
# ROOT's engine/, game/ and tools/ to WORK, plants breaks (a file call outside the OS
# module, SDL in the core, an engine -> game include, a render <-> asset circle, SDL in the
# game's rules, a game folder reaching a folder above it, a tool writing a file itself),
# and expects the check to fail naming the rule; the same words in a comment or a string
# must not count. The clean copy must pass first.
#
# A check is two seconds, so the plants share runs: every break the check reports at its
# line (all but the cycle and circle rules, which name no line) is planted in one copy, and
# each must be reported at its own file and line under its own rule; every plant that must
# not count is planted in another copy, which must pass; each cycle or circle plant has a
# copy of its own (its report names no line, so it could be another plant's). Seven runs
# of the check, not 57 (126 s -> 14 s here).
set -u
CHECK=$1 ROOT=$2 WORK=$3
failures=0
PLANTS=$WORK.plants

fresh() {
    rm -rf "$WORK" && mkdir -p "$WORK" && cp -R "$ROOT/engine" "$ROOT/game" "$ROOT/tools" "$WORK/" || exit 1
}

# plant FILE LINE: LINE at the end of FILE in $WORK; prints the line number it got.
plant() {
    printf '%s\n' "$2" >>"$WORK/$1" || exit 1
    wc -l <"$WORK/$1" | tr -d ' '
}

# run_check: the check on $WORK, its output in $out, its exit status in $rc.
run_check() {
    out=$(sh "$CHECK" "$WORK" 2>&1)
    rc=$?
}

# expect fail|pass RULE FILE LINE: a plant of LINE at the end of FILE. Rules that report a
# line are kept for the shared runs (below); cycle and circle breaks are checked at once.
expect() {
    case $1:$2 in
    fail:cycle | fail:circle)
        fresh
        plant "$3" "$4" >/dev/null
        run_check
        if [ $rc -ne 1 ] || ! echo "$out" | grep -q "^$2: \|^engine: $2: "; then
            echo "NOT CAUGHT ($2): '$4' in $3 -> exit $rc"
            echo "$out" | sed 's/^/    /'
            failures=$((failures + 1))
        else
            echo "ok: $1 $2: '$4' in $3"
        fi
        ;;
    *) printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$PLANTS" ;;
    esac
}

: >"$PLANTS"
fresh
if ! sh "$CHECK" "$WORK" >/dev/null; then
    echo "the unplanted copy does not pass:"
    sh "$CHECK" "$WORK"
    exit 1
fi

expect fail os-call game/rules/save.c 'static int planted(void) { return unlink("x"); }'
expect fail os-call game/app/main.c 'static int planted(void) { struct stat st; return stat("x", &st); }'
expect fail os-call engine/asset/asset.c 'static char *planted(void) { return SDL_GetBasePath(); }'
expect fail os-call game/app/app.c 'static void *planted(void) { return opendir ("levels"); }'
expect fail os-call engine/render/render.c 'static int planted(void) { return access("x", 0); }'
expect fail os-call engine/platform/platform.c 'static void *planted(void) { return CreateFileW(L"x", 0, 0, 0, 3, 0, 0); }'
expect fail os-call game/rules/save.c 'static int planted(void) { return MoveFileExW(L"a", L"b", 1); }'
expect fail os-call engine/asset/asset.c 'static int planted(void) { return FindFirstFileExW (L"x", 0, 0, 0, 0, 0) != 0; }'
expect pass os-call game/rules/save.c '/* unlink("x") and rename(a, b) are os_file.h'"'"'s */'
expect pass os-call game/rules/save.c '// realpath(p, buf) in a line comment'
expect pass os-call game/rules/save.c 'static const char *planted_ = "cannot open(x) or stat(y)";'
expect pass os-call game/rules/save.c 'static int planted_open(void) { return 0; }'
expect fail core engine/core/str8.c '#include <SDL2/SDL.h>'
expect fail core engine/core/arena.h '#include <strata/render/render.h>'
expect fail core engine/core/arena.c '#include <strata/audio/sound.h>'
expect fail engine-root engine/asset/asset.c '#include "../../game/rules/sim.h"'
expect fail engine-root engine/platform/platform.h '#include "game/rules/game.h"'
expect fail cycle engine/render/render.c '#include <strata/asset/asset.h>'
expect fail game-logic game/rules/sim.c '#include <SDL2/SDL.h>'
expect fail game-logic game/rules/bot.c '#include <strata/render/render.h>'
expect fail game-logic game/rules/game.c '#include <strata/audio/mixer.h>'
expect fail game-logic game/level/level.h '#include <strata/platform/platform.h>'
# A folder reaching up, or a header named without its folder.
expect fail game-layer game/rules/replay.h '#include "app/app.h"'
expect fail game-layer game/level/level.c '#include "rules/sim.h"'
expect fail game-layer game/front/draw.c '#include "editor/editor.h"'
expect fail game-layer game/rules/sim.c '#include "level.h"'
expect fail game-layer game/rules/sim.c '#include "nowhere/x.h"'
expect pass game-layer game/app/app.c '#include "editor/editor.h"'
expect pass game-layer game/front/draw.c '#include "level/level.h"'
expect fail game-folder game/planted.c 'static int planted;'

expect fail circle engine/core/diag.c '#include <strata/core/arena.h>'
expect fail circle game/level/level.h '#include "level/level_load.h"'
expect pass circle game/level/level_load.c '#include "level/level_tiled.h"'
expect fail backend engine/render/gl/render_gl.c '#include <strata/render/render.h>'
expect fail backend engine/render/render_core.h '#include <strata/platform/platform.h>'
expect fail backend engine/render/sdl/render_sdl.c '#include <strata/render/font.h>'
expect fail names engine/core/str8.h 'bool string_empty(Str8 s);'
expect fail errors game/level/level_load.c 'static const char *planted(void) { return st_arena_last_error(); }'
expect fail errors tools/levelfmt/levelfmt.c 'static const char *planted(void) { return arena_last_error (); }'
expect fail errors engine/audio/sound.h 'typedef struct SoundError { char message[512]; } SoundError;'
expect pass errors game/level/level_load.c '/* arena_last_error() is gone: st_arena_error(err) */'
expect pass errors game/rules/save.c 'static int planted_arena_last_error(void) { return 0; }'
expect fail names game/rules/sim.h 'int32_t player_hearts(const Sim *s);'
expect pass names engine/core/arena.h 'Arena *st_scratch_planted(void);'
expect fail names engine/core/list.h 'void list_planted(void);'
expect fail names engine/core/arena.h 'Arena *scratch_planted(void);'
expect fail engine-root engine/core/list.c '#include "arena.h"'
expect fail game-layer game/rules/sim.c '#include "core/arena.h"'
expect pass names game/level/watch.h 'bool level_planted(void);'
expect pass names game/rules/sim.h 'static inline int sim_planted(void) { return 0; }'
expect fail tool-write tools/lvl2tiled/lvl2tiled.c 'static void *planted(void) { return fopen("x", "w"); }'
expect fail tool-write tools/levelfmt/levelfmt.c 'static int planted(void) { return rename("a", "b"); }'
expect pass tool-write tools/bench/bench_level.c 'static int planted(void) { return unlink("x"); }'
expect pass tool-write tools/arenaplot/test_arenaplot.c 'static void *planted(void) { return fopen("x", "w"); }'
expect pass tool-write tools/levelfmt/levelfmt.c '/* fopen(x) is the writer'"'"'s */'

# Every break in one copy: each reported at its file and line, under its rule.
fresh
while IFS='	' read -r kind rule file line; do
    [ "$kind" = fail ] || continue
    printf '%s\t%s\t%s\t%s\n' "$rule" "$file" "$(plant "$file" "$line")" "$line"
done <"$PLANTS" >"$PLANTS.at"
run_check
[ $rc -eq 1 ] || { echo "the copy with every break planted: exit $rc, not 1"; failures=$((failures + 1)); }
while IFS='	' read -r rule file at line; do
    if echo "$out" | grep -qF "$file:$at: $rule: "; then
        echo "ok: fail $rule: '$line' in $file"
    else
        echo "NOT CAUGHT ($rule): '$line' in $file (line $at)"
        failures=$((failures + 1))
    fi
done <"$PLANTS.at"
[ $failures -eq 0 ] || echo "$out" | sed 's/^/    /'

# Every plant that must not count, in one copy: it passes.
fresh
while IFS='	' read -r kind rule file line; do
    [ "$kind" = pass ] || continue
    plant "$file" "$line" >/dev/null
    echo "planted: pass $rule: '$line' in $file"
done <"$PLANTS"
run_check
if [ $rc -ne 0 ]; then
    echo "FALSE ALARM: the copy with every harmless plant above -> exit $rc"
    echo "$out" | sed 's/^/    /'
    failures=$((failures + 1))
else
    echo "ok: pass: none of them counted"
fi

rm -rf "$WORK" "$PLANTS" "$PLANTS.at"
if [ $failures -gt 0 ]; then
    echo "$failures plant(s) not handled as expected"
    exit 1
fi
echo "every planted break was caught, and no comment or string was taken for one"
