/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-turns.h: long main-loop work cut into steps, one step per turn.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What holds this many graph nodes or more (a graph, its layout) is
 * freed by graft_turns_free_later(): at a million nodes a graph and its
 * file take 100-120 ms to free and unmap, a layout's names 3-5 ms, in
 * the turn that closes a window. */
#define GRAFT_TURNS_FREE_LATER_NODES 20000

guint    graft_turns_add (GSourceFunc    step,
                          gpointer       data,
                          GDestroyNotify notify);
guint    graft_turns_add_alone (GSourceFunc    step,
                                gpointer       data,
                                GDestroyNotify notify);
void     graft_turns_remove (guint id);
gboolean graft_turns_is_queued (guint id);
void     graft_turns_free_later (gpointer       data,
                                 GDestroyNotify free_func);
guint    _graft_turns_get_n_freed_later (void);

G_END_DECLS
