/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-autosave.c: while a document has unsaved changes, its graph (as
 * code, which Graft reads back), its pattern and its replacement are
 * written every few seconds to one key file per document in
 * `$XDG_STATE_HOME/graft/autosave/`, named after a hash of the document's
 * path (or "untitled").  Saving, or closing and discarding, removes it;
 * a crash leaves it, and opening the same file again offers to restore it
 * when it is newer than the file.  Writes are atomic (graft_export_write_file).
 */
#include "config.h"

#include "graft-autosave.h"

#include <glib/gstdio.h>
#include <string.h>

/**
 * graft_autosave_path_for:
 * @file: (nullable): a document's file
 *
 * Returns: (transfer full): where its autosave lives
 */
char *
graft_autosave_path_for (GFile *file)
{
  g_autofree char *uri = file != NULL ? g_file_get_uri (file) : g_strdup ("untitled");
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, uri, -1);
  g_autofree char *name = g_strdup_printf ("%.24s.autosave", hash);

  return g_build_filename (g_get_user_state_dir (), "graft", "autosave", name, NULL);
}

/**
 * graft_autosave_write:
 * @document: a document with unsaved changes
 * @error: return location for an error
 *
 * Writes @document's graph, pattern and replacement to its autosave.
 *
 * Returns: %TRUE on success
 */
gboolean
graft_autosave_write (GraftDocument *document,
                      GError       **error)
{
  g_autoptr (GKeyFile) keys = g_key_file_new ();
  g_autofree char *path = graft_autosave_path_for (graft_document_get_file (document));
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *code = graft_document_dup_file_text (document);
  g_autofree char *uri = graft_document_get_file (document) != NULL ? g_file_get_uri (graft_document_get_file (document))
                                                                    : g_strdup ("");
  g_autofree char *data = NULL;
  gsize length;

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "cannot create %s", dir);
      return FALSE;
    }
  g_key_file_set_string (keys, "autosave", "uri", uri);
  g_key_file_set_string (keys, "autosave", "code", code);
  g_key_file_set_string (keys, "autosave", "pattern", graft_document_get_pattern_text (document));
  g_key_file_set_string (keys, "autosave", "replacement", graft_document_get_replacement_text (document));
  data = g_key_file_to_data (keys, &length, NULL);
  return graft_export_write_file (path, data, length, error);
}

/**
 * graft_autosave_discard:
 * @file: (nullable): a document's file
 *
 * Removes its autosave, if any.
 */
void
graft_autosave_discard (GFile *file)
{
  g_autofree char *path = graft_autosave_path_for (file);

  g_unlink (path);
}

/**
 * graft_autosave_find:
 * @file: a file being opened
 * @out_code: (out) (transfer full): the autosaved graph's code
 * @out_pattern: (out) (transfer full): the pattern text
 * @out_replacement: (out) (transfer full): the replacement text
 *
 * Returns: whether @file has an autosave newer than itself
 */
gboolean
graft_autosave_find (GFile *file,
                     char **out_code,
                     char **out_pattern,
                     char **out_replacement)
{
  g_autofree char *path = graft_autosave_path_for (file);
  g_autofree char *file_path = g_file_get_path (file);
  g_autoptr (GKeyFile) keys = g_key_file_new ();
  GStatBuf saved;
  GStatBuf original;

  if (g_stat (path, &saved) != 0 || !g_key_file_load_from_file (keys, path, G_KEY_FILE_NONE, NULL))
    return FALSE;
  if (file_path != NULL && g_stat (file_path, &original) == 0 && original.st_mtime > saved.st_mtime)
    return FALSE;
  *out_code = g_key_file_get_string (keys, "autosave", "code", NULL);
  *out_pattern = g_key_file_get_string (keys, "autosave", "pattern", NULL);
  *out_replacement = g_key_file_get_string (keys, "autosave", "replacement", NULL);
  if (*out_code == NULL || *out_pattern == NULL || *out_replacement == NULL)
    {
      g_clear_pointer (out_code, g_free);
      g_clear_pointer (out_pattern, g_free);
      g_clear_pointer (out_replacement, g_free);
      return FALSE;
    }
  return TRUE;
}
