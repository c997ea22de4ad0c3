/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-pt2-archive.c: the zip of a `.pt2`, through libzip: finds the
 * member `serialized_exported_program.json` (at the root, or in one
 * top-level folder) and the member `version` beside it, checks the
 * version as torch.export.load does, and reads the JSON member, bounded by
 * GRAFT_MAX_JSON_BYTES.  Nothing else is opened.  Errors are at
 * `ARCHIVE:1:1` (a bad version at `ARCHIVE:version:1:1`).
 */
#include "config.h"

#include "graft-pt2-private.h"
#include "graft-arg.h"
#include "graft-limits.h"
#include "graft-program.h"
#include "graft-source.h"

#include <string.h>
#include <zip.h>

#define MEMBER_NAME "serialized_exported_program.json"

/* ------------------------------------------------------------------ */
/* The archive */

static gboolean
archive_error (Reader     *r,
               const char *format,
               ...) G_GNUC_PRINTF (2, 3);

static gboolean
archive_error (Reader     *r,
               const char *format,
               ...)
{
  g_autofree char *message = NULL;
  va_list          ap;

  va_start (ap, format);
  message = g_strdup_vprintf (format, ap);
  va_end (ap);
  graft_set_error_at (r->error, r->archive_name, 1, 1, GRAFT_PARSE_ERROR_SYNTAX, "%s", message);
  return FALSE;
}

/* libzip's message, lowercased at the start as Graft's messages are. */
static char *
zip_message (zip_error_t *ze)
{
  char *text = g_strdup (zip_error_strerror (ze));

  if (text[0] != '\0' && g_ascii_isupper (text[0]) && !g_ascii_isupper (text[1]))
    text[0] = g_ascii_tolower (text[0]);
  return text;
}

/* The index of the member @base at the root, or else in one top-level
 * folder (the first such entry), or -1. */
static zip_int64_t
find_member (zip_t      *za,
             const char *base)
{
  zip_int64_t idx = zip_name_locate (za, base, 0);
  zip_int64_t n;
  gsize       base_len = strlen (base);

  if (idx >= 0)
    return idx;
  n = zip_get_num_entries (za, 0);
  for (zip_int64_t i = 0; i < n; i++)
    {
      const char *name = zip_get_name (za, (zip_uint64_t) i, ZIP_FL_ENC_RAW);
      const char *slash;
      gsize       len;

      if (name == NULL)
        continue;
      len = strlen (name);
      slash = strchr (name, '/');
      if (slash != NULL && slash > name && len == (gsize) (slash - name) + 1 + base_len &&
          strcmp (slash + 1, base) == 0)
        return i;
    }
  return -1;
}

static void
too_large (Reader     *r,
           const char *name,
           gsize       limit)
{
  if (limit >= 1024 * 1024)
    graft_set_error_at (r->error, r->archive_name, 1, 1, GRAFT_PARSE_ERROR_LIMIT,
                        "the member %s is larger than %" G_GSIZE_FORMAT " MiB", name,
                        limit / (1024 * 1024));
  else
    graft_set_error_at (r->error, r->archive_name, 1, 1, GRAFT_PARSE_ERROR_LIMIT,
                        "the member %s is larger than %" G_GSIZE_FORMAT " bytes", name, limit);
}

