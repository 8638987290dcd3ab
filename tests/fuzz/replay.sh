# The replay format (fuzz_replay.c): .rep text through replay_parse, replay_format and back.
# Sourced by run.sh, which sets SRC and DATA.
FUZZ_SOURCES="engine/core/*.c game/rules/replay.c tests/fuzz/fuzz_replay.c"
FUZZ_SEEDS="tests/replays/*.rep"
FUZZ_DICT=replay.dict
FUZZ_MAX_LEN=16384
FUZZ_RUNS=300000
