/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-session.c: a document saved whole, so that reopening it gives back
 * the graph, the rules and the history where they stood.
 *
 * A session is JSON (json-glib), one object:
 *
 *     {
 *       "graft-session": 1,
 *       "torch": "2.6",                  the torch the input was read in
 *       "input": {"name": "resnet18.py", "text": "..."},
 *                                        ("base64" for a binary input, .pt2;
 *                                        "entry": "Net" when a class other
 *                                        than the first was traced)
 *       "rules": [{"pattern": "...", "replacement": "...",
 *                  "pattern-entry": "relu_add", "replacement-entry": null,
 *                  "enabled": true}, ...],
 *       "selected-rule": 0,
 *       "options": {"fixpoint": 5, "dce": false},
 *       "texts": ["...", ...],           the rule texts the steps applied
 *       "steps": [{"do": "rule", "label": "pass 1 · a → b · 3 matches",
 *                  "pattern": 0, "replacement": 1,     (indices into texts)
 *                  "pattern-name": "a", "replacement-name": "b",
 *                  "match": -1, "except": [2],
 *                  "loop": {"pass": 1, "rule": 0, "pass-replaced": 3,
 *                           "call-done": true, "skipped": ["add_3"],
 *                           "joined": true}},       (a later step of one
 *                                        Run All: undone with the one before)
 *                 {"do": "dead-code", "label": "...", "loop": {...}},
 *                 {"do": "delete", "label": "...", "nodes": ["relu_1"],
 *                  "ranks": [0]},        (which node of each name, by rank
 *                                        in graph order, where two nodes
 *                                        share a name; without it, every
 *                                        node of each name)
 *                 {"do": "restore", "label": "...", "name": "...", "text": 2},
 *                 {"do": "torch", "label": "...", "torch": "1.13"}],
 *       "position": 3                    how many steps are applied
 *     }
 *
 * Nothing of a graph is stored: reopening reads the input again and does
 * every step again, the undone ones too, then undoes back to the position,
 * so that undo and redo work after reopening as before.  A rule's step
 * keeps the texts it was applied with, so editing or removing the rule
 * later changes nothing of it.  Changes of the rule set are not steps:
 * the rules are saved as they are.
 *
 * Reading is in two halves, for graft-document-loader.c: parsing, which
 * touches no document and may run on a worker (graft_session_parse()),
 * then installing, on the document's thread (graft_session_install()).
 * Every fault of a session file (bad JSON, a cut-off file, a key missing
 * or of the wrong type, an index out of range, a step that no longer
 * applies) is a located error, FILE:LINE:COL at the object concerned, and
 * a session that fails to install leaves the document empty with that
 * error, never half read.  Saving writes through graft_output_write_file(),
 * atomically.
 */
#include "config.h"

#include "graft-session.h"
#include "graft-document-private.h"
#include "graft-rule.h"

#include <json-glib/json-glib.h>
#include <string.h>

#define SESSION_VERSION 1

typedef struct
{
  char    *pattern;
  char    *replacement;
  char    *pattern_entry;
  char    *replacement_entry;
  gboolean enabled;
} SessionRule;

typedef struct
{
  GraftStepKind       kind;
  char               *label;
  char               *pattern_text; /* GRAFT_STEP_RULE */
  char               *replacement_text;
  char               *pattern_name;
  char               *replacement_name;
  gint                match;
  GArray             *except; /* guint */
  gboolean            looped;
  guint               pass;
  guint               rule;
  guint               pass_replaced;
  gboolean            call_done;
  GStrv               skipped;
  gboolean            joined;
  GStrv               nodes;        /* GRAFT_STEP_DELETE */
  GArray             *ranks;        /* guint per node, or NULL */
  char               *restore_name; /* GRAFT_STEP_RESTORE */
  char               *restore_text;
  const GraftDialect *torch; /* GRAFT_STEP_TORCH */
  guint               line;  /* where the step is in the file */
  guint               column;
} SessionStep;

struct _GraftSession
{
  /* Owned */
  char      *path;
  char      *input_name;
  GBytes    *input;
  char      *entry; /* the class traced, or NULL for the first */
  GPtrArray *rules; /* SessionRule */
  GPtrArray *steps; /* SessionStep */

  const GraftDialect *torch; /* static */
  guint               selected;
  guint               fixpoint;
  gboolean            dce;
  guint               position;
};

static void
session_rule_free (gpointer data)
{
  SessionRule *rule = data;

  g_free (rule->pattern);
  g_free (rule->replacement);
  g_free (rule->pattern_entry);
  g_free (rule->replacement_entry);
  g_free (rule);
}

static void
session_step_free (gpointer data)
{
  SessionStep *step = data;

  g_free (step->label);
  g_free (step->pattern_text);
  g_free (step->replacement_text);
  g_free (step->pattern_name);
  g_free (step->replacement_name);
  g_clear_pointer (&step->except, g_array_unref);
  g_strfreev (step->skipped);
  g_strfreev (step->nodes);
  g_clear_pointer (&step->ranks, g_array_unref);
  g_free (step->restore_name);
  g_free (step->restore_text);
  g_free (step);
}

void
graft_session_free (GraftSession *self)
{
  if (self == NULL)
    return;
  g_free (self->path);
  g_free (self->input_name);
  g_free (self->entry);
  g_clear_pointer (&self->input, g_bytes_unref);
  g_clear_pointer (&self->rules, g_ptr_array_unref);
  g_clear_pointer (&self->steps, g_ptr_array_unref);
  g_free (self);
}

/**
 * graft_session_detect:
 * @path: a file's path
 * @text: its contents
 * @length: their length
 *
 * Returns: whether the file is a session: named `*.graft`, or a JSON
 *   object that opens with its `graft-session` key
 */