/* Reads member @idx, at most @limit bytes; NUL-terminates it. */
static char *
read_member (Reader     *r,
             zip_t      *za,
             zip_int64_t idx,
             gsize       limit,
             gsize      *out_len)
{
  const char *name = zip_get_name (za, (zip_uint64_t) idx, ZIP_FL_ENC_RAW);
  zip_stat_t  st;
  zip_file_t *zf;
  g_autoptr (GString) buf = NULL;
  char        chunk[65536];
  zip_int64_t got = 0;

  zip_stat_init (&st);
  if (zip_stat_index (za, (zip_uint64_t) idx, 0, &st) == 0 && (st.valid & ZIP_STAT_SIZE) != 0 &&
      st.size > limit)
    {
      too_large (r, name, limit);
      return NULL;
    }
  zf = zip_fopen_index (za, (zip_uint64_t) idx, 0);
  if (zf == NULL)
    {
      g_autofree char *why = zip_message (zip_get_error (za));

      archive_error (r, "cannot read the member %s: %s", name, why);
      return NULL;
    }
  buf = g_string_sized_new ((st.valid & ZIP_STAT_SIZE) != 0 ? (gsize) st.size + 1 : 4096);
  if ((st.valid & ZIP_STAT_SIZE) != 0)
    {
      /* The size the directory gives, read straight into place (a
       * million-node program's JSON is nearly a gigabyte); the loop
       * below takes whatever follows, and the end. */
      while (buf->len < (gsize) st.size &&
             (got = zip_fread (zf, buf->str + buf->len, (zip_uint64_t) st.size - buf->len)) > 0)
        {
          buf->len += (gsize) got;
          buf->str[buf->len] = '\0';
        }
    }
  while (got >= 0 && (got = zip_fread (zf, chunk, sizeof chunk)) > 0)
    {
      if (buf->len + (gsize) got > limit)
        {
          zip_fclose (zf);
          too_large (r, name, limit);
          return NULL;
        }
      g_string_append_len (buf, chunk, got);
    }
  if (got < 0)
    {
      g_autofree char *why = zip_message (zip_file_get_error (zf));

      zip_fclose (zf);
      archive_error (r, "cannot read the member %s: %s", name, why);
      return NULL;
    }
  zip_fclose (zf);
  *out_len = buf->len;
  return g_string_free (g_steal_pointer (&buf), FALSE);
}

/* ------------------------------------------------------------------ */
/* The JSON member read beside the check of its CRC
 *
 * libzip checks a member's CRC as it reads it whole: a third of reading
 * the member, and the member is nearly a gigabyte at a million nodes.  A
 * member stored as it is (torch stores them all) is read here as two
 * windows, which libzip does not check, while a thread of its own reads
 * it whole through a second handle on the same bytes, as read_member()
 * would, and keeps nothing of it; the JSON is parsed meanwhile.  Only
 * when that thread says all was well is the text used
 * (_graft_pt2_archive_wait()); otherwise the member is read again the
 * ordinary way, which gives the error it has always given ("CRC error"). */

struct _Pt2Check
{
  const char  *data; /* Borrowed: the archive's bytes, read-only on both threads */
  gsize        length;
  zip_uint64_t index;
  zip_uint64_t size; /* the member's, from the directory */
  GThread     *thread;
  gboolean     ok; /* set by the thread: read whole, as many bytes, no error */
};

static gpointer
check_member (gpointer data)
{
  Pt2Check     *check = data;
  zip_error_t   ze;
  zip_source_t *src;
  zip_t        *za;
  zip_file_t   *zf;
  char         *chunk = g_malloc (65536);
  zip_uint64_t  total = 0;
  zip_int64_t   got;

  zip_error_init (&ze);
  src = zip_source_buffer_create (check->data, check->length, 0, &ze);
  za = src != NULL ? zip_open_from_source (src, ZIP_RDONLY | ZIP_CHECKCONS, &ze) : NULL;
  if (za == NULL)
    {
      if (src != NULL)
        zip_source_free (src);
      zip_error_fini (&ze);
      g_free (chunk);
      return NULL;
    }
  zip_error_fini (&ze);
  zf = zip_fopen_index (za, check->index, 0);
  if (zf != NULL)
    {
      while ((got = zip_fread (zf, chunk, 65536)) > 0)
        total += (zip_uint64_t) got;
      check->ok = got == 0 && total == check->size;
      zip_fclose (zf);
    }
  zip_discard (za);
  g_free (chunk);
  return NULL;
}

/* The @len bytes at @start of the member @idx, without libzip's check
 * (a window of the member, not all of it); FALSE on any error. */
static gboolean
read_window (zip_t       *za,
             zip_int64_t  idx,
             zip_uint64_t start,
             zip_uint64_t len,
             char        *out)
{
  zip_source_t *src = zip_source_zip (za, za, (zip_uint64_t) idx, 0, start, (zip_int64_t) len);
  zip_uint64_t  done = 0;
  zip_int64_t   got = 0;

  if (src == NULL)
    return FALSE;
  if (zip_source_open (src) < 0)
    {
      zip_source_free (src);
      return FALSE;
    }
  while (done < len && (got = zip_source_read (src, out + done, len - done)) > 0)
    done += (zip_uint64_t) got;
  zip_source_close (src);
  zip_source_free (src);
  return got >= 0 && done == len;
}

