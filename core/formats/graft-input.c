/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-input.c: recognises an input by its content (cli.md: Python source,
 * an FX graph listing starting with `graph():`, or a DOT graph starting with
 * `digraph`, after DOT comments; an undirected `graph {` counts as DOT too,
 * for the DOT reader to refuse it; a zip archive, a torch.export `.pt2`;
 * the two texts torch prints for a torch.export program,
 * graft-program-text.c), hands it to the matching reader, and
 * resolves `FILE:NAME` references to patterns and replacements.
 */
#include "config.h"

#include "graft-input.h"
#include "graft-dot.h"
#include "graft-error.h"
#include "graft-listing.h"
#include "graft-program.h"
#include "graft-input-archive-private.h"
#include "graft-py-parser.h"
#include "graft-source-private.h"
#include "graft-strbuf-private.h"
#include "graft-limits.h"
#include "graft-py-program.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* An archive (a regular file that starts as a zip archive does, within
 * GRAFT_MAX_ARCHIVE_BYTES) mapped rather than read: its bytes are only
 * ever read through libzip, which copies what it reads, and reading a
 * million-node `.pt2` into memory of its own was 0.93 GB of fresh pages
 * (a fifth of the page faults of opening it).  NULL when the file is no
 * such archive or cannot be mapped; then it is read. */
static GraftSource *
map_archive (const char *path)
{
  struct stat  st;
  char         magic[4];
  GraftSource *source = NULL;
  int          fd;

  /* Only a regular file is opened here: a named pipe opened and closed
   * would lose its writer (and wait for one first). */
  if (stat (path, &st) != 0 || !S_ISREG (st.st_mode))
    return NULL;
  fd = open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return NULL;
  if (fstat (fd, &st) == 0 && S_ISREG (st.st_mode) && st.st_size >= 4 &&
      (guint64) st.st_size <= GRAFT_MAX_ARCHIVE_BYTES &&
      pread (fd, magic, sizeof magic, 0) == sizeof magic &&
      memcmp (magic, "PK\x03\x04", 4) == 0)
    source = _graft_source_new_mapped (path, fd, (gsize) st.st_size);
  close (fd);
  return source;
}

