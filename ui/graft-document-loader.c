/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-document-loader.c: reading a file or a text into a document
 * (graft_document_load_text(), graft_document_load_file() and its
 * threaded graft_document_load_file_async()).  Reading traces Python (or
 * reads an FX listing or DOT), keeps a Python file's own pattern and
 * replacement, generates the code of a graph of up to CODE_ON_LOAD_NODES
 * nodes and looks for the file's autosave; all of it works on a Loaded
 * of its own and touches no
 * document, so that it can run on a worker.  Only install() then puts
 * what was read into the document, on the document's thread, through
 * graft-document-private.h.
 *
 * A session (`.graft`, graft-session.c) is parsed on the worker too, and
 * done again in the document (its steps replayed) when installed.
 */
#include "config.h"

#include "graft-document.h"
#include "graft-document-private.h"
#include "graft-autosave.h"
#include "graft-layout-runner.h"
#include "graft-session.h"

/* The largest graph whose code is generated while its file is read. */
#define CODE_ON_LOAD_NODES 200000

/* The smallest graph whose scopes are made while its file is read: the
 * layout runner makes a smaller one's on the main loop in a few turns
 * (a million nodes took it about a second of turns). */
#define SCOPES_ON_LOAD_NODES 5000

/* The smallest graph whose matches of the chosen rule's pattern are found
 * while its file is read: the search goes over every node in one turn of
 * the main loop (20 ms at a million nodes). */
#define SEARCH_ON_LOAD_NODES 5000

/* What reading a file or a text gives: the graph and everything else a new
 * graph needs that takes long at large sizes, worked out while the graph
 * belongs to the reader alone (graft_document_load_file_async() reads on a
 * worker). */
typedef struct
{
  GFile              *file;    /* NULL for a text */
  const GraftDialect *dialect; /* static: the torch to read it for */
  GraftSource        *source;  /* the text read, or NULL when it could not be */
  GraftGraph         *graph;
  GError             *error;
  GError             *code_error; /* graft_codegen_check_module()'s of @graph */
  char               *code;
  char               *pattern;
  char               *replacement;
  GraftRecovery      *recovery; /* the file's autosave, or NULL */
  GraftScopes        *scopes;   /* of @graph, or NULL */
  /* The request of @graph's first layout, made of @scopes, or NULL; the
   * scopes it folds and the overview they are */
  GraftLayoutRequest *request;
  GHashTable         *collapsed;
  guint               overview_boxes;
  GraftSession       *session; /* the file is a session, read */
  char               *entry;   /* the class to trace, NULL for the first */
  GStrv               models;  /* the classes it could be */
  /* The chosen rule's pattern when reading began, or NULL, and the
   * definition it is traced for (NULL: `pattern`); the text searched
   * (the file's own pattern, which replaces it, or that one) and what the
   * search found. */
  char         *search_text;
  char         *search_entry;
  char         *searched;
  FoundMatches *found;
  /* The chosen rule's pattern when reading began if nobody gave the
   * document a rule (graft_document_get_texts_are_default()), else NULL:
   * the file's kind may then choose another. */
  char *default_pattern;
  /* The file's etag just before it was read, or NULL: a change made while
   * it is read is told by it (graft-window-watch.c). */
  char *etag;
} Loaded;

static void
loaded_clear (Loaded *loaded)
{
  /* The matches are of the graph: they go first. */
  g_clear_pointer (&loaded->found, _graft_found_matches_free);
  g_clear_object (&loaded->file);
  g_clear_pointer (&loaded->source, graft_source_unref);
  g_clear_pointer (&loaded->graph, graft_graph_free);
  g_clear_error (&loaded->error);
  g_clear_error (&loaded->code_error);
  g_clear_pointer (&loaded->code, g_free);
  g_clear_pointer (&loaded->pattern, g_free);
  g_clear_pointer (&loaded->replacement, g_free);
  g_clear_pointer (&loaded->recovery, graft_recovery_free);
  g_clear_pointer (&loaded->request, graft_layout_request_free);
  g_clear_pointer (&loaded->collapsed, g_hash_table_unref);
  g_clear_pointer (&loaded->scopes, graft_scopes_free);
  g_clear_pointer (&loaded->session, graft_session_free);
  g_clear_pointer (&loaded->entry, g_free);
  g_clear_pointer (&loaded->models, g_strfreev);
  g_clear_pointer (&loaded->search_text, g_free);
  g_clear_pointer (&loaded->search_entry, g_free);
  g_clear_pointer (&loaded->searched, g_free);
  g_clear_pointer (&loaded->default_pattern, g_free);
  g_clear_pointer (&loaded->etag, g_free);
}