gboolean
graft_session_detect (const char *path,
                      const char *text,
                      gsize       length)
{
  gsize i = 0;

  if (path != NULL && g_str_has_suffix (path, ".graft"))
    return TRUE;
  while (i < length && g_ascii_isspace (text[i]))
    i++;
  if (i >= length || text[i] != '{')
    return FALSE;
  i++;
  while (i < length && g_ascii_isspace (text[i]))
    i++;
  return length - i >= strlen ("\"graft-session\"") &&
         strncmp (text + i, "\"graft-session\"", strlen ("\"graft-session\"")) == 0;
}

/* Reading ------------------------------------------------------------------ */

/* Where each object and array of the file starts, for located errors. */
typedef struct
{
  const char *path;
  GHashTable *where; /* JsonObject * or JsonArray * -> line << 16 | column */
  GArray     *open;  /* guint64: positions of the objects and arrays being parsed */
  guint       error_line;
  guint       error_column;
} Reader;

static guint64
here (JsonParser *parser)
{
  return ((guint64) json_parser_get_current_line (parser) << 32) |
         json_parser_get_current_pos (parser);
}

static void
opened_cb (JsonParser *parser,
           Reader     *r)
{
  guint64 at = here (parser);

  g_array_append_val (r->open, at);
}

static void
closed_cb (JsonParser *parser,
           gpointer    object,
           Reader     *r)
{
  if (r->open->len == 0)
    return;
  g_hash_table_insert (r->where, object,
                       g_memdup2 (&g_array_index (r->open, guint64, r->open->len - 1),
                                  sizeof (guint64)));
  g_array_set_size (r->open, r->open->len - 1);
}

static void
parse_error_cb (JsonParser   *parser,
                const GError *error,
                Reader       *r)
{
  r->error_line = json_parser_get_current_line (parser);
  r->error_column = json_parser_get_current_pos (parser);
}

/* Sets @error at where @container (a JsonObject or JsonArray of the file,
 * nullable) starts. */
static gboolean fail (Reader       *r,
                      gconstpointer container,
                      GError      **error,
                      const char   *format,
                      ...) G_GNUC_PRINTF (4, 5);

static gboolean
fail (Reader       *r,
      gconstpointer container,
      GError      **error,
      const char   *format,
      ...)
{
  const guint64   *at = container != NULL ? g_hash_table_lookup (r->where, container) : NULL;
  g_autofree char *message = NULL;
  va_list          args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  graft_set_error_at (error, r->path, at != NULL ? (guint) (*at >> 32) : 1,
                      at != NULL ? MAX ((guint) (*at & 0xffffffffu), 1) : 1,
                      GRAFT_PARSE_ERROR_SYNTAX, "session: %s", message);
  return FALSE;
}

static JsonNode *
member (JsonObject *object,
        const char *name)
{
  return json_object_has_member (object, name) ? json_object_get_member (object, name) : NULL;
}

static gboolean
get_string (Reader      *r,
            JsonObject  *object,
            const char  *name,
            gboolean     nullable,
            const char **out,
            GError     **error)
{
  JsonNode *node = member (object, name);

  *out = NULL;
  if ((node == NULL || JSON_NODE_HOLDS_NULL (node)) && nullable)
    return TRUE;
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return fail (r, object, error, "'%s' must be a string", name);
  *out = json_node_get_string (node);
  return TRUE;
}

static gboolean
get_int (Reader     *r,
         JsonObject *object,
         const char *name,
         gint64      lowest,
         gint64      highest,
         gboolean    optional,
         gint64     *out,
         GError    **error)
{
  JsonNode *node = member (object, name);

  if (node == NULL && optional)
    return TRUE;
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_INT64)
    return fail (r, object, error, "'%s' must be a whole number", name);
  *out = json_node_get_int (node);
  if (*out < lowest || *out > highest)
    return fail (r, object, error,
                 "'%s' is %" G_GINT64_FORMAT ", out of %" G_GINT64_FORMAT "..%" G_GINT64_FORMAT,
                 name, *out, lowest, highest);
  return TRUE;
}

static gboolean
get_uint (Reader     *r,
          JsonObject *object,
          const char *name,
          guint       highest,
          gboolean    optional,
          guint      *out,
          GError    **error)
{
  gint64 value = *out;

  if (!get_int (r, object, name, 0, highest, optional, &value, error))
    return FALSE;
  *out = (guint) value;
  return TRUE;
}

static gboolean
get_bool (Reader     *r,
          JsonObject *object,
          const char *name,
          gboolean   *out,
          GError    **error)
{
  JsonNode *node = member (object, name);

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    return fail (r, object, error, "'%s' must be true or false", name);
  *out = json_node_get_boolean (node);
  return TRUE;
}

static gboolean
get_array (Reader     *r,
           JsonObject *object,
           const char *name,
           gboolean    optional,
           JsonArray **out,
           GError    **error)
{
  JsonNode *node = member (object, name);

  *out = NULL;
  if (node == NULL && optional)
    return TRUE;
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return fail (r, object, error, "'%s' must be a list", name);
  *out = json_node_get_array (node);
  return TRUE;
}

static gboolean
get_object (Reader      *r,
            JsonObject  *object,
            const char  *name,
            gboolean     optional,
            JsonObject **out,
            GError     **error)
{
  JsonNode *node = member (object, name);

  *out = NULL;
  if (node == NULL && optional)
    return TRUE;
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return fail (r, object, error, "'%s' must be an object", name);
  *out = json_node_get_object (node);
  return TRUE;
}

/* The strings of @array, of @container. */
static gboolean
get_strings (Reader     *r,
             JsonObject *container,
             JsonArray  *array,
             const char *name,
             GStrv      *out,
             GError    **error)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);

      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
        return fail (r, container, error, "'%s' must hold strings", name);
      g_strv_builder_add (builder, json_node_get_string (node));
    }
  *out = g_strv_builder_end (builder);
  return TRUE;
}