static const char *
skip_space (const char *p,
            const char *end)
{
  while (p < end &&
         (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v'))
    p++;
  return p;
}

static gboolean
starts_with_word (const char *p,
                  const char *end,
                  const char *word)
{
  gsize n = strlen (word);

  return (gsize) (end - p) >= n && memcmp (p, word, n) == 0 &&
         ((gsize) (end - p) == n || !(g_ascii_isalnum (p[n]) || p[n] == '_'));
}

/* Skips white space and DOT's line and block comments, which can start
 * neither Python nor a listing. */
static const char *
skip_space_and_comments (const char *p,
                         const char *end)
{
  for (;;)
    {
      p = skip_space (p, end);
      if (end - p >= 2 && p[0] == '/' && p[1] == '/')
        {
          const char *nl = memchr (p, '\n', end - p);

          p = nl != NULL ? nl : end;
        }
      else if (end - p >= 2 && p[0] == '/' && p[1] == '*')
        {
          const char *close = g_strstr_len (p + 2, end - p - 2, "*/");

          p = close != NULL ? close + 2 : end;
        }
      else
        return p;
    }
}

/* Whether @p starts a DOT graph's header, `[strict] (digraph|graph) [ID] {`
 * (a listing has `graph(`). */
static gboolean
starts_dot_header (const char *p,
                   const char *end)
{
  if (starts_with_word (p, end, "strict"))
    p = skip_space_and_comments (p + 6, end);
  if (starts_with_word (p, end, "digraph"))
    p += 7;
  else if (starts_with_word (p, end, "graph"))
    p += 5;
  else
    return FALSE;
  p = skip_space_and_comments (p, end);
  if (p < end && *p == '"')
    {
      for (p++; p < end && *p != '"'; p++)
        if (*p == '\\' && p + 1 < end)
          p++;
      p++;
    }
  else
    while (p < end &&
           (g_ascii_isalnum (*p) || *p == '_' || *p == '.' || *p == '-' || (guchar) *p >= 0x80))
      p++;
  p = skip_space_and_comments (p, end);
  return p < end && *p == '{';
}

/* Skips lines that start with `#` (which DOT ignores and Python reads as
 * comments) and DOT comments. */
static const char *
skip_hash_lines (const char *p,
                 const char *end)
{
  while (p < end && *p == '#')
    {
      const char *nl = memchr (p, '\n', end - p);

      p = skip_space_and_comments (nl != NULL ? nl : end, end);
    }
  return p;
}

/* Whether @fp, at its start, starts as a zip archive does (`PK\3\4`);
 * leaves it at its start. */
static gboolean
starts_as_archive (FILE *fp)
{
  char     magic[4];
  gboolean archive = fread (magic, 1, 4, fp) == 4 && memcmp (magic, "PK\x03\x04", 4) == 0;

  rewind (fp);
  return archive;
}

/* Opens @path to be read to its end.  A regular file or a device that
 * is not a terminal is read without waiting (O_NONBLOCK): some wait for
 * data that may never come (/proc/kmsg and /dev/kmsg wait for the
 * kernel's next message, forever on a quiet machine), and cli.md
 * promises that no input hangs graft; such a read fails with EAGAIN
 * (read_error_text()).  A file on disk ignores the flag.  A FIFO or a
 * terminal is waited for, as standard input is: someone writes to it.
 * NULL with errno set when it cannot be opened. */
static FILE *
open_input (const char *path)
{
  struct stat st;
  FILE       *fp;
  int         flags = O_RDONLY | O_CLOEXEC;
  int         fd;

  if (stat (path, &st) == 0 && (S_ISREG (st.st_mode) || S_ISCHR (st.st_mode)))
    flags |= O_NONBLOCK;
  do
    fd = open (path, flags);
  while (fd < 0 && errno == EINTR);
  if (fd < 0)
    return NULL;
  if ((flags & O_NONBLOCK) != 0 && isatty (fd))
    fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK);
  fp = fdopen (fd, "rb");
  if (fp == NULL)
    {
      int saved_errno = errno;

      close (fd);
      errno = saved_errno;
    }
  return fp;
}

/* What a failed read says: a file that would have waited for data says
 * so (open_input()), not "Resource temporarily unavailable". */
static const char *
read_error_text (int saved_errno)
{
  if (saved_errno == EAGAIN || saved_errno == EWOULDBLOCK)
    return "it waits for data that may never come";
  return g_strerror (saved_errno);
}

/**
 * graft_input_read_file:
 * @path: a file path, or `-` for standard input
 * @error: return location for a #GRAFT_PARSE_ERROR at `PATH:1:1`
 *
 * Reads a whole file.  Inputs larger than %GRAFT_MAX_INPUT_BYTES are refused,
 * or than %GRAFT_MAX_ARCHIVE_BYTES for a file that starts as a zip archive
 * does (a `.pt2`).
 *
 * Returns: (transfer full) (nullable): the source, or %NULL with @error set
 */
GraftSource *
graft_input_read_file (const char *path,
                       GError    **error)
{
  g_autoptr (GString) buf = NULL;
  FILE       *fp;
  gboolean    is_stdin;
  gboolean    is_file;
  char        chunk[65536];
  size_t      n;
  int         saved_errno = 0;
  gsize       length;
  guint       limit = GRAFT_MAX_INPUT_BYTES;
  struct stat st;

  g_return_val_if_fail (path != NULL, NULL);

  is_stdin = g_str_equal (path, "-");
  if (!is_stdin)
    {
      GraftSource *mapped = map_archive (path);

      if (mapped != NULL)
        return mapped;
    }
  fp = is_stdin ? stdin : open_input (path);
  if (fp == NULL)
    {
      saved_errno = errno;
      graft_set_file_error (error, path, GRAFT_ERROR_IO,
                            "cannot read the file: %s", g_strerror (saved_errno));
      return NULL;
    }

  is_file = !is_stdin && fstat (fileno (fp), &st) == 0 && S_ISREG (st.st_mode);
  if (is_file && (guint64) st.st_size > GRAFT_MAX_INPUT_BYTES && !starts_as_archive (fp))
    {
      /* Too large for a text, known from its size: refused before
       * reading 256 MiB of it (2 s and as much memory for 300 MB). */
      fclose (fp);
      graft_set_error_at (error, path, 1, 1, GRAFT_PARSE_ERROR_LIMIT,
                          "the input is larger than %u MiB", limit / (1024u * 1024u));
      return NULL;
    }
  /* A regular file's buffer has its size from the start (a large archive
   * is not grown and copied again and again), and is read straight into
   * place, not through a chunk copied after it. */
  if (is_file && st.st_size > 0 && (guint64) st.st_size <= GRAFT_MAX_ARCHIVE_BYTES)
    {
      /* A text's limit first: an archive's only once it starts as one. */
      gsize size = (gsize) st.st_size;
      gsize first = MIN (size, (gsize) limit + 1);

      /* Not rounded up to a power of two: at 2.5 MB, 1.6 MB more would
       * push the heap's later blocks up by that much (and a huge page
       * further in the CLI's). */
      buf = _graft_buf_new_exact (size + 1);
      n = fread (buf->str, 1, first, fp);
      if (n >= 4 && memcmp (buf->str, "PK\x03\x04", 4) == 0)
        {
          limit = GRAFT_MAX_ARCHIVE_BYTES;
          if (n == first && size > first)
            n += fread (buf->str + n, 1, size - first, fp);
        }
      if (n > limit)
        {
          fclose (fp);
          graft_set_error_at (error, path, 1, 1, GRAFT_PARSE_ERROR_LIMIT,
                              "the input is larger than %u MiB", limit / (1024u * 1024u));
          return NULL;
        }
      buf->len = n;
      buf->str[n] = '\0';
    }
  else
    buf = g_string_sized_new (sizeof chunk);
  while ((n = fread (chunk, 1, sizeof chunk, fp)) > 0)
    {
      /* An archive may be larger than a text (its first read decides). */
      if (buf->len == 0 && n >= 4 && memcmp (chunk, "PK\x03\x04", 4) == 0)
        limit = GRAFT_MAX_ARCHIVE_BYTES;
      if (buf->len + n > limit)
        {
          if (!is_stdin)
            fclose (fp);
          graft_set_error_at (error, path, 1, 1, GRAFT_PARSE_ERROR_LIMIT,
                              "the input is larger than %u MiB", limit / (1024u * 1024u));
          return NULL;
        }
      g_string_append_len (buf, chunk, n);
    }
  if (ferror (fp))
    saved_errno = errno != 0 ? errno : EIO;
  if (!is_stdin)
    fclose (fp);
  if (saved_errno != 0)
    {
      graft_set_file_error (error, path, GRAFT_ERROR_IO,
                            "cannot read the file: %s", read_error_text (saved_errno));
      return NULL;
    }

  length = buf->len;
  return graft_source_new_take (path, g_string_free (g_steal_pointer (&buf), FALSE), length);
}

/**
 * graft_pt2_detect:
 *
 * Returns: whether @source starts as a zip archive does (`PK\3\4`), as a
 *   `.pt2` does
 */
gboolean
graft_pt2_detect (GraftSource *source)
{
  return graft_source_get_length (source) >= 4 &&
         memcmp (graft_source_get_text (source), "PK\x03\x04", 4) == 0;
}

/**
 * graft_input_detect:
 *
 * Returns: the kind of @source: an archive by its first four bytes (or a
 *   name ending in `.pt2`); else by its first word after white space and
 *   DOT comments (after `#` lines, only a whole DOT header counts as DOT);
 *   a program's text as graft_program_text_detect() tells it
 */
GraftInputKind
graft_input_detect (GraftSource *source)
{
  const char *text = graft_source_get_text (source);
  const char *end = text + graft_source_get_length (source);
  const char *p = skip_space (text, end);

  /* An archive by its content, or by its name: a `.pt2` that is no zip
   * is a bad archive, not Python. */
  if (graft_pt2_detect (source) || g_str_has_suffix (graft_source_get_filename (source), ".pt2"))
    return GRAFT_INPUT_ARCHIVE;
  /* A UTF-8 byte order mark is not content. */
  if (end - p >= 3 && memcmp (p, "\xEF\xBB\xBF", 3) == 0)
    p = skip_space (p + 3, end);
  p = skip_space_and_comments (p, end);
  if (starts_with_word (p, end, "graph") && skip_space (p + 5, end) < end &&
      *skip_space (p + 5, end) == '(')
    return GRAFT_INPUT_LISTING;
  if (starts_with_word (p, end, "digraph") || starts_dot_header (p, end) ||
      starts_dot_header (skip_hash_lines (p, end), end))
    return GRAFT_INPUT_DOT;
  if (starts_with_word (p, end, "strict"))
    {
      const char *q = skip_space_and_comments (p + 6, end);

      if (starts_with_word (q, end, "digraph") || starts_with_word (q, end, "graph"))
        return GRAFT_INPUT_DOT;
    }
  switch (graft_program_text_detect (source))
    {
    case GRAFT_PROGRAM_TEXT_EXPORTED:
      return GRAFT_INPUT_EXPORTED_PROGRAM;
    case GRAFT_PROGRAM_TEXT_READABLE:
      return GRAFT_INPUT_READABLE_PROGRAM;
    case GRAFT_PROGRAM_TEXT_NONE:
    default:
      return GRAFT_INPUT_PYTHON;
    }
}

/**
 * graft_input_load_graph:
 * @source: the input
 * @dialect: the torch the graph follows
 * @entry: (nullable): for Python, the class or function to trace
 * @error: return location for a located error
 *
 * Returns: (transfer full) (nullable): the graph @source stands for
 */
GraftGraph *
graft_input_load_graph (GraftSource        *source,
                        const GraftDialect *dialect,
                        const char         *entry,
                        GError            **error)
{
  switch (graft_input_detect (source))
    {
    case GRAFT_INPUT_LISTING:
      return graft_listing_parse (source, dialect, error);
    case GRAFT_INPUT_DOT:
      return graft_dot_parse (source, dialect, error);
    case GRAFT_INPUT_ARCHIVE:
      return _graft_input_read_archive (source, dialect, NULL, error);
    case GRAFT_INPUT_EXPORTED_PROGRAM:
    case GRAFT_INPUT_READABLE_PROGRAM:
      return graft_program_text_parse (source, dialect, error);
    case GRAFT_INPUT_PYTHON:
    default:
      return graft_trace_source (source, dialect, entry, error);
    }
}

/**
 * graft_input_parse_ref:
 * @ref: (nullable): `FILE:NAME`, `NAME` or `FILE`
 * @default_file: the file when @ref names none
 * @default_name: the name when @ref names none
 * @out_file: (out) (transfer full): the file
 * @out_name: (out) (transfer full): the name
 *
 * Splits a pattern or replacement reference as cli.md says: a value that
 * names an existing file, or ends in `.py`, is a FILE; `FILE:NAME` splits
 * at the last colon.
 */
void
graft_input_parse_ref (const char *ref,
                       const char *default_file,
                       const char *default_name,
                       char      **out_file,
                       char      **out_name)
{
  const char *colon;

  if (ref == NULL || *ref == '\0')
    {
      *out_file = g_strdup (default_file);
      *out_name = g_strdup (default_name);
      return;
    }
  colon = strrchr (ref, ':');
  if (colon != NULL)
    {
      *out_file = colon > ref ? g_strndup (ref, colon - ref) : g_strdup (default_file);
      *out_name = colon[1] != '\0' ? g_strdup (colon + 1) : g_strdup (default_name);
      return;
    }
  if (g_str_has_suffix (ref, ".py") || g_file_test (ref, G_FILE_TEST_IS_REGULAR))
    {
      *out_file = g_strdup (ref);
      *out_name = g_strdup (default_name);
      return;
    }
  *out_file = g_strdup (default_file);
  *out_name = g_strdup (ref);
}

struct _GraftInputSet
{
  const GraftDialect *dialect; /* static */

  /* Owned */
  GHashTable *sources;  /* path -> GraftSource */
  GHashTable *programs; /* path -> GraftPyProgram */
  GPtrArray  *kept;     /* the parsed JSON of archives read */
};

/**
 * graft_input_set_new:
 * @dialect: the torch every graph of the set follows
 *
 * A set of input files, each read and parsed once however often it is
 * named: a model file is often also its own pattern's file.  What parsing
 * made (syntax trees, an archive's parsed JSON) lives as long as the set,
 * so that a program that exits without freeing it never pays for freeing
 * it.
 *
 * Returns: (transfer full): the set
 */
GraftInputSet *
graft_input_set_new (const GraftDialect *dialect)
{
  GraftInputSet *self = g_new0 (GraftInputSet, 1);

  self->dialect = dialect;
  self->sources =
      g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) graft_source_unref);
  self->programs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                          (GDestroyNotify) graft_py_program_free);
  self->kept = g_ptr_array_new_with_free_func (_graft_input_archive_free_kept);
  return self;
}

