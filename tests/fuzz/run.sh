#!/bin/sh
# Builds the level-parser fuzzer with clang -fsanitize=fuzzer,address,undefined and runs it
# for a bounded time, starting from the committed corpus (tests/fuzz/corpus) plus seeds made
# from levels/ and the test fixtures.
#   run.sh SOURCE_DIR WORK_DIR [SECONDS] [STB_INCLUDE_DIR] [TARGET]
# TARGET `level` (default) fuzzes .lvl text from tests/fuzz/corpus; `tmj` fuzzes Tiled JSON
# maps (.tmj) from tests/fuzz/corpus-tmj and the Tiled fixtures (tests/game/tiled), with
# the same promises (fuzz_level.c built for a .tmj path).
# The source tree is only read: the corpus is copied to WORK_DIR/corpus and grows there
# (tools/fuzz-corpus.sh merges what it found back into tests/fuzz/corpus, on purpose).
# Exit 0: no crash, leak, hang or broken promise, with the execution count printed;
# 77: clang or libFuzzer missing (ctest SKIP_RETURN_CODE); anything else: a finding (the
# input is saved as WORK_DIR/crash-* / leak-* / timeout-* / oom-*) or a build error.
# FUZZ_BUILD_ONLY=1: build WORK_DIR/fuzz_level and stop (tools/fuzz-corpus.sh uses it).
set -u
SRC=$1
WORK=$2
SECS=${3:-30}
STB=${4:-/usr/include/stb}
TARGET=${5:-level}
case $TARGET in
    level) EXT=lvl; CORPUS=corpus; DICT=level.dict; MAXLEN=16384 ;;
    tmj) EXT=tmj; CORPUS=corpus-tmj; DICT=tmj.dict; MAXLEN=65536 ;;
    *) echo "fuzz: bad TARGET '$TARGET' (level or tmj)"; exit 2 ;;
esac
BIN=fuzz_$TARGET

case $SECS in
    '' | *[!0-9]* | 0) [ "${FUZZ_BUILD_ONLY:-0}" = 1 ] || { echo "fuzz: bad SECONDS '$SECS' (a whole number > 0)"; exit 2; } ;;
esac
CLANG=${CLANG:-}
[ -n "$CLANG" ] || CLANG=$(command -v clang-14 || command -v clang || true)
if [ -z "$CLANG" ]; then
    echo "fuzz: clang not found, skipping"
    exit 77
fi
mkdir -p "$WORK" || exit 2
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' >"$WORK/probe.c"
if ! "$CLANG" -fsanitize=fuzzer "$WORK/probe.c" -o "$WORK/probe" 2>/dev/null; then
    echo "fuzz: $CLANG cannot link libFuzzer, skipping"
    exit 77
fi

# The fuzzer resolves link/exit names against a scratch level dir of its own.
LEVEL_DIR="$WORK/leveldir"
rm -rf "$LEVEL_DIR"
mkdir -p "$LEVEL_DIR" || exit 2
cp "$SRC"/levels/*.lvl "$LEVEL_DIR"/ 2>/dev/null
echo "fuzz: building with $CLANG"
"$CLANG" -std=c11 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer \
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
    -DLEVEL_ARENA_BYTES=4194304ull -DFUZZ_LEVEL_DIR="\"$LEVEL_DIR\"" \
    -DFUZZ_LEVEL_PATH="\"$LEVEL_DIR/fuzz.$EXT\"" -DFUZZ_TEXT_PATH="\"$LEVEL_DIR/fuzz.lvl\"" \
    -I"$SRC/engine" -I"$SRC/game" -isystem "$STB" $(pkg-config --cflags libcjson) \
    "$SRC"/engine/core/*.c "$SRC/game/level.c" "$SRC/game/level_parse.c" "$SRC/game/level_tiled.c" \
    "$SRC/game/level_write.c" "$SRC/game/sim.c" "$SRC/tests/fuzz/fuzz_level.c" \
    $(pkg-config --libs libcjson) -lpthread -lm -o "$WORK/$BIN" || exit 2
[ "${FUZZ_BUILD_ONLY:-0}" = 1 ] && exit 0

# The committed corpus, copied (libFuzzer writes new inputs into the first corpus folder and
# deletes the ones it reduces), and a seed per level file the tree has.
rm -rf "$WORK/corpus" "$WORK/seeds" "$WORK"/crash-* "$WORK"/leak-* "$WORK"/timeout-* "$WORK"/oom-* "$WORK"/slow-unit-*
mkdir -p "$WORK/corpus" "$WORK/seeds" || exit 2
if [ -d "$SRC/tests/fuzz/$CORPUS" ]; then
    cp "$SRC"/tests/fuzz/$CORPUS/* "$WORK/corpus/" 2>/dev/null
else
    echo "fuzz: no tests/fuzz/$CORPUS, starting from the seeds alone"
fi
if [ "$TARGET" = tmj ]; then
    seeds="$SRC/tests/game/tiled/levels/*.tmj $SRC/tests/game/tiled/variants/*.tmj $SRC/tests/game/tiled/bad/*.tmj"
    cp "$SRC"/tests/game/tiled/levels/*.tmj "$LEVEL_DIR"/ 2>/dev/null
else
    seeds="$SRC/levels/*.lvl $SRC/tests/game/levels/good/*.lvl $SRC/tests/game/levels/bad/*.lvl"
fi
for f in $seeds; do
    [ -f "$f" ] && cp "$f" "$WORK/seeds/$(basename "$(dirname "$f")")-$(basename "$f")"
done
echo "fuzz: $(ls "$WORK/corpus" | wc -l) corpus files + $(ls "$WORK/seeds" | wc -l) seeds, running for $SECS s"
# libFuzzer's own exit status for a finding is 77 by default, ctest's skip code here: make
# every finding exit 1 (crash, leak, OOM) or 3 (an input slower than -timeout, a hang).
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
"$WORK/$BIN" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 -max_len=$MAXLEN \
    -error_exitcode=1 -timeout_exitcode=3 \
    -dict="$SRC/tests/fuzz/$DICT" -print_final_stats=1 -artifact_prefix="$WORK/" \
    "$WORK/corpus" "$WORK/seeds" >"$WORK/fuzz.log" 2>&1
rc=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$WORK/fuzz.log" | tail -n 1)
findings=$(ls "$WORK" | grep -E '^(crash|leak|timeout|oom)-' || true)
if [ $rc -ne 0 ] || [ -n "$findings" ] || [ -z "$runs" ]; then
    # The report: from the first sanitizer/libFuzzer error line to the end (the stack, the
    # input's bytes and the artifact's name), or the end of the log.
    first=$(grep -n -m 1 -E '^==[0-9]+==|ERROR: |broken promise|runtime error|deadly signal' "$WORK/fuzz.log" | cut -d: -f1)
    if [ -n "$first" ]; then
        tail -n +"$first" "$WORK/fuzz.log" | head -n 200
    else
        tail -n 60 "$WORK/fuzz.log"
    fi
    echo "fuzz: FAIL: exit status $rc after ${runs:-an unknown number of} executions; findings: ${findings:-none saved}"
    echo "fuzz: full log $WORK/fuzz.log"
    [ $rc -ne 0 ] && [ $rc -ne 77 ] && exit $rc
    exit 1
fi
echo "fuzz: $(ls "$WORK/corpus" | wc -l) corpus files after the run (log: $WORK/fuzz.log)"
echo "fuzz: $runs executions in $SECS s, no findings"
exit 0