/* A text of "texts", by the index @name holds. */
static gboolean
get_text (Reader     *r,
          JsonObject *object,
          const char *name,
          JsonArray  *texts,
          char      **out,
          GError    **error)
{
  guint     index = 0;
  JsonNode *node;

  if (!get_uint (r, object, name, G_MAXUINT, FALSE, &index, error))
    return FALSE;
  if (texts == NULL || index >= json_array_get_length (texts))
    return fail (r, object, error, "'%s' is text %u, and there are %u", name, index,
                 texts != NULL ? json_array_get_length (texts) : 0);
  node = json_array_get_element (texts, index);
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return fail (r, texts, error, "text %u must be a string", index);
  *out = g_strdup (json_node_get_string (node));
  return TRUE;
}

static gboolean
read_input (Reader       *r,
            GraftSession *self,
            JsonObject   *root,
            GError      **error)
{
  JsonObject *input;
  const char *name;
  const char *text = NULL;
  const char *base64 = NULL;

  if (!get_object (r, root, "input", FALSE, &input, error) ||
      !get_string (r, input, "name", FALSE, &name, error))
    return FALSE;
  if (member (input, "base64") != NULL)
    {
      gsize   length = 0;
      guchar *bytes;

      if (!get_string (r, input, "base64", FALSE, &base64, error))
        return FALSE;
      bytes = g_base64_decode (base64, &length);
      self->input = g_bytes_new_take (bytes, length);
    }
  else
    {
      if (!get_string (r, input, "text", FALSE, &text, error))
        return FALSE;
      self->input = g_bytes_new (text, strlen (text));
    }
  if (member (input, "entry") != NULL)
    {
      const char *entry;

      if (!get_string (r, input, "entry", TRUE, &entry, error))
        return FALSE;
      self->entry = g_strdup (entry);
    }
  self->input_name = g_strdup (name);
  return TRUE;
}

static gboolean
read_rules (Reader       *r,
            GraftSession *self,
            JsonObject   *root,
            GError      **error)
{
  JsonArray  *rules;
  JsonObject *options;

  if (!get_array (r, root, "rules", FALSE, &rules, error))
    return FALSE;
  if (json_array_get_length (rules) == 0)
    return fail (r, root, error, "'rules' must hold at least one rule");
  for (guint i = 0; i < json_array_get_length (rules); i++)
    {
      JsonNode    *node = json_array_get_element (rules, i);
      JsonObject  *object;
      SessionRule *rule;
      const char  *pattern;
      const char  *replacement;
      const char  *pattern_entry;
      const char  *replacement_entry;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        return fail (r, rules, error, "rule %u must be an object", i + 1);
      object = json_node_get_object (node);
      if (!get_string (r, object, "pattern", FALSE, &pattern, error) ||
          !get_string (r, object, "replacement", FALSE, &replacement, error) ||
          !get_string (r, object, "pattern-entry", TRUE, &pattern_entry, error) ||
          !get_string (r, object, "replacement-entry", TRUE, &replacement_entry, error))
        return FALSE;
      rule = g_new0 (SessionRule, 1);
      rule->pattern = g_strdup (pattern);
      rule->replacement = g_strdup (replacement);
      rule->pattern_entry = g_strdup (pattern_entry);
      rule->replacement_entry = g_strdup (replacement_entry);
      rule->enabled = TRUE;
      g_ptr_array_add (self->rules, rule);
      if (!get_bool (r, object, "enabled", &rule->enabled, error))
        return FALSE;
    }
  if (!get_uint (r, root, "selected-rule", self->rules->len - 1, TRUE, &self->selected, error) ||
      !get_object (r, root, "options", TRUE, &options, error))
    return FALSE;
  if (options != NULL &&
      (!get_uint (r, options, "fixpoint", G_MAXINT, TRUE, &self->fixpoint, error) ||
       !get_bool (r, options, "dce", &self->dce, error)))
    return FALSE;
  return TRUE;
}

static gboolean
read_loop (Reader      *r,
           SessionStep *step,
           JsonObject  *object,
           GError     **error)
{
  JsonObject *loop;
  JsonArray  *skipped;

  if (!get_object (r, object, "loop", TRUE, &loop, error))
    return FALSE;
  if (loop == NULL)
    return TRUE;
  step->looped = TRUE;
  step->pass = 1;
  return get_uint (r, loop, "pass", G_MAXINT, FALSE, &step->pass, error) &&
         get_uint (r, loop, "rule", G_MAXINT, TRUE, &step->rule, error) &&
         get_uint (r, loop, "pass-replaced", G_MAXINT, TRUE, &step->pass_replaced, error) &&
         get_bool (r, loop, "call-done", &step->call_done, error) &&
         get_bool (r, loop, "joined", &step->joined, error) &&
         get_array (r, loop, "skipped", TRUE, &skipped, error) &&
         get_strings (r, loop, skipped, "skipped", &step->skipped, error);
}

