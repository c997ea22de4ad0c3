/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-output.c: every file Graft writes goes to a temporary file in the
 * destination's folder, is flushed to disk, then renamed over the target,
 * so a crash or a kill mid-write leaves the old file intact and never a
 * partial one.
 *
 * A file written in pieces (a picture drawn straight to disk) is a
 * GraftOutputFile: opened (the temporary file is made), written, then
 * committed (renamed over the target) or abandoned (the temporary file is
 * removed), so a cancelled or failed export leaves nothing behind.
 *
 * Two kinds of target are not a file to replace.  A symbolic link is
 * followed: the temporary file goes beside the file it names, which the
 * rename replaces, and the link stays (`-o out.py` where out.py links
 * into another folder); links that loop are refused, as open() refuses
 * them (renaming over the first link replaced it with a file).  A target
 * that exists and is neither a regular file nor a folder (a device such
 * as /dev/null or /dev/stdout, a FIFO, a socket) is written in place as a
 * stream: renaming over it replaced /dev/null with a regular file when
 * run as root, and failed for anyone else (no temporary file can be made
 * in /dev); a stream keeps no partial file to protect.  A folder where no
 * file can be made (/proc, /sys, one the user may not write to) is named
 * in the error: the target itself may exist and be writable, and "No such
 * file or directory" about /proc/version, which exists, said nothing
 * useful.  A target that is the very file standard output writes to
 * (`-o /dev/stdout >> log`: /dev/stdout links to the log) is written
 * through standard output, where the shell placed it, appending when it
 * appends: the rename replaced the log and lost its old lines.
 */
#include "config.h"

#include "graft-output.h"
#include "graft-error.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct _GraftOutputFile
{
  /* Owned */
  char *path;      /* the target, as given (for messages) */
  char *target;    /* the file renamed over: @path, its link followed */
  char *temp_path; /* the temporary file beside it; NULL for a stream */
  int   fd;
  /* @path is a device, a FIFO or a socket, written in place, or the file
   * standard output writes to, written through it */
  gboolean stream;
};

static gboolean
fail (GraftOutputFile *self,
      int              saved_errno,
      GError         **error)
{
  graft_set_file_error (error, self->path, GRAFT_ERROR_IO, "cannot write the file: %s",
                        g_strerror (saved_errno));
  return FALSE;
}

/* How many links a path may go through, as the kernel's own limit
 * (MAXSYMLINKS, 40): beyond it, a loop. */
#define MAX_LINKS 40

/* @path with its symbolic links followed to the file they name, which
 * need not exist yet (a dangling link's target is created, as open()
 * creates it); @path itself if it is no link.  NULL with errno set when
 * the links loop (ELOOP) or one cannot be read. */
static char *
resolve_link (const char *path)
{
  g_autofree char *current = g_strdup (path);
  struct stat      st;

  for (guint i = 0; i < MAX_LINKS; i++)
    {
      g_autofree char *link = NULL;
      g_autofree char *dir = NULL;

      if (lstat (current, &st) != 0 || !S_ISLNK (st.st_mode))
        return g_steal_pointer (&current);
      link = g_file_read_link (current, NULL);
      if (link == NULL)
        return NULL;
      if (g_path_is_absolute (link))
        {
          g_free (current);
          current = g_steal_pointer (&link);
          continue;
        }
      dir = g_path_get_dirname (current);
      g_free (current);
      current = g_build_filename (dir, link, NULL);
    }
  errno = ELOOP;
  return NULL;
}

/* The temporary file could not be made (errno @saved_errno) in @dir, the
 * target's folder: the folder is named when it exists, as it is the
 * folder, not the target, that refuses (the target is replaced by a new
 * file, never written into). */
static void
fail_in_folder (GraftOutputFile *self,
                const char      *dir,
                int              saved_errno,
                GError         **error)
{
  struct stat st;

  if (stat (dir, &st) != 0 || !S_ISDIR (st.st_mode))
    {
      fail (self, saved_errno, error);
      return;
    }
  graft_set_file_error (error, self->path, GRAFT_ERROR_IO,
                        "cannot write the file: no new file can be made in %s: %s", dir,
                        g_strerror (saved_errno));
}

