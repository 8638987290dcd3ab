#!/bin/sh
# Builds the level-parser fuzzer with clang -fsanitize=fuzzer,address,undefined and runs it
# for a bounded time over a seed corpus made from levels/ and the test fixtures.
#   run.sh SOURCE_DIR WORK_DIR [SECONDS] [STB_INCLUDE_DIR]
# Exit 0: no crash, leak or hang; 77: clang or libFuzzer missing (ctest SKIP_RETURN_CODE);
# anything else: a finding (the input is saved as WORK_DIR/crash-* / leak-* / timeout-*).
set -u
SRC=$1
WORK=$2
SECS=${3:-60}
STB=${4:-/usr/include/stb}

CLANG=${CLANG:-}
[ -n "$CLANG" ] || CLANG=$(command -v clang-14 || command -v clang || true)
if [ -z "$CLANG" ]; then
    echo "fuzz: clang not found, skipping"
    exit 77
fi
mkdir -p "$WORK" || exit 1
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' >"$WORK/probe.c"
if ! "$CLANG" -fsanitize=fuzzer "$WORK/probe.c" -o "$WORK/probe" 2>/dev/null; then
    echo "fuzz: $CLANG cannot link libFuzzer, skipping"
    exit 77
fi

# The fuzzer resolves link/exit names against a scratch level dir of its own.
LEVEL_DIR="$WORK/leveldir"
mkdir -p "$LEVEL_DIR" || exit 1
cp "$SRC"/levels/*.lvl "$LEVEL_DIR"/ 2>/dev/null
echo "fuzz: building with $CLANG"
"$CLANG" -std=c11 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer \
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
    -DLEVEL_ARENA_BYTES=4194304ull -DFUZZ_LEVEL_DIR="\"$LEVEL_DIR\"" \
    -DFUZZ_LEVEL_PATH="\"$LEVEL_DIR/fuzz.lvl\"" \
    -I"$SRC/engine" -I"$SRC/game" -isystem "$STB" \
    "$SRC"/engine/core/*.c "$SRC/game/level.c" "$SRC/game/level_parse.c" "$SRC/tests/fuzz/fuzz_level.c" \
    -lpthread -lm -o "$WORK/fuzz_level" || exit 1

# A fresh corpus each run, seeded from every level the tree has.
rm -rf "$WORK/corpus" "$WORK/seeds"
mkdir -p "$WORK/corpus" "$WORK/seeds"
for f in "$SRC"/levels/*.lvl "$SRC"/tests/game/levels/good/*.lvl "$SRC"/tests/game/levels/bad/*.lvl; do
    [ -f "$f" ] && cp "$f" "$WORK/seeds/$(basename "$(dirname "$f")")-$(basename "$f")"
done
echo "fuzz: $(ls "$WORK/seeds" | wc -l) seeds, running for $SECS s"
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
"$WORK/fuzz_level" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
    -dict="$SRC/tests/fuzz/level.dict" -print_final_stats=1 -artifact_prefix="$WORK/" \
    "$WORK/corpus" "$WORK/seeds"
rc=$?
[ $rc -eq 0 ] && echo "fuzz: no crash, leak or hang in $SECS s"
exit $rc
