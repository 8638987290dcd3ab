#!/usr/bin/env bash
# Explores with one fuzz target for longer than the suite does, and grows its committed
# corpus, tests/fuzz/corpus/TARGET, on purpose: fuzzes for SECONDS (default 600) from a
# random seed (tests/fuzz/run.sh with FUZZ_SECONDS, in build/fuzz-corpus/TARGET), then
# merges what it found, plus any EXTRA corpus folders, back with libFuzzer's -merge=1: only
# inputs that add coverage beyond the seeds (which the suite always adds) and beyond each
# other are kept, named by the SHA-1 of their bytes.
#   tools/fuzz-corpus.sh TARGET [SECONDS [EXTRA_CORPUS_DIR...]]   SECONDS 0: merge only
#   tools/fuzz-corpus.sh --help
# TARGET is a tests/fuzz/TARGET.sh (level, tmj, ...). A finding stops it (run.sh's exit
# status, the input saved in build/fuzz-corpus/TARGET/). Then: git add -A tests/fuzz/corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD
if [[ "${1:-}" == --help || "${1:-}" == -h || $# -eq 0 ]]; then
  sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
  echo "targets: $(cd tests/fuzz && ls ./*.sh | grep -v run.sh | sed 's|^\./||; s|\.sh$||' | tr '\n' ' ')"
  (($# == 0)) && exit 2
  exit 0
fi
target=$1
shift
[[ -f tests/fuzz/$target.sh ]] || { echo "fuzz-corpus: no tests/fuzz/$target.sh" >&2; exit 2; }
secs=${1:-600}
(($# > 0)) && shift
[[ "$secs" =~ ^[0-9]+$ ]] || { echo "fuzz-corpus: SECONDS must be a whole number, not '$secs'" >&2; exit 2; }
work=${FUZZ_WORK:-$src/build/fuzz-corpus/$target}   # FUZZ_WORK=dir to work elsewhere
export STB_DIR=${STB_DIR:-$(dirname "$(find /usr/include /usr/local/include -name stb_image.h -print -quit 2>/dev/null || echo /usr/include/stb/x)")}
if ((secs > 0)); then
  FUZZ_SECONDS=$secs sh tests/fuzz/run.sh "$target" "$src" "$work"
else
  FUZZ_BUILD_ONLY=1 sh tests/fuzz/run.sh "$target" "$src" "$work"
fi
# The seeds, as run.sh gathers them: the merge starts from them so that their coverage
# counts as already had.
FUZZ_SEEDS="" FUZZ_MAX_LEN=4096 DATA=$work/data SRC=$src
fuzz_setup() { :; }
# shellcheck disable=SC1090
source "tests/fuzz/$target.sh"
merged=$work/merged
rm -rf "$merged"
mkdir -p "$merged" "$work/corpus" "tests/fuzz/corpus/$target"
for f in $FUZZ_SEEDS; do
  for g in "$src"/$f; do
    if [[ -f "$g" ]]; then cp "$g" "$merged/seed-$(basename "$(dirname "$g")")-$(basename "$g")"; fi
  done
done
before=$(find "tests/fuzz/corpus/$target" -type f | wc -l)
"$work/fuzz_$target" -merge=1 -max_len="$FUZZ_MAX_LEN" -timeout=10 -rss_limit_mb=2048 -error_exitcode=1 \
  "$merged" "tests/fuzz/corpus/$target" "$work/corpus" "$@" 2>"$work/merge.log" || {
  tail -n 40 "$work/merge.log"
  echo "fuzz-corpus: the merge failed (log: $work/merge.log)"
  exit 1
}
rm -f "tests/fuzz/corpus/$target"/*
for f in "$merged"/*; do
  case $(basename "$f") in seed-*) ;; *) cp "$f" "tests/fuzz/corpus/$target/" ;; esac
done
echo "fuzz-corpus: tests/fuzz/corpus/$target: $before -> $(find "tests/fuzz/corpus/$target" -type f | wc -l) files, $(du -sk "tests/fuzz/corpus/$target" | cut -f1) KB on disk"
