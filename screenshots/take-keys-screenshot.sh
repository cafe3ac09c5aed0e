#!/bin/sh
# take-keys-screenshot.sh: the README's picture of keys selected in the
# timeline, with a rubber band, from the real application
#
# Usage: screenshots/take-keys-screenshot.sh [BUILD-DIR]
#
# Makes a Second Life animation with sequin-cli (new, then the arms keyed
# every half second), then runs tests/ui/sequin-keys-screenshot on a
# virtual X display: timeline-keys.png. Needs xvfb-run, dbus-run-session
# and imagemagick.
#
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
build=${1:-build}
program=sequin-keys-screenshot
. "$here/screenshot-env.sh"
meson compile -C "$build" sequin-cli >/dev/null

anim=$home/Animations/arms.anim
cli=$build/src/cli/sequin-cli
"$cli" new --world sl --duration 3 --fps 30 "$anim"
set --
for t in 0.5 1 1.5 2 2.5; do
  for joint in mShoulderLeft mElbowLeft mWristLeft mShoulderRight mElbowRight mWristRight; do
    set -- "$@" --insert-key "$joint@$t"
  done
  set -- "$@" --set-rotation "mShoulderLeft@$t=-40,0,$t" --set-rotation "mElbowRight@$t=0,0,-$t"
done
"$cli" edit "$anim" -o "$anim" "$@"

HOME=$home dbus-run-session -- xvfb-run -a -s "-screen 0 1240x780x24 -dpi 96" \
  "$build/tests/ui/$program" "$here" "$anim" mShoulderLeft