void
graft_input_set_free (GraftInputSet *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->kept);
  g_hash_table_unref (self->programs);
  g_hash_table_unref (self->sources);
  g_free (self);
}

/**
 * graft_input_set_get_source:
 * @path: a file path, or `-` for standard input
 *
 * Returns: (transfer none) (nullable): the file's text, read once
 */
GraftSource *
graft_input_set_get_source (GraftInputSet *self,
                            const char    *path,
                            GError       **error)
{
  GraftSource *source = g_hash_table_lookup (self->sources, path);

  if (source == NULL)
    {
      source = graft_input_read_file (path, error);
      if (source == NULL)
        return NULL;
      g_hash_table_insert (self->sources, g_strdup (path), source);
    }
  return source;
}

/**
 * graft_input_set_peek_source:
 * @path: a file, or `-`
 *
 * Returns: (nullable) (transfer none): @path's text if the set has read it
 *   already, without reading it otherwise
 */
GraftSource *
graft_input_set_peek_source (GraftInputSet *self,
                             const char    *path)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_hash_table_lookup (self->sources, path);
}

/**
 * graft_input_set_get_program:
 * @path: a Python file, or `-`
 * @error: return location for a located error
 *
 * Returns: (transfer none) (nullable): @path parsed and its module body
 *   run, once however often it is asked for
 */