static gboolean
read_step (Reader       *r,
           GraftSession *self,
           JsonObject   *object,
           JsonArray    *texts,
           SessionStep  *step,
           GError      **error)
{
  const char *kind;
  const char *label;
  const char *text;

  if (!get_string (r, object, "do", FALSE, &kind, error) ||
      !get_string (r, object, "label", FALSE, &label, error))
    return FALSE;
  step->label = g_strdup (label);
  if (strcmp (kind, "rule") == 0)
    {
      JsonArray  *except;
      const char *pattern_name;
      const char *replacement_name;
      gint64      match = -1;

      step->kind = GRAFT_STEP_RULE;
      if (!get_text (r, object, "pattern", texts, &step->pattern_text, error) ||
          !get_text (r, object, "replacement", texts, &step->replacement_text, error) ||
          !get_string (r, object, "pattern-name", TRUE, &pattern_name, error) ||
          !get_string (r, object, "replacement-name", TRUE, &replacement_name, error) ||
          !get_int (r, object, "match", -1, G_MAXINT, TRUE, &match, error) ||
          !get_array (r, object, "except", TRUE, &except, error))
        return FALSE;
      step->pattern_name = g_strdup (pattern_name);
      step->replacement_name = g_strdup (replacement_name);
      step->match = (gint) match;
      if (except != NULL && json_array_get_length (except) > 0)
        {
          step->except = g_array_new (FALSE, FALSE, sizeof (guint));
          for (guint i = 0; i < json_array_get_length (except); i++)
            {
              JsonNode *node = json_array_get_element (except, i);
              guint     index;

              if (!JSON_NODE_HOLDS_VALUE (node) ||
                  json_node_get_value_type (node) != G_TYPE_INT64 || json_node_get_int (node) < 0 ||
                  json_node_get_int (node) > G_MAXINT)
                return fail (r, object, error, "'except' must hold match numbers");
              index = (guint) json_node_get_int (node);
              g_array_append_val (step->except, index);
            }
        }
      return read_loop (r, step, object, error);
    }
  if (strcmp (kind, "dead-code") == 0)
    {
      step->kind = GRAFT_STEP_DCE;
      return read_loop (r, step, object, error);
    }
  if (strcmp (kind, "delete") == 0)
    {
      JsonArray *nodes;
      JsonArray *ranks;

      step->kind = GRAFT_STEP_DELETE;
      if (!get_array (r, object, "nodes", FALSE, &nodes, error) ||
          !get_strings (r, object, nodes, "nodes", &step->nodes, error) ||
          !get_array (r, object, "ranks", TRUE, &ranks, error))
        return FALSE;
      /* Older sessions have none: every node of each name. */
      if (ranks == NULL)
        return TRUE;
      if (json_array_get_length (ranks) != json_array_get_length (nodes))
        return fail (r, object, error, "'ranks' must hold a rank for each of 'nodes'");
      step->ranks = g_array_new (FALSE, FALSE, sizeof (guint));
      for (guint i = 0; i < json_array_get_length (ranks); i++)
        {
          JsonNode *node = json_array_get_element (ranks, i);
          guint     rank;

          if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64 ||
              json_node_get_int (node) < 0 || json_node_get_int (node) > G_MAXINT)
            return fail (r, object, error, "'ranks' must hold ranks (0, 1, ...)");
          rank = (guint) json_node_get_int (node);
          g_array_append_val (step->ranks, rank);
        }
      return TRUE;
    }
  if (strcmp (kind, "restore") == 0)
    {
      step->kind = GRAFT_STEP_RESTORE;
      if (!get_string (r, object, "name", FALSE, &text, error))
        return FALSE;
      step->restore_name = g_strdup (text);
      return get_text (r, object, "text", texts, &step->restore_text, error);
    }
  if (strcmp (kind, "torch") == 0)
    {
      step->kind = GRAFT_STEP_TORCH;
      if (!get_string (r, object, "torch", FALSE, &text, error))
        return FALSE;
      step->torch = graft_dialect_from_name (text);
      if (step->torch == NULL)
        return fail (r, object, error, "no torch '%s' (2.6 or 1.13)", text);
      return TRUE;
    }
  return fail (r, object, error, "no step '%s' (rule, dead-code, delete, restore or torch)", kind);
}

static gboolean
read_steps (Reader       *r,
            GraftSession *self,
            JsonObject   *root,
            GError      **error)
{
  JsonArray *texts;
  JsonArray *steps;

  if (!get_array (r, root, "texts", TRUE, &texts, error) ||
      !get_array (r, root, "steps", TRUE, &steps, error))
    return FALSE;
  for (guint i = 0; steps != NULL && i < json_array_get_length (steps); i++)
    {
      JsonNode    *node = json_array_get_element (steps, i);
      SessionStep *step;
      JsonObject  *object;
      guint64     *at;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        return fail (r, steps, error, "step %u must be an object", i + 1);
      object = json_node_get_object (node);
      step = g_new0 (SessionStep, 1);
      step->match = -1;
      at = g_hash_table_lookup (r->where, object);
      step->line = at != NULL ? (guint) (*at >> 32) : 1;
      step->column = at != NULL ? MAX ((guint) (*at & 0xffffffffu), 1) : 1;
      g_ptr_array_add (self->steps, step);
      if (!read_step (r, self, object, texts, step, error))
        return FALSE;
    }
  return get_uint (r, root, "position", self->steps->len, FALSE, &self->position, error);
}

/**
 * graft_session_parse:
 * @path: the file's name, for errors
 * @text: its contents
 * @length: their length
 * @error: return location for a located error
 *
 * Reads a session; touches no document (it may run on a worker).
 *
 * Returns: (transfer full) (nullable): the session, or %NULL with @error
 *   set at the place of the fault
 */
GraftSession *
graft_session_parse (const char *path,
                     const char *text,
                     gsize       length,
                     GError    **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GraftSession) self = g_new0 (GraftSession, 1);
  g_autoptr (GHashTable) where = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr (GArray) open = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr (GError) json_error = NULL;
  Reader      r = { path, where, open, 0, 0 };
  JsonNode   *root_node;
  JsonObject *root;
  const char *torch;
  gint64      version = 0;

  self->path = g_strdup (path);
  self->rules = g_ptr_array_new_with_free_func (session_rule_free);
  self->steps = g_ptr_array_new_with_free_func (session_step_free);
  g_signal_connect (parser, "object-start", G_CALLBACK (opened_cb), &r);
  g_signal_connect (parser, "array-start", G_CALLBACK (opened_cb), &r);
  g_signal_connect (parser, "object-end", G_CALLBACK (closed_cb), &r);
  g_signal_connect (parser, "array-end", G_CALLBACK (closed_cb), &r);
  g_signal_connect (parser, "error", G_CALLBACK (parse_error_cb), &r);
  if (length > G_MAXSSIZE ||
      !json_parser_load_from_data (parser, text, (gssize) length, &json_error))
    {
      const char *message = json_error != NULL ? json_error->message : "the file is too large";
      const char *what = strstr (message, "error: ");

      graft_set_error_at (error, path, MAX (r.error_line, 1), MAX (r.error_column, 1),
                          GRAFT_PARSE_ERROR_SYNTAX, "session: %s",
                          what != NULL ? what + strlen ("error: ") : message);
      return NULL;
    }
  root_node = json_parser_get_root (parser);
  if (root_node == NULL || !JSON_NODE_HOLDS_OBJECT (root_node))
    return fail (&r, NULL, error, "a session is a JSON object"), NULL;
  root = json_node_get_object (root_node);
  if (!get_int (&r, root, "graft-session", 1, G_MAXINT, FALSE, &version, error))
    return NULL;
  if (version > SESSION_VERSION)
    return fail (&r, root, error, "version %" G_GINT64_FORMAT " is newer than this Graft's (%d)",
                 version, SESSION_VERSION),
           NULL;
  if (!get_string (&r, root, "torch", FALSE, &torch, error))
    return NULL;
  self->torch = graft_dialect_from_name (torch);
  if (self->torch == NULL)
    return fail (&r, root, error, "no torch '%s' (2.6 or 1.13)", torch), NULL;
  if (!read_input (&r, self, root, error) || !read_rules (&r, self, root, error) ||
      !read_steps (&r, self, root, error))
    return NULL;
  return g_steal_pointer (&self);
}

