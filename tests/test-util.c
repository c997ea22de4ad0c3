/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-util.c: see test-util.h.
 */
#include "config.h"

#include "test-util.h"

#include <string.h>

/* tests/data/@dir/@name (@name may be NULL for the folder itself). */
char *
test_data_path (const char *dir,
                const char *name)
{
  return g_build_filename (g_getenv ("G_TEST_SRCDIR"), "data", dir, name, NULL);
}

/* The graph of the file at @path in @torch's dialect, which must load. */
GraftGraph *
test_load_graph_as (const char *path,
                    GraftTorch  torch)
{
  g_autoptr (GraftInputSet) set = graft_input_set_new (graft_dialect_get (torch));
  g_autoptr (GError) error = NULL;
  GraftGraph *graph = graft_input_set_load (set, path, NULL, FALSE, &error);

  g_assert_no_error (error);
  g_assert_nonnull (graph);
  return graph;
}

/* The graph of the file at @path (torch 1.13.1's dialect), which must
 * load. */
GraftGraph *
test_load_graph (const char *path)
{
  return test_load_graph_as (path, GRAFT_TORCH_1_13);
}

static void
assert_points_equal (GraftPoint a,
                     GraftPoint b)
{
  g_assert_cmpfloat (a.x, ==, b.x);
  g_assert_cmpfloat (a.y, ==, b.y);
}

static void
assert_rects_equal (const GraftRect *a,
                    const GraftRect *b)
{
  g_assert_cmpfloat (a->x, ==, b->x);
  g_assert_cmpfloat (a->y, ==, b->y);
  g_assert_cmpfloat (a->width, ==, b->width);
  g_assert_cmpfloat (a->height, ==, b->height);
}

/* @a and @b are the same picture: size and segments, box for box (name,
 * texts, role, node, place, members), edge for edge (ends, points, arrow),
 * frame for frame. */
void
test_assert_layouts_equal (GraftLayout *a,
                           GraftLayout *b)
{
  double wa, ha, wb, hb;

  graft_layout_get_size (a, &wa, &ha);
  graft_layout_get_size (b, &wb, &hb);
  g_assert_cmpfloat (wa, ==, wb);
  g_assert_cmpfloat (ha, ==, hb);
  g_assert_cmpuint (graft_layout_get_n_segments (a), ==, graft_layout_get_n_segments (b));
  g_assert_cmpuint (graft_layout_get_n_nodes (a), ==, graft_layout_get_n_nodes (b));
  for (guint i = 0; i < graft_layout_get_n_nodes (a); i++)
    {
      const GraftLayoutNode *na = graft_layout_get_node (a, i);
      const GraftLayoutNode *nb = graft_layout_get_node (b, i);
      const guint           *ma;
      const guint           *mb;
      guint                  n_ma, n_mb;

      g_assert_cmpstr (na->name, ==, nb->name);
      g_assert_cmpstr (na->caption, ==, nb->caption);
      g_assert_cmpstr (na->label, ==, nb->label);
      g_assert_cmpstr (na->annotation, ==, nb->annotation);
      g_assert_cmpint (na->role, ==, nb->role);
      g_assert_cmpuint (na->node_index, ==, nb->node_index);
      assert_rects_equal (&na->box, &nb->box);
      ma = graft_layout_get_members (a, i, &n_ma);
      mb = graft_layout_get_members (b, i, &n_mb);
      g_assert_cmpmem (ma, n_ma * sizeof (guint), mb, n_mb * sizeof (guint));
    }
  g_assert_cmpuint (graft_layout_get_n_edges (a), ==, graft_layout_get_n_edges (b));
  for (guint e = 0; e < graft_layout_get_n_edges (a); e++)
    {
      const GraftLayoutEdge *x = graft_layout_get_edge (a, e);
      const GraftLayoutEdge *y = graft_layout_get_edge (b, e);

      g_assert_cmpuint (x->tail, ==, y->tail);
      g_assert_cmpuint (x->head, ==, y->head);
      g_assert_cmpuint (x->n_points, ==, y->n_points);
      for (guint k = 0; k < x->n_points; k++)
        assert_points_equal (x->points[k], y->points[k]);
      assert_points_equal (x->arrow_tip, y->arrow_tip);
    }
  g_assert_cmpuint (graft_layout_get_n_frames (a), ==, graft_layout_get_n_frames (b));
  for (guint f = 0; f < graft_layout_get_n_frames (a); f++)
    {
      const GraftLayoutFrame *fa = graft_layout_get_frame (a, f);
      const GraftLayoutFrame *fb = graft_layout_get_frame (b, f);

      g_assert_cmpstr (fa->scope, ==, fb->scope);
      g_assert_cmpstr (fa->label, ==, fb->label);
      assert_rects_equal (&fa->box, &fb->box);
    }
}

/* The graph of Python @code traced from @entry in @torch's dialect, which
 * must trace. */
GraftGraph *
test_trace_in (GraftTorch  torch,
               const char *code,
               const char *entry)
{
  g_autoptr (GraftSource) source = graft_source_new ("test.py", code, -1);
  g_autoptr (GError) error = NULL;
  GraftGraph *graph = graft_trace_source (source, graft_dialect_get (torch), entry, &error);

  g_assert_no_error (error);
  return graph;
}

static void
describe_text (GString    *out,
               const char *field,
               const char *text)
{
  if (text == NULL)
    return;
  g_string_append_printf (out, " %s=", field);
  graft_append_str_repr (out, text, strlen (text));
}

