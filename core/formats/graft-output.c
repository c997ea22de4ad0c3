/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-output.c: every file Graft writes goes to a temporary file in the
 * destination's folder, is flushed to disk, then renamed over the target,
 * so a crash or a kill mid-write leaves the old file intact and never a
 * partial one.
 */
#include "config.h"

#include "graft-output.h"
#include "graft-error.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <unistd.h>

/**
 * graft_output_write_file:
 * @path: the target file
 * @data: the bytes to write
 * @length: their number
 * @error: return location for a #GRAFT_ERROR_IO error at `PATH:1:1`
 *
 * Writes @data to @path atomically (temporary file, fsync, rename).
 *
 * Returns: %TRUE on success
 */
gboolean
graft_output_write_file (const char *path,
                         const char *data,
                         gsize       length,
                         GError    **error)
{
  g_autofree char *dir = NULL;
  g_autofree char *tmpl = NULL;
  int              fd;
  gsize            written = 0;

  g_return_val_if_fail (path != NULL, FALSE);

  dir = g_path_get_dirname (path);
  tmpl = g_build_filename (dir, ".graft-XXXXXX", NULL);
  fd = g_mkstemp_full (tmpl, O_WRONLY, 0666 & ~0022);
  if (fd < 0)
    {
      int saved_errno = errno;

      graft_set_file_error (error, path, GRAFT_ERROR_IO,
                            "cannot write the file: %s", g_strerror (saved_errno));
      return FALSE;
    }
  while (written < length)
    {
      gssize n = write (fd, data + written, length - written);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved_errno = errno;

          close (fd);
          g_unlink (tmpl);
          graft_set_file_error (error, path, GRAFT_ERROR_IO,
                                "cannot write the file: %s", g_strerror (saved_errno));
          return FALSE;
        }
      written += n;
    }
  if (fsync (fd) != 0 || close (fd) != 0)
    {
      int saved_errno = errno;

      g_unlink (tmpl);
      graft_set_file_error (error, path, GRAFT_ERROR_IO,
                            "cannot write the file: %s", g_strerror (saved_errno));
      return FALSE;
    }
  if (g_rename (tmpl, path) != 0)
    {
      int saved_errno = errno;

      g_unlink (tmpl);
      graft_set_file_error (error, path, GRAFT_ERROR_IO,
                            "cannot write the file: %s", g_strerror (saved_errno));
      return FALSE;
    }
  return TRUE;
}