/* Whether @path names the regular file open as standard output (the same
 * file, not a copy of its name: /dev/stdout, /proc/self/fd/1, the log's
 * own name).  Only a regular file matters: a device, a FIFO or a socket
 * is written in place anyway. */
static gboolean
is_standard_output (const char *path)
{
  struct stat st;
  struct stat out;

  return stat (path, &st) == 0 && S_ISREG (st.st_mode) && fstat (STDOUT_FILENO, &out) == 0 &&
         S_ISREG (out.st_mode) && st.st_dev == out.st_dev && st.st_ino == out.st_ino;
}

/**
 * graft_output_file_open:
 * @path: the target file
 * @error: return location for a #GRAFT_ERROR_IO error at `PATH:1:1`
 *
 * Makes the temporary file that graft_output_file_commit() renames to
 * @path (to the file it names, if it is a symbolic link; links that loop
 * are an error).  The target is not touched until then.  An existing
 * target that is neither a regular file nor a folder (a device, a FIFO)
 * is opened instead and written in place.
 *
 * Returns: (transfer full) (nullable): the file being written; commit or
 *   abandon it
 */
GraftOutputFile *
graft_output_file_open (const char *path,
                        GError    **error)
{
  g_autofree char *dir = NULL;
  GraftOutputFile *self;
  struct stat      st;

  g_return_val_if_fail (path != NULL, NULL);

  self = g_new0 (GraftOutputFile, 1);
  self->path = g_strdup (path);
  self->fd = -1;
  if (is_standard_output (path))
    {
      self->stream = TRUE;
      self->fd = fcntl (STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);
    }
  else if (stat (path, &st) == 0 && !S_ISREG (st.st_mode) && !S_ISDIR (st.st_mode))
    {
      /* Blocks, as any writer's open does, until a FIFO has a reader. */
      self->stream = TRUE;
      do
        self->fd = open (path, O_WRONLY | O_CLOEXEC);
      while (self->fd < 0 && errno == EINTR);
    }
  if (self->stream && self->fd < 0)
    {
      fail (self, errno, error);
      graft_output_file_abandon (self);
      return NULL;
    }
  if (self->stream)
    return self;
  self->target = resolve_link (path);
  if (self->target == NULL)
    {
      fail (self, errno, error);
      graft_output_file_abandon (self);
      return NULL;
    }
  dir = g_path_get_dirname (self->target);
  self->temp_path = g_build_filename (dir, ".graft-XXXXXX", NULL);
  self->fd = g_mkstemp_full (self->temp_path, O_WRONLY, 0666 & ~0022);
  if (self->fd < 0)
    {
      fail_in_folder (self, dir, errno, error);
      g_clear_pointer (&self->temp_path, g_free);
      graft_output_file_abandon (self);
      return NULL;
    }
  return self;
}

/**
 * graft_output_file_get_temp_path:
 * @self: a file being written
 *
 * Returns: (transfer none): where the bytes go until the commit
 */
const char *
graft_output_file_get_temp_path (GraftOutputFile *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->stream ? self->path : self->temp_path;
}

/**
 * graft_output_file_write:
 * @self: a file being written
 * @data: bytes
 * @length: their number
 * @error: return location for a #GRAFT_ERROR_IO error
 *
 * Appends @data to the temporary file.
 *
 * Returns: %TRUE on success
 */
gboolean
graft_output_file_write (GraftOutputFile *self,
                         const void      *data,
                         gsize            length,
                         GError         **error)
{
  gsize written = 0;

  g_return_val_if_fail (self != NULL && self->fd >= 0, FALSE);

  while (written < length)
    {
      gssize n = write (self->fd, (const char *) data + written, length - written);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return fail (self, errno, error);
      written += n;
    }
  return TRUE;
}

