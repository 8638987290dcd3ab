#!/bin/sh
# breakout_installed.sh BUILD_DIR SOURCE_DIR WORK_DIR [C_FLAGS]
# The engine as a user gets it: installed from BUILD_DIR into a fresh prefix, then
# examples/breakout configured out of the tree with find_package(strata), built, and its
# own ctest run (the replay's hash and golden frame, zero heap calls per frame).
set -eu
build=$1 src=$2 work=$3 flags=${4:-}
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >"$work/install.log" 2>&1 || { cat "$work/install.log"; exit 1; }
cmake -S "$src/examples/breakout" -B "$work/build" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_C_FLAGS="$flags" >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; exit 1; }
cmake --build "$work/build" -j2 >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
ctest --test-dir "$work/build" --output-on-failure
