#!/usr/bin/env bash
# tests/run-all.sh: install what Sequin needs on Debian 12, build it with
# warnings fatal, and run the whole test suite (core, data, po and the UI
# under a private D-Bus session and Xvfb). With --sanitize, the same suite
# again built with AddressSanitizer + UndefinedBehaviorSanitizer (and
# LeakSanitizer). Ends with one line: "N passed, N failed, N skipped".
set -euo pipefail
cd "$(dirname "$0")/.."

sanitize=0
[ "${1:-}" = "--sanitize" ] && sanitize=1

sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q >/dev/null
$sudo apt-get install -y -q --no-install-recommends \
  gcc libc6-dev meson ninja-build pkg-config python3 \
  libglib2.0-dev libglib2.0-bin libgtk-4-dev libepoxy-dev \
  gettext desktop-file-utils appstream libxml2-utils shared-mime-info \
  xvfb xauth dbus dbus-daemon at-spi2-core \
  adwaita-icon-theme hicolor-icon-theme librsvg2-common fonts-cantarell fonts-dejavu-core \
  >/dev/null

passed=0
failed=0
skipped=0

count () {
  # per-test results from meson's JSON log
  read -r p f s < <(python3 - "$1" <<'PY'
import json, sys
p = f = s = 0
for line in open(sys.argv[1]):
    r = json.loads(line).get('result')
    if r in ('OK', 'EXPECTEDFAIL'):
        p += 1
    elif r == 'SKIP':
        s += 1
    else:
        f += 1
print(p, f, s)
PY
)
  passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
}

run_suite () {
  local dir=$1; shift
  rm -rf "$dir"
  meson setup "$dir" -Dwerror=true "$@" >/dev/null
  meson compile -C "$dir" >/dev/null
  dbus-run-session -- xvfb-run -a -s "-screen 0 1280x1024x24" \
    meson test -C "$dir" --print-errorlogs --num-processes 2 || true
  count "$dir/meson-logs/testlog.json"
}

run_suite build-test

if [ "$sanitize" = 1 ]; then
  supp=""
  [ -f tests/ui/lsan.supp ] && supp="suppressions=$PWD/tests/ui/lsan.supp:print_suppressions=0"
  export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
  export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
  export LSAN_OPTIONS="$supp"
  export SEQUIN_NO_RLIMIT=1   # the sanitizers' shadow memory needs the address space
  run_suite build-sanitize -Db_sanitize=address,undefined -Db_lundef=false
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
