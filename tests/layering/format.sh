#!/bin/sh
# format.sh ROOT - every engine and game source is as .clang-format lays it out (the house
# style, CONVENTIONS.md): prints the files that are not, with clang-format's first
# complaints, and exits 1; 77 when clang-format is not installed.
ROOT=$1
CF=$(command -v clang-format-14 || command -v clang-format || true) # deps: clang-format
[ -n "$CF" ] || { echo "format: clang-format is not installed, skipping"; exit 77; }
cd "$ROOT" || exit 2
files=$(find engine game -type f \( -name '*.c' -o -name '*.h' \) | sort)
[ -n "$files" ] || { echo "format: no sources under $ROOT"; exit 2; }
bad=0
for f in $files; do
    if ! "$CF" --style=file --dry-run -Werror "$f" >/dev/null 2>&1; then
        echo "format: $f is not formatted (clang-format -i $f):"
        "$CF" --style=file --dry-run "$f" 2>&1 | head -n 6 | sed 's/^/    /'
        bad=$((bad + 1))
    fi
done
[ $bad -eq 0 ] || { echo "format: $bad of $(echo "$files" | wc -l) files not formatted"; exit 1; }
echo "format: all $(echo "$files" | wc -l) engine and game sources are formatted"
