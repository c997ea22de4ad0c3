/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-completion.c: the completion provider of the pattern and
 * replacement editors.  After a dotted path and a dot, it offers what a
 * rule written against the document's graph can use there:
 *
 * - after `torch.`, `torch.nn.functional.` (or `F.`, or any name the
 *   text's imports bind to a module), `operator.`, `math.`: the names the
 *   tracer knows in the document's torch (graft_trace_dup_names(), from
 *   its own tables);
 * - after `torch.ops.aten.` (or another `torch.ops.` namespace): the
 *   overloads the document's graph calls, `linear.default`, the most
 *   called first;
 * - after `self.`: the submodules and attributes the graph's call_module
 *   and get_attr nodes name, the most used first, one level at a time.
 *
 * Plain words are left to GtkSourceCompletionWords, which the editor adds
 * beside this one.  A proposal replaces the word typed so far as one user
 * action, so one undo takes it back.
 *
 * The graph's names are counted on the first completion that wants them,
 * not when the document is loaded (a million-node program is opened as
 * fast without the editor's completion), and in steps of the main loop
 * (COUNT_STEP nodes at a time), so that typing goes on while a big graph
 * is counted; the completion waits for the count.  A change of the
 * graph drops the count; work that holds the graph over turns (a switch
 * of torch, a Replace All) makes the count wait until it is over.
 */
#include "config.h"

#include "graft-completion.h"

#include <string.h>

/* Nodes counted in one turn of the main loop: about 2 ms. */
#define COUNT_STEP 65536
/* How long a count waits, when work holds the graph, before it looks again. */
#define HOLD_RETRY_MS 100

/* One name of the graph: a call_function target, or a call_module or
 * get_attr target. */
typedef struct
{
  char    *target; /* Owned */
  gboolean attribute;
  guint    count;
} Entry;

struct _GraftCompletion
{
  GObject parent_instance;

  /* Borrowed (a weak pointer) */
  GraftDocument *document;

  /* Owned */
  GHashTable *names;   /* "TORCH MODULE" -> GStrv, graft_trace_dup_names() of each */
  GArray     *entries; /* Entry, the most used first; NULL until counted */
  GPtrArray  *waiting; /* GTask, populations waiting for the count */

  /* The count under way: the graph and revision it counts, the next node,
   * and the counts so far by target (keys borrowed from the graph). */
  GraftGraph *count_graph;
  guint       count_revision;
  GraftNode  *count_node;
  GHashTable *counting;
  GHashTable *counting_attributes;
  guint       count_id;
};

static void graft_completion_provider_iface_init (GtkSourceCompletionProviderInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (GraftCompletion,
                               graft_completion,
                               G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GTK_SOURCE_TYPE_COMPLETION_PROVIDER,
                                                      graft_completion_provider_iface_init))

/* A proposal: the text it puts in, and what the popup says beside it. */
#define GRAFT_TYPE_COMPLETION_PROPOSAL (graft_completion_proposal_get_type ())
G_DECLARE_FINAL_TYPE (GraftCompletionProposal,
                      graft_completion_proposal,
                      GRAFT,
                      COMPLETION_PROPOSAL,
                      GObject)

struct _GraftCompletionProposal
{
  GObject parent_instance;

  /* Owned */
  char *text;
  char *detail;
  char *icon_name;
};

static char *
proposal_get_typed_text (GtkSourceCompletionProposal *proposal)
{
  return g_strdup (GRAFT_COMPLETION_PROPOSAL (proposal)->text);
}

static void
graft_completion_proposal_iface_init (GtkSourceCompletionProposalInterface *iface)
{
  iface->get_typed_text = proposal_get_typed_text;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (GraftCompletionProposal,
                               graft_completion_proposal,
                               G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GTK_SOURCE_TYPE_COMPLETION_PROPOSAL,
                                                      graft_completion_proposal_iface_init))

static void
graft_completion_proposal_finalize (GObject *object)
{
  GraftCompletionProposal *self = GRAFT_COMPLETION_PROPOSAL (object);

  g_free (self->text);
  g_free (self->detail);
  g_free (self->icon_name);
  G_OBJECT_CLASS (graft_completion_proposal_parent_class)->finalize (object);
}

static void
graft_completion_proposal_class_init (GraftCompletionProposalClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = graft_completion_proposal_finalize;
}

static void
graft_completion_proposal_init (GraftCompletionProposal *self)
{
}

static GraftCompletionProposal *
proposal_new (const char *text,
              char       *detail,
              const char *icon_name)
{
  GraftCompletionProposal *proposal = g_object_new (GRAFT_TYPE_COMPLETION_PROPOSAL, NULL);

  proposal->text = g_strdup (text);
  proposal->detail = detail;
  proposal->icon_name = g_strdup (icon_name);
  return proposal;
}

/**
 * graft_completion_new:
 *
 * Returns: (transfer full): a provider with no document: it offers the
 *   tracer's names in torch 2.6
 */
GraftCompletion *
graft_completion_new (void)
{
  return g_object_new (GRAFT_TYPE_COMPLETION, NULL);
}

/* The count, and the count under way, are dropped. */
static void
drop_count (GraftCompletion *self)
{
  g_clear_pointer (&self->entries, g_array_unref);
  g_clear_handle_id (&self->count_id, g_source_remove);
  g_hash_table_remove_all (self->counting);
  g_hash_table_remove_all (self->counting_attributes);
  self->count_graph = NULL;
  self->count_node = NULL;
}

static void start_count (GraftCompletion *self);

static void
graph_changed_cb (GraftDocument   *document,
                  GraftCompletion *self)
{
  drop_count (self);
  /* Who waits wants the new graph's names. */
  if (self->waiting->len > 0)
    start_count (self);
}

/**
 * graft_completion_set_document:
 * @self: a provider
 * @document: (nullable): the document whose graph and torch count
 *
 * @document is not kept alive: the provider forgets it when it goes.
 */
void
graft_completion_set_document (GraftCompletion *self,
                               GraftDocument   *document)
{
  g_return_if_fail (GRAFT_IS_COMPLETION (self));
  g_return_if_fail (document == NULL || GRAFT_IS_DOCUMENT (document));
  if (self->document == document)
    return;
  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  drop_count (self);
  g_set_weak_pointer (&self->document, document);
  if (document != NULL)
    {
      g_signal_connect (document, "graph-changed", G_CALLBACK (graph_changed_cb), self);
      g_signal_connect (document, "switched", G_CALLBACK (graph_changed_cb), self);
    }
}

static const GraftDialect *
dialect (GraftCompletion *self)
{
  if (self->document != NULL)
    return graft_document_get_dialect (self->document);
  return graft_dialect_get (GRAFT_TORCH_2_6);
}

static int
compare_entries_cb (gconstpointer a,
                    gconstpointer b)
{
  const Entry *x = a;
  const Entry *y = b;

  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  return strcmp (x->target, y->target);
}

static void
clear_entry (gpointer data)
{
  g_free (((Entry *) data)->target);
}

static void
add_entries (GArray     *entries,
             GHashTable *counts,
             gboolean    attribute)
{
  GHashTableIter iter;
  gpointer       target;
  gpointer       count;

  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, &target, &count))
    {
      Entry entry = { g_strdup (target), attribute, GPOINTER_TO_UINT (count) };

      g_array_append_val (entries, entry);
    }
}

