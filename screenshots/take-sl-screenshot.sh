#!/bin/sh
# take-sl-screenshot.sh: play-over.png in this folder, from the real application
#
# Usage: screenshots/take-sl-screenshot.sh [BUILD-DIR] [FILE]
#   BUILD-DIR  a configured build folder (default: build)
#   FILE       the pose played over an AO stand the program writes
#              (default: the corpus's OpenCollar "Kneel 1.anim", CC BY-SA 4.0)
#
# Runs tests/ui/sequin-sl-screenshot (Play Over… with an AO stand the core
# writes, the strip of winners under the timeline, Export Continuously To…
# and its indicator) on a virtual X display and captures it with
# ImageMagick's `import`. Needs xvfb-run, dbus-run-session and imagemagick.
#
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
build=${1:-build}
file=${2:-$top/tests/data/corpus/sl-anim/Kneel 1.anim}

program=sequin-sl-screenshot
. "$here/screenshot-env.sh"
file=$(into_home "$file")
export HOME="$home"

dbus-run-session -- xvfb-run -a -s "-screen 0 1400x900x24 -dpi 96" \
  "$build/tests/ui/sequin-sl-screenshot" "$here/play-over.png" "$file"
