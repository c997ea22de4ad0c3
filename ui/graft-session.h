/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-session.h: a document saved whole (`.graft`): the input, the
 * rules and options, the changes of the history and where it stood.
 */
#pragma once

#include <gio/gio.h>

#include "graft-document.h"

G_BEGIN_DECLS

typedef struct _GraftSession      GraftSession;
typedef struct _GraftSessionDraft GraftSessionDraft;

gboolean           graft_session_detect (const char *path,
                                         const char *text,
                                         gsize       length);
GraftSession      *graft_session_parse (const char *path,
                                        const char *text,
                                        gsize       length,
                                        GError    **error) G_GNUC_WARN_UNUSED_RESULT;
gboolean           graft_session_install (GraftSession  *self,
                                          GraftDocument *document,
                                          GError       **error);
void               graft_session_free (GraftSession *self);
char              *graft_session_write (GraftDocument *document,
                                        GError       **error) G_GNUC_WARN_UNUSED_RESULT;
GraftSessionDraft *graft_session_draft (GraftDocument *document,
                                        GError       **error) G_GNUC_WARN_UNUSED_RESULT;
char              *graft_session_draft_finish (GraftSessionDraft *draft) G_GNUC_WARN_UNUSED_RESULT;
void               graft_session_draft_free (GraftSessionDraft *draft);
gboolean           graft_session_restore (GraftDocument *document,
                                          const char    *name,
                                          const char    *text,
                                          GError       **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftSession, graft_session_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (GraftSessionDraft, graft_session_draft_free)

G_END_DECLS