/* Installing --------------------------------------------------------------- */

/* Does @step again on @document; its errors are located at the step. */
static gboolean
replay (GraftSession  *self,
        GraftDocument *document,
        SessionStep   *step,
        guint          index,
        GError       **error)
{
  g_autoptr (GError) step_error = NULL;
  guint    before = graft_document_get_position (document);
  gboolean ok = FALSE;

  switch (step->kind)
    {
    case GRAFT_STEP_RULE:
      {
        HistoryEntry *entry = _graft_document_new_entry (GRAFT_STEP_RULE);

        entry->pattern_text = g_strdup (step->pattern_text);
        entry->replacement_text = g_strdup (step->replacement_text);
        entry->pattern_name = g_strdup (step->pattern_name);
        entry->replacement_name = g_strdup (step->replacement_name);
        entry->match = step->match;
        entry->except = step->except != NULL ? g_array_ref (step->except) : NULL;
        entry->looped = step->looped;
        entry->pass = step->pass;
        entry->rule = step->rule;
        entry->pass_replaced = step->pass_replaced;
        entry->call_done = step->call_done;
        entry->skipped = g_strdupv (step->skipped);
        ok = _graft_document_replay_rule (document, entry, step->label, &step_error);
        break;
      }
    case GRAFT_STEP_DCE:
      ok = _graft_document_replay_dce (document, step->looped, step->pass, &step_error);
      break;
    case GRAFT_STEP_DELETE:
      ok = _graft_document_delete_ranked (document, (const char *const *) step->nodes, step->ranks,
                                          &step_error) > 0;
      break;
    case GRAFT_STEP_RESTORE:
      ok = graft_document_restore_text (document, step->restore_name, step->restore_text,
                                        step->label, &step_error);
      break;
    case GRAFT_STEP_TORCH:
      graft_document_set_dialect (document, step->torch);
      ok = graft_document_get_position (document) == before + 1;
      break;
    case GRAFT_STEP_RULES:
    default:
      break;
    }
  if (ok && graft_document_get_position (document) == before + 1)
    {
      /* A later step of a Run All: undone with the run. */
      ((HistoryEntry *) document->history->pdata[before])->joined = step->joined;
      return TRUE;
    }
  graft_set_error_at (error, self->path, step->line, step->column, GRAFT_PARSE_ERROR_GRAPH,
                      "session: step %u (%s) does not apply: %s", index + 1, step->label,
                      step_error != NULL ? step_error->message : "it changes nothing");
  return FALSE;
}

/**
 * graft_session_install:
 * @self: a parsed session
 * @document: the document to put it in (its file is the caller's)
 * @error: return location for a located error
 *
 * Reads the session's input into @document, gives it the rules and
 * options, does every step again and undoes back to the position.  On
 * error @document is left empty with the error as its load error.
 *
 * Returns: %TRUE on success
 */
gboolean
graft_session_install (GraftSession  *self,
                       GraftDocument *document,
                       GError       **error)
{
  g_autoptr (GraftSource) source = NULL;
  g_autoptr (GPtrArray) rules = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GError) read_error = NULL;
  GraftGraph *graph;
  gsize       length;
  const char *data;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (GRAFT_IS_DOCUMENT (document), FALSE);

  _graft_document_speak (document, self->torch);
  data = g_bytes_get_data (self->input, &length);
  source = graft_source_new (self->input_name, data != NULL ? data : "", (gssize) length);
  graph = graft_input_load_graph (source, self->torch, self->entry, &read_error);
  _graft_document_set_models (document, g_strdup (self->entry), graft_input_dup_models (source));
  if (graph == NULL)
    {
      g_propagate_prefixed_error (error, g_steal_pointer (&read_error),
                                  "%s: session: its input does not read: ", self->path);
      _graft_document_load_graph (document, NULL, NULL, g_error_copy (*error), NULL, NULL, NULL);
      return FALSE;
    }
  _graft_document_load_graph (document, g_steal_pointer (&source), graph, NULL, NULL, NULL, NULL);

  for (guint i = 0; i < self->rules->len; i++)
    {
      SessionRule *r = self->rules->pdata[i];
      GraftRule   *rule = graft_rule_new (r->pattern, r->replacement);

      _graft_rule_set_entries (rule, r->pattern_entry, r->replacement_entry);
      _graft_rule_set_enabled (rule, r->enabled);
      g_ptr_array_add (rules, rule);
    }
  _graft_document_install_rules (document, rules, self->selected, self->fixpoint, self->dce);

  for (guint i = 0; i < self->steps->len; i++)
    if (!replay (self, document, self->steps->pdata[i], i, error))
      {
        /* Never half read: the document shows the error, nothing else. */
        _graft_document_reset_rules (document);
        _graft_document_load_graph (document, NULL, NULL, g_error_copy (*error), NULL, NULL, NULL);
        return FALSE;
      }
  graft_document_go_to (document, self->position);
  _graft_document_mark_saved (document, TRUE);
  return TRUE;
}

