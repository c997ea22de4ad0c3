/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-source.c: an input text (always NUL-terminated, possibly containing
 * NUL bytes of its own) with the name it is reported under.  Everything that
 * parses keeps byte offsets into a source; this file alone turns an offset
 * into a 1-based line and column, where a column counts Unicode characters
 * (a byte that is not valid UTF-8 counts as one).
 */
#include "config.h"

#include "graft-source-private.h"

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* A file's mapping: [start, end) in the address space. */
typedef struct
{
  guintptr start;
  guintptr end;
  gint     damaged; /* set (atomically) once a page could not be read */
} MappedRange;

struct _GraftSource
{
  gatomicrefcount ref_count;

  /* Owned */
  char   *filename;
  char   *text;
  gsize   length;
  GArray *line_starts;      /* guint32 offsets; built on first locate, once
                             * (a body stream's thread may locate an error
                             * while the tracer locates another) */
  MappedRange *mapped;      /* non-NULL: @text is a mapping of the file, this long */
  GraftSource *viewed;      /* non-NULL: @text is part of its text (_graft_source_new_view()) */
  int          mapped_fd;   /* the mapped file, kept open to see it change */
  struct stat  mapped_stat; /* what it was when mapped */
};

/* ------------------------------------------------------------------ */
/* Mapped files
 *
 * A mapped file that shrinks while it is mapped (truncated, or rewritten
 * shorter) makes the pages past its new end raise SIGBUS when read.  A
 * handler installed with the first mapping (and kept: it costs nothing
 * while no fault comes) looks the faulting address up among the mappings
 * the sources hold; when it is in one, it maps zero-filled pages over the
 * rest of that mapping, marks it damaged and returns, so the read is done
 * again and sees zeros.  The reader of the text asks
 * _graft_source_is_intact() when it is done with it and reports the file
 * as changed after it was opened.  Any other SIGBUS goes to the handler
 * that was there before (or kills the process as it would have).
 *
 * Bytes changed in place raise no fault: the source keeps the file open
 * and _graft_source_is_intact() also compares its size and modification
 * time with what they were when it was mapped (the editor reads its
 * source again to switch torch, perhaps after the model was exported
 * again over the file).  A change within the clock's resolution may go
 * unseen.  The archive's bytes are read through libzip, which checks
 * them (the CRC of the JSON member, on a thread), and the JSON member,
 * stored, is parsed in place (a view of this text,
 * _graft_source_new_view()) by a reader that keeps to the lengths yajl
 * and its tree found, never to a NUL: a file changed meanwhile gives an
 * error or another program (bytes checked by yajl may have changed
 * after it checked them), never a read past the mapping, which ends in
 * a NUL.  The first page is made the process's own at once, so that
 * what the text starts with (how graft_input_detect() tells an archive)
 * cannot change, and so is the last one, which holds the NUL after the
 * text. */

#define MAX_MAPPED 64

static MappedRange     *mapped_ranges[MAX_MAPPED]; /* read by the handler, atomically */
static struct sigaction previous_sigbus;
static guintptr         page_mask; /* ~(page size - 1) */
static GMutex           mapped_lock;

