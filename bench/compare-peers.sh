#!/usr/bin/env bash
# bench/compare-peers.sh [BUILD_DIR]: Sequin against the peers that install
# here, on the same generated files, in one run. Prints MB/s of each and the
# ratio Sequin/peer per format and size.
#   binary SEQ: aw-sequence-parser (npm), the only other SEQ reader available
#   text SEQ:   no other reader exists
#   BVH, .x:    Assimp 5.2 (Debian's assimp-utils: `assimp info FILE --raw`,
#               its own "import took" figure, so process start-up is not counted);
#               for .x also the corpus files, since Assimp wants a frame hierarchy
#               that an animation-only file does not have
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
runs=${RUNS:-3}
meson compile -C "$build" sequin-bench >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

peers=bench/.peers
if [ ! -d "$peers/node_modules/aw-sequence-parser" ]; then
  mkdir -p "$peers"
  npm install --silent --no-audit --no-fund --prefix "$peers" aw-sequence-parser@0.4.2 >/dev/null
fi
cp bench/peer-aw-sequence-parser.mjs "$peers/"

"$build/bench/sequin-bench" --sizes "${SIZES:-10k,1m,50m}" --write-dir "$work" >/dev/null
echo "# $(date -u +%F) on $(nproc) cores; median of $runs runs; read throughput in MB/s"
printf '%-22s %12s %12s %8s\n' file sequin peer ratio
for f in "$work"/seq-binary-*.seq; do
  ours=$("$build/bench/sequin-bench" --runs "$runs" "$f" | awk '/MB\/s/ { for (i = 1; i <= NF; i++) if ($i == "read") print $(i + 1) }')
  theirs=$(cd "$peers" && RUNS=$runs node peer-aw-sequence-parser.mjs "$f" | awk '{ print $2 }')
  printf '%-22s %12s %12s %7.1fx\n' "$(basename "$f")" "$ours" "$theirs" "$(echo "$ours / $theirs" | bc -l)"
done
ours_mbs () {
  "$build/bench/sequin-bench" --runs "$runs" "$1" | awk '/MB\/s/ { for (i = 1; i <= NF; i++) if ($i == "read") print $(i + 1) }'
}
assimp_mbs () {
  local secs
  secs=$(assimp info "$1" --raw 2>/dev/null | awk '/import took/ { print $4 }')
  if [ -z "$secs" ]; then echo "refused"; return; fi
  echo "$(stat -c %s "$1") / 1000000 / $secs" | bc -l | xargs printf '%.1f'
}
if command -v assimp >/dev/null; then
  for f in "$work"/bvh-*.bvh "$work"/dx-*.x tests/data/corpus/dx-anim/BCN_Epileptic.X tests/data/corpus/dx-anim/Testwuson.X; do
    [ -f "$f" ] || continue
    ours=$(ours_mbs "$f")
    theirs=$(assimp_mbs "$f")
    if [ "$theirs" = refused ]; then
      printf '%-22s %12s %12s %8s\n' "$(basename "$f")" "$ours" "(refused)" "-"
    else
      printf '%-22s %12s %12s %7.1fx\n' "$(basename "$f")" "$ours" "$theirs" "$(echo "$ours / $theirs" | bc -l)"
    fi
  done
else
  echo "# assimp not installed (apt-get install assimp-utils): BVH and .x peers skipped"
fi
for f in "$work"/seq-text-*.seq; do
  ours=$("$build/bench/sequin-bench" --runs "$runs" "$f" | awk '/MB\/s/ { for (i = 1; i <= NF; i++) if ($i == "read") print $(i + 1) }')
  printf '%-22s %12s %12s %8s\n' "$(basename "$f")" "$ours" "(none)" "-"
done
