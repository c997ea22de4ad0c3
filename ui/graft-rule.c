/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-rule.c: a rule as a GObject, for the document's list of rules and
 * the Rules panel's list view.  A rule holds its two texts and what the
 * document traced from them (the pattern ready to match, the replacement's
 * graph, or the located errors that stopped them), whether it takes part
 * in runs (`enabled`), its place in the set (`position`, from 0), how many
 * matches it has on the document's graph now (`n-matches`) and whether it
 * is the rule the next step applies (`is-next`).
 *
 * A rule is named as a rules file names it: by its pattern's function or
 * class (`relu_add`), and its replacement's (`clamp_add`); `title` is the
 * pair as the CLI prints it.  The names come from the texts, so renaming
 * is editing the text (graft_document_rename_rule()).  Which definition of
 * a text is the entry follows the editors' rule (graft_input_dup_entry():
 * the one named `pattern`, or `replacement`, else the first), unless the
 * rule names its entry (a rule read from a rules file, or renamed): a text
 * copied from a rules file may define a base class or a helper first.  `problem` is why
 * the rule cannot run: an error of either text, or a replacement that
 * does not fit its pattern (graft_rule_check_fit()), as the CLI refuses a
 * rules file.
 *
 * The rule does no work itself: the document traces, matches and sets
 * what it found through the `_graft_rule_` functions.
 */
#include "config.h"

#include "graft-rule.h"

struct _GraftRule
{
  GObject parent_instance;

  /* Owned */
  char         *pattern_text;
  char         *replacement_text;
  char         *name;              /* the pattern's entry, NULL when it has none */
  char         *replacement_name;  /* likewise */
  char         *pattern_entry;     /* the entry to trace, or NULL for `pattern` or the first */
  char         *replacement_entry; /* likewise, NULL for `replacement` or the first */
  GraftPattern *pattern;
  GraftGraph   *replacement;
  GError       *pattern_error;
  GError       *replacement_error;
  GError       *fit_error; /* the replacement does not fit the pattern, located at its def */
  char         *problem;
  GPtrArray    *matches; /* GraftMatch, or NULL when the document keeps them */

  guint    position;
  guint    n_matches;
  gboolean enabled;
  gboolean is_next;
};

G_DEFINE_FINAL_TYPE (GraftRule, graft_rule, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_NAME,
  PROP_TITLE,
  PROP_ENABLED,
  PROP_POSITION,
  PROP_N_MATCHES,
  PROP_IS_NEXT,
  PROP_PROBLEM,
  N_PROPS,
};

static GParamSpec *properties[N_PROPS];

static void
graft_rule_finalize (GObject *object)
{
  GraftRule *self = GRAFT_RULE (object);

  g_free (self->pattern_text);
  g_free (self->replacement_text);
  g_free (self->name);
  g_free (self->replacement_name);
  g_free (self->pattern_entry);
  g_free (self->replacement_entry);
  g_clear_pointer (&self->pattern, graft_pattern_unref);
  g_clear_pointer (&self->replacement, graft_graph_free);
  g_clear_error (&self->pattern_error);
  g_clear_error (&self->replacement_error);
  g_clear_error (&self->fit_error);
  g_free (self->problem);
  g_clear_pointer (&self->matches, g_ptr_array_unref);
  G_OBJECT_CLASS (graft_rule_parent_class)->finalize (object);
}

