#!/usr/bin/env bash
# fuzz/run-fuzzers.sh [--long SECONDS] [SECONDS [HARNESS…]]: builds the
# libFuzzer harnesses with clang and runs them: one per reader (fuzz-load-ID,
# with that format's dictionary), the read → write → read harness
# (fuzz-roundtrip, every dictionary; its input is a byte that picks the
# format written, then the file) and the number reader/writers against
# the C library (fuzz-numbers).
#
#   SECONDS (default 60): each harness for SECONDS, one after the other, on
#     one core (CI: tests/run-all.sh).
#   --long SECONDS: all harnesses spread over all cores for SECONDS of wall
#     time: as many at once as there are cores, each for SECONDS × cores /
#     harnesses (at least 30 s).
#
# Corpora: each harness starts from fuzz/corpus/HARNESS/ (kept in git,
# minimised) plus the seeds below, and what it finds that reaches new code is
# merged back there at the end (libFuzzer -merge=1, inputs cut to 4 KiB), so
# each run starts where the last stopped. Seeds: the corpus files up to 64
# KiB, the bundled sample, tests/data/sims, every file in
# tests/data/regressions/, and each small corpus file converted into every
# writable format by sequin-cli.
#
# Prints one line per harness:
#   fuzz-result NAME pass|fail EXECS COV FT EXEC/S
# A crash, a leak, a hang (over 25 s on one input) or an allocation beyond
# 2 GB is a failure: the input is saved as tests/data/regressions/NAME-…
# and the script exits 1. The robustness test replays everything there.
# Environment: FUZZ_BUILD (default build-fuzz), FUZZ_JOBS_NICE (nice level),
# FUZZ_NO_MERGE=1 (leave fuzz/corpus as it is).
set -uo pipefail
cd "$(dirname "$0")/.."
long=0
if [ "${1:-}" = --long ]; then
  long=${2:?--long needs SECONDS}; shift 2
