#!/bin/sh
# plants.sh CHECK ROOT WORK - tools/check-layering.sh must catch each kind of break. Copies
# ROOT's engine/, game/ and tools/ to WORK, plants one break at a time (a file call outside
# the OS module, SDL in the core, an engine -> game include, a render <-> asset circle, SDL
# in the game's rules, a game folder reaching a folder above it, a tool writing a file
# itself), and expects the check to fail naming the rule; the same words in a comment or a
# string must not count. The clean copy must pass first.
set -u
CHECK=$1 ROOT=$2 WORK=$3
failures=0

fresh() {
    rm -rf "$WORK" && mkdir -p "$WORK" && cp -R "$ROOT/engine" "$ROOT/game" "$ROOT/tools" "$WORK/" || exit 1
}

# expect fail|pass RULE FILE LINE: plants LINE at the end of FILE in a fresh copy.
expect() {
    fresh
    printf '%s\n' "$4" >>"$WORK/$3"
    out=$(sh "$CHECK" "$WORK" 2>&1)
    rc=$?
    if [ "$1" = fail ] && { [ $rc -ne 1 ] || ! echo "$out" | grep -q "$2"; }; then
        echo "NOT CAUGHT ($2): '$4' in $3 -> exit $rc"
        echo "$out" | sed 's/^/    /'
        failures=$((failures + 1))
    elif [ "$1" = pass ] && [ $rc -ne 0 ]; then
        echo "FALSE ALARM: '$4' in $3 -> exit $rc"
        echo "$out" | sed 's/^/    /'
        failures=$((failures + 1))
    else
        echo "ok: $1 $2: '$4' in $3"
    fi
}

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

rm -rf "$WORK"
if [ $failures -gt 0 ]; then
    echo "$failures plant(s) not handled as expected"
    exit 1
fi
echo "every planted break was caught, and no comment or string was taken for one"
