/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-autosave.h: copies of unsaved work in the user's state folder, so
 * a crash loses nothing.  An autosave holds texts (a GraftRecovery), not a
 * document: the document and the window hand them over.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The texts of one document's unsaved work: what an autosave keeps and
 * what restoring it puts back.  Each is a complete text, never NULL. */
typedef struct
{
  char *code;        /* Owned: the graph as a Python file Graft reads back */
  char *pattern;     /* Owned: the pattern editor's text */
  char *replacement; /* Owned: the replacement editor's text */
  char *session;     /* Owned, nullable: the whole document as a session, when it has
                      * rules (graft-session.c), which restoring puts back instead */
  /* Owned, nullable: the session but for its input, which the autosave
   * thread makes @session of (graft_session_draft()) */
  struct _GraftSessionDraft *session_draft;
} GraftRecovery;

void graft_recovery_free (GraftRecovery *recovery);

char          *graft_autosave_path_for (GFile *file) G_GNUC_WARN_UNUSED_RESULT;
void           graft_autosave_write_take (GFile         *file,
                                          GraftRecovery *recovery);
void           graft_autosave_write_code_take (GFile         *file,
                                               GraftRecovery *recovery);
void           graft_autosave_flush (void);
void           graft_autosave_discard (GFile *file);
GraftRecovery *graft_autosave_find (GFile *file) G_GNUC_WARN_UNUSED_RESULT;
void           _graft_autosave_hold (gboolean hold);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftRecovery, graft_recovery_free)

G_END_DECLS
