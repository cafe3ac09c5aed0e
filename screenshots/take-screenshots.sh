#!/bin/sh
# take-screenshots.sh: the PNGs in this folder, from the real application
#
# Usage: screenshots/take-screenshots.sh [BUILD-DIR] [FILE] [ANIM]
#   BUILD-DIR  a configured build folder (default: build)
#   FILE       the animation to show (default: the bundled data/samples/wave.seq)
#   ANIM       a Second Life .anim for the properties and validation panels
#              (default: a corpus file with a joint Second Life does not know,
#              tests/data/corpus/sl-anim/46bb4359-….dat)
#
# Runs tests/ui/sequin-screenshots (the editor's own window, driven through
# its actions) on a virtual X display and captures it with ImageMagick's
# `import`. Needs xvfb-run, dbus-run-session and imagemagick.
#
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
build=${1:-build}
file=${2:-$top/data/samples/wave.seq}
anim=${3:-$top/tests/data/corpus/sl-anim/46bb4359-de38-4ed8-6a22-f1f52fe8f506.dat}
[ -f "$anim" ] || { echo "no $anim: the panel screenshots are left as they are" >&2; anim=; }

program=sequin-screenshots
. "$here/screenshot-env.sh"
file=$(into_home "$file")
if [ -n "$anim" ]; then
  anim=$(into_home "$anim")
fi
export HOME="$home"

# each picture is the window, cut from the screen's top left corner
dbus-run-session -- xvfb-run -a -s "-screen 0 1400x900x24 -dpi 96" \
  "$build/tests/ui/sequin-screenshots" "$here" "$file" ${anim:+"$anim"}