static void
on_sigbus (int        signo,
           siginfo_t *info,
           void      *context)
{
  guintptr address = (guintptr) info->si_addr;

  for (guint i = 0; i < MAX_MAPPED; i++)
    {
      MappedRange *range = g_atomic_pointer_get (&mapped_ranges[i]);

      if (range != NULL && address >= range->start && address < range->end)
        {
          guintptr page = address & page_mask;

          /* The rest of the mapping, zero-filled: the reads that fault
           * now see zeros, and whoever reads the text learns of it.
           * Writable, for the one write _graft_source_new_mapped() makes
           * to the first page, should the file shrink before it. */
          if (mmap ((void *) page, range->end - page, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED)
            {
              g_atomic_int_set (&range->damaged, 1);
              return;
            }
          break;
        }
    }
  if ((previous_sigbus.sa_flags & SA_SIGINFO) != 0 && previous_sigbus.sa_sigaction != NULL)
    previous_sigbus.sa_sigaction (signo, info, context);
  else if (previous_sigbus.sa_handler != SIG_DFL && previous_sigbus.sa_handler != SIG_IGN)
    previous_sigbus.sa_handler (signo);
  else
    {
      /* The fault comes again on return, and now does what it did before
       * a mapping was made. */
      signal (SIGBUS, SIG_DFL);
    }
}

static gboolean
install_sigbus_handler (void)
{
  static gsize installed = 0;

  if (g_once_init_enter (&installed))
    {
      struct sigaction action = { 0 };
      gsize            ok;

      page_mask = ~(guintptr) (sysconf (_SC_PAGESIZE) - 1);
      action.sa_sigaction = on_sigbus;
      action.sa_flags = SA_SIGINFO | SA_NODEFER;
      sigemptyset (&action.sa_mask);
      ok = sigaction (SIGBUS, &action, &previous_sigbus) == 0 ? 1 : 2;
      g_once_init_leave (&installed, ok);
    }
  return installed == 1;
}

static gboolean
register_range (MappedRange *range)
{
  gboolean placed = FALSE;

  g_mutex_lock (&mapped_lock);
  for (guint i = 0; i < MAX_MAPPED && !placed; i++)
    if (g_atomic_pointer_get (&mapped_ranges[i]) == NULL)
      {
        g_atomic_pointer_set (&mapped_ranges[i], range);
        placed = TRUE;
      }
  g_mutex_unlock (&mapped_lock);
  return placed;
}

static void
unregister_range (MappedRange *range)
{
  g_mutex_lock (&mapped_lock);
  for (guint i = 0; i < MAX_MAPPED; i++)
    if (g_atomic_pointer_get (&mapped_ranges[i]) == range)
      g_atomic_pointer_set (&mapped_ranges[i], NULL);
  g_mutex_unlock (&mapped_lock);
}

/**
 * _graft_source_new_mapped:
 * @filename: the name errors give
 * @fd: the file, open for reading (the caller closes it)
 * @length: its size, more than zero
 *
 * A source whose text is the file mapped read-only, NUL-terminated as
 * every source's text is, instead of read into memory of its own: the
 * pages are the system's cache of the file, which costs neither a copy
 * nor fresh pages.  See "Mapped files" above for a file that changes
 * meanwhile.
 *
 * Returns: (transfer full) (nullable): the source, or %NULL when the file
 *   could not be mapped (the caller reads it instead)
 */
GraftSource *
_graft_source_new_mapped (const char *filename,
                          int         fd,
                          gsize       length)
{
  gsize        page = (gsize) sysconf (_SC_PAGESIZE);
  gsize        size = (length + 1 + page - 1) / page * page; /* the NUL's page too */
  gsize        file_size = (length + page - 1) / page * page;
  gsize        last;
  char        *base;
  MappedRange *range;
  GraftSource *self;

  g_return_val_if_fail (length > 0, NULL);

  if (!install_sigbus_handler ())
    return NULL;
  /* Zero-filled pages for the whole, then the file over all but the
   * NUL's own page when the text fills its last page.  Read-only, so
   * that no memory is set aside for writing into them. */
  base = mmap (NULL, size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED)
    return NULL;
  if (mmap (base, file_size, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0) == MAP_FAILED)
    {
      munmap (base, size);
      return NULL;
    }
  range = g_new0 (MappedRange, 1);
  range->start = (guintptr) base;
  range->end = (guintptr) base + size;
  if (!register_range (range))
    {
      munmap (base, size);
      g_free (range);
      return NULL;
    }
  /* The first page and the NUL's made the process's own (written), so
   * that the text's start and end stay what they were. */
  last = (length / page) * page;
  if (mprotect (base, page, PROT_READ | PROT_WRITE) == 0)
    {
      *(volatile char *) base = *(volatile char *) base;
      mprotect (base, page, PROT_READ);
    }
  if (mprotect (base + last, page, PROT_READ | PROT_WRITE) == 0)
    {
      ((volatile char *) base)[length] = '\0';
      mprotect (base + last, page, PROT_READ);
    }
  if (base[length] != '\0')
    {
      unregister_range (range);
      munmap (base, size);
      g_free (range);
      return NULL;
    }

  self = g_new0 (GraftSource, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->filename = g_strdup (filename);
  self->text = base;
  self->length = length;
  self->mapped = range;
  /* Kept to see the file written in place later (a model exported again
   * over it while the editor has it open): the pages not yet read would
   * be the new file's.  Replaced by another file (a rename), the mapped
   * one lives on unchanged. */
  self->mapped_fd = fcntl (fd, F_DUPFD_CLOEXEC, 0);
  if (self->mapped_fd < 0 || fstat (self->mapped_fd, &self->mapped_stat) != 0)
    {
      graft_source_unref (self);
      return NULL;
    }
  return self;
}

static gboolean
same_time (const struct timespec *a,
           const struct timespec *b)
{
  return a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec;
}

/**
 * _graft_source_is_intact:
 *
 * Returns: %FALSE when the source's file, mapped, shrank while it was
 *   mapped and part of the text read as zeros, or was written since it
 *   was mapped (its size or modification time changed: a change within
 *   the file system's time resolution may go unseen); %TRUE otherwise
 */
gboolean
_graft_source_is_intact (GraftSource *self)
{
  struct stat now;

  g_return_val_if_fail (self != NULL, FALSE);
  if (self->mapped == NULL)
    return TRUE;
  if (g_atomic_int_get (&self->mapped->damaged) != 0)
    return FALSE;
  return fstat (self->mapped_fd, &now) == 0 && now.st_size == self->mapped_stat.st_size &&
         same_time (&now.st_mtim, &self->mapped_stat.st_mtim);
}

/**
 * _graft_source_new_view:
 * @filename: the name errors give
 * @whole: the source whose text holds this one's
 * @offset: where in its text this one starts
 * @length: this one's length, within @whole's text from @offset
 *
 * A source whose text is @length bytes of @whole's text, not copied
 * (the JSON member of a `.pt2` archive stored as it is, read in place):
 * unlike every other source's, its text is NOT NUL-terminated (what
 * follows is @whole's), so only a reader that keeps to the length may
 * take one.  Holds a reference to @whole.
 *
 * Returns: (transfer full): the source
 */
GraftSource *
_graft_source_new_view (const char  *filename,
                        GraftSource *whole,
                        gsize        offset,
                        gsize        length)
{
  GraftSource *self;

  g_return_val_if_fail (whole != NULL && offset <= whole->length &&
                            length <= whole->length - offset,
                        NULL);

  self = g_new0 (GraftSource, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->filename = g_strdup (filename);
  self->text = whole->text + offset;
  self->length = length;
  self->viewed = graft_source_ref (whole);
  return self;
}

/**
 * graft_source_new:
 * @filename: the name used in diagnostics (`-` or `<stdin>` for standard input)
 * @text: the text
 * @length: its length in bytes, or -1 if NUL-terminated
 *
 * Returns: (transfer full): a new source holding a copy of @text
 */
GraftSource *
graft_source_new (const char *filename,
                  const char *text,
                  gssize      length)
{
  GraftSource *self;

  g_return_val_if_fail (filename != NULL, NULL);
  g_return_val_if_fail (text != NULL || length == 0, NULL);

  if (length < 0)
    length = strlen (text);

  self = g_new0 (GraftSource, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->filename = g_strdup (filename);
  self->text = g_malloc (length + 1);
  if (length > 0)
    memcpy (self->text, text, length);
  self->text[length] = '\0';
  self->length = length;
  return self;
}

/**
 * graft_source_new_take:
 * @filename: the name errors give
 * @text: (transfer full): @length bytes followed by a NUL byte
 * @length: the length of @text
 *
 * A source that takes @text instead of copying it (graft_input_read_file()
 * hands over what it read).
 *
 * Returns: (transfer full): the source
 */
GraftSource *
graft_source_new_take (const char *filename,
                       char       *text,
                       gsize       length)
{
  GraftSource *self = g_new0 (GraftSource, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->filename = g_strdup (filename);
  self->text = text;
  self->length = length;
  return self;
}

GraftSource *
graft_source_ref (GraftSource *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
graft_source_unref (GraftSource *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_free (self->filename);
  if (self->viewed != NULL)
    graft_source_unref (self->viewed);
  else if (self->mapped != NULL)
    {
      unregister_range (self->mapped);
      munmap (self->text, self->mapped->end - self->mapped->start);
      g_free (self->mapped);
      if (self->mapped_fd >= 0)
        close (self->mapped_fd);
    }
  else
    g_free (self->text);
  if (self->line_starts != NULL)
    g_array_unref (self->line_starts);
  g_free (self);
}

const char *
graft_source_get_filename (GraftSource *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->filename;
}

/**
 * graft_source_get_text:
 *
 * Returns: (transfer none): the text, NUL-terminated after
 *   graft_source_get_length() bytes (but for a view:
 *   _graft_source_new_view())
 */
const char *
graft_source_get_text (GraftSource *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->text;
}

gsize
graft_source_get_length (GraftSource *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->length;
}

static GArray *
build_line_table (GraftSource *self)
{
  guint32 zero = 0;
  GArray *line_starts = g_array_new (FALSE, FALSE, sizeof (guint32));

  g_array_append_val (line_starts, zero);
  for (gsize i = 0; i < self->length; i++)
    {
      /* \r\n, \r and \n all end a line, as Python's tokenizer says. */
      if (self->text[i] == '\r' && i + 1 < self->length && self->text[i + 1] == '\n')
        i++;
      if (self->text[i] == '\n' || self->text[i] == '\r')
        {
          guint32 start = (guint32) (i + 1);
          g_array_append_val (line_starts, start);
        }
    }
  return line_starts;
}

/**
 * graft_source_locate:
 * @offset: a byte offset into the text (clamped to its length)
 * @out_line: (out): the 1-based line
 * @out_column: (out): the 1-based column, in characters
 *
 * Turns a byte offset into the line and column reported to users.
 */
void
graft_source_locate (GraftSource *self,
                     gsize        offset,
                     guint       *out_line,
                     guint       *out_column)
{
  guint   lo, hi;
  gsize   start;
  guint   column = 1;
  GArray *line_starts;

  g_return_if_fail (self != NULL);

  if (g_once_init_enter (&self->line_starts))
    g_once_init_leave (&self->line_starts, build_line_table (self));
  line_starts = self->line_starts;
  if (offset > self->length)
    offset = self->length;

  /* Binary search for the last line start <= offset. */
  lo = 0;
  hi = line_starts->len;
  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;
      if (g_array_index (line_starts, guint32, mid) <= offset)
        lo = mid;
      else
        hi = mid;
    }
  start = g_array_index (line_starts, guint32, lo);

  /* A column counts characters: every byte that does not continue a UTF-8
   * sequence starts one (so a stray byte counts as one character too). */
  for (gsize i = start; i < offset; i++)
    if (((guchar) self->text[i] & 0xC0) != 0x80)
      column++;

  if (out_line != NULL)
    *out_line = lo + 1;
  if (out_column != NULL)
    *out_column = column;
}
