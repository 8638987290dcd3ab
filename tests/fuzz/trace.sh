# The arena timeline CSV (fuzz_trace.c): what `game --arena-trace` writes, through
# tools/arenaplot's reader (trace_csv.c), a canonical writer and the reader again.
FUZZ_SOURCES="engine/core/*.c tools/arenaplot/trace_csv.c tests/fuzz/fuzz_trace.c"
FUZZ_CFLAGS="-I$SRC/tools/arenaplot"
FUZZ_SEEDS="tools/arenaplot/testdata/*.csv tools/arenaplot/testdata/bad/*.csv"
FUZZ_DICT=trace.dict
FUZZ_MAX_LEN=8192
FUZZ_RUNS=600000