static void populate_waiting (GraftCompletion *self);

/* Counts up to @limit nodes of the graph from where the count stands;
 * whether the count is over. */
static gboolean
count_nodes (GraftCompletion *self,
             guint            limit)
{
  GraftNode *node = self->count_node;

  for (guint n = 0; node != NULL && n < limit; n++, node = graft_node_get_next (node))
    {
      GraftOp     op = graft_node_get_op (node);
      GHashTable *counts;
      const char *target;

      if (op == GRAFT_OP_CALL_FUNCTION)
        counts = self->counting;
      else if (op == GRAFT_OP_CALL_MODULE || op == GRAFT_OP_GET_ATTR)
        counts = self->counting_attributes;
      else
        continue;
      target = graft_node_get_target (node);
      if (target == NULL)
        continue;
      g_hash_table_insert (counts, (gpointer) target,
                           GUINT_TO_POINTER (
                               GPOINTER_TO_UINT (g_hash_table_lookup (counts, target)) + 1));
    }
  self->count_node = node;
  if (node != NULL)
    return FALSE;

  self->entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  g_array_set_clear_func (self->entries, clear_entry);
  add_entries (self->entries, self->counting, FALSE);
  add_entries (self->entries, self->counting_attributes, TRUE);
  g_array_sort (self->entries, compare_entries_cb);
  g_hash_table_remove_all (self->counting);
  g_hash_table_remove_all (self->counting_attributes);
  self->count_graph = NULL;
  return TRUE;
}

/* Whether the document's graph can be read now (no work holds it over
 * turns), and which it is. */
static GraftGraph *
readable_graph (GraftCompletion *self)
{
  if (self->document == NULL || graft_document_get_holding (self->document))
    return NULL;
  return graft_document_get_graph (self->document);
}

static gboolean
count_step_cb (gpointer user_data)
{
  GraftCompletion *self = user_data;
  GraftGraph      *graph;

  self->count_id = 0;
  if (self->document == NULL)
    {
      /* No graph: nothing to count. */
      self->entries = g_array_new (FALSE, FALSE, sizeof (Entry));
      populate_waiting (self);
      return G_SOURCE_REMOVE;
    }
  if (graft_document_get_holding (self->document))
    {
      self->count_id = g_timeout_add (HOLD_RETRY_MS, count_step_cb, self);
      return G_SOURCE_REMOVE;
    }
  graph = graft_document_get_graph (self->document);
  if (graph != self->count_graph ||
      graft_document_get_revision (self->document) != self->count_revision)
    {
      /* The graph changed under the count: count again. */
      g_hash_table_remove_all (self->counting);
      g_hash_table_remove_all (self->counting_attributes);
      self->count_graph = graph;
      self->count_revision = graft_document_get_revision (self->document);
      self->count_node = graph != NULL ? graft_graph_get_first (graph) : NULL;
    }
  if (!count_nodes (self, COUNT_STEP))
    {
      self->count_id = g_idle_add (count_step_cb, self);
      return G_SOURCE_REMOVE;
    }
  populate_waiting (self);
  return G_SOURCE_REMOVE;
}

