/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-document-entry.c: which class of a Python file the document's
 * graph is traced from, as the CLI's `--entry` chooses: the file's models
 * (its classes that define forward) and the one chosen, NULL for the
 * first.  The loader reads the file with the entry set before it, and
 * keeps it while the file still has that class; a switch of torch and a
 * session (which stores it with its input) trace the same class again.
 */
#include "config.h"

#include "graft-document.h"
#include "graft-document-private.h"

/**
 * graft_document_get_entry:
 * @self: a document
 *
 * Returns: (nullable): the class the graph was, or the next file read is,
 *   traced from; %NULL for the file's first model
 */
const char *
graft_document_get_entry (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  return self->entry;
}

/**
 * graft_document_set_entry:
 * @self: a document
 * @entry: (nullable): a class name, or %NULL for the first model
 *
 * Chooses the class the next file read is traced from (the caller reads
 * it again); a file without that class traces its first.
 */
void
graft_document_set_entry (GraftDocument *self,
                          const char    *entry)
{
  g_return_if_fail (GRAFT_IS_DOCUMENT (self));
  _graft_document_settle (self);
  if (g_strcmp0 (entry, self->entry) == 0)
    return;
  g_free (self->entry);
  self->entry = g_strdup (entry);
}

/**
 * graft_document_get_models:
 * @self: a document
 *
 * Returns: (transfer none) (array zero-terminated=1): the classes of the
 *   file read last that define forward, in file order (see
 *   graft_input_dup_models()); empty when it was no Python file
 */
const char *const *
graft_document_get_models (GraftDocument *self)
{
  static const char *const none[] = { NULL };

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), none);
  return self->models != NULL ? (const char *const *) self->models : none;
}

/* What a load found: the class it traced (@entry, taken, nullable) among
 * the file's @models (taken, nullable). */
void
_graft_document_set_models (GraftDocument *self,
                            char          *entry,
                            GStrv          models)
{
  g_free (self->entry);
  self->entry = entry;
  g_strfreev (self->models);
  self->models = models;
}
