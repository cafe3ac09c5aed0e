#!/bin/sh
# record-conversions.sh: every conversion sequin-cli makes of the test
# files, recorded in a folder, to compare two builds byte for byte
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: tests/record-conversions.sh SEQUIN-CLI OUT-DIR
#
# Inputs: the corpus (tests/data/corpus), the samples (data/samples), the
# Sims files (tests/data/sims) and a new file of every world (`new --world`).
# Each is converted into every format (OUT-DIR/conv/NAME.FORMAT/, a CMX's
# CFP beside it); the command's output and exit status go to
# OUT-DIR/log/NAME.FORMAT.txt, and info and validate --target aw|sl|sims
# to OUT-DIR/log/NAME.info.txt. The work is done in one fixed folder so the
# paths in the messages are the same for every build. Compare two records
# with `diff -r BEFORE AFTER`. (Same-world identity alone:
# compare-same-world.sh.)
set -u
cli=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
final=$2
top=$(cd "$(dirname "$0")/.." && pwd)
out=${TMPDIR:-/tmp}/sequin-record-conversions
rm -rf "$out"
mkdir -p "$out/in" "$out/conv" "$out/log"
in=$out/in
cp "$top"/tests/data/corpus/seq-binary/* "$top"/tests/data/corpus/dx-anim/* "$top"/tests/data/corpus/bvh/* "$in/"
for f in "$top"/tests/data/corpus/sl-anim/*; do
  cp "$f" "$in/$(basename "$f" | sed 's/\.dat$/.anim/')"
done
for f in "$top"/data/samples/*; do
  case $f in *.py) ;; *) cp "$f" "$in/sample-$(basename "$f")" ;; esac
done
cp "$top"/tests/data/sims/*.kfd "$top"/tests/data/sims/*.psl "$top"/tests/data/sims/*.sps \
   "$top"/tests/data/sims/*.cmx "$top"/tests/data/sims/*.cfp "$in/"
for w in sl sl-bento aw sims sims-child bvh; do
  case $w in sl|sl-bento) e=anim ;; aw) e=seq ;; sims|sims-child) e=cmx ;; bvh) e=bvh ;; esac
  (cd "$in" && "$cli" new --world $w --duration 0.5 "new-$w.$e" >/dev/null 2>&1)
done
for f in "$in"/*; do
  n=$(basename "$f")
  case "$n" in *.cfp) continue ;; esac
  for t in seq-binary seq-text bvh dx sl-anim sims-cmx simpose-psl simpose-kfd simpose-sps gltf; do
    case $t in
      seq-*) e=seq ;; dx) e=x ;; sl-anim) e=anim ;; sims-cmx) e=cmx ;; simpose-psl) e=psl ;;
      simpose-kfd) e=kfd ;; simpose-sps) e=sps ;; bvh) e=bvh ;; gltf) e=glb ;;
    esac
    d=$out/conv/$n.$t
    mkdir -p "$d"
    "$cli" convert --to $t "$f" "$d/out.$e" >"$out/log/$n.$t.txt" 2>&1
    echo "exit $?" >>"$out/log/$n.$t.txt"
  done
  {
    "$cli" info "$f"; echo "exit $?"
    for w in aw sl sims; do "$cli" validate --target $w "$f"; echo "exit $?"; done
  } >"$out/log/$n.info.txt" 2>&1
done
rm -rf "$final"
mv "$out" "$final"
echo "$(ls "$final/conv" | wc -l) conversions recorded in $final"
