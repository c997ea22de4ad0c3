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
#include "graft-source-private.h"

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
 * member stored as it is (torch stores them all) is not copied at all:
 * its text is the archive's bytes where libzip reads them (find_data()),
 * a view of the archive's source that is never written, and parsed in
 * place, while a thread of its own reads the member whole through a
 * second handle on the same bytes, as read_member() would, and keeps
 * nothing of it.  Only
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

/* The archive's bytes as a libzip source that remembers where its last
 * read began: reading a window of a member stored as it is reads the
 * archive at the member's data (find_data()). */
typedef struct
{
  const char  *data;
  zip_uint64_t length;
  zip_uint64_t pos;
  zip_uint64_t last_read;
  zip_error_t  error;
} Traced;

static zip_int64_t
traced_source (void            *state,
               void            *out,
               zip_uint64_t     len,
               zip_source_cmd_t cmd)
{
  Traced *t = state;

  switch ((int) cmd) /* the write commands and the rest: not supported */
    {
    case ZIP_SOURCE_OPEN:
      t->pos = 0;
      return 0;
    case ZIP_SOURCE_READ:
      {
        zip_uint64_t n = MIN (len, t->length - MIN (t->pos, t->length));

        t->last_read = t->pos;
        if (n > 0)
          memcpy (out, t->data + t->pos, n);
        t->pos += n;
        return (zip_int64_t) n;
      }
    case ZIP_SOURCE_CLOSE:
    case ZIP_SOURCE_FREE:
      return 0;
    case ZIP_SOURCE_STAT:
      {
        zip_stat_t *st = out;

        if (len < sizeof *st)
          {
            zip_error_set (&t->error, ZIP_ER_INVAL, 0);
            return -1;
          }
        zip_stat_init (st);
        st->size = t->length;
        st->comp_size = t->length;
        st->comp_method = ZIP_CM_STORE;
        st->encryption_method = ZIP_EM_NONE;
        st->valid = ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE | ZIP_STAT_COMP_METHOD |
                    ZIP_STAT_ENCRYPTION_METHOD;
        return sizeof *st;
      }
    case ZIP_SOURCE_ERROR:
      return zip_error_to_data (&t->error, out, len);
    case ZIP_SOURCE_SEEK:
      {
        zip_int64_t pos =
            zip_source_seek_compute_offset (t->pos, t->length, out, len, &t->error);

        if (pos < 0)
          return -1;
        t->pos = (zip_uint64_t) pos;
        return 0;
      }
    case ZIP_SOURCE_TELL:
      return (zip_int64_t) t->pos;
    case ZIP_SOURCE_SUPPORTS:
      return zip_source_make_command_bitmap (ZIP_SOURCE_OPEN, ZIP_SOURCE_READ, ZIP_SOURCE_CLOSE,
                                             ZIP_SOURCE_STAT, ZIP_SOURCE_ERROR, ZIP_SOURCE_FREE,
                                             ZIP_SOURCE_SEEK, ZIP_SOURCE_TELL,
                                             ZIP_SOURCE_SUPPORTS, -1);
    default:
      zip_error_set (&t->error, ZIP_ER_OPNOTSUPP, 0);
      return -1;
    }
}

/* One byte of the member @idx, at @start, through libzip (a window,
 * which it does not check); where in the archive it was read, or -1. */
static gint64
traced_byte (zip_t       *za,
             Traced      *traced,
             zip_int64_t  idx,
             zip_uint64_t start,
             char        *out)
{
  zip_source_t *src = zip_source_zip (za, za, (zip_uint64_t) idx, 0, start, 1);
  zip_int64_t   got;

  if (src == NULL)
    return -1;
  if (zip_source_open (src) < 0)
    {
      zip_source_free (src);
      return -1;
    }
  traced->last_read = G_MAXUINT64;
  got = zip_source_read (src, out, 1);
  zip_source_close (src);
  zip_source_free (src);
  return got == 1 && traced->last_read < traced->length ? (gint64) traced->last_read : -1;
}

/* Where the data of the member @idx, stored as it is and @size bytes
 * long, starts in the archive's @length bytes at @data, or -1: found by
 * a second handle on the same bytes (libzip tells no member's place),
 * which reads the member's first and last bytes where the data must lie
 * and reads them equal to the archive's there. */
