#!/bin/sh
# engine_symbols.sh NM ARCHIVE - what the engine's archive defines for a program to link
# against: every name starts with st_ (ST_ for the constants), and none is stb's (its copies
# are static to the engine). Fails on an archive that defines nothing: a check of nothing.
nm=$1 lib=$2
# AddressSanitizer's own marks (__odr_asan.NAME, one per global) are the compiler's, not ours;
# so are mingw-w64's names for a thread-local NAME (__emutls_v.NAME) and for the address of a
# NAME (.refptr.NAME), which are checked as NAME.
names=$("$nm" -g --defined-only "$lib" | awk 'NF == 3 && $3 !~ /^__(odr_)?asan/ { print $3 }' |
    sed 's/^\.refptr\.//; s/^__emutls_v\.//' | sort -u) || exit 2
count=$(printf '%s\n' "$names" | grep -c .)
[ "$count" -ge 100 ] || { echo "engine_symbols: only $count names in $lib: the check sees nothing"; exit 1; }
bad=$(printf '%s\n' "$names" | grep -Ev '^(st_|ST_)')
stb=$(printf '%s\n' "$names" | grep -i 'stb')
if [ -n "$bad" ] || [ -n "$stb" ]; then
    echo "engine_symbols: $lib exports names a program may have too:"
    printf '%s\n' "$bad" "$stb" | grep . | sed 's/^/    /'
    exit 1
fi
echo "engine_symbols: $count names in $lib, every one st_, none stb's"