static void
graft_rule_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  GraftRule *self = GRAFT_RULE (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_TITLE:
      g_value_take_string (value, graft_rule_dup_title (self));
      break;
    case PROP_ENABLED:
      g_value_set_boolean (value, self->enabled);
      break;
    case PROP_POSITION:
      g_value_set_uint (value, self->position);
      break;
    case PROP_N_MATCHES:
      g_value_set_uint (value, self->n_matches);
      break;
    case PROP_IS_NEXT:
      g_value_set_boolean (value, self->is_next);
      break;
    case PROP_PROBLEM:
      g_value_set_string (value, self->problem);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
graft_rule_class_init (GraftRuleClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags   flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->finalize = graft_rule_finalize;
  object_class->get_property = graft_rule_get_property;

  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, flags);
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL, flags);
  properties[PROP_ENABLED] = g_param_spec_boolean ("enabled", NULL, NULL, TRUE, flags);
  properties[PROP_POSITION] = g_param_spec_uint ("position", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_N_MATCHES] =
      g_param_spec_uint ("n-matches", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_IS_NEXT] = g_param_spec_boolean ("is-next", NULL, NULL, FALSE, flags);
  properties[PROP_PROBLEM] = g_param_spec_string ("problem", NULL, NULL, NULL, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
graft_rule_init (GraftRule *self)
{
  self->enabled = TRUE;
}

/**
 * graft_rule_new:
 * @pattern_text: Python that defines the pattern
 * @replacement_text: Python that defines the replacement
 *
 * Returns: (transfer full): a rule, enabled, not traced yet
 */
GraftRule *
graft_rule_new (const char *pattern_text,
                const char *replacement_text)
{
  GraftRule *self = g_object_new (GRAFT_TYPE_RULE, NULL);

  self->pattern_text = g_strdup (pattern_text);
  self->replacement_text = g_strdup (replacement_text);
  return self;
}

const char *
graft_rule_get_pattern_text (GraftRule *self)
{
  g_return_val_if_fail (GRAFT_IS_RULE (self), NULL);
  return self->pattern_text;
}

const char *
graft_rule_get_replacement_text (GraftRule *self)
{
  g_return_val_if_fail (GRAFT_IS_RULE (self), NULL);
  return self->replacement_text;
}

/**
 * graft_rule_get_name:
 * @self: a rule
 *
 * Returns: (nullable): the name of the pattern's function or class, which
 *   names the rule, or %NULL when its text defines none
 */
const char *
graft_rule_get_name (GraftRule *self)
{
  g_return_val_if_fail (GRAFT_IS_RULE (self), NULL);
  return self->name;
}

/**
 * graft_rule_get_replacement_name:
 * @self: a rule
 *
 * Returns: (nullable): the name of the replacement's function or class
 */
const char *
graft_rule_get_replacement_name (GraftRule *self)
{
  g_return_val_if_fail (GRAFT_IS_RULE (self), NULL);
  return self->replacement_name;
}

/**
 * graft_rule_dup_title:
 * @self: a rule
 *
 * Returns: (transfer full): `relu_add → clamp_add`, with `?` for a name
 *   the texts do not define
 */
char *
graft_rule_dup_title (GraftRule *self)
{
  g_return_val_if_fail (GRAFT_IS_RULE (self), NULL);
  return g_strdup_printf ("%s → %s", self->name != NULL ? self->name : "?",
                          self->replacement_name != NULL ? self->replacement_name : "?");
}

/**
 * graft_rule_get_pattern_entry:
 * @self: a rule
 *
 * Returns: (nullable): the definition of the pattern's text that is traced
 *   when the text defines it, or %NULL for the editors' rule
 */
const char *
graft_rule_get_pattern_entry (GraftRule *self)
{
  g_return_val_if_fail (GRAFT_IS_RULE (self), NULL);
  return self->pattern_entry;
}

/**
 * graft_rule_get_replacement_entry:
 * @self: a rule
 *
 * Returns: (nullable): likewise for the replacement
 */
const char *
graft_rule_get_replacement_entry (GraftRule *self)
{
  g_return_val_if_fail (GRAFT_IS_RULE (self), NULL);
  return self->replacement_entry;
}

gboolean
graft_rule_get_enabled (GraftRule *self)
{
  g_return_val_if_fail (GRAFT_IS_RULE (self), FALSE);
  return self->enabled;
}

/**
 * graft_rule_get_position:
 * @self: a rule
 *
 * Returns: the rule's place in its set, from 0
 */
guint
graft_rule_get_position (GraftRule *self)
{
  g_return_val_if_fail (GRAFT_IS_RULE (self), 0);
  return self->position;
}

/**
 * graft_rule_get_n_matches:
 * @self: a rule
 *
 * Returns: how many matches `replace_pattern` would replace in the
 *   document's graph now (0 while the rule has a problem)
 */
guint
graft_rule_get_n_matches (GraftRule *self)
{
  g_return_val_if_fail (GRAFT_IS_RULE (self), 0);
  return self->n_matches;
}

/**
 * graft_rule_get_is_next:
 * @self: a rule
 *
 * Returns: whether the next step (graft_document_step()) applies this rule
 */
gboolean
graft_rule_get_is_next (GraftRule *self)
{
  g_return_val_if_fail (GRAFT_IS_RULE (self), FALSE);
  return self->is_next;
}

/**
 * graft_rule_get_pattern:
 * @self: a rule
 *
 * Returns: (nullable) (transfer none): the traced pattern
 */
GraftPattern *
graft_rule_get_pattern (GraftRule *self)
{
  g_return_val_if_fail (GRAFT_IS_RULE (self), NULL);
  return self->pattern;
}

/**
 * graft_rule_get_replacement:
 * @self: a rule
 *
 * Returns: (nullable) (transfer none): the traced replacement
 */
GraftGraph *
graft_rule_get_replacement (GraftRule *self)
{
  g_return_val_if_fail (GRAFT_IS_RULE (self), NULL);
  return self->replacement;
}

const GError *
graft_rule_get_pattern_error (GraftRule *self)
{
  g_return_val_if_fail (GRAFT_IS_RULE (self), NULL);
  return self->pattern_error;
}

const GError *
graft_rule_get_replacement_error (GraftRule *self)
{
  g_return_val_if_fail (GRAFT_IS_RULE (self), NULL);
  return self->replacement_error;
}

/**
 * graft_rule_get_fit_error:
 * @self: a rule
 *
 * Returns: (nullable): why the replacement, which traced, cannot stand for
 *   a match of the pattern (its parameters or its results do not fit the
 *   pattern's), located at the replacement's definition; %NULL when it
 *   fits or either half has an error of its own
 */
const GError *
graft_rule_get_fit_error (GraftRule *self)
{
  g_return_val_if_fail (GRAFT_IS_RULE (self), NULL);
  return self->fit_error;
}

/**
 * graft_rule_get_problem:
 * @self: a rule
 *
 * Returns: (nullable): why the rule cannot run (a sentence), or %NULL
 */
const char *
graft_rule_get_problem (GraftRule *self)
{
  g_return_val_if_fail (GRAFT_IS_RULE (self), NULL);
  return self->problem;
}

/* `the pattern has an error at line 7, column 2: ...`: where the editor
 * underlines it. */
static char *
describe_error (const char   *half,
                const GError *error)
{
  guint line = 0;
  guint column = 0;

  if (graft_error_get_location (error, NULL, &line, &column, NULL, NULL) && line > 0)
    return g_strdup_printf ("the %s has an error at line %u, column %u: %s", half, line, column,
                            error->message);
  return g_strdup_printf ("the %s has an error: %s", half, error->message);
}

/* @fit (the replacement does not fit the pattern) as an error of the
 * replacement's text, at the name of its definition (where its parameters
 * and its return are), as the editor underlines it. */
static GError *
locate_fit_error (GraftRule  *self,
                  const char *fit)
{
  g_autoptr (GraftSource) source = graft_source_new ("replacement", self->replacement_text, -1);
  g_autoptr (GraftPyModule) module = graft_py_parse (source, NULL);
  GError *error = NULL;
  gsize   start;
  gsize   end;

  if (module != NULL && self->replacement_name != NULL &&
      graft_py_module_locate_closest_definition (module, self->replacement_name, &start, &end))
    graft_set_error_at_offset (&error, source, start, end, GRAFT_PARSE_ERROR_NAME, "%s", fit);
  else
    graft_set_error_at (&error, "replacement", 1, 1, GRAFT_PARSE_ERROR_NAME, "%s", fit);
  return error;
}

/* The problem follows the two halves. */
static void
update_problem (GraftRule *self)
{
  g_autofree char *problem = NULL;
  g_autofree char *fit = NULL;

  g_clear_error (&self->fit_error);
  if (self->pattern_error != NULL)
    problem = describe_error ("pattern", self->pattern_error);
  else if (self->replacement_error != NULL)
    problem = describe_error ("replacement", self->replacement_error);
  else if (self->pattern != NULL && self->replacement != NULL &&
           !graft_rule_check_fit (self->pattern, self->replacement, &fit))
    {
      problem = g_strdup_printf ("the replacement does not fit: %s", fit);
      self->fit_error = locate_fit_error (self, fit);
    }
  if (g_strcmp0 (problem, self->problem) == 0)
    return;
  g_free (self->problem);
  self->problem = g_steal_pointer (&problem);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROBLEM]);
}