/**
 * graft_output_file_sync:
 * @self: a file being written
 * @error: return location for a #GRAFT_ERROR_IO error
 *
 * Flushes the temporary file to disk and closes it, the slow part of a
 * commit, so that a worker thread can do it and leave only the rename to
 * graft_output_file_commit().  Nothing can be written afterwards.
 *
 * Returns: %TRUE on success
 */
gboolean
graft_output_file_sync (GraftOutputFile *self,
                        GError         **error)
{
  int fd;

  g_return_val_if_fail (self != NULL && self->fd >= 0, FALSE);

  fd = self->fd;
  self->fd = -1;
  /* A device or a pipe has no disk to flush to (fsync: EINVAL). */
  if (!self->stream && fsync (fd) != 0)
    {
      int saved_errno = errno;

      close (fd);
      return fail (self, saved_errno, error);
    }
  if (close (fd) != 0)
    return fail (self, errno, error);
  return TRUE;
}

/**
 * graft_output_file_commit:
 * @self: (transfer full): a file being written
 * @error: return location for a #GRAFT_ERROR_IO error
 *
 * Flushes the temporary file to disk (unless graft_output_file_sync() did)
 * and renames it to the target; on failure it is removed.  Frees @self
 * either way.
 *
 * Returns: %TRUE when the target now holds what was written
 */
gboolean
graft_output_file_commit (GraftOutputFile *self,
                          GError         **error)
{
  g_return_val_if_fail (self != NULL && (self->temp_path != NULL || self->stream), FALSE);

  if (self->fd >= 0 && !graft_output_file_sync (self, error))
    {
      graft_output_file_abandon (self);
      return FALSE;
    }
  if (self->stream)
    {
      graft_output_file_abandon (self);
      return TRUE;
    }
  if (g_rename (self->temp_path, self->target) != 0)
    {
      fail (self, errno, error);
      graft_output_file_abandon (self);
      return FALSE;
    }
  g_clear_pointer (&self->temp_path, g_free);
  graft_output_file_abandon (self);
  return TRUE;
}

/**
 * graft_output_file_abandon:
 * @self: (transfer full) (nullable): a file being written
 *
 * Removes the temporary file, leaving the target as it was, and frees
 * @self.
 */
void
graft_output_file_abandon (GraftOutputFile *self)
{
  if (self == NULL)
    return;
  if (self->fd >= 0)
    close (self->fd);
  if (self->temp_path != NULL)
    g_unlink (self->temp_path);
  g_free (self->temp_path);
  g_free (self->target);
  g_free (self->path);
  g_free (self);
}

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
  GraftOutputFile *out;

  g_return_val_if_fail (path != NULL, FALSE);

  out = graft_output_file_open (path, error);
  if (out == NULL)
    return FALSE;
  if (!graft_output_file_write (out, data, length, error))
    {
      graft_output_file_abandon (out);
      return FALSE;
    }
  return graft_output_file_commit (out, error);
}

/**
 * graft_output_join_pieces:
 * @pieces: (element-type GBytes): a text in pieces, as the text jobs'
 *   `_finish_pieces()` give it
 * @length: (out) (optional): the text's length
 *
 * Joins @pieces in one string.  Any thread may call it: the editor's
 * exports join on the worker that writes the file, never in a turn of
 * the main loop.
 *
 * Returns: (transfer full): the text, with a NUL after it
 */
char *
graft_output_join_pieces (GPtrArray *pieces,
                          gsize     *length)
{
  char *text;
  gsize len = 0, at = 0;

  g_return_val_if_fail (pieces != NULL, NULL);

  for (guint i = 0; i < pieces->len; i++)
    len += g_bytes_get_size (pieces->pdata[i]);
  text = g_malloc (len + 1);
  for (guint i = 0; i < pieces->len; i++)
    {
      gsize       n;
      const char *data = g_bytes_get_data (pieces->pdata[i], &n);

      if (n > 0)
        memcpy (text + at, data, n);
      at += n;
    }
  text[at] = '\0';
  if (length != NULL)
    *length = len;
  return text;
}
