# screenshot-env.sh: what take-screenshots.sh and take-compare-screenshot.sh
# share, sourced by them with $top (the source tree), $build and $program
# (the picture-taking program of tests/ui) set.
#
# Makes $build absolute, builds $program,
# sets the environment every picture wants (settings in memory, GTK's own
# theme, English) and makes $home, a home of its own removed at exit with an
# empty ~/Animations, so that the window shows ~/Animations and no path of
# this machine. `into_home FILE` copies FILE there and prints its new path.
#
# SPDX-License-Identifier: GPL-3.0-or-later

case $build in
  /*) ;;
  *) build=$top/$build ;;
esac

meson compile -C "$build" "$program" >/dev/null

export GSETTINGS_BACKEND=memory
export GSETTINGS_SCHEMA_DIR="$build/data"
export GTK_USE_PORTAL=0
export NO_AT_BRIDGE=1
export XDG_DATA_HOME="${TMPDIR:-/tmp}/sequin-screenshots-data"
export SEQUIN_SAMPLE_DIR="$top/data/samples"
export GTK_THEME=Adwaita
export LANGUAGE=en LC_ALL=C.UTF-8

home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
mkdir "$home/Animations"

into_home ()
{
  cp "$1" "$home/Animations/"
  echo "$home/Animations/$(basename "$1")"
}