static void
set_names (GraftRule *self,
           char     **field,
           char      *name)
{
  if (g_strcmp0 (*field, name) == 0)
    {
      g_free (name);
      return;
    }
  g_free (*field);
  *field = name;
  if (field == &self->name)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NAME]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

/* The pattern's @text with what tracing it gave: its entry's @name
 * (taken, nullable), the @pattern (taken, nullable) or the @error (taken). */
void
_graft_rule_set_pattern (GraftRule    *self,
                         const char   *text,
                         char         *name,
                         GraftPattern *pattern,
                         GError       *error)
{
  g_return_if_fail (GRAFT_IS_RULE (self));
  if (text != self->pattern_text)
    {
      g_free (self->pattern_text);
      self->pattern_text = g_strdup (text);
    }
  g_clear_pointer (&self->pattern, graft_pattern_unref);
  g_clear_error (&self->pattern_error);
  self->pattern = pattern;
  self->pattern_error = error;
  set_names (self, &self->name, name);
  update_problem (self);
}

/* Likewise for the replacement. */
void
_graft_rule_set_replacement (GraftRule  *self,
                             const char *text,
                             char       *name,
                             GraftGraph *replacement,
                             GError     *error)
{
  g_return_if_fail (GRAFT_IS_RULE (self));
  if (text != self->replacement_text)
    {
      g_free (self->replacement_text);
      self->replacement_text = g_strdup (text);
    }
  g_clear_pointer (&self->replacement, graft_graph_free);
  g_clear_error (&self->replacement_error);
  self->replacement = replacement;
  self->replacement_error = error;
  set_names (self, &self->replacement_name, name);
  update_problem (self);
}

