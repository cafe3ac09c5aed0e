#!/usr/bin/env bash
# tests/run-all.sh: install what Sequin needs on Debian 12, build it with
# warnings fatal, and run the whole test suite (core, data, po and the UI
# under a private D-Bus session and Xvfb). With --sanitize, the same suite
# again built with AddressSanitizer + UndefinedBehaviorSanitizer (and
# LeakSanitizer), then every libFuzzer harness built with clang for
# FUZZ_SECONDS (default 60) each: one per reader and read → write → read
# (fuzz/run-fuzzers.sh; each harness run counts as one test, a crash as a
# failure). Ends with one line: "N passed, N failed, N skipped".
# tests/run-all.sh --coverage: line and branch coverage of src/core (gcovr).
set -euo pipefail
cd "$(dirname "$0")/.."

sanitize=0
[ "${1:-}" = "--sanitize" ] && sanitize=1

if [ "${1:-}" = "--coverage" ]; then
  # line and branch coverage of the format core by its own test suite
  # (gcc + gcovr); not part of CI
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  command -v gcovr >/dev/null || $sudo apt-get install -y -q --no-install-recommends gcovr >/dev/null
  rm -rf build-coverage
  meson setup build-coverage -Db_coverage=true -Dgui=false >/dev/null
  meson compile -C build-coverage >/dev/null
  meson test -C build-coverage --suite core --num-processes 2 >/dev/null || echo "some core tests failed"
  echo "== lines"
  gcovr -r . build-coverage --filter 'src/core/' | sed -n '/^File/,$p'
  echo "== branches"
  gcovr -r . build-coverage --filter 'src/core/' --branches | sed -n '/^File/,$p'
  exit 0
fi

sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q >/dev/null
$sudo apt-get install -y -q --no-install-recommends \
  gcc libc6-dev meson ninja-build pkg-config python3 \
  libglib2.0-dev libglib2.0-bin libjson-glib-dev libgtk-4-dev libepoxy-dev \
  gettext desktop-file-utils appstream libxml2-utils shared-mime-info assimp-utils \
  xvfb xauth dbus dbus-daemon at-spi2-core python3-gi gir1.2-atspi-2.0 \
  adwaita-icon-theme hicolor-icon-theme librsvg2-common fonts-cantarell fonts-dejavu-core \
  >/dev/null
# the Khronos glTF validator (npm gltf-validator, a library the gltf-validator
# test runs through tests/gltf-validate.js), into tests/.npm (ignored by git)
if ! [ -d tests/.npm/node_modules/gltf-validator ]; then
  command -v npm >/dev/null || $sudo apt-get install -y -q --no-install-recommends nodejs npm >/dev/null
  npm install --prefix tests/.npm --no-audit --no-fund --loglevel=error gltf-validator >/dev/null \
    || echo "run-all.sh: gltf-validator could not be installed from npm; the gltf-validator test will skip"
fi
if [ "$sanitize" = 1 ]; then
  # the fuzzers: clang with its libFuzzer and sanitizer runtimes
  $sudo apt-get install -y -q --no-install-recommends clang libclang-rt-14-dev >/dev/null
fi

passed=0
failed=0
skipped=0

count () {
  # per-test results from meson's JSON log. A TAP program that planned no
  # subtest or ran fewer than it planned has failed, whatever meson says;
  # a skipped subtest is counted as a skip and its reason printed.
  read -r p f s < <(python3 - "$1" <<'PY'
import json, re, sys
p = f = s = 0
for line in open(sys.argv[1]):
    t = json.loads(line)
    r = t.get('result')
    out = t.get('stdout') or ''
    plan = re.search(r'^1\.\.(\d+)', out, re.M)
    if r in ('OK', 'EXPECTEDFAIL') and plan is not None:
        ran = len(re.findall(r'^(?:not )?ok\b', out, re.M))
        if int(plan.group(1)) == 0 or ran < int(plan.group(1)):
            print(f"{t['name']}: planned {plan.group(1)} subtests, ran {ran}", file=sys.stderr)
            r = 'FAIL'
    for skip in re.findall(r'^ok \d+ (\S+) # SKIP (.*)$', out, re.M):
        print(f"{t['name']}: skipped {skip[0]}: {skip[1]}", file=sys.stderr)
    if r in ('OK', 'EXPECTEDFAIL'):
        p += 1
    elif r == 'SKIP':
        s += 1
        print(f"{t['name']}: skipped", file=sys.stderr)
    else:
        f += 1
print(p, f, s)
PY
)
  passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
}