static void
start_count (GraftCompletion *self)
{
  if (self->entries != NULL || self->count_id != 0)
    return;
  self->count_graph = NULL;
  self->count_id = g_idle_add (count_step_cb, self);
}

/**
 * graft_completion_get_collected:
 * @self: a provider
 *
 * Returns: whether the graph's names are counted (the completions that
 *   want them wait until then)
 */
gboolean
graft_completion_get_collected (GraftCompletion *self)
{
  g_return_val_if_fail (GRAFT_IS_COMPLETION (self), FALSE);
  return self->entries != NULL;
}

/* `import torch.nn.functional as F`, `from torch.nn import functional as F`,
 * `import operator`, and `aten = torch.ops.aten` (how the rules of a
 * program name the namespace): the module each name of @text's imports
 * and plain assignments of a dotted path binds, in @aliases (name ->
 * module).  Python's own rules, simplified: bindings anywhere in the text
 * count, the last of a kind wins, assignments over imports. */
static void
read_imports (const char *text,
              GHashTable *aliases)
{
  static const char import_pattern[] = "^[ \\t]*import[ \\t]+([A-Za-z_][\\w.]*)"
                                       "(?:[ \\t]+as[ \\t]+(\\w+))?";
  static const char from_pattern[] = "^[ \\t]*from[ \\t]+([A-Za-z_][\\w.]*)"
                                     "[ \\t]+import[ \\t]+(\\w+)(?:[ \\t]+as[ \\t]+(\\w+))?";
  static const char assign_pattern[] = "^[ \\t]*(\\w+)[ \\t]*=[ \\t]*([A-Za-z_]\\w*(?:\\.\\w+)+)"
                                       "[ \\t]*(?:#.*)?$";
  static GRegex    *import_re = NULL;
  static GRegex    *from_re = NULL;
  static GRegex    *assign_re = NULL;
  g_autoptr (GMatchInfo) match = NULL;

  if (g_once_init_enter (&import_re))
    g_once_init_leave (&import_re,
                       g_regex_new (import_pattern, G_REGEX_MULTILINE | G_REGEX_OPTIMIZE, 0, NULL));
  if (g_once_init_enter (&from_re))
    g_once_init_leave (&from_re, g_regex_new (from_pattern, G_REGEX_MULTILINE | G_REGEX_OPTIMIZE,
                                              0, NULL));
  for (g_regex_match (import_re, text, 0, &match); g_match_info_matches (match);
       g_match_info_next (match, NULL))
    {
      g_autofree char *module = g_match_info_fetch (match, 1);
      g_autofree char *as = g_match_info_fetch (match, 2);

      if (as != NULL && *as != '\0')
        g_hash_table_insert (aliases, g_steal_pointer (&as), g_steal_pointer (&module));
    }
  g_clear_pointer (&match, g_match_info_unref);
  for (g_regex_match (from_re, text, 0, &match); g_match_info_matches (match);
       g_match_info_next (match, NULL))
    {
      g_autofree char *module = g_match_info_fetch (match, 1);
      g_autofree char *name = g_match_info_fetch (match, 2);
      g_autofree char *as = g_match_info_fetch (match, 3);

      g_hash_table_insert (aliases,
                           (as != NULL && *as != '\0') ? g_steal_pointer (&as) : g_strdup (name),
                           g_strconcat (module, ".", name, NULL));
    }
  g_clear_pointer (&match, g_match_info_unref);
  if (g_once_init_enter (&assign_re))
    g_once_init_leave (&assign_re, g_regex_new (assign_pattern,
                                                G_REGEX_MULTILINE | G_REGEX_OPTIMIZE, 0, NULL));
  for (g_regex_match (assign_re, text, 0, &match); g_match_info_matches (match);
       g_match_info_next (match, NULL))
    g_hash_table_insert (aliases, g_match_info_fetch (match, 1), g_match_info_fetch (match, 2));
}

/* The dotted path written before @at, up to its last dot (`torch.nn.`,
 * `F.`, `self.layer1.`), with the name it starts with read through the
 * text's imports (`F.` is `torch.nn.functional.`); NULL when what comes
 * before @at is not a path and a dot. */
