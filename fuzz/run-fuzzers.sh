#!/usr/bin/env bash
# fuzz/run-fuzzers.sh SECONDS: builds the harnesses with clang and runs each
# for SECONDS (default 60) on seeds from the tests, the sample and the corpus.
# A crash is saved under tests/data/regressions/ and the script fails; the
# robustness test replays everything there.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
build=build-fuzz
if [ ! -d "$build" ]; then
  CC=clang meson setup "$build" -Dfuzzing=true -Dgui=false -Dtests=false \
    -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
fi
meson compile -C "$build" >/dev/null
seeds=$(mktemp -d)
trap 'rm -rf "$seeds"' EXIT
cp data/samples/*.seq "$seeds"/ 2>/dev/null || true
cp tests/data/regressions/* "$seeds"/ 2>/dev/null || true
for f in ../shared/corpus/seq-binary/* ../shared/corpus/sl-anim/* ../shared/corpus/bvh/* ../shared/corpus/dx-anim/*; do
  # the fuzzers take inputs up to 64 KiB
  if [ -f "$f" ] && [ "$(stat -c %s "$f")" -le 65536 ]; then cp "$f" "$seeds/$(basename "$f" | tr ' ~' '__')"; fi
done
"$build/src/cli/sequin-cli" convert --to seq-text data/samples/wave.seq "$seeds/wave-text.seq" 2>/dev/null
cat fuzz/dicts/*.dict > "$seeds.dict"
status=0
for harness in fuzz-load fuzz-roundtrip; do
  work=$(mktemp -d)
  cp "$seeds"/* "$work"/
  echo "== $harness for ${secs}s"
  if ! UBSAN_OPTIONS=halt_on_error=1 "$build/fuzz/$harness" -max_total_time="$secs" -max_len=65536 -report_slow_units=60 \
      -dict="$seeds.dict" -artifact_prefix=tests/data/regressions/"$harness"- -print_final_stats=1 \
      "$work" 2>&1 | grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units|.*cov:.*DONE|==[0-9]+==ERROR|SUMMARY)'; then
    :
  fi
  # slow units are not failures: a key at frame 2^30 makes a BVH of a
  # million frames, which is slow to write but bounded (16 M values)
  rm -f tests/data/regressions/"$harness"-slow-unit-*
  ls tests/data/regressions/"$harness"-* >/dev/null 2>&1 && status=1
  rm -rf "$work"
done
rm -f "$seeds.dict"
exit $status