static void
loaded_free (gpointer data)
{
  loaded_clear (data);
  g_free (data);
}

/* Traces @source (taken), and for a Python file that traced keeps its own
 * definitions of the pattern and the replacement.  Touches no document. */
static void
read_source (Loaded      *loaded,
             GraftSource *source)
{
  loaded->source = source;
  g_clear_pointer (&loaded->models, g_strfreev);
  loaded->models = graft_input_dup_models (source);
  /* A class chosen earlier that the file no longer has: the first. */
  if (loaded->entry != NULL &&
      !g_strv_contains ((const char *const *) loaded->models, loaded->entry))
    g_clear_pointer (&loaded->entry, g_free);
  loaded->graph = graft_input_load_graph (source, loaded->dialect, loaded->entry, &loaded->error);
  if (loaded->graph == NULL)
    return;
  /* Here, not on the main loop: a million-node program's takes 20 ms. */
  g_clear_error (&loaded->code_error);
  graft_codegen_check_module (loaded->graph, &loaded->code_error);
  if (graft_input_detect (source) == GRAFT_INPUT_PYTHON)
    {
      loaded->pattern = graft_input_dup_definition (source, "pattern");
      loaded->replacement = graft_input_dup_definition (source, "replacement");
    }
  /* Nobody gave a rule, and the file brings none: the one for its kind
   * (a program has no `torch.relu` for the module's default to find). */
  if (loaded->pattern == NULL && loaded->replacement == NULL && loaded->default_pattern != NULL)
    {
      g_autofree char *replacement = NULL;
      g_autofree char *pattern = _graft_document_dup_default_texts (graft_input_detect (source),
                                                                    loaded->graph, &replacement);

      if (strcmp (pattern, loaded->default_pattern) != 0)
        {
          loaded->pattern = g_steal_pointer (&pattern);
          loaded->replacement = g_steal_pointer (&replacement);
        }
    }
}

/* What @loaded needs of @self before reading begins, on the main loop. */
static void
loaded_begin (Loaded        *loaded,
              GraftDocument *self)
{
  loaded->dialect = graft_document_get_dialect (self);
  loaded->entry = g_strdup (graft_document_get_entry (self));
  if (graft_document_get_texts_are_default (self))
    loaded->default_pattern = g_strdup (graft_document_get_pattern_text (self));
}

/* Finds the matches of the pattern the document will search once the
 * graph is its: the file's own, else the one it had when reading began.
 * Traced here as the document traces it (trace_half()), so the pattern
 * is the worker's own.  Touches no document. */
static void
search_loaded (Loaded *loaded)
{
  const char *text = loaded->pattern != NULL ? loaded->pattern : loaded->search_text;
  g_autoptr (GraftSource) source = NULL;
  g_autoptr (GraftGraph) graph = NULL;
  g_autoptr (GraftPattern) pattern = NULL;

  if (text == NULL)
    return;
  source = graft_source_new ("pattern", text, -1);
  graph = graft_input_trace_entry (
      source, loaded->dialect, loaded->search_entry != NULL ? loaded->search_entry : "pattern",
      NULL);
  if (graph != NULL)
    pattern = graft_pattern_new (g_steal_pointer (&graph), NULL);
  if (pattern == NULL)
    return;
  loaded->searched = g_strdup (text);
  loaded->found = _graft_found_matches_new (pattern, loaded->graph);
}

/* Reads @loaded's file, then what a file also brings: the graph's code,
 * its scopes, its first layout's request and the chosen rule's matches.
 * Touches no document. */
