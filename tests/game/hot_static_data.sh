#!/bin/sh
# hot_static_data.sh LIBRARY - the hot-reload library holds no state of its own: no symbol of
# the game's code in a writable section (.data, .bss, and the thread-local .tdata, .tbss). Const tables live in .rodata or
# .data.rel.ro (read-only once relocated) and are fine (a table of pointers must be
# `const char *const`, or an unoptimised build keeps it writable); what the toolchain and the
# sanitizers put there themselves is not the game's: __cpu_model and __cpu_features2 are
# libgcc's answer to __builtin_cpu_supports (the level parser asks it for SSSE3), filled by
# libgcc's constructor each time the library is loaded, and the same CPU gives the same
# answer after a swap. A `static int counter;` anywhere in
# the library's sources fails this (game_api.h says why it would not survive a swap).
#
# Allowed: nothing of the game's own (the list stays for a reason that may come).
ALLOWED='-'
set -u
LIB=$1
command -v objdump >/dev/null || # deps: gcc (binutils)
    { echo "SKIP: objdump is not installed"; exit 77; }
table=$(objdump -t "$LIB") || exit 1
[ "$(echo "$table" | grep -c ' F .text')" -gt 0 ] || { echo "FAIL: $LIB has no symbol table (stripped?): nothing to check"; exit 1; }
found=$(echo "$table" | awk 'NF >= 4 && ($(NF-2) == ".data" || $(NF-2) == ".bss" || $(NF-2) == ".tdata" || $(NF-2) == ".tbss") { print $NF }' |
    grep -Ev "^($ALLOWED)\$" | grep -Ev '^(completed\.0|__dso_handle|__TMC_END__|__bss_start|_edata|_end|\.L.*|__asan.*|___asan.*|__odr_asan.*|__ubsan.*|__sancov.*|__cpu_model|__cpu_features2)$' || true)
if [ -n "$found" ]; then
    echo "FAIL: $LIB has writable static data, which a reload would lose or split:"
    echo "$found"
    exit 1
fi
echo "hot_static_data: $(basename "$LIB") keeps no state of its own"
