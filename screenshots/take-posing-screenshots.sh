#!/bin/sh
# take-posing-screenshots.sh: the README's "Making an animation" PNGs in
# this folder, from the real application
#
# Usage: screenshots/take-posing-screenshots.sh [BUILD-DIR]
#
# Makes a Second Life animation with sequin-cli (new, then a few joints
# turned, a hand preset pasted and another flipped), then runs
# tests/ui/sequin-posing-screenshots on a virtual X display: posing.png,
# pose-library.png, new-animation.png. Needs xvfb-run, dbus-run-session
# and imagemagick.
#
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
build=${1:-build}
program=sequin-posing-screenshots
. "$here/screenshot-env.sh"
meson compile -C "$build" sequin-cli >/dev/null

anim=$home/Animations/wave-hello.anim
cli=$build/src/cli/sequin-cli
"$cli" new --world sl-bento --duration 3 --fps 30 "$anim"
"$cli" edit "$anim" -o "$anim" \
  --set-rotation mShoulderLeft@1.5=-70,0,10 --set-rotation mElbowLeft@1.5=0,0,-40 \
  --set-rotation mShoulderRight@1.5=-55,0,-10 --set-rotation mElbowRight@1.5=-60,0,0 \
  --set-rotation mHead@1.5=8,0,15 \
  --set-rotation mTorso@1.5=0,5,10 \
  --paste-pose "$top/data/poses/hand-point-left.pose@1.5" \
  --paste-pose "$top/data/poses/hand-relaxed-left.pose@1.5:flip"

HOME=$home dbus-run-session -- xvfb-run -a -s "-screen 0 1240x780x24 -dpi 96" \
  "$build/tests/ui/$program" "$here" "$anim" mShoulderLeft 0.5
