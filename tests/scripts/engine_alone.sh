#!/bin/sh
# engine_alone.sh SRC WORK - the engine builds as a project of its own, with nothing of the
# tree around it: `cmake -S engine` configures and builds libstrata.a, and a project of a
# user's that has the engine folder beside it (add_subdirectory) links strata::engine and runs.
set -u
src=$1 work=$2
rm -rf "$work" && mkdir -p "$work/user" || exit 2
gen=""
command -v ninja >/dev/null && gen="-G Ninja"
# shellcheck disable=SC2086
cmake -S "$src/engine" -B "$work/alone" $gen >"$work/alone.log" 2>&1 && cmake --build "$work/alone" >>"$work/alone.log" 2>&1 ||
    { tail -30 "$work/alone.log"; echo "engine_alone: cmake -S engine failed"; exit 1; }
[ -f "$work/alone/libstrata.a" ] || { echo "engine_alone: no libstrata.a"; exit 1; }
cat >"$work/user/CMakeLists.txt" <<EOC
cmake_minimum_required(VERSION 3.25)
project(user C)
add_subdirectory("$src/engine" strata)
add_executable(user main.c)
target_link_libraries(user PRIVATE strata::engine)
EOC
cat >"$work/user/main.c" <<'EOC'
#include <stdio.h>
#include <strata/core/arena.h>
#include <strata/version.h>
int main(void) {
    Arena *a = st_arena_create((ArenaParams){.reserve_size = 1 << 20});
    int *x = st_arena_push_struct(a, int);
    if (!x) return 1;
    printf("strata %s: pushed %d bytes\n", STRATA_VERSION, (int)sizeof *x);
    st_arena_release(a);
    return 0;
}
EOC
# shellcheck disable=SC2086
cmake -S "$work/user" -B "$work/user/build" $gen >"$work/user.log" 2>&1 && cmake --build "$work/user/build" >>"$work/user.log" 2>&1 ||
    { tail -30 "$work/user.log"; echo "engine_alone: add_subdirectory(engine) failed"; exit 1; }
"$work/user/build/user" | grep -q '^strata [0-9.]*: pushed 4 bytes$' || { echo "engine_alone: the program did not run"; exit 1; }
echo "engine_alone: cmake -S engine and add_subdirectory(engine) both build, and the program runs"
