#!/bin/sh
# Builds one libFuzzer target with clang -fsanitize=fuzzer,address,undefined and runs it from
# its committed corpus (tests/fuzz/corpus/TARGET) plus the seeds its description names.
#   run.sh TARGET SOURCE_DIR WORK_DIR [RUNS]
# TARGET is a description, tests/fuzz/TARGET.sh (what to compile, the seeds, the dictionary,
# the longest input, the run count). The suite's runs are reproducible: RUNS inputs (default
# the target's FUZZ_RUNS) from seed 1, so the same tree always runs the same inputs and CI
# cannot go red by chance. Exploring is separate: FUZZ_SECONDS=N runs for N seconds from a
# random seed (tools/fuzz-corpus.sh does, and merges what it finds back, on purpose).
# The source tree is only read: the corpus is copied to WORK_DIR/corpus and grows there.
# Exit 0: no crash, leak, hang or broken promise, with the execution count printed;
# 77: clang or libFuzzer missing (ctest SKIP_RETURN_CODE); anything else: a finding (the
# input is saved as WORK_DIR/crash-* / leak-* / timeout-* / oom-*) or a build error.
# FUZZ_BUILD_ONLY=1: build WORK_DIR/fuzz_TARGET and stop. STB_DIR: stb's headers.
# The objects are kept in WORK_DIR/../obj, shared by the targets (below).
set -u
TARGET=${1:-}
SRC=${2:-}
WORK=${3:-}
if [ -z "$TARGET" ] || [ -z "$SRC" ] || [ -z "$WORK" ] || [ ! -f "$SRC/tests/fuzz/$TARGET.sh" ]; then
    echo "usage: run.sh TARGET SOURCE_DIR WORK_DIR [RUNS]  (TARGET: a tests/fuzz/TARGET.sh; got '$TARGET')"
    exit 2
fi
STB=${STB_DIR:-/usr/include/stb}
BIN=fuzz_$TARGET
DATA="$WORK/data"
FUZZ_CFLAGS="" FUZZ_LIBS="" FUZZ_SEEDS="" FUZZ_DICT="" FUZZ_MAX_LEN=4096 FUZZ_RUNS=10000
fuzz_setup() { :; }
. "$SRC/tests/fuzz/$TARGET.sh"
RUNS=${4:-$FUZZ_RUNS}
case $RUNS in
    '' | *[!0-9]* | 0) echo "fuzz: bad RUNS '$RUNS' (a whole number > 0)"; exit 2 ;;
esac
SECS=${FUZZ_SECONDS:-}
case $SECS in
    '' ) ;;
    *[!0-9]* | 0) echo "fuzz: bad FUZZ_SECONDS '$SECS' (a whole number > 0)"; exit 2 ;;
esac

CLANG=${CLANG:-}
[ -n "$CLANG" ] || CLANG=$(command -v clang-14 || command -v clang || true) # deps: clang
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

rm -rf "$DATA"
mkdir -p "$DATA" || exit 2
fuzz_setup || exit 2
sources=""
for f in $FUZZ_SOURCES; do
    for g in "$SRC"/$f; do
        [ -f "$g" ] || { echo "fuzz: $TARGET.sh names $f, which is not in the tree"; exit 2; }
        sources="$sources $g"
    done
done
echo "fuzz: building $BIN with $CLANG"
# Every target compiles most of the engine's core again: each object is kept in OBJ (beside
# the work folders, shared by the targets) under a key of what made it - the compiler, the
# flags, every header of the tree and the source's own bytes - so a source is compiled once
# for all the targets that name it, and again only when something it could see changed.
# The sources of engine/ and game/ get the common flags alone (a target's FUZZ_CFLAGS are
# for its harness and its tools' sources: paths of its own, include folders).
OBJ=$(dirname "$WORK")/obj
# <strata/core/arena.h> is engine/core/arena.h, as in the build folder (engine/CMakeLists.txt).
inc=$OBJ/include-$(printf '%s' "$SRC" | cksum | cut -d' ' -f1)
mkdir -p "$inc" || exit 2
[ -L "$inc/strata" ] || ln -sn "$SRC/engine" "$inc/strata" 2>/dev/null
[ -f "$inc/strata/core/arena.h" ] || { echo "fuzz: $inc/strata does not lead to $SRC/engine"; exit 2; }
common="-std=c11 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined
    -fno-sanitize-recover=all -DLEVEL_ARENA_BYTES=4194304ull -I$inc -I$SRC/game -isystem $STB"
headers=$(find "$SRC/engine" "$SRC/game" "$SRC/tools" "$SRC/tests/fuzz" "$SRC/assets" -name corpus -prune -o \
    -type f \( -name '*.h' -o -name '*.inc' \) -print | sort | xargs cat | cksum)