GraftPyProgram *
graft_input_set_get_program (GraftInputSet *self,
                             const char    *path,
                             GError       **error)
{
  GraftPyProgram *program = g_hash_table_lookup (self->programs, path);
  GraftSource    *source;

  if (program != NULL)
    return program;
  source = graft_input_set_get_source (self, path, error);
  if (source == NULL)
    return NULL;
  program = graft_py_program_new (source, self->dialect, error);
  if (program == NULL)
    return NULL;
  g_hash_table_insert (self->programs, g_strdup (path), program);
  return program;
}

/**
 * graft_input_set_get_dialect:
 *
 * Returns: (transfer none): the torch the set's graphs follow
 */
const GraftDialect *
graft_input_set_get_dialect (GraftInputSet *self)
{
  return self->dialect;
}

/**
 * graft_input_set_load:
 * @path: the file
 * @name: (nullable): the class or function to trace in a Python file
 * @is_ref: %TRUE for a pattern or replacement (cli.md's REF): a missing
 *   @name is then an error naming the reference; %FALSE for INPUT, where
 *   @name is `--entry` and the usual entry rules apply
 * @error: return location for a located error
 *
 * Returns: (transfer full) (nullable): the graph the file stands for: the
 *   traced entry of a Python file, or a listing's graph
 */