static gint64
find_data (const char  *data,
           gsize        length,
           zip_int64_t  idx,
           const char  *name,
           zip_uint64_t size)
{
  Traced        traced = { data, length, 0, 0, { 0 } };
  zip_error_t   ze;
  zip_source_t *src;
  zip_t        *za;
  zip_stat_t    st;
  gint64        first = -1, last = -1;
  char          a = 0, b = 0;
  const char   *found;

  zip_error_init (&traced.error);
  zip_error_init (&ze);
  src = zip_source_function_create (traced_source, &traced, &ze);
  za = src != NULL ? zip_open_from_source (src, ZIP_RDONLY, &ze) : NULL;
  zip_error_fini (&ze);
  if (za == NULL)
    {
      if (src != NULL)
        zip_source_free (src);
      zip_error_fini (&traced.error);
      return -1;
    }
  zip_stat_init (&st);
  found = zip_get_name (za, (zip_uint64_t) idx, ZIP_FL_ENC_RAW);
  if (found != NULL && strcmp (found, name) == 0 &&
      zip_stat_index (za, (zip_uint64_t) idx, 0, &st) == 0 &&
      (st.valid & (ZIP_STAT_SIZE | ZIP_STAT_COMP_METHOD)) ==
          (ZIP_STAT_SIZE | ZIP_STAT_COMP_METHOD) &&
      st.size == size && st.comp_method == ZIP_CM_STORE)
    {
      first = traced_byte (za, &traced, idx, 0, &a);
      last = traced_byte (za, &traced, idx, size - 1, &b);
    }
  zip_discard (za);
  zip_error_fini (&traced.error);
  if (first < 0 || last != first + (gint64) size - 1 || (guint64) last >= length ||
      data[first] != a || data[last] != b)
    return -1;
  return first;
}

/* The JSON member @idx when it is stored as it is: read in place, without
 * the check, which a thread started here makes (r->check); %FALSE when
 * the member is not such, or anything failed: then read_member() reads
 * it. */
static gboolean
read_member_in_place (Reader      *r,
                      zip_t       *za,
                      zip_int64_t  idx,
                      const char  *member_name,
                      GraftSource *archive,
                      gsize        limit)
{
  zip_stat_t       st;
  Pt2Check        *check;
  gint64           at;
  g_autofree char *name = NULL;

  zip_stat_init (&st);
  if (zip_stat_index (za, (zip_uint64_t) idx, 0, &st) != 0 ||
      (st.valid & (ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE | ZIP_STAT_COMP_METHOD |
                   ZIP_STAT_ENCRYPTION_METHOD | ZIP_STAT_CRC)) !=
          (ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE | ZIP_STAT_COMP_METHOD |
           ZIP_STAT_ENCRYPTION_METHOD | ZIP_STAT_CRC) ||
      st.comp_method != ZIP_CM_STORE || st.encryption_method != ZIP_EM_NONE ||
      st.comp_size != st.size || st.size < 2 || st.size > limit)
    return FALSE;
  at = find_data (graft_source_get_text (archive), graft_source_get_length (archive), idx,
                  member_name, st.size);
  if (at < 0)
    return FALSE;
  check = g_new0 (Pt2Check, 1);
  check->data = graft_source_get_text (archive);
  check->length = graft_source_get_length (archive);
  check->index = (zip_uint64_t) idx;
  check->size = st.size;
  check->thread = g_thread_try_new ("graft-pt2-crc", check_member, check, NULL);
  if (check->thread == NULL)
    {
      g_free (check);
      return FALSE;
    }
  r->check = check;
  name = g_strconcat (r->archive_name, ":", member_name, NULL);
  r->member = _graft_source_new_view (name, archive, (gsize) at, (gsize) st.size);
  r->in_place = TRUE;
  return TRUE;
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
  if (read_member_in_place (r, za, idx, member_name, archive, GRAFT_MAX_JSON_BYTES))
    {
      r->zip = za;
      r->member_index = idx;
      r->member_name = g_steal_pointer (&member_name);
      return TRUE;
    }
  json = read_member (r, za, idx, GRAFT_MAX_JSON_BYTES, &json_len);
  zip_discard (za);
  if (json == NULL)
    return FALSE;
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
  r->in_place = FALSE;
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