static void
read_contents (Loaded *loaded)
{
  g_autofree char *path = g_file_get_path (loaded->file);
  GraftSource     *source;

  if (path == NULL)
    {
      g_autofree char *display = g_file_get_parse_name (loaded->file);

      graft_set_file_error (&loaded->error, display, GRAFT_ERROR_IO, "not a local file");
      return;
    }
  {
    /* Before the read: a change in between is seen as a change after it
     * (read again), never missed. */
    g_autoptr (GFileInfo) info = g_file_query_info (loaded->file, G_FILE_ATTRIBUTE_ETAG_VALUE,
                                                    G_FILE_QUERY_INFO_NONE, NULL, NULL);

    loaded->etag = info != NULL ? g_strdup (g_file_info_get_etag (info)) : NULL;
  }
  source = graft_input_read_file (path, &loaded->error);
  if (source == NULL)
    return;
  if (graft_session_detect (path, graft_source_get_text (source), graft_source_get_length (source)))
    {
      loaded->session = graft_session_parse (path, graft_source_get_text (source),
                                             graft_source_get_length (source), &loaded->error);
      graft_source_unref (source);
      return;
    }
  read_source (loaded, source);
  if (loaded->graph == NULL)
    return;
  /* Past CODE_ON_LOAD_NODES the code waits for the Code page to ask for it
   * (graft_document_get_code()): it is not on the way to the first
   * picture (a 1,000,000-node program's code took 1.1 s of processor time
   * here, 3.8 s of wall clock on a loaded machine). */
  if (graft_graph_get_n_nodes (loaded->graph) <= CODE_ON_LOAD_NODES)
    loaded->code = g_string_free (loaded->code_error != NULL
                                      ? graft_codegen_empty_module_code_string (loaded->graph)
                                      : graft_codegen_python_string (loaded->graph),
                                  FALSE);
  if (graft_graph_get_n_nodes (loaded->graph) >= SCOPES_ON_LOAD_NODES)
    {
      loaded->scopes = graft_scopes_new (loaded->graph);
      /* And the first layout's request (0.1 s of turns at a million nodes). */
      loaded->request = graft_layout_runner_new_first_request (
          loaded->graph, loaded->scopes, &loaded->collapsed, &loaded->overview_boxes);
    }
  if (graft_graph_get_n_nodes (loaded->graph) >= SEARCH_ON_LOAD_NODES)
    search_loaded (loaded);
}

static gpointer
find_autosave_thread (gpointer data)
{
  return graft_autosave_find (data);
}

/* Reads @loaded's file (read_contents()) and looks for its autosave
 * meanwhile, which is kept when the file was read.  An autosave of a
 * million-node graph is a key file of 150 MB, which took 1.7 s of
 * processor time to read after the graph.  Touches no document. */
static void
read_file (Loaded *loaded)
{
  GThread *finding = g_thread_try_new ("graft-autosave-find", find_autosave_thread,
                                       loaded->file, NULL);

  read_contents (loaded);
  loaded->recovery =
      finding != NULL ? g_thread_join (finding) : graft_autosave_find (loaded->file);
  if (loaded->session == NULL && loaded->graph == NULL)
    g_clear_pointer (&loaded->recovery, graft_recovery_free);
}

/* Puts what was read into the document, taking it out of @loaded; a text
 * keeps the document's file and what was found of its autosave. */
static gboolean
install (GraftDocument *self,
         Loaded        *loaded,
         GError       **error)
{
  GError *load_error;

  g_free (self->read_etag);
  self->read_etag = g_steal_pointer (&loaded->etag);
  if (loaded->session != NULL)
    {
      _graft_document_set_loaded_file (self, loaded->file, g_steal_pointer (&loaded->recovery));
      return graft_session_install (loaded->session, self, error);
    }
  /* The document switched its dialect while a worker read the file. */
  if (loaded->dialect != graft_document_get_dialect (self) && loaded->source != NULL)
    {
      GraftSource *source = g_steal_pointer (&loaded->source);

      g_clear_pointer (&loaded->graph, graft_graph_free);
      g_clear_error (&loaded->error);
      g_clear_pointer (&loaded->code, g_free);
      g_clear_pointer (&loaded->pattern, g_free);
      g_clear_pointer (&loaded->replacement, g_free);
      g_clear_pointer (&loaded->request, graft_layout_request_free);
      g_clear_pointer (&loaded->collapsed, g_hash_table_unref);
      g_clear_pointer (&loaded->scopes, graft_scopes_free);
      g_clear_pointer (&loaded->found, _graft_found_matches_free);
      loaded->dialect = graft_document_get_dialect (self);
      read_source (loaded, source);
    }
  load_error = g_steal_pointer (&loaded->error);
  if (loaded->file != NULL)
    _graft_document_set_loaded_file (self, loaded->file, g_steal_pointer (&loaded->recovery));
  _graft_document_set_models (self, g_steal_pointer (&loaded->entry),
                              g_steal_pointer (&loaded->models));
  _graft_document_load_graph (self, g_steal_pointer (&loaded->source),
                              g_steal_pointer (&loaded->graph), load_error,
                              g_steal_pointer (&loaded->code), g_steal_pointer (&loaded->pattern),
                              g_steal_pointer (&loaded->replacement));
  /* Of the graph just installed, whose revision it now is. */
  _graft_document_set_code_error (self, g_steal_pointer (&loaded->code_error));
  _graft_document_set_loaded_scopes (self, g_steal_pointer (&loaded->scopes));
  _graft_document_set_loaded_request (self, g_steal_pointer (&loaded->request),
                                      g_steal_pointer (&loaded->collapsed), loaded->overview_boxes);
  _graft_document_set_loaded_matches (self, loaded->searched, loaded->search_entry,
                                      g_steal_pointer (&loaded->found));
  if (load_error != NULL)
    {
      g_propagate_error (error, g_error_copy (load_error));
      return FALSE;
    }
  return TRUE;
}