GraftGraph *
graft_input_set_load (GraftInputSet *self,
                      const char    *path,
                      const char    *name,
                      gboolean       is_ref,
                      GError       **error)
{
  GraftSource    *source = graft_input_set_get_source (self, path, error);
  GraftPyProgram *program;

  if (source == NULL)
    return NULL;
  if (graft_input_detect (source) == GRAFT_INPUT_ARCHIVE)
    {
      /* The parsed JSON lives as long as the set, which a program about to
       * exit does not free (the `graft` CLI). */
      gpointer    kept = NULL;
      GraftGraph *graph = _graft_input_read_archive (source, self->dialect, &kept, error);

      if (kept != NULL)
        g_ptr_array_add (self->kept, kept);
      return graph;
    }
  if (graft_input_detect (source) != GRAFT_INPUT_PYTHON)
    return graft_input_load_graph (source, self->dialect, is_ref ? NULL : name, error);
  if (!is_ref && g_hash_table_lookup (self->programs, path) == NULL)
    {
      GraftGraph *graph = NULL;

      /* Read and traced in one go, the forward's tree never whole. */
      program = graft_py_program_new_traced (source, self->dialect, name, &graph, error);
      if (program == NULL)
        return NULL;
      g_hash_table_insert (self->programs, g_strdup (path), program);
      return graph;
    }
  program = graft_input_set_get_program (self, path, error);
  if (program == NULL)
    return NULL;
  if (is_ref && !graft_py_program_has_entry (program, name))
    {
      g_autoptr (GraftPyModule) module = graft_py_parse (source, NULL);
      g_autofree char *candidates =
          module != NULL ? graft_py_module_dup_definition_names (module) : g_strdup ("none");
      gsize start;
      gsize end;

      /* At the definition the user most likely meant (`def patern`), else
       * at the file (cli.md): the name was given on the command line. */
      if (module != NULL &&
          graft_py_module_locate_similar_definition (module, name, &start, &end))
        graft_set_error_at_offset (error, source, start, end, GRAFT_PARSE_ERROR_NAME,
                                   "no pattern or replacement named '%s'; candidates: %s", name,
                                   candidates);
      else
        graft_set_error_at (error, path, 1, 1, GRAFT_PARSE_ERROR_NAME,
                            "no pattern or replacement named '%s'; candidates: %s", name,
                            candidates);
      return NULL;
    }
  return graft_py_program_trace (program, name, error);
}

