#!/bin/sh
# tools/play.sh installs only what building and playing needs; tools/test.sh the test stack
# too. Run on a machine where nothing looks installed (a PATH with bash alone), in dry-run:
# play's list holds the build's packages and none of the test stack's; test's list holds
# both. $1: the source tree.
src=$1
bin=$(mktemp -d) || exit 2
trap 'rm -rf "$bin"' EXIT
ln -s "$(command -v bash)" "$bin/bash" || exit 2 # deps: essential
say() { env -i PATH="$bin" "$bin/bash" -c "cd '$src' && source tools/deps.sh && DEPS_DRY_RUN=1 $1"; }
play=$(say deps_install_play) || { echo "FAIL: deps_install_play: $play"; exit 1; }
all=$(say deps_install | tr "\n" " ") || { echo "FAIL: deps_install: $all"; exit 1; }
echo "play: $play"
echo "test: $all"
fail=0
for p in cmake ninja-build gcc libsdl2-dev; do
    case " $play " in *" $p "*) ;; *) echo "FAIL: play does not install $p"; fail=1 ;; esac
done
for p in clang valgrind xvfb openbox xdotool tiled graphviz imagemagick libclang-rt-dev libmimalloc-dev libsdl2-mixer-dev; do
    case " $play " in *" $p "*) echo "FAIL: play installs $p, which only the tests need"; fail=1 ;; esac
done
for p in cmake clang valgrind xvfb openbox xdotool tiled graphviz imagemagick libcjson-dev libsdl2-mixer-dev; do
    case " $all " in *" $p "*) ;; *) echo "FAIL: test does not install $p"; fail=1 ;; esac
done
exit $fail
