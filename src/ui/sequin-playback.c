/* sequin-playback.c: playing an animation (sequin-playback.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sequin-playback"

#include "config.h"

#include <math.h>

#include "sequin-playback.h"

struct _SequinPlayback
{
  GObject    parent_instance;

  GtkWidget *widget;            /* weak: whose frame clock ticks */
  guint      tick;              /* tick callback while playing, 0 when stopped */
  gboolean   in_tick;           /* inside it: it goes by its return value */
  gint64     last_frame;        /* frame clock time of the last tick, µs; 0 before the first */
  double     position;
  double     duration;
  double     rate;
  gboolean   loop;
  gboolean   has_range;         /* the animation's own loop: */
  double     loop_in;           /* where looping goes back to… */
  double     loop_out;          /* …from here (the same: a pose held there) */
};

enum { PROP_0, PROP_POSITION, PROP_DURATION, PROP_PLAYING, PROP_LOOP, PROP_RATE, N_PROPS };
static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (SequinPlayback, sequin_playback, G_TYPE_OBJECT)

double
sequin_playback_get_position (SequinPlayback *self)
{
  g_return_val_if_fail (SEQUIN_IS_PLAYBACK (self), 0);
  return self->position;
}

void
sequin_playback_set_position (SequinPlayback *self,
                              double          position)
{
  g_return_if_fail (SEQUIN_IS_PLAYBACK (self));
  if (!isfinite (position) || position < 0 || position == self->position)
    return;
  self->position = position;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_POSITION]);
}

double
sequin_playback_get_duration (SequinPlayback *self)
{
  g_return_val_if_fail (SEQUIN_IS_PLAYBACK (self), 0);
  return self->duration;
}

void
sequin_playback_set_duration (SequinPlayback *self,
                              double          duration)
{
  g_return_if_fail (SEQUIN_IS_PLAYBACK (self));
  if (!(duration > 0) || !isfinite (duration))
    duration = 0;
  if (duration == self->duration)
    return;
  self->duration = duration;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DURATION]);
  if (duration == 0)
    sequin_playback_pause (self);
}

gboolean
sequin_playback_get_playing (SequinPlayback *self)
{
  g_return_val_if_fail (SEQUIN_IS_PLAYBACK (self), FALSE);
  return self->tick != 0;
}

void
sequin_playback_advance (SequinPlayback *self,
                         double          seconds)
{
  double t;

  g_return_if_fail (SEQUIN_IS_PLAYBACK (self));
  t = self->position + seconds * self->rate;
  if (self->loop && self->has_range && self->position <= self->loop_out && t > self->loop_out)
    {
      /* the loop's part again and again, as the world plays it; a loop of
       * no length holds its pose */
      if (self->loop_out > self->loop_in)
        t = self->loop_in + fmod (t - self->loop_out, self->loop_out - self->loop_in);
      else
        {
          t = self->loop_out;
          sequin_playback_pause (self);
        }
    }
  else if (t > self->duration)
    {
      if (self->loop && self->duration > 0)
        t = fmod (t, self->duration);
      else
        {
          t = self->duration;
          sequin_playback_pause (self);
        }
    }
  sequin_playback_set_position (self, t);
}

static gboolean
tick_cb (GtkWidget     *widget,
         GdkFrameClock *clock,
         gpointer       user_data)
{
  SequinPlayback *self = user_data;
  gint64 now = gdk_frame_clock_get_frame_time (clock);
  double elapsed = self->last_frame != 0 ? (now - self->last_frame) / (double) G_USEC_PER_SEC : 0;

  (void) widget;
  self->last_frame = now;
  self->in_tick = TRUE;
  sequin_playback_advance (self, elapsed);
  self->in_tick = FALSE;
  return self->tick != 0 ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

void
sequin_playback_set_playing (SequinPlayback *self,
                             gboolean        playing)
{
  g_return_if_fail (SEQUIN_IS_PLAYBACK (self));
  if (playing && (self->duration == 0 || self->widget == NULL))
    playing = FALSE;
  if (playing == (self->tick != 0))
    return;
  if (playing)
    {
      /* from the start when the playhead is at the end */
      if (self->position >= self->duration)
        sequin_playback_set_position (self, 0);
      self->last_frame = 0;
      self->tick = gtk_widget_add_tick_callback (self->widget, tick_cb, self, NULL);
    }
  else
    {
      /* from inside tick_cb the callback goes by its return value */
      if (self->widget != NULL && !self->in_tick)
        gtk_widget_remove_tick_callback (self->widget, self->tick);
      self->tick = 0;
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLAYING]);
}

void
sequin_playback_play (SequinPlayback *self)
{
  sequin_playback_set_playing (self, TRUE);
}

void
sequin_playback_pause (SequinPlayback *self)
{
  sequin_playback_set_playing (self, FALSE);
}

gboolean
sequin_playback_get_loop (SequinPlayback *self)
{
  g_return_val_if_fail (SEQUIN_IS_PLAYBACK (self), FALSE);
  return self->loop;
}

