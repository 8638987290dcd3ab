#!/bin/sh
# golden_test.sh GAME COMPARE LEVEL GOLDEN OUT_DIR - one golden-frame test: takes the level's
# frame with shot.sh into OUT_DIR and compares it with the committed GOLDEN, exactly
# (golden_compare prints the differing pixel count and the largest channel difference, and
# writes OUT_DIR/<name>.diff.png on a mismatch). A missing golden fails: a new level needs
# its golden made on purpose, with tools/golden-update.sh.
set -u
GAME=$1
COMPARE=$2
LEVEL=$3
GOLDEN=$4
OUT_DIR=$5
name=$(basename "$LEVEL" .lvl)
if [ ! -f "$GOLDEN" ]; then
    echo "golden: FAIL: no golden image $GOLDEN for $LEVEL; make it with tools/golden-update.sh and look at it"
    exit 1
fi
mkdir -p "$OUT_DIR" || exit 1
rm -f "$OUT_DIR/$name.diff.png"
sh "$(dirname "$0")/shot.sh" "$GAME" "$LEVEL" "$OUT_DIR/$name.png" || exit 1
${AD_RUN:-} "$COMPARE" "$GOLDEN" "$OUT_DIR/$name.png" || {
    echo "golden: FAIL: $name differs from $GOLDEN; if the change is intended, run tools/golden-update.sh"
    exit 1
}