/* The first function or class defined in @body or in the blocks of its
 * compound statements (an `if`, a loop, a `with`, a `try`), or %NULL. */
static const GraftPyStmt *
find_nested_definition (const GraftPyStmtList *body)
{
  for (guint i = 0; i < body->len; i++)
    {
      const GraftPyStmt     *stmt = body->items[i];
      const GraftPyStmtList *block;
      const GraftPyStmt     *found = NULL;

      if (graft_py_stmt_get_definition_name (stmt) != NULL)
        return stmt;
      for (guint b = 0; found == NULL && (block = graft_py_stmt_get_block (stmt, b)) != NULL; b++)
        found = find_nested_definition (block);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The top-level function or class a pattern or replacement text stands
 * for: the one named @name, else the first one; %NULL when there is none. */
static const GraftPyStmt *
choose_definition (const GraftPyStmtList *body,
                   const char            *name)
{
  const GraftPyStmt *first = NULL;

  for (guint i = 0; i < body->len; i++)
    {
      const char *defined = graft_py_stmt_get_definition_name (body->items[i]);

      if (defined == NULL)
        continue;
      if (strcmp (defined, name) == 0)
        return body->items[i];
      if (first == NULL)
        first = body->items[i];
    }
  return first;
}

/**
 * graft_input_dup_entry:
 * @source: the text of a pattern or of a replacement (an editor's)
 * @name: `pattern` or `replacement`: the name the entry has by default
 * @error: return location for a located #GRAFT_PARSE_ERROR
 *
 * The class or function such a text stands for: its top-level function or
 * class named @name, else the first top-level function or class it
 * defines, so that a text holding one `class BnRelu(nn.Module)` or one
 * `def relu_add(a, b)` needs no particular name.  A text that defines
 * neither is an error, located at a definition nested in a block if there
 * is one (it would count at the top level), else at 1:1.
 *
 * Returns: (transfer full) (nullable): the entry's name, or %NULL with
 *   @error set when @source does not parse or defines no function or class
 *   at its top level
 */
char *
graft_input_dup_entry (GraftSource *source,
                       const char  *name,
                       GError     **error)
{
  g_autoptr (GraftPyModule) module = NULL;
  const GraftPyStmt *entry;
  const GraftPyStmt *nested;

  g_return_val_if_fail (source != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  module = graft_py_parse (source, error);
  if (module == NULL)
    return NULL;
  entry = choose_definition (graft_py_module_get_body (module), name);
  if (entry != NULL)
    return g_strdup (graft_py_stmt_get_definition_name (entry));
  nested = find_nested_definition (graft_py_module_get_body (module));
  if (nested != NULL)
    {
      const char *text = graft_source_get_text (source);
      const char *nl = memchr (text + nested->start, '\n', nested->end - nested->start);

      graft_set_error_at_offset (error, source, nested->start,
                                 nl != NULL ? (gsize) (nl - text) : nested->end,
                                 GRAFT_PARSE_ERROR_NAME,
                                 "'%s' is defined inside a block: define the %s as a function or "
                                 "a torch.nn.Module class at the top level",
                                 graft_py_stmt_get_definition_name (nested), name);
    }
  else
    graft_set_error_at (error, graft_source_get_filename (source), 1, 1, GRAFT_PARSE_ERROR_NAME,
                        "define the %s as a function or a torch.nn.Module class", name);
  return NULL;
}

/**
 * graft_input_trace_entry:
 * @source: the text of a pattern or of a replacement
 * @dialect: the torch to trace it as
 * @name: `pattern` or `replacement`
 * @error: return location for a located error
 *
 * Traces the entry graft_input_dup_entry() chooses in @source.
 *
 * Returns: (transfer full) (nullable): the graph
 */
GraftGraph *
graft_input_trace_entry (GraftSource        *source,
                         const GraftDialect *dialect,
                         const char         *name,
                         GError            **error)
{
  g_autofree char *entry = graft_input_dup_entry (source, name, error);

  if (entry == NULL)
    return NULL;
  return graft_trace_source (source, dialect, entry, error);
}

/**
 * graft_input_dup_models:
 * @source: an input
 *
 * What `--entry` can choose between in a Python input: its top-level
 * classes that define `forward`, in the order the file has them (the
 * first is what is traced without `--entry`).
 *
 * Returns: (transfer full) (array zero-terminated=1): the class names;
 *   empty for any other input, or Python that does not parse
 */
char **
graft_input_dup_models (GraftSource *source)
{
  g_autoptr (GraftPyModule) module = NULL;
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  const GraftPyStmtList *body;

  g_return_val_if_fail (source != NULL, NULL);
  if (graft_input_detect (source) == GRAFT_INPUT_PYTHON)
    module = graft_py_parse (source, NULL);
  body = module != NULL ? graft_py_module_get_body (module) : NULL;
  for (guint i = 0; body != NULL && i < body->len; i++)
    {
      const GraftPyStmt *stmt = body->items[i];

      if (stmt->kind != GRAFT_PY_STMT_CLASS_DEF)
        continue;
      for (guint k = 0; k < stmt->class_def.body.len; k++)
        {
          const GraftPyStmt *item = stmt->class_def.body.items[k];
          gboolean           seen = FALSE;

          if (item->kind != GRAFT_PY_STMT_FUNCTION_DEF ||
              strcmp (item->function_def.name, "forward") != 0)
            continue;
          /* A class defined twice is one choice (the tracer takes the
           * first). */
          for (guint n = 0; n < names->len && !seen; n++)
            seen = strcmp (names->pdata[n], stmt->class_def.name) == 0;
          if (!seen)
            g_ptr_array_add (names, g_strdup (stmt->class_def.name));
          break;
        }
    }
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&names), FALSE);
}

/**
 * graft_input_dup_definition:
 * @source: Python source
 * @name: the name of a top-level function or class
 *
 * The text a pattern or replacement editor starts from: the module's
 * top-level imports, then the definition of @name as written (decorators
 * included), so that the text traces on its own.  A class (a pattern over
 * modules, whose `__init__` builds its submodules) comes with the imports
 * too; what else its body names (a class of the model it instantiates, a
 * helper function) is not copied.
 *
 * Returns: (transfer full) (nullable): the text, or %NULL when @source does
 *   not parse or has no top-level function or class @name
 */
char *
graft_input_dup_definition (GraftSource *source,
                            const char  *name)
{
  g_autoptr (GraftPyModule) module = graft_py_parse (source, NULL);
  g_autoptr (GString) imports = g_string_new (NULL);
  const GraftPyStmtList *body;
  const char            *text = graft_source_get_text (source);
  const GraftPyStmt     *def = NULL;

  g_return_val_if_fail (name != NULL, NULL);
  if (module == NULL)
    return NULL;
  body = graft_py_module_get_body (module);
  for (guint i = 0; i < body->len; i++)
    {
      const GraftPyStmt *stmt = body->items[i];

      if (stmt->kind == GRAFT_PY_STMT_IMPORT || stmt->kind == GRAFT_PY_STMT_IMPORT_FROM)
        {
          g_string_append_len (imports, text + stmt->start, stmt->end - stmt->start);
          g_string_append_c (imports, '\n');
        }
      else if (g_strcmp0 (graft_py_stmt_get_definition_name (stmt), name) == 0)
        def = stmt;
    }
  if (def == NULL)
    return NULL;
  if (imports->len > 0)
    g_string_append (imports, "\n\n");
  g_string_append_len (imports, text + def->start, def->end - def->start);
  g_string_append_c (imports, '\n');
  return g_string_free (g_steal_pointer (&imports), FALSE);
}
