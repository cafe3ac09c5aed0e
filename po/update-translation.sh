#!/bin/sh
# update-translation.sh [--check | --check-formats] [LANG...]
#
# Regenerates the message template from po/POTFILES.in (with the same xgettext
# options as meson's i18n.gettext(preset: 'glib') plus po/meson.build's extra
# flags) and merges it into po/LANG.po for each LANG (default: po/LINGUAS),
# then lists every untranslated and fuzzy message, so that the translation can
# be completed by hand. Obsolete messages are dropped.
#
# With --check nothing in the source tree changes: the template and the merged
# catalogues are written to a temporary folder, each merged catalogue must pass
# `msgfmt --check`, and the script fails when any message is untranslated or
# fuzzy (meson test --suite po runs it this way).
#
# With --check-formats only the template is made, and the script fails when
# a message was cut short at a printf macro: xgettext cannot see through
# "%" G_GSIZE_FORMAT " (it keeps only the text before the macro), so such a
# message is never translated. Use %zu / %zx for gsize and <inttypes.h>
# PRId64 / PRIu64 (which xgettext understands) for 64-bit integers instead.
#
# Run po/update-potfiles.sh first when source files were added.
set -eu

srcdir=$(cd "$(dirname "$0")/.." && pwd)
cd "$srcdir"

check=false
check_formats=false
case "${1:-}" in
  --check) check=true; shift ;;
  --check-formats) check_formats=true; shift ;;
  -*) echo "usage: $0 [--check | --check-formats] [LANG...]" >&2; exit 2 ;;
esac

langs=$*
if [ -z "$langs" ]; then
  langs=$(sed -e 's/#.*//' po/LINGUAS | tr -s ' \t' '\n\n' | sed '/^$/d')
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

pot="$work/sequin.pot"
# Keep these options in step with po/meson.build.
xgettext --package-name=sequin --msgid-bugs-address="https://sequin.github.io/" \
  -D "$srcdir" -f po/POTFILES.in -o "$pot" \
  --from-code=UTF-8 --add-comments \
  --keyword=_ --keyword=N_ --keyword=C_:1c,2 --keyword=NC_:1c,2 \
  --keyword=g_dcgettext:2 --keyword=g_dngettext:2,3 --keyword=g_dpgettext2:2c,3 \
  --flag=N_:1:pass-c-format --flag=C_:2:pass-c-format --flag=NC_:2:pass-c-format \
  --flag=g_dngettext:2:pass-c-format --flag=g_strdup_printf:1:c-format \
  --flag=g_string_printf:2:c-format --flag=g_string_append_printf:2:c-format \
  --flag=g_error_new:3:c-format --flag=g_set_error:4:c-format \
  --flag=g_markup_printf_escaped:1:c-format --flag=g_log:3:c-format \
  --flag=g_print:1:c-format --flag=g_printerr:1:c-format --flag=g_printf:1:c-format \
  --flag=g_fprintf:2:c-format --flag=g_sprintf:2:c-format --flag=g_snprintf:3:c-format \
  --flag=sq_clip_add_warning:2:c-format --flag=_sq_loss:2:c-format \
  --flag=sq_set_error_at_offset:4:c-format --flag=sq_set_error_at_line:5:c-format

total=$(msgattrib --no-obsolete "$pot" | grep -c '^msgid ' || true)
total=$((total - 1))  # the header
echo "template: $total messages from $(grep -vc '^#' po/POTFILES.in) files"

if $check_formats; then
  # A msgid that ends in a single % was cut at a macro.
  cut=$(msgcat --no-wrap "$pot" | awk '
    /^#: / { where = substr($0, 4) }
    /^msgid(_plural)? ".*"$/ {
      s = $0; sub(/"$/, "", s); n = 0
      while (substr(s, length(s), 1) == "%") { n++; s = substr(s, 1, length(s) - 1) }
      if (n % 2 == 1) print where ": " $0
    }')
  if [ -n "$cut" ]; then
    echo "These messages were cut short at a printf macro such as G_GSIZE_FORMAT, so they are"
    echo "never translated; write %zu / %zx for gsize and PRId64 / PRIu64 for 64-bit values:"
    echo "$cut"
    exit 1
  fi
  echo "no message is cut short at a printf macro"
  exit 0
fi

status=0
for lang in $langs; do
  po="po/$lang.po"
  if [ ! -f "$po" ]; then
    if $check; then
      echo "$po does not exist: run po/update-translation.sh $lang" >&2
      status=1
      continue
    fi
    msginit --no-translator --locale="$lang" --input="$pot" --output-file="$po"
  fi
  if $check; then
    out="$work/$lang.po"
    msgmerge --quiet --no-fuzzy-matching -o "$out" "$po" "$pot"
  else
    out="$po"
    msgmerge --quiet --update --backup=none --previous "$po" "$pot"
    msgattrib --no-obsolete -o "$po" "$po"
  fi

  printf '%s: ' "$lang"
  if ! msgfmt --check --statistics -o /dev/null "$out" 2>&1; then
    status=1
  fi
  msgfmt --check -o /dev/null "$out" 2>/dev/null || status=1

  untranslated=$(msgattrib --untranslated --no-obsolete "$out" | grep -c '^msgid ' || true)
  fuzzy=$(msgattrib --only-fuzzy --no-obsolete "$out" | grep -c '^msgid ' || true)
  # msgattrib keeps the header entry when it prints anything
  [ "$untranslated" -gt 0 ] && untranslated=$((untranslated - 1))
  [ "$fuzzy" -gt 0 ] && fuzzy=$((fuzzy - 1))
  echo "$lang: $untranslated untranslated, $fuzzy fuzzy"
  if [ "$untranslated" -gt 0 ]; then
    echo "--- untranslated in $lang ---"
    msgattrib --untranslated --no-obsolete --no-wrap "$out" | sed -n '/^#:/,$p'
    status=1
  fi
  if [ "$fuzzy" -gt 0 ]; then
    echo "--- fuzzy in $lang ---"
    msgattrib --only-fuzzy --no-obsolete --no-wrap "$out" | sed -n '/^#:/,$p'
    status=1
  fi
done

if $check; then
  exit $status
fi
exit 0
