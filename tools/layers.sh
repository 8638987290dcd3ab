#!/usr/bin/env bash
# Draws the layers as built: docs/layers.dot and docs/layers.svg, the project's libraries,
# programs and the hot-reload module, each with its folders and its count of .c files, and
# the links between them, one row per layer (engine at the bottom, the game above, the
# tools on top; the system libraries they link in grey below). The targets and links are
# CMake's own: a configure of the tree (nothing is built) in BUILD_DIR/layers-configure,
# read through `cmake --graphviz` (the links) and the file API (each target's sources).
# Test programs are not drawn, nor the C library's parts. The output is sorted, so the
# same tree always gives the same .dot.
#   tools/layers.sh [BUILD_DIR]           redraws docs/layers.dot and docs/layers.svg (Graphviz's dot)
#   tools/layers.sh --check [BUILD_DIR]   exit 1, showing the difference, when docs/layers.dot is not
#                                         what the tree configures or docs/layers.svg is not drawn from it
# BUILD_DIR defaults to build; CMAKE=... names the cmake to run. ctest layers_picture is --check.
set -euo pipefail
if [[ "${1:-}" == --help || "${1:-}" == -h ]]; then sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0; fi
check=0
if [[ "${1:-}" == --check ]]; then check=1; shift; fi
if (($# > 1)) || [[ "${1:-}" == -* ]]; then echo "layers: usage: tools/layers.sh [--check] [BUILD_DIR] (tools/layers.sh --help)" >&2; exit 2; fi
src=$(cd "$(dirname "$0")/.." && pwd)
build=$src/build
[[ -n "${1:-}" ]] && build=$(realpath -m -- "$1")
work=$build/layers-configure
cmake=${CMAKE:-cmake}

# The layers, bottom to top: a name and the folders in it. A target sits in the highest
# layer any of its sources is in; a folder named exactly wins over a pattern (engine/core
# is not engine/*). A folder that is in no layer is an error: say where it belongs here.
LAYERS='
core        engine/core
engine      engine/*
level       game/level
rules       game/rules
front       game/front
editor      game/editor
app         game/app
tools       tools/*
'
# Linked by everything or optional, so not drawn: the C library's parts (libm, threads) and
# the benchmarks' mimalloc, which they link only when it is installed.
IGNORED='m Threads::Threads pthread dl rt mimalloc'

# ---- A configure of the tree, with the file API's codemodel asked for and CMake's own
# graph written without its per-target files. The cache of the last one is kept when it is
# of this tree (a configure is then a fifth of the time); what it answers is made anew.
if [[ -f "$work/CMakeCache.txt" ]] && ! grep -qxF "CMAKE_HOME_DIRECTORY:INTERNAL=$src" "$work/CMakeCache.txt"; then
  rm -rf "$work"
fi
rm -rf "$work/.cmake/api/v1/reply" "$work/targets.dot" "$work/targets.tsv" "$work/layers.dot" "$work/layers.diff"
mkdir -p "$work/.cmake/api/v1/query"
: >"$work/.cmake/api/v1/query/codemodel-v2"
printf 'set(GRAPHVIZ_GENERATE_PER_TARGET FALSE)\nset(GRAPHVIZ_GENERATE_DEPENDERS FALSE)\n' >"$work/CMakeGraphVizOptions.cmake"
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
if ! "$cmake" -S "$src" -B "$work" "${gen[@]}" --graphviz="$work/targets.dot" >"$work/configure.log" 2>&1; then
  cat "$work/configure.log" >&2
  echo "layers: the tree does not configure (above; the log is $work/configure.log)" >&2
  exit 1
fi
if ! "$cmake" -DREPLY="$work/.cmake/api/v1/reply" -P "$src/tools/layers.cmake" 2>"$work/targets.tsv"; then
  cat "$work/targets.tsv" >&2
  exit 1
fi

# ---- The picture: targets.tsv (name, type, folder, sources) and CMake's graph (the links,
# by style: none public, dotted private, dashed interface) into one sorted .dot.
draw() {
  LC_ALL=C awk -v layers="$LAYERS" -v ignored="$IGNORED" -F'\t' '
function sort(a, n,   i, j, t) { for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j > 0 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t } }
function q(s) { gsub(/"/, "\\\"", s); return "\"" s "\"" }
function layer_of(f,   i, re) {
  for (i = 1; i <= nl; i++) if (lpat[i] == f) return i
  for (i = 1; i <= nl; i++) { re = lpat[i]; gsub(/[.]/, "[.]", re); gsub(/[*]/, ".*", re); if (f ~ ("^" re "$")) return i }
  return 0
}
function libname(s) { sub(/.*\//, "", s); sub(/^lib/, "", s); sub(/[.](so|a)([.].*)?$/, "", s); return s }
# engine/asset engine/audio -> engine/{asset,audio}
function folders_label(list,   n, a, i, top, rest, out, cur, parts) {
  n = split(list, a, " "); out = ""; cur = ""; parts = ""
  for (i = 1; i <= n; i++) {
    top = a[i]; rest = ""
    if (index(top, "/")) { rest = substr(top, index(top, "/") + 1); top = substr(top, 1, index(top, "/") - 1) }
    if (top != cur) { if (cur != "") out = out (out == "" ? "" : " ") fold(cur, parts); cur = top; parts = "" }
    if (rest != "") parts = parts (parts == "" ? "" : ",") rest
  }
  if (cur != "") out = out (out == "" ? "" : " ") fold(cur, parts)
  return out
}
function fold(top, parts) { if (parts == "") return top "/"; if (index(parts, ",")) return top "/{" parts "}"; return top "/" parts }
BEGIN {
  n = split(layers, raw, "\n")
  for (i = 1; i <= n; i++) { if (split(raw[i], w, " ") == 2) { nl++; lname[nl] = w[1]; lpat[nl] = w[2] } }
  n = split(ignored, w, " "); for (i = 1; i <= n; i++) skip[w[i]] = 1
  bad = 0
}
FILENAME == ARGV[1] {
  name = $1; type = $2; dir = $3; project[name] = 1
  if (type == "UTILITY" || type == "INTERFACE_LIBRARY") next
  if (dir ~ /^tests(\/|$)/ || name ~ /^test_/) next
  nsrc = split($4, srcs, " "); delete seen; nf = 0; top = 0
  for (i = 1; i <= nsrc; i++) {
    m = split(srcs[i], p, "/"); f = (m >= 3) ? p[1] "/" p[2] : p[1]
    if (!(f in seen)) { seen[f] = 1; fl[++nf] = f }
  }
  if (nf == 0) fl[++nf] = dir
  sort(fl, nf); list = ""
  for (i = 1; i <= nf; i++) {
    l = layer_of(fl[i])
    if (l == 0) { printf "layers: %s (target %s) is in no layer: add it to LAYERS in tools/layers.sh\n", fl[i], name > "/dev/stderr"; bad = 1 }
    if (l > top) top = l
    list = list (i > 1 ? " " : "") fl[i]
  }
  kept[name] = 1; ttype[name] = type; tlayer[name] = top; tfolders[name] = list; tsrc[name] = nsrc
  next
}
/^ *"node[0-9]+" \[ label = / {
  id = $0; sub(/^ *"/, "", id); sub(/".*/, "", id)
  lab = $0; sub(/^[^[]*\[ label = "/, "", lab); sub(/", shape = .*/, "", lab)
  sub(/\\n[(].*[)]$/, "", lab) # "engine\n(strata::engine)": a target with its alias
  label[id] = lab; next
}
/^ *"node[0-9]+" -> "node[0-9]+"/ {
  split($0, w, "\""); style = "public"
  if ($0 ~ /style = dotted/) style = "private"; else if ($0 ~ /style = dashed/) style = "interface"
  ne++; etail[ne] = w[2]; ehead[ne] = w[4]; estyle[ne] = style; next
}
END {
  if (bad) exit 1
  # What an imported target (PkgConfig::SDL2) stands for: the libraries it links.
  for (e = 1; e <= ne; e++) { t = label[etail[e]]; h = label[ehead[e]]; if (!(t in project)) libs[t] = libs[t] " " libname(h) }
  for (e = 1; e <= ne; e++) {
    t = label[etail[e]]; h = label[ehead[e]]
    if (!(t in kept)) continue
    # $<LINK_LIBRARY:WHOLE_ARCHIVE,engine> is drawn as its library between two markers.
    if (h ~ /^<\/?LINK_(LIBRARY|GROUP):/) continue
    if (h in kept) { key = t SUBSEP h }
    else if (h in project) continue
    else {
      m = split((h in libs) ? libs[h] : libname(h), w, " ")
      for (i = 1; i <= m; i++) if (!(w[i] in skip)) { if (!(w[i] in sys)) nsys++; sys[w[i]] = 1; link[t SUBSEP "sys:" w[i]] = estyle[e] }
      continue
    }
    link[key] = estyle[e]
  }
  # Targets of one folder, type and layer that link alike (the benchmarks) are one node.
  for (k in link) { split(k, w, SUBSEP); outs[w[1]] = outs[w[1]] "|" w[2] ":" link[k]; ins[w[2]] = ins[w[2]] "|" w[1] }
  nt = 0; for (t in kept) tl[++nt] = t; sort(tl, nt)
  for (i = 1; i <= nt; i++) {
    t = tl[i]; m = split(outs[t], w, "|"); sort(w, m); o = ""; for (j = 1; j <= m; j++) o = o "|" w[j]
    m = split(ins[t], w, "|"); sort(w, m); o = o "#"; for (j = 1; j <= m; j++) o = o "|" w[j]
    g = ttype[t] "#" tlayer[t] "#" tfolders[t] "#" o
    members[g] = members[g] (count[g]++ ? " " : "") t; gsrc[g] += tsrc[t]
  }
  for (g in members) {
    if (count[g] < 2) { node[members[g]] = members[g]; continue }
    m = split(members[g], w, " "); pre = w[1]
    for (i = 2; i <= m; i++) while (index(w[i], pre) != 1) pre = substr(pre, 1, length(pre) - 1)
    id = pre "* (" m ")"; grouped[id] = members[g]; tsrc[id] = gsrc[g]
    for (i = 1; i <= m; i++) node[w[i]] = id
  }
  print "// The targets CMake configures and what each links, in layers. Drawn by tools/layers.sh"
  print "// from cmake --graphviz and the file API: do not edit, run tools/layers.sh (ctest"
  print "// layers_picture fails when this is not what the tree builds)."
  print "digraph layers {"
  print "  graph [fontname=\"Helvetica\", fontsize=10, ranksep=0.4, nodesep=0.25, labelloc=b, labeljust=l,"
  print "         label=\"Arrows: links to (dashed: private). Rounded: a library (dashed outline: object library; folded: the\\lmodule --hot-reload loads); square: a program. Each node: its folders and its count of .c files.\\l\"];"
  print "  node [fontname=\"Helvetica\", fontsize=10, shape=box, style=\"rounded,filled\", color=\"#555555\", margin=\"0.12,0.04\"];"
  print "  edge [color=\"#666666\", arrowsize=0.6];"
  # The rows: a label for each layer that has targets, top to bottom, chained invisibly so
  # they keep their order whatever links there are.
  for (t in node) used[tlayer[t]] = 1
  if (nsys > 0) used[0] = 1
  lname[0] = "system"; lpat[0] = "system libraries"
  chain = ""
  for (l = nl; l >= 0; l--) {
    if (!(l in used)) continue
    printf "  %s [shape=plaintext, style=\"\", fontcolor=\"#888888\", label=%s];\n", q("layer:" lname[l]), q(lpat[l])
    chain = chain (chain == "" ? "" : " -> ") q("layer:" lname[l])
  }
  print "  " chain " [style=invis];"
  for (l = nl; l >= 0; l--) {
    if (!(l in used)) continue
    m = 0; delete row
    if (l == 0) { for (s in sys) row[++m] = q("sys:" s) }
    else { for (t in node) if (tlayer[t] == l && !(node[t] in done)) { done[node[t]] = 1; row[++m] = q(node[t]) } }
    sort(row, m); line = "  { rank=same; " q("layer:" lname[l]) ";"
    for (i = 1; i <= m; i++) line = line " " row[i] ";"
    print line " }"
  }
  m = 0; delete row
  for (t in node) {
    id = node[t]; if (id in printed) continue; printed[id] = 1
    # Coloured by the top folder of the layer: the engine blue, the game green, tools yellow.
    l = tlayer[t]; fill = (lpat[l] ~ /^tools/) ? "#fbefc4" : (lpat[l] ~ /^game/) ? "#d9eecf" : "#d3e3f4"
    n = (id in grouped) ? tsrc[id] : tsrc[t]
    shape = ""; if (ttype[t] == "EXECUTABLE") shape = ", style=filled"
    else if (ttype[t] == "OBJECT_LIBRARY") shape = ", style=\"rounded,filled,dashed\""
    else if (ttype[t] == "MODULE_LIBRARY") shape = ", shape=note, style=filled"
    extra = ""; if (id in grouped) extra = ", tooltip=" q(grouped[id])
    row[++m] = sprintf("  %s [label=%s, fillcolor=\"%s\"%s%s];", q(id), q(id "\\n" folders_label(tfolders[t]) "  " n " .c"), fill, shape, extra)
  }
  for (s in sys) row[++m] = sprintf("  %s [label=%s, fillcolor=\"#eeeeee\", color=\"#999999\", fontcolor=\"#555555\"];", q("sys:" s), q(s))
  sort(row, m); for (i = 1; i <= m; i++) print row[i]
  m = 0; delete row
  for (k in link) {
    split(k, w, SUBSEP); a = node[w[1]]; b = (w[2] in node) ? node[w[2]] : w[2]
    e = q(a) " -> " q(b); if (e in edone) continue; edone[e] = 1
    row[++m] = "  " e (link[k] == "public" ? "" : link[k] == "private" ? " [style=dashed]" : " [style=dotted]") ";"
  }
  sort(row, m); for (i = 1; i <= m; i++) print row[i]
  print "}"
}' "$work/targets.tsv" "$work/targets.dot"
}

out=$work/layers.dot
draw >"$out"
if ((check)); then
  fail=0
  if ! diff -u --label docs/layers.dot --label "what the tree configures" "$src/docs/layers.dot" "$out" >"$work/layers.diff" 2>&1; then
    echo "layers: docs/layers.dot is not the targets and links CMake configures (- the file, + the tree):"
    cat "$work/layers.diff"
    fail=1
  fi
  sum=$(sha256sum <"$out" | cut -d' ' -f1)
  if ((!fail)) && ! grep -qF "<!-- drawn from layers.dot sha256 $sum -->" "$src/docs/layers.svg" 2>/dev/null; then
    echo "layers: docs/layers.svg was not drawn from docs/layers.dot (no 'drawn from layers.dot sha256 $sum' in it)"
    fail=1
  fi
  if ((fail)); then
    echo "layers: run tools/layers.sh to redraw docs/layers.dot and docs/layers.svg, and commit both"
    exit 1
  fi
  echo "layers: docs/layers.dot and docs/layers.svg are the tree's $(grep -c '^  "[^"]*" \[label=' "$out") nodes and $(grep -v 'layer:' "$out" | grep -c ' -> ') links"
  exit 0
fi

command -v dot >/dev/null || { echo "layers: Graphviz's dot is missing (apt-get install graphviz; tools/test.sh installs it)" >&2; exit 1; }
mkdir -p "$src/docs"
sum=$(sha256sum <"$out" | cut -d' ' -f1)
# Each written beside its final name and renamed over it, so a failure leaves the old one.
dot -Tsvg -Gcomment="drawn from layers.dot sha256 $sum" "$out" >"$src/docs/layers.svg.tmp"
cp "$out" "$src/docs/layers.dot.tmp"
mv "$src/docs/layers.dot.tmp" "$src/docs/layers.dot"
mv "$src/docs/layers.svg.tmp" "$src/docs/layers.svg"
echo "layers: wrote docs/layers.dot and docs/layers.svg"