static char *
path_before (GtkTextBuffer     *buffer,
             const GtkTextIter *at)
{
  GtkTextIter      start = *at;
  GtkTextIter      word = *at;
  GtkTextIter      text_start;
  GtkTextIter      text_end;
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  g_autoptr (GHashTable) aliases = NULL;
  const char *dot;
  const char *module;

  /* Back over the word being typed, then over the path before it. */
  while (!gtk_text_iter_starts_line (&word))
    {
      GtkTextIter before = word;
      gunichar    c;

      gtk_text_iter_backward_char (&before);
      c = gtk_text_iter_get_char (&before);
      if (!(g_unichar_isalnum (c) || c == '_'))
        break;
      word = before;
    }
  start = word;
  while (!gtk_text_iter_starts_line (&start))
    {
      GtkTextIter before = start;
      gunichar    c;

      gtk_text_iter_backward_char (&before);
      c = gtk_text_iter_get_char (&before);
      if (!(g_unichar_isalnum (c) || c == '_' || c == '.'))
        break;
      start = before;
    }
  path = gtk_text_iter_get_slice (&start, &word);
  if (path[0] == '\0' || !g_str_has_suffix (path, ".") || path[0] == '.' ||
      g_ascii_isdigit (path[0]) || strstr (path, "..") != NULL)
    return NULL;

  dot = strchr (path, '.');
  if (strncmp (path, "self.", 5) == 0)
    return g_steal_pointer (&path);
  gtk_text_buffer_get_bounds (buffer, &text_start, &text_end);
  text = gtk_text_buffer_get_text (buffer, &text_start, &text_end, FALSE);
  aliases = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  /* The names torch's examples use, before the text imports them (the
   * editor's error then says which import is missing). */
  g_hash_table_insert (aliases, g_strdup ("F"), g_strdup ("torch.nn.functional"));
  g_hash_table_insert (aliases, g_strdup ("nn"), g_strdup ("torch.nn"));
  read_imports (text, aliases);
  {
    g_autofree char *head = g_strndup (path, dot - path);

    module = g_hash_table_lookup (aliases, head);
    if (module == NULL)
      return g_steal_pointer (&path);
    return g_strconcat (module, dot, NULL);
  }
}

/* Whether @at is in a string or a comment of @buffer's Python, where
 * Python's editors offer no completion: the character before it is (at
 * a line's start, the one at it). */
static gboolean
in_string_or_comment (GtkTextBuffer     *buffer,
                      const GtkTextIter *at)
{
  GtkSourceBuffer *source;
  GtkTextIter      line = *at;
  GtkTextIter      before = *at;

  if (!GTK_SOURCE_IS_BUFFER (buffer))
    return FALSE;
  source = GTK_SOURCE_BUFFER (buffer);
  if (!gtk_text_iter_starts_line (&before))
    gtk_text_iter_backward_char (&before);
  gtk_text_iter_set_line_offset (&line, 0);
  /* The highlighting, done in idle steps, may not have come so far. */
  gtk_source_buffer_ensure_highlight (source, &line, at);
  return gtk_source_buffer_iter_has_context_class (source, &before, "string") ||
         gtk_source_buffer_iter_has_context_class (source, &before, "comment");
}

/* Whether proposals after @path come from the graph: the overloads of a
 * `torch.ops.` namespace, or the module's attributes. */
static gboolean
path_wants_graph (const char *path)
{
  return g_str_has_prefix (path, "self.") || g_str_has_prefix (path, "torch.ops.");
}

/* The tracer's names under @module (cached per torch). */
static const char *const *
tracer_names (GraftCompletion *self,
              const char      *module)
{
  const GraftDialect *d = dialect (self);
  g_autofree char    *key = g_strconcat (d->name, " ", module, NULL);
  char              **names = g_hash_table_lookup (self->names, key);

  if (names == NULL)
    {
      names = graft_trace_dup_names (d, module);
      g_hash_table_insert (self->names, g_steal_pointer (&key), names);
    }
  return (const char *const *) names;
}

/* What the graph offers after @path (its count done): after
 * `torch.ops.NS.`, each call_function target under it whole
 * (`linear.default`); after `self.`, the next name of each call_module
 * or get_attr target under it.  The most used first. */
static void
add_graph_proposals (GraftCompletion *self,
                     const char      *path,
                     GListStore      *store)
{
  gboolean    attribute = g_str_has_prefix (path, "self.");
  const char *prefix = attribute ? path + strlen ("self.") : path;
  gboolean    whole = !attribute && strchr (path + strlen ("torch.ops."), '.') != NULL;
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GArray) names = g_array_new (FALSE, FALSE, sizeof (Entry));

  g_array_set_clear_func (names, clear_entry);
  for (guint i = 0; i < self->entries->len; i++)
    {
      const Entry     *entry = &g_array_index (self->entries, Entry, i);
      const char      *rest;
      g_autofree char *name = NULL;
      gpointer         at;

      if (entry->attribute != attribute || !g_str_has_prefix (entry->target, prefix))
        continue;
      rest = entry->target + strlen (prefix);
      if (*rest == '\0')
        continue;
      name = whole ? g_strdup (rest) : g_strndup (rest, strcspn (rest, "."));
      /* A name's uses are those of every target under it. */
      if (g_hash_table_lookup_extended (seen, name, NULL, &at))
        g_array_index (names, Entry, GPOINTER_TO_UINT (at)).count += entry->count;
      else
        {
          Entry sum = { g_steal_pointer (&name), attribute, entry->count };

          g_array_append_val (names, sum);
          g_hash_table_insert (seen, sum.target, GUINT_TO_POINTER (names->len - 1));
        }
    }
  g_hash_table_remove_all (seen);
  g_array_sort (names, compare_entries_cb);
  for (guint i = 0; i < names->len; i++)
    {
      const Entry *name = &g_array_index (names, Entry, i);
      g_autoptr (GraftCompletionProposal) proposal = proposal_new (
          name->target, g_strdup_printf (name->count == 1 ? "%u use" : "%u uses", name->count),
          attribute ? "lang-variable-symbolic" : "lang-function-symbolic");

      g_list_store_append (store, proposal);
    }
}