# The tests whose only failure is LeakSanitizer crashing on its own ("has
# encountered a fatal error": its tracer died, no leak was reported), every
# subtest having passed: that says nothing about the code, so such a test
# runs once more, alone, and that result counts instead. Any leak report,
# failed subtest or other error counts as it is.
leak_checker_crashes () {
  python3 - "$1" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    t = json.loads(line)
    out = (t.get('stdout') or '') + (t.get('stderr') or '')
    if (t.get('result') in ('FAIL', 'ERROR')
            and 'LeakSanitizer has encountered a fatal error' in out
            and 'detected memory leaks' not in out and 'not ok' not in out
            and 'Bail out' not in out and 'runtime error' not in out):
        print(t['name'].split(' / ')[-1])
PY
}

run_suite () {
  local dir=$1; shift
  local again
  rm -rf "$dir"
  meson setup "$dir" -Dwerror=true "$@" >/dev/null
  meson compile -C "$dir" >/dev/null
  dbus-run-session -- xvfb-run -a -s "-screen 0 1280x1024x24" \
    meson test -C "$dir" --print-errorlogs --num-processes 2 || true
  again=$(leak_checker_crashes "$dir/meson-logs/testlog.json")
  count "$dir/meson-logs/testlog.json"
  if [ -n "$again" ]; then
    # those failures are taken back, then the second runs counted
    failed=$((failed - $(echo "$again" | wc -l)))
    echo "the leak checker crashed in: $(echo $again); running them once more"
    cp "$dir/meson-logs/testlog.json" "$dir/meson-logs/testlog-first.json"
    dbus-run-session -- xvfb-run -a -s "-screen 0 1280x1024x24" \
      meson test -C "$dir" --no-rebuild --print-errorlogs $again || true
    count "$dir/meson-logs/testlog.json"
  fi
}

run_suite build-test

if [ "$sanitize" = 1 ]; then
  supp=""
  [ -f tests/ui/lsan.supp ] && supp="suppressions=$PWD/tests/ui/lsan.supp:print_suppressions=0"
  export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
  export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
  export LSAN_OPTIONS="$supp"
  export SEQUIN_NO_RLIMIT=1   # the sanitizers' shadow memory needs the address space
  # Mesa's software GL driver stays loaded (tests/ui/sequin-test-ui.c), so
  # that LeakSanitizer sees what it keeps as its own
  SEQUIN_TEST_PIN_LIBS=$(ls /usr/lib/*/dri/swrast_dri.so 2>/dev/null | tr '\n' ':' || true)
  export SEQUIN_TEST_PIN_LIBS
  run_suite build-sanitize -Db_sanitize=address,undefined -Db_lundef=false

  # fuzzers: one line "fuzz-result NAME pass|fail EXECS COV FT" per harness
  rm -rf build-fuzz-ci
  fuzz_log=$(mktemp)
  start=$(date +%s)
  FUZZ_NO_MERGE=1 FUZZ_BUILD=build-fuzz-ci bash fuzz/run-fuzzers.sh "${FUZZ_SECONDS:-60}" 2>&1 | tee "$fuzz_log" || true
  fp=$(grep -c '^fuzz-result [^ ]* pass' "$fuzz_log" || true)
  ff=$(grep -c '^fuzz-result [^ ]* fail' "$fuzz_log" || true)
  if [ $((fp + ff)) = 0 ]; then
    echo "fuzzers: none ran (build failed?)"
    ff=1
  fi
  echo "fuzzers: $fp harness runs clean, $ff with findings ($(( $(date +%s) - start )) s)"
  passed=$((passed + fp)); failed=$((failed + ff))
  rm -f "$fuzz_log"
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
