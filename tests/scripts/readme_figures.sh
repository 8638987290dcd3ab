#!/bin/sh
# The README's instruction counts are the ones the benches' callgrind drivers measure now.
# Each line of FIGURES below is one figure, four fields apart by ` ~ `:
#   name ~ driver and its arguments (run once each, from the source tree) ~ the pattern of
#   the driver's line (ERE; the figure is the first number after it) ~ the pattern of the
#   README's text around the figure (ERE, NUM where the figure is; it must match once)
# A figure passes when the README's value is the measured one rounded to the digits the
# README prints (within half a unit of its last digit): instruction counts are exact for a
# given build, so anything more is a README that no longer says what the bench prints.
# A failure names the figure, the README's line and value, and the measured one.
# A driver that the fixture ir_counts ran for this run (AD_IR_COUNTS, its folder) is read
# from there instead of run again (tools/arena_ir.sh's is its --check run: the same lines).
# $1: the source tree, $2: the build folder, $3: its CMAKE_BUILD_TYPE (the README's figures
# are the release build's: another build type skips, exit 77; so does a missing valgrind).
src=$1 build=$2 type=$3
FIGURES='
arena push Ir, loop ~ tools/arena_ir.sh BUILD ~ ^  st_arena_push_raw  ~ a push \+ a write \| \*\*NUM\*\*
arena push Ir, call ~ tools/arena_ir.sh BUILD ~ ^  st_arena_push_raw +[0-9.]+ ~ a write \| \*\*[0-9]+\*\* \([0-9.]+x\) \| NUM \(
arena zeroed push Ir ~ tools/arena_ir.sh BUILD ~ ^  st_arena_push on reused memory \(zeroed\) ~ A zeroed push on reused memory is NUM \(
arena frame loop push Ir ~ tools/arena_ir.sh BUILD ~ ^  frame loop: 100 pushes \+ st_arena_clear, per push ~ the clear\) NUM, an
arena clear Ir ~ tools/arena_ir.sh BUILD ~ ^st_arena_clear holding 1,000 allocations: ~ an `st_arena_clear` NUM whether
rewind snapshot Ir, level 1 ~ tools/rewind_ir.sh BUILD ~ ^01-first-steps\.lvl +a tick +[0-9]+ Ir, a snapshot ~ \*\*NUM instructions a snapshot\*\*
rewind snapshot Ir, Vault ~ tools/rewind_ir.sh BUILD ~ ^07-the-vault\.lvl +a tick +[0-9]+ Ir, a snapshot ~ on level 1 and NUM on the
rewind tick Ir, level 1 ~ tools/rewind_ir.sh BUILD ~ ^01-first-steps\.lvl +a tick ~ \(a tick: NUM and
rewind tick Ir, Vault ~ tools/rewind_ir.sh BUILD ~ ^07-the-vault\.lvl +a tick ~ \(a tick: [0-9,]+ and NUM\)
rewind tick back Ir, level 1 ~ tools/rewind_ir.sh BUILD ~ ^01-first-steps\.lvl .*a tick back ~ XORed in\) NUM and
rewind tick back Ir, Vault ~ tools/rewind_ir.sh BUILD ~ ^07-the-vault\.lvl .*a tick back ~ XORed in\) [0-9,]+ and NUM \(
arena scratch scope Ir, loop ~ tools/arena_ir.sh BUILD ~ ^  SCRATCH_SCOPE\(tmp, out\) \+ st_arena_push_raw ~ [0-9]+ \([0-9.]+x\) \| \*\*NUM\*\* \(
arena scratch scope Ir, call ~ tools/arena_ir.sh BUILD ~ ^  SCRATCH_SCOPE\(tmp, out\) \+ st_arena_push_raw +[0-9.]+ ~ \*\*[0-9]+\*\* \([0-9.]+x\) \| NUM \([0-9.]+x\) \|$
arena RAD-style scope Ir, call ~ tools/arena_ir.sh BUILD ~ ^  RAD-style scratch_begin \+ push \+ scratch_end +[0-9.]+ ~ written here from its design\) \| [0-9]+ \| [0-9]+ \| [0-9]+ \| NUM \|
level .lvl Ir per byte, 1024x1024 ~ tools/level_ir.sh BUILD 1024 ~ ^1024x1024 \.lvl ~ Instructions: NUM per byte at 1024x1024
tmj array Ir per byte, 1024x1024 ~ tools/level_ir.sh BUILD 1024 ~ ^1024x1024 \.tmj array ~ at 1024x1024 \*\*[0-9.]+x\*\* \(NUM per byte
tmj array / lvl Ir, 1024x1024 ~ tools/level_ir.sh BUILD 1024 ~ ^1024x1024 \.tmj array +[0-9.]+ Ir/byte \([0-9]+ bytes\), ~ at 1024x1024 \*\*NUMx\*\* \(
level .lvl Ir per byte, 64x64 ~ tools/level_ir.sh BUILD 64 ~ ^ *64x64 +\.lvl ~ \(10\.96 before\), NUM at 64x64
level .lvl Ir per byte, 64x64, beside Tiled ~ tools/level_ir.sh BUILD 64 ~ ^ *64x64 +\.lvl ~ and [0-9.]+ against NUM\)\.
tmj array Ir per byte, 64x64 ~ tools/level_ir.sh BUILD 64 ~ ^ *64x64 +\.tmj array ~ x and [0-9.]+x \(NUM and
tmj base64 Ir per byte, 64x64 ~ tools/level_ir.sh BUILD 64 ~ ^ *64x64 +\.tmj base64 ~ \([0-9.]+ and NUM against
tmj array / lvl Ir, 64x64 ~ tools/level_ir.sh BUILD 64 ~ ^ *64x64 +\.tmj array +[0-9.]+ Ir/byte \([0-9]+ bytes\), ~ at 64x64 NUMx and
tmj base64 / lvl Ir, 64x64 ~ tools/level_ir.sh BUILD 64 ~ ^ *64x64 +\.tmj base64 +[0-9.]+ Ir/byte \([0-9]+ bytes\), ~ at 64x64 [0-9.]+x and NUMx \(
tmj base64 Ir per byte, 1024x1024 ~ tools/level_ir.sh BUILD 1024 ~ ^1024x1024 \.tmj base64 ~ in base64 \(NUM, 46.8 before\)
mixer Ir per buffer ~ tools/bench_ir.sh bench_mixer BUILD ~ st_mixer_render, 32 voices, mixed pitches ~ \*\*NUM instructions a buffer\*\*
mixer naive / ours Ir ~ tools/bench_ir.sh bench_mixer BUILD ~ naive / mixer  ~ mixer in the same run: NUMx the instructions
mixer SDL_mixer / ours Ir ~ tools/bench_ir.sh bench_mixer BUILD ~ sdl_mixer / mixer_pitch1 ~ SDL_mixer takes \*\*NUMx\*\* the instructions
HUD line Ir ~ tools/bench_ir.sh bench_containers BUILD ~ st_str8_fmt into arena ~ NUM instructions a line
HUD line snprintf+malloc / ours Ir ~ tools/bench_ir.sh bench_containers BUILD ~ fmt_malloc / fmt_arena ~ a .malloc.ed buffer, NUMx the instructions
'
case $type in Release) ;; *) echo "the README's figures are the release build's (this build: ${type:-none}): skipped"; exit 77 ;; esac
command -v valgrind >/dev/null || { echo "valgrind is not installed: skipped"; exit 77; }
cd "$src" || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy AD_ASSET_DIR="$src/assets"
fail=0 checked=0
echo "$FIGURES" | grep . >"$tmp/figures"
while IFS='~' read -r name driver line readme; do
  name=$(echo "$name" | sed 's/^ *//; s/ *$//')
  driver=$(echo "$driver" | sed "s/^ *//; s/ *\$//; s|BUILD|$build|")
  line=$(echo "$line" | sed 's/^ //; s/ $//')
  readme=$(echo "$readme" | sed 's/^ //; s/ *$//')
  out=$tmp/$(echo "$driver" | tr -c 'a-zA-Z0-9\n' _)
  saved=${AD_IR_COUNTS:-/nonexistent}/$(echo "$driver" | tr -c 'a-zA-Z0-9\n' _)
  if [ ! -f "$out" ] && [ -f "$saved.rc" ]; then
    # Counted once for this run by the fixture ir_counts (tests/valgrind/ir_counts.sh).
    cp "$saved.out" "$out" && cp "$saved.err" "$out.err" || exit 2
    rc=$(cat "$saved.rc")
    [ "$rc" -eq 0 ] || { echo "FAIL: $driver (ir_counts): exit $rc"; cat "$out.err"; fail=1; continue; }
  elif [ ! -f "$out" ]; then
    # shellcheck disable=SC2086 # the driver's words
    bash $driver >"$out" 2>"$out.err" || { echo "FAIL: $driver: exit $?"; cat "$out.err"; fail=1; continue; }
  fi
  measured=$(awk -v re="$line" 'match($0, re) { rest = substr($0, RSTART + RLENGTH)
      if (match(rest, /[0-9]+(\.[0-9]+)?/)) { print substr(rest, RSTART, RLENGTH); n++ } }
      END { if (n != 1) exit 1 }' "$out") || {
    echo "FAIL: $name: '$line' is not one line of $driver's output:"; cat "$out"; fail=1; continue; }
  num='[0-9][0-9,]*(\.[0-9]+)?'
  pat=$(printf '%s' "$readme" | sed "s/NUM/$num/")
  hits=$(grep -n -o -E "$pat" README.md)
  if [ "$(printf '%s\n' "$hits" | grep -c .)" != 1 ]; then
    echo "FAIL: $name: README.md has $(printf '%s\n' "$hits" | grep -c .) places matching /$readme/ (it needs one)"
    fail=1; continue
  fi
  at=${hits%%:*}
  before=$(printf '%s' "$readme" | sed 's/NUM.*//') after=$(printf '%s' "$readme" | sed 's/.*NUM//')
  value=$(printf '%s' "${hits#*:}" | sed -E "s/^$before//; s/$after\$//; s/,//g")
  if awk -v r="$value" -v m="$measured" 'BEGIN {
      d = index(r, ".") ? length(r) - index(r, ".") : 0; half = 0.5 / 10 ^ d
      exit !((r - m <= half + 1e-9) && (m - r <= half + 1e-9)) }'; then
    echo "ok: $name: README $value, measured $measured"
  else
    echo "FAIL: $name: README.md:$at says $value, $driver measures $measured: change README.md line $at"
    fail=1
  fi
  checked=$((checked + 1))
done <"$tmp/figures"
echo "$checked figures checked"
exit $fail
