/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-meta-values.c: node metadata and program signatures as values, for
 * Graft's own formats (DOT's `graft_module_stack`, `graft_inputs` and
 * `graft_outputs`; graft-dot-writer.c describes them).
 *
 * A module stack is a list of `(key, path, type)` tuples of strings,
 * outermost first.  A signature is a list of dicts, one per entry in
 * order, with the keys `kind` (torch's name: `PARAMETER`), `name`, and,
 * when set, `target`, `persistent` (inputs only: True or False),
 * `argument` and `value`; all strings but `persistent`.  Reading checks
 * every shape and names what is wrong in one lowercase phrase; where the
 * value is in the file is the caller's to say.
 */
#include "config.h"

#include "graft-meta-values-private.h"

#include <string.h>

static const char *const value_kind_names[] = {
  [GRAFT_VALUE_UNKNOWN] = "unknown",
  [GRAFT_VALUE_TENSOR] = "tensor",
  [GRAFT_VALUE_SYMBOL] = "symbol",
  [GRAFT_VALUE_OTHER] = "other",
};

/* The name Graft's formats give @kind (`tensor`). */
const char *
_graft_value_kind_to_string (GraftValueKind kind)
{
  g_return_val_if_fail ((guint) kind < G_N_ELEMENTS (value_kind_names), "unknown");
  return value_kind_names[kind];
}

/* Whether @text names a value kind; sets *@out_kind. */
gboolean
_graft_value_kind_from_string (const char     *text,
                               GraftValueKind *out_kind)
{
  for (guint i = 0; i < G_N_ELEMENTS (value_kind_names); i++)
    if (strcmp (text, value_kind_names[i]) == 0)
      {
        *out_kind = (GraftValueKind) i;
        return TRUE;
      }
  return FALSE;
}

static void
init_str (GraftArg   *arg,
          const char *s)
{
  graft_arg_init_str (arg, s != NULL ? s : "", -1);
}

/* @meta's module stack as a list of (key, path, type) tuples. */
void
_graft_meta_modules_to_arg (const GraftNodeMeta *meta,
                            GraftArg            *out)
{
  graft_arg_init_seq (out, GRAFT_ARG_LIST, meta->n_modules);
  for (guint i = 0; i < meta->n_modules; i++)
    {
      GraftArg *frame = &out->items[i];

      graft_arg_init_seq (frame, GRAFT_ARG_TUPLE, 3);
      init_str (&frame->items[0], meta->modules[i].key);
      init_str (&frame->items[1], meta->modules[i].path);
      init_str (&frame->items[2], meta->modules[i].type);
    }
}

static gboolean
is_str (const GraftArg *arg)
{
  return arg->kind == GRAFT_ARG_STR && strlen (arg->s) == arg->n;
}

/* The frames @arg lists (a list of 3-tuples of strings).  On success
 * *@out_frames (free with g_free()) borrows its strings from @arg. */
gboolean
_graft_meta_modules_from_arg (const GraftArg    *arg,
                              GraftModuleFrame **out_frames,
                              guint             *out_n_frames,
                              char             **out_message)
{
  g_autofree GraftModuleFrame *frames = NULL;

  if (arg->kind != GRAFT_ARG_LIST)
    {
      *out_message = g_strdup ("must be a list of (key, path, type) tuples of strings");
      return FALSE;
    }
  frames = g_new0 (GraftModuleFrame, MAX (arg->n, 1));
  for (guint i = 0; i < arg->n; i++)
    {
      const GraftArg *frame = &arg->items[i];

      if (frame->kind != GRAFT_ARG_TUPLE || frame->n != 3 || !is_str (&frame->items[0]) ||
          !is_str (&frame->items[1]) || !is_str (&frame->items[2]))
        {
          *out_message = g_strdup_printf ("level %u must be a (key, path, type) tuple of strings",
                                          i + 1);
          return FALSE;
        }
      frames[i].key = frame->items[0].s;
      frames[i].path = frame->items[1].s;
      frames[i].type = frame->items[2].s;
    }
  *out_frames = g_steal_pointer (&frames);
  *out_n_frames = arg->n;
  return TRUE;
}

/* Builds the dict of one signature entry from its present fields. */
typedef struct
{
  GArray *items; /* GraftArg: key, value, key, value, ... */
} DictBuilder;

static void
add_str (DictBuilder *b,
         const char  *key,
         const char  *value)
{
  GraftArg k, v;

  if (value == NULL)
    return;
  graft_arg_init_str (&k, key, -1);
  graft_arg_init_str (&v, value, -1);
  g_array_append_val (b->items, k);
  g_array_append_val (b->items, v);
}

static void
add_bool (DictBuilder *b,
          const char  *key,
          gboolean     value)
{
  GraftArg k, v;

  graft_arg_init_str (&k, key, -1);
  graft_arg_init_bool (&v, value);
  g_array_append_val (b->items, k);
  g_array_append_val (b->items, v);
}

static void
finish_dict (DictBuilder *b,
             GraftArg    *out)
{
  graft_arg_init_dict (out, b->items->len / 2);
  /* The items move: the builder's array only held them. */
  if (b->items->len > 0)
    memcpy (out->items, b->items->data, b->items->len * sizeof (GraftArg));
  g_array_unref (b->items);
}

/* A signature entry's dict, of its present fields (@persistent < 0:
 * unset). */
static void
entry_to_arg (const char *kind,
              const char *name,
              const char *target,
              int         persistent,
              const char *argument,
              const char *value,
              GraftArg   *out)
{
  DictBuilder b = { g_array_new (FALSE, FALSE, sizeof (GraftArg)) };

  add_str (&b, "kind", kind);
  add_str (&b, "name", name != NULL ? name : "");
  add_str (&b, "target", target);
  if (persistent >= 0)
    add_bool (&b, "persistent", persistent > 0);
  add_str (&b, "argument", argument);
  add_str (&b, "value", value);
  finish_dict (&b, out);
}

/* Entry @i of the program's input signature, as a dict. */
void
_graft_program_input_to_arg (GraftProgram *program,
                             guint         i,
                             GraftArg     *out)
{
  const GraftInputSpec *spec = graft_program_get_input (program, i);

  entry_to_arg (graft_input_spec_kind_to_string (spec->kind), spec->name, spec->target,
                spec->persistent, spec->argument, spec->value, out);
}

/* Entry @i of the program's output signature, as a dict. */
void
_graft_program_output_to_arg (GraftProgram *program,
                              guint         i,
                              GraftArg     *out)
{
  const GraftOutputSpec *spec = graft_program_get_output (program, i);

  entry_to_arg (graft_output_spec_kind_to_string (spec->kind), spec->name, spec->target, -1,
                spec->argument, spec->value, out);
}

/* The fields of one entry, read from its dict. */
typedef struct
{
  const char *kind;
  const char *name;
  const char *target;
  const char *argument;
  const char *value;
  int         persistent;
} Entry;

static gboolean
read_entry (const GraftArg *dict,
            guint           number,
            gboolean        is_input,
            Entry          *e,
            char          **out_message)
{
  const char *const keys[] = { "kind", "name", "target", "argument", "value" };
  const char      **fields[] = { &e->kind, &e->name, &e->target, &e->argument, &e->value };

  memset (e, 0, sizeof *e);
  e->persistent = -1;
  if (dict->kind != GRAFT_ARG_DICT)
    {
      *out_message = g_strdup_printf ("entry %u must be a dict", number);
      return FALSE;
    }
  for (guint i = 0; i < dict->n; i++)
    {
      const GraftArg *key = &dict->items[2 * i];
      const GraftArg *value = &dict->items[2 * i + 1];
      gboolean        known = FALSE;

      if (!is_str (key))
        {
          *out_message = g_strdup_printf ("entry %u must have str keys", number);
          return FALSE;
        }
      for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
        if (strcmp (key->s, keys[k]) == 0)
          {
            if (!is_str (value))
              {
                *out_message =
                    g_strdup_printf ("'%s' of entry %u must be a string", key->s, number);
                return FALSE;
              }
            *fields[k] = value->s;
            known = TRUE;
          }
      if (is_input && strcmp (key->s, "persistent") == 0)
        {
          if (value->kind != GRAFT_ARG_BOOL)
            {
              *out_message =
                  g_strdup_printf ("'persistent' of entry %u must be True or False", number);
              return FALSE;
            }
          e->persistent = value->b ? 1 : 0;
          known = TRUE;
        }
      if (!known)
        {
          *out_message = g_strdup_printf ("entry %u has an unknown key '%s'", number, key->s);
          return FALSE;
        }
    }
  if (e->kind == NULL || e->name == NULL)
    {
      *out_message =
          g_strdup_printf ("entry %u needs '%s'", number, e->kind == NULL ? "kind" : "name");
      return FALSE;
    }
  return TRUE;
}

static gboolean
check_list (const GraftArg *arg,
            char          **out_message)
{
  if (arg->kind == GRAFT_ARG_LIST)
    return TRUE;
  *out_message = g_strdup ("must be a list of dicts");
  return FALSE;
}

/* Appends the entries @arg lists to @program's input signature; nothing
 * when one of them is wrong. */
gboolean
_graft_program_inputs_from_arg (GraftProgram   *program,
                                const GraftArg *arg,
                                char          **out_message)
{
  g_autofree GraftInputSpec *specs = NULL;

  if (!check_list (arg, out_message))
    return FALSE;
  specs = g_new0 (GraftInputSpec, MAX (arg->n, 1));
  for (guint i = 0; i < arg->n; i++)
    {
      Entry e;

      if (!read_entry (&arg->items[i], i + 1, TRUE, &e, out_message))
        return FALSE;
      if (!graft_input_spec_kind_from_string (e.kind, &specs[i].kind))
        {
          *out_message = g_strdup_printf ("entry %u has an unknown kind '%s'", i + 1, e.kind);
          return FALSE;
        }
      specs[i].name = e.name;
      specs[i].target = e.target;
      specs[i].persistent = e.persistent;
      specs[i].argument = e.argument;
      specs[i].value = e.value;
    }
  for (guint i = 0; i < arg->n; i++)
    graft_program_add_input (program, &specs[i]);
  return TRUE;
}

/* Appends the entries @arg lists to @program's output signature; nothing
 * when one of them is wrong. */
gboolean
_graft_program_outputs_from_arg (GraftProgram   *program,
                                 const GraftArg *arg,
                                 char          **out_message)
{
  g_autofree GraftOutputSpec *specs = NULL;

  if (!check_list (arg, out_message))
    return FALSE;
  specs = g_new0 (GraftOutputSpec, MAX (arg->n, 1));
  for (guint i = 0; i < arg->n; i++)
    {
      Entry e;

      if (!read_entry (&arg->items[i], i + 1, FALSE, &e, out_message))
        return FALSE;
      if (!graft_output_spec_kind_from_string (e.kind, &specs[i].kind))
        {
          *out_message = g_strdup_printf ("entry %u has an unknown kind '%s'", i + 1, e.kind);
          return FALSE;
        }
      specs[i].name = e.name;
      specs[i].target = e.target;
      specs[i].argument = e.argument;
      specs[i].value = e.value;
    }
  for (guint i = 0; i < arg->n; i++)
    graft_program_add_output (program, &specs[i]);
  return TRUE;
}
