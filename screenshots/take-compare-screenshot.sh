#!/bin/sh
# take-compare-screenshot.sh: compare.png in this folder, from the real application
#
# Usage: screenshots/take-compare-screenshot.sh [BUILD-DIR] [FILE]
#   BUILD-DIR  a configured build folder (default: build)
#   FILE       the animation to compare with its mirrored copy
#              (default: the bundled data/samples/wave.bvh)
#
# Runs tests/ui/sequin-compare-screenshot (Compare With… against a mirrored
# copy written by the core, the ghost in the preview and the difference
# lane under the timeline) on a virtual X display and captures it with
# ImageMagick's `import`. Needs xvfb-run, dbus-run-session and imagemagick.
#
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
build=${1:-build}
file=${2:-$top/data/samples/wave.bvh}

program=sequin-compare-screenshot
. "$here/screenshot-env.sh"
file=$(into_home "$file")
export HOME="$home"

dbus-run-session -- xvfb-run -a -s "-screen 0 1400x900x24 -dpi 96" \
  "$build/tests/ui/sequin-compare-screenshot" "$here/compare.png" "$file"
