/* sequin-test-ui.h: helpers for the editor's tests
 *
 * Copyright 2026 The Sequin authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sequin-application.h"
#include "sequin-window.h"
#include "sq-core.h"

G_BEGIN_DECLS

/* The corpus file, or NULL (the test is then skipped) */
char              *sequin_test_corpus_file  (const char *name);
/* A corpus file loaded into a new document, NULL when it is missing */
SequinDocument    *sequin_test_load_document (const char *name);
/* The corpus file; the test fails (naming it) when it is missing */
char              *sequin_test_corpus_path  (const char *name);
/* A copy of `path` in the test's folder, named `name` */
char              *sequin_test_tmp_copy     (const char *path,
                                             const char *name);
/* Reads a file through the core, as the editor does but synchronously */
SqClip            *sequin_test_load_clip    (const char *path);
GBytes            *sequin_test_read_bytes   (const char *path);
/* One application per test program, registered but not run */
SequinApplication *sequin_test_application  (void);
/* A new empty folder, removed with everything in it at exit */
const char        *sequin_test_tmpdir       (void);
/* Runs the main loop until there is nothing left to do */
void               sequin_test_flush        (void);
/* runs the main loop for `ms` milliseconds (animations, GL frames) */
void               sequin_test_settle       (guint       ms);
/* the application's editor window, NULL while there is none */
SequinWindow      *sequin_test_app_window   (void);
/* Runs the main loop until `cond` is true, failing after 20 s */
#define SEQUIN_TEST_WAIT_UNTIL(cond) \
  G_STMT_START { \
    gint64 _deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC; \
    while (!(cond)) \
      { \
        if (g_get_monotonic_time () > _deadline) \
          g_error ("timed out waiting for %s", #cond); \
        g_main_context_iteration (NULL, FALSE); \
        g_usleep (1000); \
      } \
  } G_STMT_END

/* A new window, shown; destroyed (without asking about changes) and checked
 * to be gone */
SequinWindow      *sequin_test_window_new     (void);
void               sequin_test_window_destroy (SequinWindow *window);
/* Opens `path` in an empty window and waits until it is loaded */
void               sequin_test_window_open    (SequinWindow *window,
                                               const char   *path);
const SqClip      *sequin_test_window_clip    (SequinWindow *window);
/* Activates a win.* action (as its menu item or key does) and lets it run */
void               sequin_test_activate       (SequinWindow *window,
                                               const char   *action);
/* Shows the sidebar's validation page and waits for its findings */
void               sequin_test_show_validation (SequinWindow *window);

/* Every text shown by a mapped label under `widget`, one entry per label */
void               sequin_test_collect_labels (GtkWidget  *widget,
                                               GPtrArray  *texts);
/* TRUE when a mapped label under `widget` shows exactly `text` */
gboolean           sequin_test_shows          (GtkWidget  *widget,
                                               const char *text);
/* Sets new windows to open at 1400×900 (when the schema is there), opens
 * `file` as `sequin FILE` does and waits for its window and document */
SequinWindow      *sequin_test_open_sized     (GFile      *file);

/* Close within `eps` for the text format's precision */
gboolean           sequin_test_clips_close  (const SqClip *a,
                                             const SqClip *b,
                                             double        time_eps,
                                             double        quat_eps);

/* A clip of `n_joints` joints (at most 4), `n_keys` rotation keys each,
 * 30 a second, turned about Y by angle (key) radians */
SqClip            *sequin_test_turning_clip (guint         n_joints,
                                             guint         n_keys,
                                             double      (*angle) (guint key));
/* `clip` saved as binary SEQ named `name` in the test's folder and opened
 * in `window` (the document is there on return) */
void               sequin_test_window_open_clip (SequinWindow *window,
                                                 const SqClip *clip,
                                                 const char   *name);

/* A window holding a new animation of `world` (sq_clip_new_for_world: 2 s
 * at 30 a second) as its document, unmodified */
SequinWindow      *sequin_test_window_new_animation (const char   *world);
/* `joint` selected in the tree and the playhead at `time` */
void               sequin_test_select_at        (SequinWindow *window,
                                                 const char   *joint,
                                                 double        time);

G_END_DECLS
