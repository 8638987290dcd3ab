#!/usr/bin/env bash
# Builds and runs every test: the release and asan presets, each configured, built and
# run with ctest. Exits non-zero on any failure. Installs missing packages first.
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/deps.sh
deps_install

presets=("$@")
((${#presets[@]})) || presets=(release asan)
for preset in "${presets[@]}"; do
  echo "== $preset"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j2
  ctest --preset "$preset" -j2
done