/* Writing ------------------------------------------------------------------ */

/* The index of @text in @texts, added if new. */
static guint
text_index (GPtrArray  *texts,
            GHashTable *indices,
            const char *text)
{
  gpointer index;

  if (g_hash_table_lookup_extended (indices, text, NULL, &index))
    return GPOINTER_TO_UINT (index);
  g_hash_table_insert (indices, (gpointer) text, GUINT_TO_POINTER (texts->len));
  g_ptr_array_add (texts, (gpointer) text);
  return texts->len - 1;
}

static void
add_nullable_string (JsonBuilder *builder,
                     const char  *name,
                     const char  *value)
{
  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

static void
write_loop (JsonBuilder  *builder,
            HistoryEntry *entry)
{
  if (!entry->looped)
    return;
  json_builder_set_member_name (builder, "loop");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "pass");
  json_builder_add_int_value (builder, entry->pass);
  json_builder_set_member_name (builder, "rule");
  json_builder_add_int_value (builder, entry->rule);
  json_builder_set_member_name (builder, "pass-replaced");
  json_builder_add_int_value (builder, entry->pass_replaced);
  json_builder_set_member_name (builder, "call-done");
  json_builder_add_boolean_value (builder, entry->call_done);
  json_builder_set_member_name (builder, "skipped");
  json_builder_begin_array (builder);
  for (guint i = 0; entry->skipped != NULL && entry->skipped[i] != NULL; i++)
    json_builder_add_string_value (builder, entry->skipped[i]);
  json_builder_end_array (builder);
  /* Only where it is so: a session without a Run All reads as before. */
  if (entry->joined)
    {
      json_builder_set_member_name (builder, "joined");
      json_builder_add_boolean_value (builder, TRUE);
    }
  json_builder_end_object (builder);
}

static void
write_step (JsonBuilder  *builder,
            HistoryEntry *entry,
            GPtrArray    *texts,
            GHashTable   *indices)
{
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "do");
  switch (entry->kind)
    {
    case GRAFT_STEP_RULE:
      json_builder_add_string_value (builder, "rule");
      json_builder_set_member_name (builder, "pattern");
      json_builder_add_int_value (builder, text_index (texts, indices, entry->pattern_text));
      json_builder_set_member_name (builder, "replacement");
      json_builder_add_int_value (builder, text_index (texts, indices, entry->replacement_text));
      add_nullable_string (builder, "pattern-name", entry->pattern_name);
      add_nullable_string (builder, "replacement-name", entry->replacement_name);
      json_builder_set_member_name (builder, "match");
      json_builder_add_int_value (builder, entry->match);
      json_builder_set_member_name (builder, "except");
      json_builder_begin_array (builder);
      for (guint i = 0; entry->except != NULL && i < entry->except->len; i++)
        json_builder_add_int_value (builder, g_array_index (entry->except, guint, i));
      json_builder_end_array (builder);
      write_loop (builder, entry);
      break;
    case GRAFT_STEP_DCE:
      json_builder_add_string_value (builder, "dead-code");
      write_loop (builder, entry);
      break;
    case GRAFT_STEP_DELETE:
      json_builder_add_string_value (builder, "delete");
      json_builder_set_member_name (builder, "nodes");
      json_builder_begin_array (builder);
      for (guint i = 0; entry->names != NULL && entry->names[i] != NULL; i++)
        json_builder_add_string_value (builder, entry->names[i]);
      json_builder_end_array (builder);
      /* Only where names are shared: other sessions read as before. */
      if (entry->ranks != NULL)
        {
          json_builder_set_member_name (builder, "ranks");
          json_builder_begin_array (builder);
          for (guint i = 0; i < entry->ranks->len; i++)
            json_builder_add_int_value (builder, g_array_index (entry->ranks, guint, i));
          json_builder_end_array (builder);
        }
      break;
    case GRAFT_STEP_RESTORE:
      json_builder_add_string_value (builder, "restore");
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, entry->restore_name);
      json_builder_set_member_name (builder, "text");
      json_builder_add_int_value (builder, text_index (texts, indices, entry->restore_text));
      break;
    case GRAFT_STEP_TORCH:
      json_builder_add_string_value (builder, "torch");
      json_builder_set_member_name (builder, "torch");
      json_builder_add_string_value (builder, entry->torch->name);
      break;
    case GRAFT_STEP_RULES:
    default:
      g_assert_not_reached ();
    }
  json_builder_set_member_name (builder, "label");
  json_builder_add_string_value (builder, entry->label);
  json_builder_end_object (builder);
}

/* The session's "input": whole-input work (checking, encoding, copying
 * the text), for graft_session_draft_finish()'s thread. */
static JsonNode *
write_input (GraftSource *source,
             const char  *entry)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  const char *text = graft_source_get_text (source);
  gsize       length = graft_source_get_length (source);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, graft_source_get_filename (source));
  /* A program's archive is bytes, not text. */
  if (memchr (text, '\0', length) != NULL || !g_utf8_validate (text, (gssize) length, NULL))
    {
      g_autofree char *base64 = g_base64_encode ((const guchar *) text, length);

      json_builder_set_member_name (builder, "base64");
      json_builder_add_string_value (builder, base64);
    }
  else
    {
      json_builder_set_member_name (builder, "text");
      json_builder_add_string_value (builder, text);
    }
  if (entry != NULL)
    {
      json_builder_set_member_name (builder, "entry");
      json_builder_add_string_value (builder, entry);
    }
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