/* The JSON member @idx when it is stored as it is: read without the
 * check, which a thread started here makes (r->check); %NULL when the
 * member is not such, or anything failed: then read_member() reads it. */
static char *
read_member_checked_aside (Reader      *r,
                           zip_t       *za,
                           zip_int64_t  idx,
                           GraftSource *archive,
                           gsize        limit,
                           gsize       *out_len)
{
  zip_stat_t st;
  char      *text;
  Pt2Check  *check;

  zip_stat_init (&st);
  if (zip_stat_index (za, (zip_uint64_t) idx, 0, &st) != 0 ||
      (st.valid & (ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE | ZIP_STAT_COMP_METHOD |
                   ZIP_STAT_ENCRYPTION_METHOD | ZIP_STAT_CRC)) !=
          (ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE | ZIP_STAT_COMP_METHOD |
           ZIP_STAT_ENCRYPTION_METHOD | ZIP_STAT_CRC) ||
      st.comp_method != ZIP_CM_STORE || st.encryption_method != ZIP_EM_NONE ||
      st.comp_size != st.size || st.size < 2 || st.size > limit)
    return NULL;
  text = g_try_malloc ((gsize) st.size + 1);
  if (text == NULL)
    return NULL;
  check = g_new0 (Pt2Check, 1);
  check->data = graft_source_get_text (archive);
  check->length = graft_source_get_length (archive);
  check->index = (zip_uint64_t) idx;
  check->size = st.size;
  check->thread = g_thread_try_new ("graft-pt2-crc", check_member, check, NULL);
  /* Two windows: libzip checks no window, however large. */
  if (check->thread == NULL || !read_window (za, idx, 0, st.size - 1, text) ||
      !read_window (za, idx, st.size - 1, 1, text + st.size - 1))
    {
      if (check->thread != NULL)
        g_thread_join (check->thread);
      g_free (check);
      g_free (text);
      return NULL;
    }
  text[st.size] = '\0';
  r->check = check;
  *out_len = (gsize) st.size;
  return text;
}

/* torch.export.load: the member `version` must be `MAJOR.MINOR` with the
 * major torch writes (split at dots as it is, not stripped). */
static gboolean
check_version (Reader     *r,
               const char *member_name,
               const char *text,
               gsize       len)
{
  g_autofree char *where = g_strconcat (r->archive_name, ":", member_name, NULL);
  g_autofree char *copy = g_strndup (text, len);
  g_auto (GStrv) parts = NULL;
  g_autoptr (GString) shown = g_string_new ("[");

  if (strlen (copy) != len || !g_utf8_validate (copy, -1, NULL))
    {
      graft_set_error_at (r->error, where, 1, 1, GRAFT_PARSE_ERROR_SYNTAX,
                          "the version is not UTF-8 text");
      return FALSE;
    }
  parts = g_strsplit (copy, ".", -1);
  if (g_strv_length (parts) == 2 && strcmp (parts[0], G_STRINGIFY (SCHEMA_MAJOR)) == 0)
    return TRUE;
  for (guint k = 0; parts[k] != NULL; k++)
    {
      if (k > 0)
        g_string_append (shown, ", ");
      graft_append_str_repr (shown, parts[k], strlen (parts[k]));
    }
  g_string_append_c (shown, ']');
  graft_set_error_at (r->error, where, 1, 1, GRAFT_PARSE_ERROR_UNSUPPORTED,
                      "serialized version %s does not match our current schema version (%d, %d)",
                      shown->str, SCHEMA_MAJOR, SCHEMA_MINOR);
  return FALSE;
}

/* r->member: the JSON text @json (taken), named ARCHIVE:MEMBER. */
static void
set_member (Reader *r,
            char   *json,
            gsize   json_len)
{
  g_autofree char *name = g_strconcat (r->archive_name, ":", r->member_name, NULL);

  r->member = graft_source_new_take (name, json, json_len);
}

/* Opens the archive and reads the JSON member (and checks `version`);
 * sets r->member.  The member's CRC may still be being checked: see
 * _graft_pt2_archive_wait(). */
