#!/bin/bash
# record-cli-outputs.sh: every command line that goes through the joint
# names, recorded for a byte-for-byte comparison of two builds
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: tests/record-cli-outputs.sh SEQUIN-CLI OUT-DIR [MORE-INPUT-DIR…]
#
# Over tests/data, data/samples and the folders given (e.g. files made
# from the corpus by the old build: text SEQ, .x, Second Life BVH), runs
# info, validate (--target aw, sl, sims; sl --loss), convert to every
# format, and convert to .anim and binary SEQ with each map of
# tests/data/maps and data/maps. Each run is one file in OUT-DIR: the
# command, exit status, output and errors (the temporary folder named
# DIR) and a checksum of each file written. Compare two builds with
# `diff -r OUT-A OUT-B`.
set -u
cli=$(realpath "$1")
out=$2
shift 2
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
formats=$("$cli" formats 2>/dev/null | awk '{print $1}' | grep -v '^$' | sort -u)
[ -n "$formats" ] || { echo "no formats from $cli formats" >&2; exit 1; }

commands() {
  find "$top/tests/data" "$top/data/samples" "$@" -type f \
       ! -name '*.md' ! -name README ! -name '*.py' ! -name '*.map' ! -name '*.json' ! -name '*.bin' |
    sort | while IFS= read -r f; do
      echo "info|$f"
      for t in aw sl sims; do echo "validate --target $t|$f"; done
      echo "validate --target sl --loss|$f"
      for fm in $formats; do echo "convert --to $fm|$f"; done
      for m in "$top"/tests/data/maps/*.map "$top"/data/maps/*.map; do
        echo "convert --to sl-anim --map $m|$f"
        echo "convert --to seq-binary --map $m|$f"
      done
    done
}

run_one() {
  local line=$1 cmd=${1%%|*} f=${1#*|}
  local key d ext
  key=$(printf '%s %s' "$cmd" "$f" | md5sum | cut -c1-16)
  d=$(mktemp -d)
  ext=${f##*.}
  cp "$f" "$d/in.$ext"
  # companions beside the input (a CMX's CFP)
  find "$(dirname "$f")" -maxdepth 1 -name '*.cfp' -exec cp {} "$d/" \;
  case "$cmd" in
    convert*) set -- $cmd "$d/in.$ext" "$d/out.$(echo "$cmd" | awk '{print $3}')" ;;
    *) set -- $cmd "$d/in.$ext" ;;
  esac
  (cd "$d" && timeout 60 "$cli" "$@" > "$d/stdout" 2> "$d/stderr"; echo "rc $?" > "$d/rc")
  {
    echo "== $cmd ${f#"$top"/}"
    cat "$d/rc"
    sed "s|$d|DIR|g" "$d/stdout"
    echo "-- stderr"
    sed "s|$d|DIR|g" "$d/stderr"
    echo "-- files"
    (cd "$d" && for x in *; do
       case $x in stdout|stderr|rc) ;; *) echo "$x $(md5sum < "$x" | cut -c1-32)" ;; esac
     done)
  } > "$out/$key"
  rm -rf "$d"
}
export -f run_one
export cli out top

commands "$@" | tr '\n' '\0' | xargs -0 -P2 -I{} bash -c 'run_one "$1"' _ {}
echo "$(ls "$out" | wc -l) runs recorded in $out"