/* Which definitions the texts stand for (nullable: the editors' rule);
 * the caller traces again. */
void
_graft_rule_set_entries (GraftRule  *self,
                         const char *pattern_entry,
                         const char *replacement_entry)
{
  g_return_if_fail (GRAFT_IS_RULE (self));
  if (pattern_entry != self->pattern_entry)
    {
      g_free (self->pattern_entry);
      self->pattern_entry = g_strdup (pattern_entry);
    }
  if (replacement_entry != self->replacement_entry)
    {
      g_free (self->replacement_entry);
      self->replacement_entry = g_strdup (replacement_entry);
    }
}

void
_graft_rule_set_enabled (GraftRule *self,
                         gboolean   enabled)
{
  g_return_if_fail (GRAFT_IS_RULE (self));
  enabled = !!enabled;
  if (self->enabled == enabled)
    return;
  self->enabled = enabled;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ENABLED]);
}

void
_graft_rule_set_position (GraftRule *self,
                          guint      position)
{
  g_return_if_fail (GRAFT_IS_RULE (self));
  if (self->position == position)
    return;
  self->position = position;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_POSITION]);
}

void
_graft_rule_set_is_next (GraftRule *self,
                         gboolean   is_next)
{
  g_return_if_fail (GRAFT_IS_RULE (self));
  is_next = !!is_next;
  if (self->is_next == is_next)
    return;
  self->is_next = is_next;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_IS_NEXT]);
}

/* @matches (taken, nullable: the document keeps the selected rule's own)
 * are the rule's matches on the graph now, @n_matches of them. */
void
_graft_rule_take_matches (GraftRule *self,
                          GPtrArray *matches,
                          guint      n_matches)
{
  g_return_if_fail (GRAFT_IS_RULE (self));
  g_clear_pointer (&self->matches, g_ptr_array_unref);
  self->matches = matches;
  if (self->n_matches == n_matches)
    return;
  self->n_matches = n_matches;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_MATCHES]);
}

/* Returns: (transfer none) (nullable): what _graft_rule_take_matches() kept */
GPtrArray *
_graft_rule_get_matches (GraftRule *self)
{
  g_return_val_if_fail (GRAFT_IS_RULE (self), NULL);
  return self->matches;
}
