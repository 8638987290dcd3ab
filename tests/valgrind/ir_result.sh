#!/bin/sh
# ir_result.sh COUNTS NAME - a driver's run in the fixture ir_counts (ir_counts.sh) as a test
# of its own: its output, and its exit status (77: skipped, without valgrind).
. "$(dirname "$0")/ir_read.sh"
ir_read "$1" "$2"
cat "$ir_out" "${ir_out%.out}.err"
exit "$ir_rc"