/* Every proposal after @path, unfiltered. */
static GListStore *
proposals_for (GraftCompletion *self,
               const char      *path)
{
  GListStore *store = g_list_store_new (GRAFT_TYPE_COMPLETION_PROPOSAL);

  if (path_wants_graph (path))
    {
      if (self->entries != NULL)
        add_graph_proposals (self, path, store);
    }
  else
    {
      g_autofree char   *module = g_strndup (path, strlen (path) - 1);
      const char *const *names = tracer_names (self, module);

      for (guint i = 0; names[i] != NULL; i++)
        {
          g_autoptr (GraftCompletionProposal) proposal =
              proposal_new (names[i], g_strdup (module), "lang-function-symbolic");

          g_list_store_append (store, proposal);
        }
    }
  return store;
}

/* Counts the graph now, whole (for graft_completion_dup_texts()). */
static void
count_now (GraftCompletion *self)
{
  GraftGraph *graph = readable_graph (self);

  if (self->entries != NULL)
    return;
  g_clear_handle_id (&self->count_id, g_source_remove);
  g_hash_table_remove_all (self->counting);
  g_hash_table_remove_all (self->counting_attributes);
  self->count_node = graph != NULL ? graft_graph_get_first (graph) : NULL;
  count_nodes (self, G_MAXUINT);
  populate_waiting (self);
}

/**
 * graft_completion_dup_texts:
 * @self: a provider
 * @buffer: a text
 * @at: a place in @buffer
 *
 * What the provider offers at @at, in its order, before the word typed
 * there filters it; the graph is counted first if it has to be (the
 * popup waits for a count in steps instead).
 *
 * Returns: (transfer full): the texts of the proposals
 */
char **
graft_completion_dup_texts (GraftCompletion   *self,
                            GtkTextBuffer     *buffer,
                            const GtkTextIter *at)
{
  g_autofree char *path = NULL;
  g_autoptr (GListStore) store = NULL;
  GStrvBuilder *builder;
  char        **texts;

  g_return_val_if_fail (GRAFT_IS_COMPLETION (self), NULL);
  path = in_string_or_comment (buffer, at) ? NULL : path_before (buffer, at);
  builder = g_strv_builder_new ();
  if (path != NULL)
    {
      if (path_wants_graph (path))
        count_now (self);
      store = proposals_for (self, path);
      for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (store)); i++)
        {
          g_autoptr (GraftCompletionProposal) proposal =
              g_list_model_get_item (G_LIST_MODEL (store), i);

          g_strv_builder_add (builder, proposal->text);
        }
    }
  texts = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return texts;
}

/* The filter of a population: proposals that start with the word typed
 * (ASCII case aside), the word kept on the filter. */
static gboolean
filter_cb (gpointer item,
           gpointer user_data)
{
  const char *word = g_object_get_data (user_data, "word");
  const char *text = GRAFT_COMPLETION_PROPOSAL (item)->text;

  return word == NULL || g_ascii_strncasecmp (text, word, strlen (word)) == 0;
}

static GListModel *
filtered (GListStore *store,
          const char *word)
{
  GtkCustomFilter *filter = gtk_custom_filter_new (NULL, NULL, NULL);

  g_object_set_data_full (G_OBJECT (filter), "word", g_strdup (word), g_free);
  gtk_custom_filter_set_filter_func (filter, filter_cb, filter, NULL);
  /* The model takes both. */
  return G_LIST_MODEL (
      gtk_filter_list_model_new (G_LIST_MODEL (g_object_ref (store)), GTK_FILTER (filter)));
}

typedef struct
{
  char       *path;
  char       *word;
  GListModel *words; /* The words' provider's proposals to sift, or NULL */
} Request;

static void
request_free (gpointer data)
{
  Request *request = data;

  g_free (request->path);
  g_free (request->word);
  g_clear_object (&request->words);
  g_free (request);
}

static gboolean
unoffered_cb (gpointer item,
              gpointer user_data)
{
  g_autofree char *text =
      gtk_source_completion_proposal_get_typed_text (GTK_SOURCE_COMPLETION_PROPOSAL (item));

  return text == NULL || !g_hash_table_contains (user_data, text);
}

/* @words without the words in @offered (a set of texts): a model that
 * keeps the set, for the refilters to come. */
