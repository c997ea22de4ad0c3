/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * pt2-zip.c: zip archives in memory through libzip (see pt2-zip.h).
 * Members are stored, not compressed, so that making one costs little in
 * a fuzzer's loop.
 */
#include "config.h"

#include "pt2-zip.h"

#include <stdio.h>
#include <zip.h>

/* An archive of @n_members members, in order (transfer full). */
GBytes *
pt2_zip_make (guint              n_members,
              const char *const *names,
              const char *const *texts,
              const gsize       *lengths)
{
  zip_error_t   ze;
  zip_source_t *src;
  zip_t        *za;
  zip_int64_t   size;
  char         *buf;

  zip_error_init (&ze);
  src = zip_source_buffer_create (NULL, 0, 0, &ze);
  g_assert_nonnull (src);
  zip_source_keep (src);
  za = zip_open_from_source (src, ZIP_TRUNCATE, &ze);
  g_assert_nonnull (za);
  for (guint i = 0; i < n_members; i++)
    {
      zip_source_t *member = zip_source_buffer (za, texts[i], lengths[i], 0);
      zip_int64_t   idx = zip_file_add (za, names[i], member, ZIP_FL_OVERWRITE);

      g_assert_cmpint (idx, >=, 0);
      zip_set_file_compression (za, (zip_uint64_t) idx, ZIP_CM_STORE, 0);
    }
  g_assert_cmpint (zip_close (za), ==, 0);
  g_assert_cmpint (zip_source_open (src), ==, 0);
  zip_source_seek (src, 0, SEEK_END);
  size = zip_source_tell (src);
  zip_source_seek (src, 0, SEEK_SET);
  buf = g_malloc (size > 0 ? (gsize) size : 1);
  g_assert_cmpint (zip_source_read (src, buf, (zip_uint64_t) size), ==, size);
  zip_source_close (src);
  zip_source_free (src);
  zip_error_fini (&ze);
  return g_bytes_new_take (buf, (gsize) size);
}

/* A .pt2 as torch.export.save lays it out, as far as Graft reads it: the
 * JSON member and `version` (transfer full). */
GBytes *
pt2_zip_program (const char *json,
                 gsize       length)
{
  const char *names[] = { "serialized_exported_program.json", "version" };
  const char *texts[] = { json, "8.2" };
  gsize       lengths[] = { length, 3 };

  return pt2_zip_make (2, names, texts, lengths);
}

/* The member @member of an archive, NUL-terminated, or %NULL (transfer
 * full). */
char *
pt2_zip_extract (const char *archive,
                 gsize       archive_length,
                 const char *member,
                 gsize      *out_length)
{
  zip_error_t   ze;
  zip_source_t *src;
  zip_t        *za;
  zip_file_t   *zf;
  zip_stat_t    st;
  char         *buf = NULL;

  zip_error_init (&ze);
  src = zip_source_buffer_create (archive, archive_length, 0, &ze);
  za = src != NULL ? zip_open_from_source (src, ZIP_RDONLY, &ze) : NULL;
  if (za == NULL)
    {
      if (src != NULL)
        zip_source_free (src);
      zip_error_fini (&ze);
      return NULL;
    }
  if (zip_stat (za, member, 0, &st) == 0 && (zf = zip_fopen (za, member, 0)) != NULL)
    {
      buf = g_malloc (st.size + 1);
      if (zip_fread (zf, buf, st.size) != (zip_int64_t) st.size)
        g_clear_pointer (&buf, g_free);
      else
        {
          buf[st.size] = '\0';
          *out_length = st.size;
        }
      zip_fclose (zf);
    }
  zip_discard (za);
  zip_error_fini (&ze);
  return buf;
}
