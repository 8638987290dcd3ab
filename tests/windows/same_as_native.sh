#!/bin/sh
# same_as_native.sh NATIVE WINDOWS OUT - levelcheck's table of the shipped levels from the
# native build and from the Windows one ($AD_RUN: under Wine), run from the source folder
# on the same relative paths: the two outputs and exit statuses must be identical.
set -u
NATIVE=$1
WIN=$2
OUT=$3
[ -x "$NATIVE" ] || { echo "FAIL: no native levelcheck at $NATIVE (build the release preset, or set AD_NATIVE_LEVELCHECK)"; exit 1; }
mkdir -p "$OUT" || exit 1
"$NATIVE" levels/*.lvl >"$OUT/native.txt" 2>&1
nrc=$?
${AD_RUN:-} "$WIN" levels/*.lvl >"$OUT/windows.txt" 2>&1
wrc=$?
[ "$nrc" -eq "$wrc" ] || { echo "FAIL: exit status $wrc on Windows, $nrc natively"; cat "$OUT/windows.txt"; exit 1; }
if ! cmp -s "$OUT/native.txt" "$OUT/windows.txt"; then
    echo "FAIL: levelcheck's table differs on Windows:"
    diff "$OUT/native.txt" "$OUT/windows.txt"
    exit 1
fi
[ "$(grep -c '\.lvl ' "$OUT/native.txt")" -ge 7 ] || { echo "FAIL: fewer than 7 levels in the table"; cat "$OUT/native.txt"; exit 1; }
echo "levelcheck_same_as_native: $(grep -c '\.lvl ' "$OUT/native.txt") levels, the same table on both ($(wc -c <"$OUT/native.txt") bytes)"
