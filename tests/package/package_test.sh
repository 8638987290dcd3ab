#!/bin/sh
# package_test.sh BUILD EXAMPLES WORK GENERATOR FLAGS - see CMakeLists.txt beside it.
set -u
BUILD=$1 EXAMPLES=$2 WORK=$3 GEN=$4 FLAGS=${5:-}
PREFIX=$WORK/prefix
rm -rf "$WORK" && mkdir -p "$WORK" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

cmake --install "$BUILD" --prefix "$PREFIX" >"$WORK/install.log" 2>&1 || { tail -5 "$WORK/install.log"; fail "cmake --install"; }
for f in lib/libstrata.a include/strata/core/arena.h lib/cmake/strata/strataConfig.cmake lib/pkgconfig/strata.pc bin/strata-host; do
    [ -e "$PREFIX/$f" ] || fail "the install has no $f"
done

# 1. find_package(strata): the gallery's own build and tests, against the prefix only.
cmake -S "$EXAMPLES" -B "$WORK/examples" -G "$GEN" -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_FLAGS="$FLAGS" -DCMAKE_EXE_LINKER_FLAGS="$FLAGS" -DCMAKE_MODULE_LINKER_FLAGS="$FLAGS" \
    >"$WORK/configure.log" 2>&1 || { tail -20 "$WORK/configure.log"; fail "configuring examples/ on the installed strata"; }
cmake --build "$WORK/examples" -j2 >"$WORK/build.log" 2>&1 || { grep -E "error|Error" "$WORK/build.log" | head -20; fail "building examples/"; }
ctest --test-dir "$WORK/examples" -j2 --output-on-failure >"$WORK/ctest.log" 2>&1 || { tail -40 "$WORK/ctest.log"; fail "the examples' ctest"; }
grep "tests passed" "$WORK/ctest.log"

# 2. pkg-config: each one-file example with one compiler line.
export PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig"
CC=${CC:-cc}
command -v "$CC" >/dev/null || CC=gcc
n=0
for src in "$EXAMPLES"/[0-9][0-9]_*.c; do
    name=$(basename "$src" .c)
    extra=""
    case $name in 07_*) extra=$(pkg-config --cflags --libs libcjson) ;; esac
    case $name in
    13_*) $CC -std=c11 $FLAGS -shared -fPIC "$src" -o "$WORK/$name.so" $(pkg-config --cflags strata) ;;
    *) $CC -std=c11 $FLAGS -DEXAMPLE_ASSETS="\"$EXAMPLES/assets\"" "$src" -o "$WORK/$name" $(pkg-config --cflags --libs strata) $extra ;;
    esac || fail "cc $name.c \$(pkg-config --cflags --libs strata)"
    n=$((n + 1))
done
SDL_VIDEODRIVER=dummy "$WORK/01_fixed_arena" --headless --frames 100 2>/dev/null | grep -q "peak 4096 of 4096 bytes" || fail "01_fixed_arena built by pkg-config"
SDL_VIDEODRIVER=dummy "$WORK/09_sprites_text" --headless --frames 90 --screenshot "$WORK/09.png" >/dev/null 2>&1 ||
    fail "09_sprites_text built by pkg-config"
"$WORK/examples/compare_png" "$EXAMPLES/golden/09_sprites_text.png" "$WORK/09.png" || fail "09's frame, built by pkg-config"
# The second game with one compiler line too, playing its replay to its hash and frame.
$CC -std=c11 $FLAGS "$EXAMPLES"/breakout/src/*.c -o "$WORK/breakout" $(pkg-config --cflags --libs strata) ||
    fail "cc breakout/src/*.c \$(pkg-config --cflags --libs strata)"
SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy "$WORK/breakout" --headless --replay "$EXAMPLES/breakout/demo.rep" \
    --screenshot "$WORK/breakout.png" >"$WORK/breakout.log" 2>&1 || { tail -5 "$WORK/breakout.log"; fail "breakout built by pkg-config: its replay"; }
"$WORK/examples/breakout/breakout_png_check" "$WORK/breakout.png" "$EXAMPLES/breakout/golden.png" ||
    fail "breakout's frame, built by pkg-config"
echo "package: installed to $PREFIX; examples/ built and tested with find_package; $n examples and breakout built with pkg-config"
