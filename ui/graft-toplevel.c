/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-toplevel.c: a toplevel window leaves nothing of itself on its
 * surface once it is unrealized.
 *
 * GTK 4.8 connects a GtkWindow to its GdkSurface's "compute-size" signal
 * when it realizes it, with the window as the handler's data, and never
 * disconnects that handler: its unrealize disconnects the surface's other
 * handlers (state, size, render, event), not this one (GTK 4.8.3's
 * gtk_window_unrealize(), read from its binary).  On X11 the surface can
 * outlive the window, and GDK queues its compute-size idle at any change
 * of the surface's state, removing it at hide and finalize but not at
 * destroy: the idle then emits "compute-size" into a finalized window,
 * "invalid unclassed pointer in cast to 'GtkWindow'" or a crash.
 * test-busy-views' changes/close met it about once in 25 runs with other
 * clients on the same display (the Changes window closed while its editor
 * window stayed; tests/bench/README.md, "Twelfth round: flake2").
 *
 * graft_toplevel_init() installs, once, an emission hook on every
 * widget's "unrealize" that disconnects a GtkWindow's remaining
 * "compute-size" handlers from its surface before GtkWindow's own
 * unrealize drops the surface: every window of the process is covered,
 * GTK's own dialogs included.  A window realized again connects to its
 * new surface, as before.
 */
#include "config.h"

#include "graft-toplevel.h"

#include <gtk/gtk.h>

static guint compute_size_signal;

static gboolean
unrealize_hook_cb (GSignalInvocationHint *hint,
                   guint                  n_values,
                   const GValue          *values,
                   gpointer               user_data)
{
  GObject    *object = g_value_get_object (&values[0]);
  GdkSurface *surface;

  if (!GTK_IS_WINDOW (object))
    return TRUE;
  surface = gtk_native_get_surface (GTK_NATIVE (object));
  if (surface != NULL && GDK_IS_TOPLEVEL (surface))
    g_signal_handlers_disconnect_matched (surface, G_SIGNAL_MATCH_ID | G_SIGNAL_MATCH_DATA,
                                          compute_size_signal, 0, NULL, NULL, object);
  /* Stays installed. */
  return TRUE;
}

/**
 * graft_toplevel_init:
 *
 * Makes every toplevel window of the process disconnect what GTK 4.8
 * leaves connected to its surface when it is unrealized (see above).
 * Called by the class initialisation of each of the editor's windows;
 * only the first call does anything.
 */
void
graft_toplevel_init (void)
{
  static gsize done;
  GSignalQuery unrealize;

  if (!g_once_init_enter (&done))
    return;
  /* The signals exist once their types are initialised; the references
   * are kept for the process's life. */
  g_type_default_interface_ref (GDK_TYPE_TOPLEVEL);
  g_type_class_ref (GTK_TYPE_WIDGET);
  compute_size_signal = g_signal_lookup ("compute-size", GDK_TYPE_TOPLEVEL);
  g_signal_query (g_signal_lookup ("unrealize", GTK_TYPE_WIDGET), &unrealize);
  /* The hook runs before GtkWindow's unrealize, while the window still
   * has its surface: "unrealize" runs its class handler last. */
  g_assert (compute_size_signal != 0 && (unrealize.signal_flags & G_SIGNAL_RUN_LAST) != 0);
  g_signal_add_emission_hook (unrealize.signal_id, 0, unrealize_hook_cb, NULL, NULL);
  g_once_init_leave (&done, 1);
}
