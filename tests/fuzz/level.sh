# The .lvl parser (fuzz_level.c): level text through level_parse, level_write and back.
# Sourced by run.sh, which sets SRC and DATA (a scratch folder the target may use).
FUZZ_SOURCES="engine/core/*.c game/level/level.c game/level/level_load.c game/level/level_parse.c game/level/level_tiled.c game/level/level_json.c
              game/level/level_write.c game/rules/sim.c tests/fuzz/fuzz_level.c"
FUZZ_CFLAGS="-DFUZZ_LEVEL_DIR=\"$DATA\" -DFUZZ_LEVEL_PATH=\"$DATA/fuzz.lvl\"
             -DFUZZ_TEXT_PATH=\"$DATA/fuzz.lvl\""
FUZZ_SEEDS="levels/*.lvl tests/game/levels/good/*.lvl tests/game/levels/bad/*.lvl"
FUZZ_DICT=level.dict
FUZZ_MAX_LEN=16384
FUZZ_RUNS=350000
# Link and exit names resolve against a copy of the shipped levels.
fuzz_setup() { cp "$SRC"/levels/*.lvl "$DATA"/; }
