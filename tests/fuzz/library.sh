# The game library checks (fuzz_library.c): library files through st_game_library_check_file,
# and tables ('T' inputs) through st_game_library_check_table over a fake library in memory.
# The corpus started from two small shared objects (clang -shared -nostdlib, one stripped)
# and a few hand-made tables; the real libgame_hot.so (180 KB) is test_hot_refuse's.
FUZZ_SOURCES="engine/core/*.c engine/host/game_library.c tests/fuzz/fuzz_library.c"
FUZZ_MAX_LEN=8192
FUZZ_RUNS=1200000
