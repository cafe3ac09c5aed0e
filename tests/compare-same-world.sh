#!/bin/sh
# compare-same-world.sh: the conversions within one world give the same
# bytes as another build of sequin-cli (e.g. before a restructuring)
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: tests/compare-same-world.sh NEW-SEQUIN-CLI OLD-SEQUIN-CLI
#
# Over the corpus (tests/data/corpus), the Sims samples (tests/data/sims)
# and files made from them by the old build (text SEQ and .x from the
# binary SEQ files, Second Life BVH from the .anim files), converts every
# file into every format of its own world (and into its own format) with
# both builds and compares the outputs byte for byte. Within one world the
# rest poses are one, so nothing is retargeted and the bytes must be the
# same. Then info, dump --json and validate of every file are compared
# (output, errors and exit status). Prints one line per difference and a
# count; exits 1 on any.
set -u
new=$1
old=$2
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/in" "$work/new" "$work/old"

# the inputs, and files of the other formats of each world made from them
for f in "$top"/tests/data/corpus/seq-binary/*.seq "$top"/data/samples/*.seq; do
  b=$(basename "$f" .seq)
  cp "$f" "$work/in/$b.seq"
  "$old" convert --to seq-text "$f" "$work/in/$b-text.seq" 2>/dev/null
  "$old" convert "$f" "$work/in/$b.x" 2>/dev/null
done
for f in "$top"/tests/data/corpus/sl-anim/*.dat "$top"/tests/data/corpus/sl-anim/*.anim; do
  [ -e "$f" ] || continue
  b=$(basename "$f" | sed 's/\.[^.]*$//')
  cp "$f" "$work/in/$b.anim"
  "$old" convert "$f" "$work/in/$b-sl.bvh" 2>/dev/null
done
for f in "$top"/tests/data/corpus/bvh/*.bvh; do
  # Second Life's own rig: a ROOT named hip
  grep -q '^ROOT hip' "$f" && cp "$f" "$work/in/"
done
for f in "$top"/tests/data/corpus/dx-anim/*; do
  cp "$f" "$work/in/"
done
cp "$top"/tests/data/sims/*.kfd "$top"/tests/data/sims/*.psl "$top"/tests/data/sims/*.cmx \
   "$top"/tests/data/sims/*.cfp "$work/in/"

same=0
differ=0
failed=0
for f in "$work"/in/*; do
  name=$(basename "$f")
  case "$name" in
    *.seq|*.x|*.X) targets="seq-binary seq-text dx" ;;
    *.anim|*.bvh) targets="sl-anim bvh" ;;
    *.kfd|*.psl|*.cmx) targets="simpose-kfd simpose-psl sims-cmx" ;;
    *) continue ;;
  esac
  for t in $targets; do
    case $t in
      seq-binary|seq-text) ext=seq ;; dx) ext=x ;; sl-anim) ext=anim ;; bvh) ext=bvh ;;
      simpose-kfd) ext=kfd ;; simpose-psl) ext=psl ;; sims-cmx) ext=cmx ;;
    esac
    "$new" convert --to "$t" "$f" "$work/new/$name.$t.$ext" >/dev/null 2>&1; rn=$?
    "$old" convert --to "$t" "$f" "$work/old/$name.$t.$ext" >/dev/null 2>&1; ro=$?
    if [ $rn -ne $ro ]; then
      echo "exit status differs: $name -> $t ($rn, before $ro)"
      failed=$((failed + 1))
    elif [ $rn -ne 0 ]; then
      : # refused by both
    elif cmp -s "$work/new/$name.$t.$ext" "$work/old/$name.$t.$ext"; then
      same=$((same + 1))
    else
      echo "bytes differ: $name -> $t"
      differ=$((differ + 1))
    fi
  done
done
# a CMX skill's keys go into a .cfp written beside it
for c in "$work"/new/*.cfp; do
  [ -e "$c" ] || continue
  if cmp -s "$c" "$work/old/$(basename "$c")"; then
    same=$((same + 1))
  else
    echo "bytes differ: $(basename "$c")"
    differ=$((differ + 1))
  fi
done
echo "same-world conversions: $same identical, $differ different, $failed with another exit status"

# what reading shows: info, dump --json and validate of every corpus file,
# every sample and every file made above (output, errors and exit status)
read_same=0
read_differ=0
for f in "$top"/tests/data/corpus/*/* "$top"/data/samples/* "$top"/tests/data/sims/* "$work"/in/*; do
  case "$f" in *.md|*.py|*.cfp) continue ;; esac
  [ -f "$f" ] || continue
  for cmd in info "dump --json" validate; do
    # shellcheck disable=SC2086 # the command's words
    a=$("$new" $cmd "$f" 2>&1; echo "exit $?")
    # shellcheck disable=SC2086
    b=$("$old" $cmd "$f" 2>&1; echo "exit $?")
    if [ "$a" = "$b" ]; then
      read_same=$((read_same + 1))
    else
      echo "$cmd differs: $f"
      read_differ=$((read_differ + 1))
    fi
  done
done
echo "info, dump --json, validate: $read_same identical, $read_differ different"
[ $differ -eq 0 ] && [ $failed -eq 0 ] && [ $read_differ -eq 0 ]
