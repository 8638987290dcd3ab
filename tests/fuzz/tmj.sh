# Tiled maps (.tmj): fuzz_level.c built for a .tmj path, through level_json.c and level_tiled.c,
# with the same promises as the .lvl target.
FUZZ_SOURCES="engine/core/*.c game/level/level.c game/level/level_load.c game/level/level_parse.c game/level/level_tiled.c game/level/level_json.c
              game/level/level_write.c game/rules/sim.c tests/fuzz/fuzz_level.c"
FUZZ_CFLAGS="-DFUZZ_LEVEL_DIR=\"$DATA\" -DFUZZ_LEVEL_PATH=\"$DATA/fuzz.tmj\"
             -DFUZZ_TEXT_PATH=\"$DATA/fuzz.lvl\""
FUZZ_SEEDS="tests/game/tiled/levels/*.tmj tests/game/tiled/variants/*.tmj tests/game/tiled/bad/*.tmj"
FUZZ_DICT=tmj.dict
FUZZ_MAX_LEN=65536
FUZZ_RUNS=180000
fuzz_setup() { cp "$SRC"/levels/*.lvl "$SRC"/tests/game/tiled/levels/*.tmj "$DATA"/; }