version=$("$CLANG" --version | head -n 1)
# Each target starts at another place in its list, so two targets built side by side
# (ctest -j) mostly compile different sources and find the other's objects made.
n=$(echo $sources | wc -w)
start=$(($(printf '%s' "$TARGET" | cksum | cut -d' ' -f1) % n))
i=0
for g in $sources; do
    i=$((i + 1))
    case $g in "$SRC"/engine/* | "$SRC"/game/*) flags=$common ;; *) flags="$common $FUZZ_CFLAGS" ;; esac
    key=$( { printf '%s\n%s\n%s\n%s\n' "$version" "$flags" "$headers" "$g"; cat "$g"; } | sha256sum | cut -c1-32)
    printf '%s %s %s\n' $(((i - 1 - start + n) % n)) "$key" "$g"
done | sort -n >"$WORK/objects.txt"
while read -r _ key g; do
    [ -f "$OBJ/$key.o" ] && continue
    case $g in "$SRC"/engine/* | "$SRC"/game/*) flags=$common ;; *) flags="$common $FUZZ_CFLAGS" ;; esac
    # The flag lists are word lists on purpose (a -D with a string holds its own quotes).
    # shellcheck disable=SC2086
    "$CLANG" $flags -DAD_VERSION='"fuzz"' -c "$g" -o "$OBJ/$key.o.$$" &&
        mv "$OBJ/$key.o.$$" "$OBJ/$key.o" || exit 2
done <"$WORK/objects.txt"
objects=$(awk -v o="$OBJ" '{ print o "/" $2 ".o" }' "$WORK/objects.txt")
# shellcheck disable=SC2086
"$CLANG" -fsanitize=fuzzer,address,undefined $objects $FUZZ_LIBS -lpthread -lm -o "$WORK/$BIN" || exit 2
[ "${FUZZ_BUILD_ONLY:-0}" = 1 ] && exit 0

# The committed corpus, copied (libFuzzer writes new inputs into the first corpus folder and
# deletes the ones it reduces), and the seeds from the tree.
rm -rf "$WORK/corpus" "$WORK/seeds" "$WORK"/crash-* "$WORK"/leak-* "$WORK"/timeout-* "$WORK"/oom-* "$WORK"/slow-unit-*
mkdir -p "$WORK/corpus" "$WORK/seeds" || exit 2
if [ -d "$SRC/tests/fuzz/corpus/$TARGET" ]; then
    cp "$SRC/tests/fuzz/corpus/$TARGET"/* "$WORK/corpus/" 2>/dev/null
else
    echo "fuzz: no tests/fuzz/corpus/$TARGET, starting from the seeds alone"
fi
for f in $FUZZ_SEEDS; do
    for g in "$SRC"/$f; do
        [ -f "$g" ] && cp "$g" "$WORK/seeds/$(basename "$(dirname "$g")")-$(basename "$g")"
    done
done
dict=""
[ -n "$FUZZ_DICT" ] && dict="-dict=$SRC/tests/fuzz/$FUZZ_DICT"
if [ -n "$SECS" ]; then
    how="-max_total_time=$SECS"
    what="for $SECS s from a random seed"
else
    # A ceiling, far above what the runs take, so that a machine gone slow still ends.
    how="-runs=$RUNS -seed=1 -max_total_time=900"
    what="$RUNS runs from seed 1"
fi
echo "fuzz: $TARGET: $(ls "$WORK/corpus" | wc -l) corpus files + $(ls "$WORK/seeds" | wc -l) seeds, $what"
# libFuzzer's own exit status for a finding is 77 by default, ctest's skip code here: make
# every finding exit 1 (crash, leak, OOM) or 3 (an input slower than -timeout, a hang).
# shellcheck disable=SC2086
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
"$WORK/$BIN" $how -timeout=10 -rss_limit_mb=2048 -max_len=$FUZZ_MAX_LEN \
    -error_exitcode=1 -timeout_exitcode=3 $dict -print_final_stats=1 -artifact_prefix="$WORK/" \
    "$WORK/corpus" "$WORK/seeds" >"$WORK/fuzz.log" 2>&1
rc=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$WORK/fuzz.log" | tail -n 1)
secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$WORK/fuzz.log" | tail -n 1)
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
    echo "fuzz: full log $WORK/fuzz.log; replay a finding with $WORK/$BIN $WORK/crash-..."
    [ $rc -ne 0 ] && [ $rc -ne 77 ] && exit $rc
    exit 1
fi
echo "fuzz: $TARGET: $(ls "$WORK/corpus" | wc -l) corpus files after the run (log: $WORK/fuzz.log)"
echo "fuzz: $TARGET: $runs executions in ${secs:-?} s, no findings"
exit 0