/* Every node's metadata, in graph order, then the module name and the
 * program's signature, one line each: two graphs hold the same program
 * exactly when these texts are equal (transfer full). */
char *
test_describe_program (GraftGraph *graph)
{
  GString      *out = g_string_new (NULL);
  GraftProgram *program = graft_graph_get_program (graph);

  for (GraftNode *node = graft_graph_get_first (graph); node != NULL;
       node = graft_node_get_next (node))
    {
      const GraftNodeMeta *meta = graft_node_get_meta (node);

      g_string_append_printf (out, "%s:", graft_node_get_name (node));
      if (meta == NULL)
        {
          g_string_append (out, " no meta\n");
          continue;
        }
      g_string_append_printf (out, " kind=%d", meta->kind);
      describe_text (out, "dtype", meta->dtype);
      describe_text (out, "shape", meta->shape);
      describe_text (out, "stride", meta->stride);
      describe_text (out, "device", meta->device);
      describe_text (out, "symbol", meta->symbol);
      describe_text (out, "stack_trace", meta->stack_trace);
      describe_text (out, "source_fn_stack", meta->source_fn_stack);
      describe_text (out, "torch_fn", meta->torch_fn);
      for (guint i = 0; i < meta->n_modules; i++)
        {
          describe_text (out, "module.key", meta->modules[i].key);
          describe_text (out, "module.path", meta->modules[i].path);
          describe_text (out, "module.type", meta->modules[i].type);
        }
      g_string_append_c (out, '\n');
    }
  g_string_append (out, "module name:");
  describe_text (out, "", graft_graph_get_module_name (graph));
  g_string_append_c (out, '\n');
  if (program == NULL)
    {
      g_string_append (out, "not a program\n");
      return g_string_free (out, FALSE);
    }
  for (guint i = 0; i < graft_program_get_n_inputs (program); i++)
    {
      const GraftInputSpec *spec = graft_program_get_input (program, i);

      g_string_append_printf (out, "input %s", graft_input_spec_kind_to_string (spec->kind));
      describe_text (out, "name", spec->name);
      describe_text (out, "target", spec->target);
      g_string_append_printf (out, " persistent=%d", spec->persistent);
      describe_text (out, "argument", spec->argument);
      describe_text (out, "value", spec->value);
      g_string_append_c (out, '\n');
    }
  for (guint i = 0; i < graft_program_get_n_outputs (program); i++)
    {
      const GraftOutputSpec *spec = graft_program_get_output (program, i);

      g_string_append_printf (out, "output %s", graft_output_spec_kind_to_string (spec->kind));
      describe_text (out, "name", spec->name);
      describe_text (out, "target", spec->target);
      describe_text (out, "argument", spec->argument);
      describe_text (out, "value", spec->value);
      g_string_append_c (out, '\n');
    }
  g_string_append (out, "range constraints:");
  describe_text (out, "", graft_program_get_range_constraints (program));
  g_string_append_c (out, '\n');
  return g_string_free (out, FALSE);
}

/* Whether this build reads the programs of tests/data/programs whose files
 * end in @suffix (`.pt2`, `.ep.txt`, `.readable.txt`): whether
 * graft_input_detect() takes some of them for something other than Python.
 * The answer is kept per suffix. */
gboolean
test_program_form_has_reader (const char *suffix)
{
  static GHashTable *known; /* suffix -> GINT_TO_POINTER (1 + answer) */
  g_autofree char   *dir = test_data_path ("programs", NULL);
  g_autoptr (GDir) listing = NULL;
  const char *name;
  gboolean    found = FALSE;

  if (known == NULL)
    known = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (g_hash_table_contains (known, suffix))
    return GPOINTER_TO_INT (g_hash_table_lookup (known, suffix)) - 1;
  listing = g_dir_open (dir, 0, NULL);
  while (!found && listing != NULL && (name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autoptr (GraftSource) source = NULL;

      if (!g_str_has_suffix (name, suffix))
        continue;
      source = graft_input_read_file (path, NULL);
      found = source != NULL && graft_input_detect (source) != GRAFT_INPUT_PYTHON;
    }
  g_hash_table_insert (known, g_strdup (suffix), GINT_TO_POINTER (1 + found));
  return found;
}

/* How many times @needle starts in @haystack (overlaps counted). */
guint
test_count (const char *haystack,
            const char *needle)
{
  guint n = 0;

  for (const char *p = strstr (haystack, needle); p != NULL; p = strstr (p + 1, needle))
    n++;
  return n;
}

/* How many entries @dir holds, each named in the test's log. */
guint
test_count_files (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  guint       n = 0;
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_test_message ("in %s: %s", dir, name);
      n++;
    }
  return n;
}

typedef struct
{
  const guchar *data;
  gsize         length;
  gsize         offset;
} Reader;

static cairo_status_t
read_cb (void          *closure,
         unsigned char *data,
         unsigned int   length)
{
  Reader *r = closure;

  if (r->offset + length > r->length)
    return CAIRO_STATUS_READ_ERROR;
  memcpy (data, r->data + r->offset, length);
  r->offset += length;
  return CAIRO_STATUS_SUCCESS;
}

/* The picture of the PNG file @data (@length bytes); an error surface
 * when it is not one.  Free with cairo_surface_destroy(). */
cairo_surface_t *
test_png_read (gconstpointer data,
               gsize         length)
{
  Reader r = { data, length, 0 };

  return cairo_image_surface_create_from_png_stream (read_cb, &r);
}
