/* sq-units.h: times, frame rates and frame numbers as a person reads them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One rule for the editor's window and dialogs and the command line, so the
 * same clip reads the same everywhere: seconds with three decimals, a frame
 * rate as the file defines it (a BVH frame time of 0.033333 s, 1/30 s to the
 * file's 6 decimals, is 30), a frame number whole when it is on a frame and
 * with two decimals between frames. The text uses a decimal point (ASCII),
 * as the command line and the files do; the editor shows the same strings.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* "30" for 30.0003 (a frame time of 0.033333), "29.97", "?" for none */
char   *sq_format_rate     (double fps);
/* A rate rounded as sq_format_rate shows it: 30.0 for 30.0003 */
double  sq_rate_as_shown   (double fps);
/* "2.033 s" */
char   *sq_format_seconds  (double seconds);
/* "2.033" (no unit), for a field that says its unit */
char   *sq_format_seconds_value (double seconds);
/* "20" on a frame (within a thousandth), "20.33" between frames */
char   *sq_format_frame    (double frame);

G_END_DECLS
