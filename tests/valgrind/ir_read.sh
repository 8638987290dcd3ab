# ir_read.sh - sourced by the tests that read the fixture ir_counts (ir_counts.sh):
#   ir_read OUT NAME   sets $ir_out to OUT/NAME.out and $ir_rc to the driver's exit status;
#                      exits 77 when the driver skipped (no valgrind), 1 when it is missing.
ir_read() {
    name=$(echo "$2" | tr -c 'a-zA-Z0-9\n' _)
    ir_out=$1/$name.out
    [ -f "$1/$name.rc" ] || { echo "no $1/$name.rc: the fixture ir_counts (ir_counts.sh) did not run"; exit 1; }
    ir_rc=$(cat "$1/$name.rc")
    [ "$ir_rc" -ne 77 ] || { cat "$1/$name.err"; echo "skipped (the driver: exit 77)"; exit 77; }
}