gboolean
_graft_pt2_read_archive (Reader      *r,
                         GraftSource *archive)
{
  zip_error_t      ze;
  zip_source_t    *src;
  zip_t           *za;
  zip_int64_t      idx, version_idx;
  g_autofree char *member_name = NULL;
  g_autofree char *version_name = NULL;
  char            *json;
  gsize            json_len = 0;

  if (!graft_pt2_detect (archive))
    return archive_error (r, graft_source_get_length (archive) == 0
                                 ? "the file is empty, not a zip archive"
                                 : "not a zip archive (it does not start with PK\\3\\4)");
  zip_error_init (&ze);
  src = zip_source_buffer_create (graft_source_get_text (archive),
                                  graft_source_get_length (archive), 0, &ze);
  if (src == NULL)
    {
      g_autofree char *why = zip_message (&ze);

      zip_error_fini (&ze);
      return archive_error (r, "cannot read the zip archive: %s", why);
    }
  za = zip_open_from_source (src, ZIP_RDONLY | ZIP_CHECKCONS, &ze);
  if (za == NULL)
    {
      g_autofree char *why = zip_message (&ze);
      int              code = zip_error_code_zip (&ze);

      zip_source_free (src);
      zip_error_fini (&ze);
      if (code == ZIP_ER_NOZIP)
        return archive_error (r, "not a zip archive (truncated?): it has no zip directory");
      return archive_error (r, "cannot read the zip archive: %s", why);
    }
  zip_error_fini (&ze);

  idx = find_member (za, MEMBER_NAME);
  if (idx < 0)
    {
      zip_discard (za);
      return archive_error (r, "the archive has no member %s: not a torch.export program",
                            MEMBER_NAME);
    }
  member_name = g_strdup (zip_get_name (za, (zip_uint64_t) idx, ZIP_FL_ENC_RAW));
  /* `version` beside the JSON member. */
  version_name = g_strdup_printf ("%.*sversion",
                                  (int) (strlen (member_name) - strlen (MEMBER_NAME)), member_name);
  version_idx = zip_name_locate (za, version_name, 0);
  if (version_idx < 0)
    {
      zip_discard (za);
      return archive_error (r, "the archive has no member %s, which torch.export.load needs",
                            version_name);
    }
  {
    gsize    vlen = 0;
    char    *version = read_member (r, za, version_idx, 64, &vlen);
    gboolean ok = version != NULL && check_version (r, version_name, version, vlen);

    g_free (version);
    if (!ok)
      {
        zip_discard (za);
        return FALSE;
      }
  }
  json = read_member_checked_aside (r, za, idx, archive, GRAFT_MAX_JSON_BYTES, &json_len);
  if (json != NULL)
    {
      r->zip = za;
      r->member_index = idx;
    }
  else
    {
      json = read_member (r, za, idx, GRAFT_MAX_JSON_BYTES, &json_len);
      zip_discard (za);
      if (json == NULL)
        return FALSE;
    }
  r->member_name = g_steal_pointer (&member_name);
  set_member (r, json, json_len);
  return TRUE;
}

/**
 * Waits for the check of the member's CRC, when a thread makes it:
 * %PT2_CHECKED when the text read is the member's (or there was no
 * thread); %PT2_REREAD when the member had to be read again and was
 * (r->member is the new text, to be parsed again); %PT2_CHECK_FAILED with
 * the error of reading it the ordinary way.
 */
Pt2CheckResult
_graft_pt2_archive_wait (Reader *r)
{
  Pt2Check *check = r->check;
  char     *json;
  gsize     json_len = 0;
  gboolean  ok;

  if (check == NULL)
    return PT2_CHECKED;
  g_thread_join (check->thread);
  ok = check->ok;
  g_clear_pointer (&r->check, g_free);
  if (ok)
    {
      g_clear_pointer (&r->zip, zip_discard);
      return PT2_CHECKED;
    }
  json = read_member (r, r->zip, r->member_index, GRAFT_MAX_JSON_BYTES, &json_len);
  g_clear_pointer (&r->zip, zip_discard);
  if (json == NULL)
    return PT2_CHECK_FAILED;
  g_clear_pointer (&r->member, graft_source_unref);
  set_member (r, json, json_len);
  return PT2_REREAD;
}

/* Waits for the thread if it runs, and lets the archive go; for a reader
 * that ends early. */
void
_graft_pt2_archive_clear (Reader *r)
{
  if (r->check != NULL)
    {
      g_thread_join (r->check->thread);
      g_clear_pointer (&r->check, g_free);
    }
  g_clear_pointer (&r->zip, zip_discard);
  g_clear_pointer (&r->member_name, g_free);
}
