#!/bin/sh
# test_arenasize.sh ARENASIZE TESTDATA - the sizes of tools/arenaplot/testdata/run.csv, worked
# out by hand from its columns (the peak is the largest of every frame's used and high: 1310720
# for scratch, 1310720 + 25% = 1638400, a multiple of 64 KiB), and a bad CSV's report.
set -u
bin=$1 data=$2
out=$(${AD_RUN:-} "$bin" "$data/run.csv") || { echo "arenasize failed on run.csv"; exit 1; }
echo "$out"
expect() {
    echo "$out" | grep -Eq "$1" || { echo "FAIL: no line matching: $1"; exit 1; }
}
expect '^run.csv|/run.csv: 480 frames, 4 arenas'
expect '^  permanent +39787 +67108864 +65536$'
expect '^  level +34671 +4194304 +65536$'
expect '^  frame +36996 +67108864 +65536$'
expect '^  scratch +1310720 +67108864 +1638400$'
bad=$(ls "$data"/bad/*.csv | head -n 1)
err=$(${AD_RUN:-} "$bin" "$bad" 2>&1) && { echo "FAIL: $bad accepted"; exit 1; }
echo "$err" | grep -q "$(basename "$bad"):[0-9]*: error:" || { echo "FAIL: no file:line error for $bad: $err"; exit 1; }
${AD_RUN:-} "$bin" >/dev/null 2>&1; [ $? -eq 2 ] || { echo "FAIL: no file is not exit status 2"; exit 1; }
echo "arenasize: ok"