static void
write_rules (JsonBuilder   *builder,
             GraftDocument *document)
{
  json_builder_set_member_name (builder, "rules");
  json_builder_begin_array (builder);
  for (guint i = 0; i < graft_document_get_n_rules (document); i++)
    {
      GraftRule *rule = graft_document_get_rule (document, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "pattern");
      json_builder_add_string_value (builder, graft_rule_get_pattern_text (rule));
      json_builder_set_member_name (builder, "replacement");
      json_builder_add_string_value (builder, graft_rule_get_replacement_text (rule));
      add_nullable_string (builder, "pattern-entry", graft_rule_get_pattern_entry (rule));
      add_nullable_string (builder, "replacement-entry", graft_rule_get_replacement_entry (rule));
      json_builder_set_member_name (builder, "enabled");
      json_builder_add_boolean_value (builder, graft_rule_get_enabled (rule));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "selected-rule");
  json_builder_add_int_value (builder, graft_document_get_selected_rule (document));
  json_builder_set_member_name (builder, "options");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "fixpoint");
  json_builder_add_int_value (builder, graft_document_get_fixpoint (document));
  json_builder_set_member_name (builder, "dce");
  json_builder_add_boolean_value (builder, graft_document_get_dce (document));
  json_builder_end_object (builder);
}

/* A session made on the document's thread but for its input, which a
 * worker adds (graft_session_draft_finish()): a .pt2 of a million nodes
 * is 100 MB, whose base64 and JSON escaping took 4-7 s of the main loop
 * at every autosave.  The draft owns all it needs (the source is
 * immutable, referenced), so the document may change or go meanwhile. */
struct _GraftSessionDraft
{
  JsonNode    *root;   /* Owned: the session, "input" a null to be replaced */
  GraftSource *source; /* Owned: the document's input */
  char        *entry;  /* Owned, nullable */
};

/**
 * graft_session_draft_free:
 * @draft: (nullable): a draft
 *
 * Frees @draft.
 */
void
graft_session_draft_free (GraftSessionDraft *draft)
{
  if (draft == NULL)
    return;
  g_clear_pointer (&draft->root, json_node_unref);
  g_clear_pointer (&draft->source, graft_source_unref);
  g_free (draft->entry);
  g_free (draft);
}

/**
 * graft_session_draft:
 * @document: a document that has read an input
 * @error: return location for an error
 *
 * Gathers what of @document a session keeps, quickly: everything but the
 * input's text, which graft_session_draft_finish() writes on any thread.
 *
 * Returns: (transfer full) (nullable): the draft of @document's session
 */
GraftSessionDraft *
graft_session_draft (GraftDocument *document,
                     GError       **error)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (GPtrArray) texts = g_ptr_array_new ();
  g_autoptr (GHashTable) indices = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (JsonBuilder) steps = json_builder_new ();
  g_autoptr (JsonNode) steps_node = NULL;
  GraftSessionDraft *draft;
  guint              position = 0;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (document), NULL);
  if (document->root_source == NULL)
    {
      g_set_error_literal (error, GRAFT_ERROR, GRAFT_ERROR_IO,
                           "a session keeps the graph's input, and there is none");
      return NULL;
    }
  /* The steps first: they name the texts. */
  json_builder_begin_array (steps);
  for (guint i = 0; i < document->history->len; i++)
    {
      HistoryEntry *entry = document->history->pdata[i];

      if (entry->kind == GRAFT_STEP_RULES)
        continue;
      write_step (steps, entry, texts, indices);
      if (i < document->position)
        position++;
    }
  json_builder_end_array (steps);
  steps_node = json_builder_get_root (steps);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "graft-session");
  json_builder_add_int_value (builder, SESSION_VERSION);
  json_builder_set_member_name (builder, "torch");
  json_builder_add_string_value (builder, document->root_dialect->name);
  /* Its place: members keep their order when replaced. */
  json_builder_set_member_name (builder, "input");
  json_builder_add_null_value (builder);
  write_rules (builder, document);
  json_builder_set_member_name (builder, "texts");
  json_builder_begin_array (builder);
  for (guint i = 0; i < texts->len; i++)
    json_builder_add_string_value (builder, texts->pdata[i]);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "steps");
  json_builder_add_value (builder, g_steal_pointer (&steps_node));
  json_builder_set_member_name (builder, "position");
  json_builder_add_int_value (builder, position);
  json_builder_end_object (builder);

  draft = g_new0 (GraftSessionDraft, 1);
  draft->root = json_builder_get_root (builder);
  draft->source = graft_source_ref (document->root_source);
  draft->entry = g_strdup (document->entry);
  return draft;
}

/**
 * graft_session_draft_finish:
 * @draft: (transfer full): a draft (graft_session_draft())
 *
 * Writes the input into @draft and makes it a session's text.  It touches
 * no document: any thread can call it (the autosave's does).
 *
 * Returns: (transfer full): the session's text, as graft_session_write()
 *   returns it
 */
char *
graft_session_draft_finish (GraftSessionDraft *draft)
{
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  char *text;

  g_return_val_if_fail (draft != NULL, NULL);
  json_object_set_member (json_node_get_object (draft->root), "input",
                          write_input (draft->source, draft->entry));
  json_generator_set_root (generator, draft->root);
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 1);
  text = json_generator_to_data (generator, NULL);
  graft_session_draft_free (draft);
  {
    /* A final newline, as text files have. */
    char *with_newline = g_strconcat (text, "\n", NULL);

    g_free (text);
    return with_newline;
  }
}

/**
 * graft_session_write:
 * @document: a document that has read an input
 * @error: return location for an error
 *
 * Returns: (transfer full) (nullable): @document as a session's text
 */
char *
graft_session_write (GraftDocument *document,
                     GError       **error)
{
  GraftSessionDraft *draft = graft_session_draft (document, error);

  return draft != NULL ? graft_session_draft_finish (draft) : NULL;
}

/**
 * graft_document_save_session:
 * @self: a document
 * @file: where to write
 * @error: return location for an error
 *
 * Writes @self as a session (graft_session_write()), atomically, and
 * makes @file the document's file: Save writes the session again.
 *
 * Returns: %TRUE on success
 */
