#!/bin/sh
# tools_executable.sh SRC WORK - every script in tools/ that a user runs by name (tools/*.sh
# and tools/windows/*.sh, a #! on the first line) is executable, as the README calls them,
# and a copy of one with its x bit taken away, in WORK, is caught; every program a folder of
# tools/ builds (add_executable, tests aside) is one that tools/tool.sh runs.
set -u
src=$1 work=$2
check() { # DIR: the scripts there that a user cannot run by name, one a line
    for f in "$1"/*.sh "$1"/windows/*.sh; do
        [ -f "$f" ] || continue
        head -c 2 "$f" | grep -q '^#!' || continue
        [ -x "$f" ] || echo "$f"
    done
}
bad=$(check "$src/tools")
[ -z "$bad" ] || { printf 'tools_executable: not executable (chmod +x, and git add it):\n%s\n' "$bad"; exit 1; }
rm -rf "$work" && mkdir -p "$work/tools" || exit 2
cp "$src/tools/test.sh" "$work/tools/" && chmod -x "$work/tools/test.sh" || exit 2
[ "$(check "$work/tools")" = "$work/tools/test.sh" ] || { echo "tools_executable: NOT CAUGHT: test.sh without its x bit"; exit 1; }
rm -rf "$work"
known=$(sed -n 's/^tools=(\(.*\))$/\1/p' "$src/tools/tool.sh")
[ -n "$known" ] || { echo "tools_executable: no tools=(...) line in tools/tool.sh"; exit 1; }
missing=
for t in $(sed -n 's/^add_executable(\([a-z0-9_]*\) .*/\1/p' "$src"/tools/*/CMakeLists.txt | grep -v '^test_'); do
    case " $known " in *" $t "*) ;; *) missing="$missing $t" ;; esac
done
[ -z "$missing" ] || { echo "tools_executable: tools/tool.sh does not know:$missing"; exit 1; }
echo "tools_executable: every script runs by name (a planted one without x is caught); tool.sh runs: $known"