static GListModel *
sift_words (GListModel *words,
            GHashTable *offered)
{
  GtkCustomFilter *filter =
      gtk_custom_filter_new (unoffered_cb, g_hash_table_ref (offered),
                             (GDestroyNotify) g_hash_table_unref);
  GtkFilterListModel *sifted =
      gtk_filter_list_model_new (g_object_ref (words), GTK_FILTER (filter));

  g_object_set_data_full (G_OBJECT (sifted), "graft-offered", g_hash_table_ref (offered),
                          (GDestroyNotify) g_hash_table_unref);
  return G_LIST_MODEL (sifted);
}

/* @words without what @store offers. */
static GListModel *
sift_words_by (GListModel *words,
               GListStore *store)
{
  g_autoptr (GHashTable) offered = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (store)); i++)
    {
      g_autoptr (GraftCompletionProposal) proposal =
          g_list_model_get_item (G_LIST_MODEL (store), i);

      g_hash_table_add (offered, g_strdup (proposal->text));
    }
  return sift_words (words, offered);
}

/* The populations that waited for the count get their proposals. */
static void
populate_waiting (GraftCompletion *self)
{
  g_autoptr (GPtrArray) waiting = g_steal_pointer (&self->waiting);

  self->waiting = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < waiting->len; i++)
    {
      GTask   *task = waiting->pdata[i];
      Request *request = g_task_get_task_data (task);
      g_autoptr (GListStore) store = NULL;

      if (g_task_return_error_if_cancelled (task))
        continue;
      store = proposals_for (self, request->path);
      if (request->words != NULL)
        g_task_return_pointer (task, sift_words_by (request->words, store), g_object_unref);
      else
        g_task_return_pointer (task, filtered (store, request->word), g_object_unref);
    }
}

static char *
graft_completion_get_title (GtkSourceCompletionProvider *provider)
{
  return g_strdup ("Graft");
}

static int
graft_completion_get_priority (GtkSourceCompletionProvider *provider,
                               GtkSourceCompletionContext  *context)
{
  /* Above the words of the text. */
  return 100;
}

static gboolean
graft_completion_is_trigger (GtkSourceCompletionProvider *provider,
                             const GtkTextIter           *iter,
                             gunichar                     c)
{
  return c == '.' && !in_string_or_comment (gtk_text_iter_get_buffer (iter), iter);
}

static void
graft_completion_populate_async (GtkSourceCompletionProvider *provider,
                                 GtkSourceCompletionContext  *context,
                                 GCancellable                *cancellable,
                                 GAsyncReadyCallback          callback,
                                 gpointer                     user_data)
{
  GraftCompletion *self = GRAFT_COMPLETION (provider);
  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);
  GtkTextIter begin;
  GtkTextIter end;
  Request    *request = g_new0 (Request, 1);

  g_task_set_source_tag (task, graft_completion_populate_async);
  g_task_set_task_data (task, request, request_free);
  gtk_source_completion_context_get_bounds (context, &begin, &end);
  if (!in_string_or_comment (
          GTK_TEXT_BUFFER (gtk_source_completion_context_get_buffer (context)), &end))
    request->path =
        path_before (GTK_TEXT_BUFFER (gtk_source_completion_context_get_buffer (context)), &begin);
  request->word = gtk_source_completion_context_get_word (context);
  if (request->path == NULL)
    {
      /* Nothing to offer here: the words' provider offers what it has
       * (an error instead is taken for a list by GtkSourceView 5.6). */
      g_autoptr (GListStore) empty = g_list_store_new (GRAFT_TYPE_COMPLETION_PROPOSAL);

      g_task_return_pointer (task, g_object_ref (empty), g_object_unref);
      return;
    }
  if (path_wants_graph (request->path) && self->entries == NULL)
    {
      g_ptr_array_add (self->waiting, g_steal_pointer (&task));
      start_count (self);
      return;
    }
  {
    g_autoptr (GListStore) store = proposals_for (self, request->path);

    g_task_return_pointer (task, filtered (store, request->word), g_object_unref);
  }
}

