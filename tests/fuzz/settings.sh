# The settings file (fuzz_settings.c): a person's text through save_settings_parse, line by
# line, and save_settings_format and back. Sourced by run.sh, which sets SRC and DATA.
FUZZ_SOURCES="engine/core/*.c game/rules/save.c tests/fuzz/fuzz_settings.c"
FUZZ_SEEDS="tests/fuzz/seeds/settings/*"
FUZZ_DICT=settings.dict
FUZZ_MAX_LEN=4096
FUZZ_RUNS=20000
