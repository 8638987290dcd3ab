# The progress file (fuzz_save.c): its text through save_parse, save_format and back, each
# input also with its checksum made right. Sourced by run.sh, which sets SRC and DATA.
FUZZ_SOURCES="engine/core/*.c game/rules/save.c tests/fuzz/fuzz_save.c"
FUZZ_SEEDS="tests/fuzz/seeds/save/*"
FUZZ_DICT=save.dict
FUZZ_MAX_LEN=8192
FUZZ_RUNS=120000