fi
secs=${1:-60}
shift || true
build=${FUZZ_BUILD:-build-fuzz}
nice_level=${FUZZ_JOBS_NICE:-0}
readers="seq-binary seq-text sl-anim bvh dx simpose-psl simpose-kfd simpose-sps sims-cmx gltf"
harnesses=("$@")
if [ ${#harnesses[@]} = 0 ]; then
  for r in $readers; do harnesses+=("fuzz-load-$r"); done
  harnesses+=(fuzz-roundtrip fuzz-numbers)
fi

if [ ! -f "$build/build.ninja" ]; then
  CC=clang meson setup "$build" -Dfuzzing=true -Dgui=false -Dtests=false \
    -Db_sanitize=address,undefined -Db_lundef=false >/dev/null || exit 1
fi
meson compile -C "$build" >/dev/null || exit 1

seeds=$(mktemp -d)
trap 'rm -rf "$seeds"' EXIT
for r in $readers; do mkdir -p "$seeds/$r"; done
mkdir -p "$seeds/all"
add_seed () { # FILE DIR
  [ -f "$1" ] && [ "$(stat -c %s "$1")" -le 65536 ] && cp "$1" "$2/$(basename "$1" | tr ' ~' '__')"
  return 0
}
for f in tests/data/corpus/seq-binary/* data/samples/*.seq; do add_seed "$f" "$seeds/seq-binary"; done
for f in tests/data/corpus/sl-anim/*; do add_seed "$f" "$seeds/sl-anim"; done
for f in tests/data/corpus/bvh/*; do add_seed "$f" "$seeds/bvh"; done
for f in tests/data/corpus/dx-anim/*; do add_seed "$f" "$seeds/dx"; done
# the Sims: the hand-made files of the tests; a CMX seed is its text, a NUL
# and its CFP (fuzz-load-sims-cmx.c)
for f in tests/data/sims/*.psl; do add_seed "$f" "$seeds/simpose-psl"; done
for f in tests/data/sims/*.kfd; do add_seed "$f" "$seeds/simpose-kfd"; done
for f in tests/data/sims/*.sps; do add_seed "$f" "$seeds/simpose-sps"; done
for f in tests/data/sims/*.cmx; do
  cfp=$(dirname "$f")/$(sed -n 7p "$f" | tr -d '\r').cfp
  { cat "$f"; printf '\0'; [ -f "$cfp" ] && cat "$cfp"; } > "$seeds/sims-cmx/$(basename "$f")"
done
# glTF: the foreign test file and every sample written as .glb (below)
for f in tests/data/gltf/*.glb; do add_seed "$f" "$seeds/gltf"; done
# a .gltf with its external buffer: the text, a NUL, the .bin (fuzz-load-gltf.c)
for f in tests/data/gltf/*.gltf; do
  bin=${f%.gltf}.bin
  [ -f "$bin" ] && { cat "$f"; printf '\0'; cat "$bin"; } > "$seeds/gltf/$(basename "$f")"
done
# conversions: a few small files of each format into every writable format
cli="$build/src/cli/sequin-cli"
ext () { case $1 in bvh) echo bvh ;; dx) echo x ;; sl-anim) echo anim ;; simpose-psl) echo psl ;;
  simpose-kfd) echo kfd ;; simpose-sps) echo sps ;; sims-cmx) echo cmx ;; gltf) echo glb ;; *) echo seq ;; esac; }
for src in data/samples/wave.seq $(ls tests/data/corpus/sl-anim/* 2>/dev/null | head -4) \
    $(find tests/data/corpus/bvh -type f -size -20k 2>/dev/null | sort | head -3) \
    $(find tests/data/corpus/dx-anim -type f -size -64k 2>/dev/null | head -1); do
  [ -f "$src" ] || continue
  b=$(basename "$src" | tr ' ~.' '___')
  for r in $readers; do
    [ "$r" = sims-cmx ] && continue   # its seeds carry their CFP
    out="$seeds/$r/conv-$b.$(ext "$r")"
    "$cli" convert --to "$r" "$src" "$out" >/dev/null 2>&1 || rm -f "$out"
    [ -f "$out" ] && [ "$(stat -c %s "$out")" -gt 65536 ] && rm -f "$out"
  done
done
for r in $readers; do
  for f in tests/data/regressions/*; do [ "$(basename "$f")" = README ] || add_seed "$f" "$seeds/$r"; done
  cp "$seeds/$r"/* "$seeds/all/" 2>/dev/null
done
cat fuzz/dicts/*.dict > "$seeds/all.dict"
# fuzz-roundtrip: a byte that picks the format written, then the file; each
# seed once, the formats in turn (its corpus holds the pairs that reached
# new code)
mkdir -p "$seeds/roundtrip"
i=0
for f in "$seeds/all"/*; do
  { printf "\\x$(printf %02x $((i % 10)))"; cat "$f"; } > "$seeds/roundtrip/$(basename "$f")"
  i=$((i + 1))
done
# fuzz-numbers: a length byte, then a number and what follows it in a file
mkdir -p "$seeds/numbers"
i=0
for n in "-0.118440314 0.909216209" "211.316904" "0.03500011560000001" "-1.5e-7," "1234567890123456789012" \
    "0.26990228891372681" "-151.46856689453125" "9007199254740993" "1e23" ".5;"; do
  printf "\\x$(printf %02x ${#n})%s" "$n" > "$seeds/numbers/n$i"; i=$((i + 1))
done

# One harness for SECONDS on one core: its corpus and seeds, its dictionary;
# the result line; what it found merged into fuzz/corpus/HARNESS
run_one () { # HARNESS SECONDS
  local harness=$1 t=$2 reader dict work log rc execs cov rate result corpus fresh
  reader=${harness#fuzz-load-}
  local opts=()
  if [ "$harness" = fuzz-roundtrip ]; then
    reader=roundtrip; dict="$seeds/all.dict"
    # libFuzzer's bookkeeping was most of its time: each edge once (not its
    # hit counts) and the plain scheduler; in equal CPU time this reaches
    # more of the writers' edges than the defaults (README, Fuzzing)
    opts=(-use_counters=0 -entropic=0)
  elif [ "$harness" = fuzz-load ]; then
    reader=all; dict="$seeds/all.dict"
  elif [ "$harness" = fuzz-numbers ]; then
    reader=numbers; dict=fuzz/dicts/numbers.dict
  else
    dict=fuzz/dicts/$reader.dict
  fi
  corpus=fuzz/corpus/$harness
  mkdir -p "$corpus"
  work=$(mktemp -d)
  cp "$corpus"/* "$seeds/$reader"/* "$work"/ 2>/dev/null
  log=$(mktemp)
  echo "== $harness for ${t}s on $(ls "$work" | wc -l) inputs ($(ls "$corpus" | wc -l) from $corpus)"
  # malloc_context_size: ASan records 2 frames of each allocation, not 30
  # (the unwinding was a third of a run; a finding is replayed in full from
  # its file anyway)
  G_SLICE=always-malloc UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1:malloc_context_size=2 \
    nice -n "$nice_level" "$build/fuzz/$harness" "${opts[@]}" -max_total_time="$t" -max_len=65536 \
      -timeout=25 -rss_limit_mb=2048 -report_slow_units=60 \
      -dict="$dict" -artifact_prefix=tests/data/regressions/"$harness"- -print_final_stats=1 \
      "$work" >"$log" 2>&1
  rc=$?
  grep -E '^==[0-9]+==ERROR|^SUMMARY|runtime error|^artifact_prefix|Test unit written' "$log" | head -20
  execs=$(awk '/stat::number_of_executed_units/ { print $2 }' "$log")
  rate=$(awk '/stat::average_exec_per_sec/ { print $2 }' "$log")
  cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1)
  # slow units are not failures: a key at frame 2^30 makes a BVH of a
  # million frames, which is slow to write but bounded (16 M values)
  rm -f tests/data/regressions/"$harness"-slow-unit-*
  result=pass
  if [ $rc != 0 ] || ls tests/data/regressions/"$harness"-* >/dev/null 2>&1; then
    result=fail
    tail -40 "$log"
    # the input itself, in the log: CI's folder is gone when its run ends
    # (base64 -d the line into tests/data/regressions/ to keep it)
    for found in tests/data/regressions/"$harness"-*; do
      [ -f "$found" ] || continue
      if [ "$(stat -c %s "$found")" -le 65536 ]; then
        echo "finding $(basename "$found") as base64: $(base64 -w0 "$found")"
      else
        echo "finding $(basename "$found"): $(stat -c %s "$found") bytes, too long for the log"
      fi
    done
  fi
  # the corpus: the smallest set of inputs (cut to 4 KiB) that reaches all
  # the code this run reached
  if [ "${FUZZ_NO_MERGE:-0}" != 1 ] && [ $result = pass ]; then
    fresh=$(mktemp -d)
    if nice -n "$nice_level" "$build/fuzz/$harness" -merge=1 -max_len=4096 -timeout=25 -rss_limit_mb=2048 \
        "$fresh" "$work" >/dev/null 2>&1; then
      rm -f "$corpus"/*
      cp "$fresh"/* "$corpus"/ 2>/dev/null
    fi
    rm -rf "$fresh"
  fi
  echo "fuzz-result $harness $result ${execs:-0} $(echo "${cov:-cov: 0 ft: 0}" | awk '{ print $2, $4 }') ${rate:-0}"
  rm -rf "$work" "$log"
  [ $result = pass ]
}

status=0
if [ "$long" != 0 ]; then
  cores=$(nproc)
  each=$(( long * cores / ${#harnesses[@]} ))
  [ $each -lt 30 ] && each=30
  echo "== --long: ${#harnesses[@]} harnesses, $cores at once, ${each}s each"
  export -f run_one
  export build seeds nice_level
  printf '%s\n' "${harnesses[@]}" | xargs -P "$cores" -I{} bash -c 'run_one "$1" "$2"' _ {} "$each" || status=1
  exit $status
fi
for harness in "${harnesses[@]}"; do
  run_one "$harness" "$secs" || status=1
done
exit $status