static GListModel *
graft_completion_populate_finish (GtkSourceCompletionProvider *provider,
                                  GAsyncResult                *result,
                                  GError                     **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
graft_completion_refilter (GtkSourceCompletionProvider *provider,
                           GtkSourceCompletionContext  *context,
                           GListModel                  *model)
{
  GtkFilter *filter;

  if (!GTK_IS_FILTER_LIST_MODEL (model))
    return;
  filter = gtk_filter_list_model_get_filter (GTK_FILTER_LIST_MODEL (model));
  g_object_set_data_full (G_OBJECT (filter), "word",
                          gtk_source_completion_context_get_word (context), g_free);
  gtk_filter_changed (filter, GTK_FILTER_CHANGE_DIFFERENT);
}

static void
graft_completion_display (GtkSourceCompletionProvider *provider,
                          GtkSourceCompletionContext  *context,
                          GtkSourceCompletionProposal *item,
                          GtkSourceCompletionCell     *cell)
{
  GraftCompletionProposal *proposal = GRAFT_COMPLETION_PROPOSAL (item);

  switch (gtk_source_completion_cell_get_column (cell))
    {
    case GTK_SOURCE_COMPLETION_COLUMN_ICON:
      gtk_source_completion_cell_set_icon_name (cell, proposal->icon_name);
      break;
    case GTK_SOURCE_COMPLETION_COLUMN_TYPED_TEXT:
      gtk_source_completion_cell_set_text (cell, proposal->text);
      break;
    case GTK_SOURCE_COMPLETION_COLUMN_AFTER:
      gtk_source_completion_cell_set_text (cell, proposal->detail);
      break;
    case GTK_SOURCE_COMPLETION_COLUMN_BEFORE:
    case GTK_SOURCE_COMPLETION_COLUMN_COMMENT:
    case GTK_SOURCE_COMPLETION_COLUMN_DETAILS:
    default:
      gtk_source_completion_cell_set_text (cell, NULL);
      break;
    }
}

/* The word typed so far gives way to the proposal, as one user action:
 * one undo (Ctrl+Z) gives the word back. */
static void
graft_completion_activate (GtkSourceCompletionProvider *provider,
                           GtkSourceCompletionContext  *context,
                           GtkSourceCompletionProposal *item)
{
  GraftCompletionProposal *proposal = GRAFT_COMPLETION_PROPOSAL (item);
  GtkTextBuffer           *buffer =
      GTK_TEXT_BUFFER (gtk_source_completion_context_get_buffer (context));
  GtkTextIter begin;
  GtkTextIter end;

  if (!gtk_source_completion_context_get_bounds (context, &begin, &end))
    return;
  gtk_text_buffer_begin_user_action (buffer);
  gtk_text_buffer_delete (buffer, &begin, &end);
  gtk_text_buffer_insert (buffer, &begin, proposal->text, -1);
  gtk_text_buffer_end_user_action (buffer);
}

static void
graft_completion_provider_iface_init (GtkSourceCompletionProviderInterface *iface)
{
  iface->get_title = graft_completion_get_title;
  iface->get_priority = graft_completion_get_priority;
  iface->is_trigger = graft_completion_is_trigger;
  iface->populate_async = graft_completion_populate_async;
  iface->populate_finish = graft_completion_populate_finish;
  iface->refilter = graft_completion_refilter;
  iface->display = graft_completion_display;
  iface->activate = graft_completion_activate;
}

static void
graft_completion_dispose (GObject *object)
{
  GraftCompletion *self = GRAFT_COMPLETION (object);

  graft_completion_set_document (self, NULL);
  /* The document may have gone first, the count still under way. */
  drop_count (self);
  for (guint i = 0; i < self->waiting->len; i++)
    g_task_return_new_error (self->waiting->pdata[i], G_IO_ERROR, G_IO_ERROR_CANCELLED,
                             "the completion is gone");
  g_ptr_array_set_size (self->waiting, 0);
  G_OBJECT_CLASS (graft_completion_parent_class)->dispose (object);
}

static void
graft_completion_finalize (GObject *object)
{
  GraftCompletion *self = GRAFT_COMPLETION (object);

  g_hash_table_unref (self->names);
  g_clear_pointer (&self->entries, g_array_unref);
  g_ptr_array_unref (self->waiting);
  g_hash_table_unref (self->counting);
  g_hash_table_unref (self->counting_attributes);
  G_OBJECT_CLASS (graft_completion_parent_class)->finalize (object);
}

static void
graft_completion_class_init (GraftCompletionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = graft_completion_dispose;
  object_class->finalize = graft_completion_finalize;
}

static void
graft_completion_init (GraftCompletion *self)
{
  self->names =
      g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_strfreev);
  self->waiting = g_ptr_array_new_with_free_func (g_object_unref);
  self->counting = g_hash_table_new (g_str_hash, g_str_equal);
  self->counting_attributes = g_hash_table_new (g_str_hash, g_str_equal);
}

/* GraftCompletionWords: the words of the text (GtkSourceCompletionWords)
 * as the editors offer them beside Graft's provider: nothing in a string
 * or a comment, and not a word Graft's provider offers at the same place
 * (`self.bn` offered "bn1 1 use" and "bn1" again below it). */
struct _GraftCompletionWords
{
  GtkSourceCompletionWords parent_instance;

  /* Owned */
  GraftCompletion *graft;
};

static GtkSourceCompletionProviderInterface *words_parent_iface;

