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

case $build in
  /*) ;;
  *) build=$top/$build ;;
esac

meson compile -C "$build" sequin-compare-screenshot >/dev/null

export GSETTINGS_BACKEND=memory
export GSETTINGS_SCHEMA_DIR="$build/data"
export GTK_USE_PORTAL=0
export NO_AT_BRIDGE=1
export XDG_DATA_HOME="${TMPDIR:-/tmp}/sequin-screenshots-data"
export SEQUIN_SAMPLE_DIR="$top/data/samples"
export GTK_THEME=Adwaita
export LANGUAGE=en LC_ALL=C.UTF-8

# opened from a home of its own: the window shows ~/Animations, no path of this machine
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
mkdir "$home/Animations"
cp "$file" "$home/Animations/"
file=$home/Animations/$(basename "$file")
export HOME="$home"

dbus-run-session -- xvfb-run -a -s "-screen 0 1400x900x24 -dpi 96" \
  "$build/tests/ui/sequin-compare-screenshot" "$here/compare.png" "$file"
