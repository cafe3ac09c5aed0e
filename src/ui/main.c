/* main.c: starts the editor
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "sequin-application.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(SequinApplication) app = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_set_prgname ("sequin");
  g_set_application_name (_("Sequin"));

  app = sequin_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