gboolean
graft_document_save_session (GraftDocument *self,
                             GFile         *file,
                             GError       **error)
{
  g_autofree char *text = NULL;
  g_autofree char *path = NULL;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  path = g_file_get_path (file);
  if (path == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           "only local files can be written");
      return FALSE;
    }
  text = graft_session_write (self, error);
  if (text == NULL || !graft_output_write_file (path, text, strlen (text), error))
    return FALSE;
  _graft_document_set_loaded_file (self, file, NULL);
  _graft_document_mark_saved (self, TRUE);
  return TRUE;
}

/* A save of a session by graft_document_save_session_async(): the draft
 * made on the main loop, finished and written on a worker; what the
 * document was when drafted, to mark it saved if it still is. */
typedef struct
{
  GraftDocument     *document; /* Owned: let go on the main loop */
  GFile             *file;     /* Owned */
  char              *path;     /* Owned */
  GraftSessionDraft *draft;    /* Owned until the worker takes it */
  GTask             *task;     /* Owned: the caller's */
  guint              position;
  guint              serial; /* of the change before @position, or 0 */
  guint              text_changes;
} SessionSave;

static void
session_save_free (SessionSave *save)
{
  g_clear_object (&save->document);
  g_clear_object (&save->file);
  g_free (save->path);
  g_clear_pointer (&save->draft, graft_session_draft_free);
  g_clear_object (&save->task);
  g_free (save);
}

static void
session_save_thread_cb (GTask        *task,
                        gpointer      source_object,
                        gpointer      task_data,
                        GCancellable *cancellable)
{
  SessionSave     *save = task_data;
  g_autofree char *text = graft_session_draft_finish (g_steal_pointer (&save->draft));
  GError          *error = NULL;

  if (!graft_output_write_file (save->path, text, strlen (text), &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/* Back on the main loop: the file is the document's now; the document is
 * marked saved as it was drafted, if the history still holds that state
 * (else it is left modified). */
static void
session_saved_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  SessionSave   *save = user_data;
  GraftDocument *self = save->document;
  GError        *error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_task_return_error (save->task, error);
      session_save_free (save);
      return;
    }
  _graft_document_set_loaded_file (self, save->file, NULL);
  if (save->position <= self->history->len &&
      (save->position == 0 ||
       ((HistoryEntry *) self->history->pdata[save->position - 1])->serial == save->serial))
    {
      self->saved = (gint) save->position;
      self->saved_text_changes = save->text_changes;
    }
  else
    self->saved = -1;
  self->is_session = TRUE;
  _graft_document_notify_modified (self);
  g_task_return_boolean (save->task, TRUE);
  session_save_free (save);
}

/**
 * graft_document_save_session_async:
 * @self: a document
 * @file: where to write
 * @callback: called on the main loop once the file is written, or not
 * @user_data: its data
 *
 * graft_document_save_session(), the session's text made and written on
 * a worker thread (at a million nodes, a `.pt2` input made base64 took
 * seconds): what the session keeps of the document is drafted now
 * (graft_session_draft()), so edits meanwhile are not in the file, and
 * leave the document modified.  A failure leaves the file as it was.
 */
void
graft_document_save_session_async (GraftDocument      *self,
                                   GFile              *file,
                                   GAsyncReadyCallback callback,
                                   gpointer            user_data)
{
  g_autoptr (GTask) worker = NULL;
  SessionSave *save;
  GError      *error = NULL;

  g_return_if_fail (GRAFT_IS_DOCUMENT (self));
  g_return_if_fail (G_IS_FILE (file));

  save = g_new0 (SessionSave, 1);
  save->task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (save->task, graft_document_save_session_async);
  save->document = g_object_ref (self);
  save->file = g_object_ref (file);
  save->path = g_file_get_path (file);
  if (save->path == NULL)
    {
      g_task_return_new_error (save->task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                               "only local files can be written");
      session_save_free (save);
      return;
    }
  _graft_document_settle (self);
  save->draft = graft_session_draft (self, &error);
  if (save->draft == NULL)
    {
      g_task_return_error (save->task, error);
      session_save_free (save);
      return;
    }
  save->position = self->position;
  save->serial = self->position > 0
                     ? ((HistoryEntry *) self->history->pdata[self->position - 1])->serial
                     : 0;
  save->text_changes = self->text_changes;
  /* No source object: a GTask may be finalized on its worker thread, and
   * the document is let go on the main loop, by the callback. */
  worker = g_task_new (NULL, NULL, session_saved_cb, save);
  g_task_set_task_data (worker, save, NULL);
  g_task_run_in_thread (worker, session_save_thread_cb);
}

/**
 * graft_document_save_session_finish:
 * @self: a document
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Returns: whether the session is written
 */
gboolean
graft_document_save_session_finish (GraftDocument *self,
                                    GAsyncResult  *result,
                                    GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * graft_session_restore:
 * @document: a document
 * @name: what errors call the text (the autosave's file)
 * @text: a session, as an autosave keeps it
 * @error: return location for a located error
 *
 * Puts the unsaved work of a document with rules back: its rules and its
 * history as the session has them, unsaved.  The session is first tried
 * on a document of its own: if it does not install, @document is left as
 * it was.
 *
 * Returns: %TRUE on success
 */
gboolean
graft_session_restore (GraftDocument *document,
                       const char    *name,
                       const char    *text,
                       GError       **error)
{
  g_autoptr (GraftSession) session = NULL;
  g_autoptr (GraftDocument) trial = NULL;
  gboolean is_session;

  g_return_val_if_fail (GRAFT_IS_DOCUMENT (document), FALSE);
  session = graft_session_parse (name, text, strlen (text), error);
  if (session == NULL)
    return FALSE;
  trial = graft_document_new ();
  if (!graft_session_install (session, trial, error))
    return FALSE;
  is_session = document->is_session;
  if (!graft_session_install (session, document, error))
    return FALSE;
  document->is_session = is_session;
  document->saved = -1;
  _graft_document_notify_modified (document);
  return TRUE;
}
