#!/usr/bin/env bash
# Grows the committed fuzz corpus, tests/fuzz/corpus, on purpose: fuzzes the level parser for
# SECONDS (default 600) from the committed corpus and the seeds (tests/fuzz/run.sh, in
# build/fuzz-corpus), then merges what it found, plus any EXTRA corpus folders, back with
# libFuzzer's -merge=1: only inputs that add coverage beyond the seeds (the levels and test
# fixtures, which the fuzz test always adds) and beyond each other are kept.
#   tools/fuzz-corpus.sh [SECONDS [EXTRA_CORPUS_DIR...]]   SECONDS 0: merge only
# A finding stops it (exit status of run.sh, the input saved in build/fuzz-corpus/).
# Then: git add -A tests/fuzz/corpus, and commit.
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD
secs=${1:-600}
(($# > 0)) && shift
work=${FUZZ_WORK:-$src/build/fuzz-corpus}   # FUZZ_WORK=dir to work elsewhere
stb=$(dirname "$(find /usr/include /usr/local/include -name stb_image.h -print -quit 2>/dev/null || true)")
if ((secs > 0)); then
  sh tests/fuzz/run.sh "$src" "$work" "$secs" "$stb"
else
  FUZZ_BUILD_ONLY=1 sh tests/fuzz/run.sh "$src" "$work" 0 "$stb"
  rm -rf "$work/corpus" "$work/seeds"
  mkdir -p "$work/corpus" "$work/seeds"
  for f in levels/*.lvl tests/game/levels/good/*.lvl tests/game/levels/bad/*.lvl; do
    if [[ -f "$f" ]]; then cp "$f" "$work/seeds/$(basename "$(dirname "$f")")-$(basename "$f")"; fi
  done
fi
# Merge into a copy of the seeds, so their coverage counts as already had; what merge adds
# (named by the SHA-1 of their bytes) is the new corpus.
merged=$work/merged
rm -rf "$merged"
cp -r "$work/seeds" "$merged"
mkdir -p tests/fuzz/corpus
before=$(find tests/fuzz/corpus -type f | wc -l)
"$work/fuzz_level" -merge=1 -max_len=16384 -timeout=10 -rss_limit_mb=2048 -error_exitcode=1 \
  "$merged" tests/fuzz/corpus "$work/corpus" "$@" 2>"$work/merge.log" || {
  tail -n 40 "$work/merge.log"
  echo "fuzz-corpus: the merge failed (log: $work/merge.log)"
  exit 1
}
rm -f tests/fuzz/corpus/*
for f in "$merged"/*; do
  if [[ ! -f "$work/seeds/$(basename "$f")" ]]; then cp "$f" tests/fuzz/corpus/; fi
done
echo "fuzz-corpus: tests/fuzz/corpus: $before -> $(find tests/fuzz/corpus -type f | wc -l) files, $(du -sk tests/fuzz/corpus | cut -f1) KB on disk, $(cat tests/fuzz/corpus/* | wc -c) bytes"