void
sequin_playback_set_loop (SequinPlayback *self,
                          gboolean        loop)
{
  g_return_if_fail (SEQUIN_IS_PLAYBACK (self));
  if (!loop == !self->loop)
    return;
  self->loop = !!loop;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOOP]);
}

void
sequin_playback_set_loop_range (SequinPlayback *self,
                                double          loop_in,
                                double          loop_out)
{
  g_return_if_fail (SEQUIN_IS_PLAYBACK (self));

  self->has_range = loop_in >= 0 && loop_out >= loop_in && isfinite (loop_out);
  self->loop_in = self->has_range ? loop_in : 0;
  self->loop_out = self->has_range ? loop_out : 0;
}

gboolean
sequin_playback_get_loop_range (SequinPlayback *self,
                                double         *loop_in,
                                double         *loop_out)
{
  g_return_val_if_fail (SEQUIN_IS_PLAYBACK (self), FALSE);

  if (loop_in != NULL)
    *loop_in = self->has_range ? self->loop_in : 0;
  if (loop_out != NULL)
    *loop_out = self->has_range ? self->loop_out : self->duration;
  return self->has_range;
}

double
sequin_playback_get_rate (SequinPlayback *self)
{
  g_return_val_if_fail (SEQUIN_IS_PLAYBACK (self), 1);
  return self->rate;
}

void
sequin_playback_set_rate (SequinPlayback *self,
                          double          rate)
{
  g_return_if_fail (SEQUIN_IS_PLAYBACK (self));
  g_return_if_fail (rate > 0 && isfinite (rate));
  if (rate == self->rate)
    return;
  self->rate = rate;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RATE]);
}

static void
widget_gone (gpointer  data,
             GObject  *where_the_widget_was)
{
  SequinPlayback *self = data;

  (void) where_the_widget_was;
  self->widget = NULL;
  if (self->tick != 0)
    {
      self->tick = 0;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLAYING]);
    }
}

static void
sequin_playback_dispose (GObject *object)
{
  SequinPlayback *self = SEQUIN_PLAYBACK (object);

  if (self->widget != NULL)
    {
      if (self->tick != 0)
        gtk_widget_remove_tick_callback (self->widget, self->tick);
      g_object_weak_unref (G_OBJECT (self->widget), widget_gone, self);
      self->widget = NULL;
    }
  self->tick = 0;
  G_OBJECT_CLASS (sequin_playback_parent_class)->dispose (object);
}

static void
sequin_playback_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  SequinPlayback *self = SEQUIN_PLAYBACK (object);

  switch (prop_id)
    {
    case PROP_POSITION:
      g_value_set_double (value, self->position);
      break;
    case PROP_DURATION:
      g_value_set_double (value, self->duration);
      break;
    case PROP_PLAYING:
      g_value_set_boolean (value, self->tick != 0);
      break;
    case PROP_LOOP:
      g_value_set_boolean (value, self->loop);
      break;
    case PROP_RATE:
      g_value_set_double (value, self->rate);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sequin_playback_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  SequinPlayback *self = SEQUIN_PLAYBACK (object);

  switch (prop_id)
    {
    case PROP_POSITION:
      sequin_playback_set_position (self, g_value_get_double (value));
      break;
    case PROP_DURATION:
      sequin_playback_set_duration (self, g_value_get_double (value));
      break;
    case PROP_PLAYING:
      sequin_playback_set_playing (self, g_value_get_boolean (value));
      break;
    case PROP_LOOP:
      sequin_playback_set_loop (self, g_value_get_boolean (value));
      break;
    case PROP_RATE:
      sequin_playback_set_rate (self, g_value_get_double (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sequin_playback_class_init (SequinPlaybackClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = sequin_playback_dispose;
  object_class->get_property = sequin_playback_get_property;
  object_class->set_property = sequin_playback_set_property;

  properties[PROP_POSITION] = g_param_spec_double ("position", NULL, NULL, 0, G_MAXDOUBLE, 0, flags);
  properties[PROP_DURATION] = g_param_spec_double ("duration", NULL, NULL, 0, G_MAXDOUBLE, 0, flags);
  properties[PROP_PLAYING] = g_param_spec_boolean ("playing", NULL, NULL, FALSE, flags);
  properties[PROP_LOOP] = g_param_spec_boolean ("loop", NULL, NULL, TRUE, flags);
  properties[PROP_RATE] = g_param_spec_double ("rate", NULL, NULL, G_MINDOUBLE, G_MAXDOUBLE, 1, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sequin_playback_init (SequinPlayback *self)
{
  self->rate = 1;
  self->loop = TRUE;
}

SequinPlayback *
sequin_playback_new (GtkWidget *widget)
{
  SequinPlayback *self;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);
  self = g_object_new (SEQUIN_TYPE_PLAYBACK, NULL);
  self->widget = widget;
  g_object_weak_ref (G_OBJECT (widget), widget_gone, self);
  return self;
}
