#!/bin/sh
# take-preview-screenshots.sh: the motion preview's PNGs in this folder,
# one per format, from the real application
#
# Usage: screenshots/take-preview-screenshots.sh [BUILD-DIR] [CORPUS-DIR]
#   BUILD-DIR   a configured build folder (default: build)
#   CORPUS-DIR  the test corpus (default: $SEQUIN_CORPUS, else
#               tests/data/corpus); when it is there, two of its files
#               are shown too: a CMU motion-capture BVH and an OpenCollar
#               .anim (CC BY-SA 4.0)
#
# The bundled samples (data/samples: wave.seq, wave-text.seq, wave.x,
# wave.anim, wave.bvh) and the tests' Sims walk (tests/data/sims: walk.cmx
# with its xskill-walk.cfp, made by make-walk.py) are copied into a folder that stands for the home
# folder, so the window shows "~/samples" and no path of this machine.
# Runs tests/ui/sequin-preview-screenshots on a virtual X display and
# captures it with ImageMagick's `import`. Needs xvfb-run,
# dbus-run-session and imagemagick.
#
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
build=${1:-build}
corpus=${2:-${SEQUIN_CORPUS:-$top/tests/data/corpus}}

case $build in
  /*) ;;
  *) build=$top/$build ;;
esac

meson compile -C "$build" sequin-preview-screenshots >/dev/null

home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
mkdir -p "$home/samples"
cp "$top"/data/samples/wave* "$home/samples/"
cp "$top/tests/data/sims/walk.cmx" "$top/tests/data/sims/xskill-walk.cfp" "$home/samples/"
s=$home/samples

set -- \
  "preview.png=$s/wave.bvh@0.6:rHand+onion+trail+window" \
  "preview-seq-binary.png=$s/wave.seq@0.5:rtelbow+trail" \
  "preview-seq-text.png=$s/wave-text.seq@0.25:rtwrist+onion" \
  "preview-x.png=$s/wave.x@0.75:aw_rtelbow" \
  "preview-anim.png=$s/wave.anim@0.5:mWristRight+onion+trail" \
  "preview-bvh.png=$s/wave.bvh@0.5:rHand+trail" \
  "sims-skill-preview.png=$s/walk.cmx@0.2:L_ARM2+trail+window"
if [ -f "$corpus/bvh/131_01.bvh" ] && [ -f "$corpus/sl-anim/Kneel 1.anim" ]; then
  mkdir -p "$home/corpus"
  cp "$corpus/bvh/131_01.bvh" "$corpus/sl-anim/Kneel 1.anim" "$home/corpus/"
  set -- "$@" \
    "preview-corpus-bvh.png=$home/corpus/131_01.bvh@0.4:LeftWrist+trail" \
    "preview-corpus-anim.png=$home/corpus/Kneel 1.anim@0.45:mHead+onion"
else
  echo "no corpus at $corpus: its screenshots are left as they are" >&2
fi
# across worlds: each walk beside itself converted (sequin-cli convert),
# at the same moment
walk_sl="$corpus/sl-anim/6ed24bd8-91aa-4b12-ccc7-c97c857ab4e0.dat"
if [ -f "$walk_sl" ] && [ -f "$corpus/seq-binary/walk.seq" ] && [ -f "$corpus/bvh/131_01.bvh" ]; then
  cli=$build/src/cli/sequin-cli
  w=$home/walks
  mkdir -p "$w"
  cp "$walk_sl" "$w/sl-walk.anim"
  cp "$corpus/seq-binary/walk.seq" "$w/aw-walk.seq"
  cp "$corpus/bvh/131_01.bvh" "$w/cmu-walk.bvh"
  "$cli" convert "$w/sl-walk.anim" "$w/sl-walk-in-aw.seq" 2>/dev/null
  "$cli" convert "$w/aw-walk.seq" "$w/aw-walk-in-sl.anim" 2>/dev/null
  "$cli" convert "$w/cmu-walk.bvh" "$w/cmu-walk-in-sl.anim" 2>/dev/null
  "$cli" convert "$w/sl-walk.anim" "$w/sl-walk-in-sims.kfd" 2>/dev/null
  "$cli" convert "$s/walk.cmx" "$w/sims-walk-in-sl.anim" 2>/dev/null
  set -- "$@" \
    "walk-sl-in-sims.png=$w/sl-walk-in-sims.kfd@0.3:L_ARM2+onion" \
    "walk-sims.png=$s/walk.cmx@0.2:L_ARM2+onion" \
    "walk-sims-in-sl.png=$w/sims-walk-in-sl.anim@0.2:mElbowLeft+onion" \
    "walk-sl.png=$w/sl-walk.anim@0.3:mElbowLeft+onion" \
    "walk-sl-in-aw.png=$w/sl-walk-in-aw.seq@0.3:lfelbow+onion" \
    "walk-aw.png=$w/aw-walk.seq@0.4:lfelbow+onion" \
    "walk-aw-in-sl.png=$w/aw-walk-in-sl.anim@0.4:mElbowLeft+onion" \
    "walk-cmu.png=$w/cmu-walk.bvh@2.0:LeftElbow+onion" \
    "walk-cmu-in-sl.png=$w/cmu-walk-in-sl.anim@1.967:mElbowLeft+onion"
fi

export HOME="$home"
export GSETTINGS_BACKEND=memory
export GSETTINGS_SCHEMA_DIR="$build/data"
export GTK_USE_PORTAL=0
export NO_AT_BRIDGE=1
export XDG_DATA_HOME="$home/.local/share"
# the same look everywhere: GTK's own theme, English
export GTK_THEME=Adwaita
export LANGUAGE=en LC_ALL=C.UTF-8

dbus-run-session -- xvfb-run -a -s "-screen 0 1100x720x24 -dpi 96" \
  "$build/tests/ui/sequin-preview-screenshots" "$here" "$@"