static void graft_completion_words_iface_init (GtkSourceCompletionProviderInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (GraftCompletionWords,
                               graft_completion_words,
                               GTK_SOURCE_TYPE_COMPLETION_WORDS,
                               G_IMPLEMENT_INTERFACE (GTK_SOURCE_TYPE_COMPLETION_PROVIDER,
                                                      graft_completion_words_iface_init))

/* The words' own proposals are in: those Graft's provider offers after
 * the same path go (once the graph is counted, if they come from it). */
static void
words_populated_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  GraftCompletionWords *self = GRAFT_COMPLETION_WORDS (object);
  g_autoptr (GTask) task = user_data;
  Request                    *request = g_task_get_task_data (task);
  GtkSourceCompletionContext *context = g_object_get_data (G_OBJECT (task), "context");
  GraftCompletion            *graft = self->graft;
  g_autoptr (GError) error = NULL;
  GtkTextIter begin;
  GtkTextIter end;

  request->words = words_parent_iface->populate_finish (GTK_SOURCE_COMPLETION_PROVIDER (self),
                                                        result, &error);
  if (request->words == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (gtk_source_completion_context_get_bounds (context, &begin, &end))
    request->path =
        path_before (GTK_TEXT_BUFFER (gtk_source_completion_context_get_buffer (context)), &begin);
  if (request->path == NULL)
    {
      g_task_return_pointer (task, g_steal_pointer (&request->words), g_object_unref);
      return;
    }
  if (path_wants_graph (request->path) && graft->entries == NULL)
    {
      g_ptr_array_add (graft->waiting, g_steal_pointer (&task));
      start_count (graft);
      return;
    }
  {
    g_autoptr (GListStore) store = proposals_for (graft, request->path);

    g_task_return_pointer (task, sift_words_by (request->words, store), g_object_unref);
  }
}

static void
graft_completion_words_populate_async (GtkSourceCompletionProvider *provider,
                                       GtkSourceCompletionContext  *context,
                                       GCancellable                *cancellable,
                                       GAsyncReadyCallback          callback,
                                       gpointer                     user_data)
{
  GTask      *task = g_task_new (provider, cancellable, callback, user_data);
  GtkTextIter begin;
  GtkTextIter end;

  g_task_set_source_tag (task, graft_completion_words_populate_async);
  g_task_set_task_data (task, g_new0 (Request, 1), request_free);
  g_object_set_data_full (G_OBJECT (task), "context", g_object_ref (context), g_object_unref);
  gtk_source_completion_context_get_bounds (context, &begin, &end);
  if (in_string_or_comment (GTK_TEXT_BUFFER (gtk_source_completion_context_get_buffer (context)),
                            &end))
    {
      g_autoptr (GListStore) none = g_list_store_new (GTK_SOURCE_TYPE_COMPLETION_PROPOSAL);

      g_task_return_pointer (task, g_object_ref (none), g_object_unref);
      g_object_unref (task);
      return;
    }
  words_parent_iface->populate_async (provider, context, cancellable, words_populated_cb, task);
}

static GListModel *
graft_completion_words_populate_finish (GtkSourceCompletionProvider *provider,
                                        GAsyncResult                *result,
                                        GError                     **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* The words' own refilter replaces the provider's proposals with a new
 * model of its own: the words Graft offers are sifted out of it again. */
static void
graft_completion_words_refilter (GtkSourceCompletionProvider *provider,
                                 GtkSourceCompletionContext  *context,
                                 GListModel                  *model)
{
  GHashTable *offered = g_object_get_data (G_OBJECT (model), "graft-offered");
  GListModel *refiltered;

  if (G_IS_LIST_STORE (model))
    return; /* Nothing offered here (a string, a comment). */
  if (offered == NULL)
    {
      words_parent_iface->refilter (provider, context, model);
      return;
    }
  g_hash_table_ref (offered);
  words_parent_iface->refilter (provider, context,
                                gtk_filter_list_model_get_model (GTK_FILTER_LIST_MODEL (model)));
  refiltered = gtk_source_completion_context_get_proposals_for_provider (context, provider);
  if (refiltered != NULL && refiltered != model)
    {
      g_autoptr (GListModel) sifted = sift_words (refiltered, offered);

      gtk_source_completion_context_set_proposals_for_provider (context, provider, sifted);
    }
  g_hash_table_unref (offered);
}

static void
graft_completion_words_iface_init (GtkSourceCompletionProviderInterface *iface)
{
  words_parent_iface = g_type_interface_peek_parent (iface);
  iface->populate_async = graft_completion_words_populate_async;
  iface->populate_finish = graft_completion_words_populate_finish;
  iface->refilter = graft_completion_words_refilter;
}

static void
graft_completion_words_dispose (GObject *object)
{
  GraftCompletionWords *self = GRAFT_COMPLETION_WORDS (object);

  g_clear_object (&self->graft);
  G_OBJECT_CLASS (graft_completion_words_parent_class)->dispose (object);
}

static void
graft_completion_words_class_init (GraftCompletionWordsClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = graft_completion_words_dispose;
}

static void
graft_completion_words_init (GraftCompletionWords *self)
{
}

/**
 * graft_completion_words_new:
 * @graft: the editor's provider of Graft's names
 *
 * Returns: (transfer full): a provider of the words of the registered
 *   texts, quiet in strings and comments, without the words @graft
 *   offers at the same place
 */
GtkSourceCompletionWords *
graft_completion_words_new (GraftCompletion *graft)
{
  GraftCompletionWords *self;

  g_return_val_if_fail (GRAFT_IS_COMPLETION (graft), NULL);
  self = g_object_new (GRAFT_TYPE_COMPLETION_WORDS, "title", "Words", NULL);
  self->graft = g_object_ref (graft);
  return GTK_SOURCE_COMPLETION_WORDS (self);
}