/**
 * graft_document_load_text:
 * @self: a document
 * @filename: the name errors use
 * @text: a Python module, an FX listing or DOT
 * @error: return location for the located error that stopped reading
 *
 * Replaces the document's graph with the one @text stands for.  On error
 * the document is empty and keeps the error (graft_document_get_load_error()).
 *
 * Returns: %TRUE on success
 */
gboolean
graft_document_load_text (GraftDocument *self,
                          const char    *filename,
                          const char    *text,
                          GError       **error)
{
  Loaded   loaded = { NULL };
  gboolean ok;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  _graft_document_settle (self);

  loaded_begin (&loaded, self);
  read_source (&loaded, graft_source_new (filename, text, -1));
  ok = install (self, &loaded, error);
  loaded_clear (&loaded);
  return ok;
}

/**
 * graft_document_load_file:
 * @self: a document
 * @file: a Python module, an FX listing or a DOT file
 * @error: return location for an error
 *
 * Reads @file (see graft_document_load_text()) and makes it the document's
 * file.
 *
 * Returns: %TRUE on success
 */
gboolean
graft_document_load_file (GraftDocument *self,
                          GFile         *file,
                          GError       **error)
{
  Loaded   loaded = { NULL };
  gboolean ok;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  _graft_document_settle (self);

  loaded.file = g_object_ref (file);
  loaded_begin (&loaded, self);
  read_file (&loaded);
  ok = install (self, &loaded, error);
  loaded_clear (&loaded);
  return ok;
}

static void
load_thread_cb (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  read_file (task_data);
  g_task_return_boolean (task, TRUE);
}

/* The worker has read the file: the caller's task, which holds what was
 * read and the document, returns on the main loop (and is let go there). */
static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr (GTask) task = user_data;

  g_task_return_boolean (task, TRUE);
}

/**
 * graft_document_load_file_async:
 * @self: a document
 * @file: a Python module, an FX listing or a DOT file
 * @cancellable: (nullable): a cancellable
 * @callback: called on this thread when the file is in the document
 * @user_data: for @callback
 *
 * graft_document_load_file() with the reading and tracing on a worker
 * thread, so a large file does not stop the window; the document changes
 * only when @callback runs.
 */
void
graft_document_load_file_async (GraftDocument      *self,
                                GFile              *file,
                                GCancellable       *cancellable,
                                GAsyncReadyCallback callback,
                                gpointer            user_data)
{
  g_autoptr (GTask) task = NULL;
  g_autoptr (GTask) worker = NULL;
  Loaded *loaded = g_new0 (Loaded, 1);

  g_return_if_fail (GRAFT_IS_DOCUMENT (self));
  g_return_if_fail (G_IS_FILE (file));
  _graft_document_settle (self);

  loaded->file = g_object_ref (file);
  loaded_begin (loaded, self);
  loaded->search_text = g_strdup (graft_document_get_pattern_text (self));
  loaded->search_entry =
      g_strdup (graft_rule_get_pattern_entry (_graft_document_get_selected (self)));
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, graft_document_load_file_async);
  g_task_set_task_data (task, loaded, loaded_free);
  /* The worker's own task has no source object: a GTask may be finalized
   * on its worker thread, and would then drop the last reference to a
   * document let go meanwhile there, and with it its buffers, outside
   * GTK's thread.  The caller's task, with the document, is its
   * callback's, on the main loop; what was read is the caller's task's. */
  worker = g_task_new (NULL, NULL, read_cb, g_steal_pointer (&task));
  g_task_set_task_data (worker, loaded, NULL);
  g_task_run_in_thread (worker, load_thread_cb);
}

/**
 * graft_document_load_file_finish:
 * @self: a document
 * @result: the result
 * @error: return location for the located error that stopped reading
 *
 * Puts what was read into the document (see graft_document_load_file()).
 *
 * Returns: %TRUE on success
 */
gboolean
graft_document_load_file_finish (GraftDocument *self,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return install (self, g_task_get_task_data (G_TASK (result)), error);
}

/**
 * _graft_document_get_read_etag:
 * @self: a document
 *
 * Returns: (nullable): the etag of the file the last load read, taken
 *   just before reading it
 */
const char *
_graft_document_get_read_etag (GraftDocument *self)
{
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), NULL);
  return self->read_etag;
}
