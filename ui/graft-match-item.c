/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-match-item.c: a match as a GObject for GtkListView: its number,
 * a title ("Match 2"), the graph nodes it replaces ("neg_1, cat_1,
 * sum_2") and the node it is anchored at (its returning node), which the
 * canvas centres on.  A dropped item stands for a complete occurrence
 * that torch's rules leave alone (it overlaps an earlier match, an inner
 * value is used outside it, replacing it would make a cycle), titled with
 * the reason.  Items are immutable: the document makes new ones whenever
 * the matches change.
 */
#include "config.h"

#include "graft-match-item.h"
#include "graft-view.h"

struct _GraftMatchItem
{
  GObject parent_instance;

  /* Owned */
  char    *title;
  char    *nodes;
  char    *anchor;
  guint    index;
  gboolean dropped;
};

G_DEFINE_FINAL_TYPE (GraftMatchItem, graft_match_item, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_INDEX,
  PROP_TITLE,
  PROP_NODES,
  PROP_ANCHOR,
  N_PROPS,
};

static GParamSpec *properties[N_PROPS];

static void
graft_match_item_finalize (GObject *object)
{
  GraftMatchItem *self = GRAFT_MATCH_ITEM (object);

  g_free (self->title);
  g_free (self->nodes);
  g_free (self->anchor);
  G_OBJECT_CLASS (graft_match_item_parent_class)->finalize (object);
}

static void
graft_match_item_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  GraftMatchItem *self = GRAFT_MATCH_ITEM (object);

  switch (prop_id)
    {
    case PROP_INDEX:
      g_value_set_uint (value, self->index);
      break;
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_NODES:
      g_value_set_string (value, self->nodes);
      break;
    case PROP_ANCHOR:
      g_value_set_string (value, self->anchor);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
graft_match_item_class_init (GraftMatchItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = graft_match_item_finalize;
  object_class->get_property = graft_match_item_get_property;

  properties[PROP_INDEX] = g_param_spec_uint ("index", NULL, NULL, 0, G_MAXUINT, 0,
                                              G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL,
                                                G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_NODES] = g_param_spec_string ("nodes", NULL, NULL, NULL,
                                                G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_ANCHOR] = g_param_spec_string ("anchor", NULL, NULL, NULL,
                                                 G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
graft_match_item_init (GraftMatchItem *self)
{
}

/**
 * graft_match_item_new:
 * @index: the match's position, from 0
 * @nodes: the graph nodes it replaces, comma-separated
 * @anchor: the node to centre on
 *
 * Returns: (transfer full): an item
 */
GraftMatchItem *
graft_match_item_new (guint       index,
                      const char *nodes,
                      const char *anchor)
{
  GraftMatchItem *self = g_object_new (GRAFT_TYPE_MATCH_ITEM, NULL);

  self->index = index;
  self->title = g_strdup_printf ("Match %u", index + 1);
  self->nodes = g_strdup (nodes);
  self->anchor = g_strdup (anchor);
  return self;
}

/**
 * graft_match_item_new_dropped:
 * @reason: why `replace_pattern` leaves this occurrence alone
 * @nodes: the graph nodes it would replace, comma-separated
 * @anchor: the node to centre on
 *
 * Returns: (transfer full): an item for a candidate that torch's rules
 *   dropped; its title is @reason
 */
GraftMatchItem *
graft_match_item_new_dropped (const char *reason,
                              const char *nodes,
                              const char *anchor)
{
  GraftMatchItem *self = g_object_new (GRAFT_TYPE_MATCH_ITEM, NULL);

  self->index = G_MAXUINT;
  self->dropped = TRUE;
  self->title = g_strdup (reason);
  self->nodes = g_strdup (nodes);
  self->anchor = g_strdup (anchor);
  return self;
}

gboolean
graft_match_item_get_dropped (GraftMatchItem *self)
{
  g_return_val_if_fail (GRAFT_IS_MATCH_ITEM (self), FALSE);
  return self->dropped;
}

guint
graft_match_item_get_index (GraftMatchItem *self)
{
  g_return_val_if_fail (GRAFT_IS_MATCH_ITEM (self), 0);
  return self->index;
}

const char *
graft_match_item_get_title (GraftMatchItem *self)
{
  g_return_val_if_fail (GRAFT_IS_MATCH_ITEM (self), NULL);
  return self->title;
}

const char *
graft_match_item_get_nodes (GraftMatchItem *self)
{
  g_return_val_if_fail (GRAFT_IS_MATCH_ITEM (self), NULL);
  return self->nodes;
}

const char *
graft_match_item_get_anchor (GraftMatchItem *self)
{
  g_return_val_if_fail (GRAFT_IS_MATCH_ITEM (self), NULL);
  return self->anchor;
}

/* Adds @attr over bytes @start to @end of a row's text to @list. */
static void
add_row_attr (PangoAttrList  *list,
              PangoAttribute *attr,
              gsize           start,
              gsize           end)
{
  attr->start_index = (guint) start;
  attr->end_index = (guint) end;
  pango_attr_list_insert (list, attr);
}

/**
 * graft_match_item_dup_row_text:
 * @self: an item
 * @out_attrs: (out) (transfer full): the text's attributes
 *
 * The match list's row: a swatch in the match's colour (grey and hollow
 * for a dropped occurrence), the title (dimmed for a dropped one), then
 * on a second line the nodes, smaller and dimmed.  The same as the Pango
 * markup `<span foreground="#rrggbb" size="x-large">●</span>  TITLE\n<span
 * size="small" alpha="55%">NODES</span>` (a dropped title in `<span
 * alpha="55%">`), made without parsing it.
 *
 * Returns: (transfer full): the row's text
 */
char *
graft_match_item_dup_row_text (GraftMatchItem *self,
                               PangoAttrList **out_attrs)
{
  GString       *text;
  PangoAttrList *attrs;
  gsize          swatch_end;
  gsize          title_start;
  gsize          nodes_start;
  /* Markup's "55%" of 0xffff; its colour's bytes made 16-bit. */
  guint16 alpha = 55 * 0xffff / 100;
  guint   rgb[3] = { 0x9a, 0x99, 0x96 }; /* a dropped occurrence's grey */

  g_return_val_if_fail (GRAFT_IS_MATCH_ITEM (self), NULL);
  g_return_val_if_fail (out_attrs != NULL, NULL);
  text = g_string_new (self->dropped ? "◌" : "●");
  attrs = pango_attr_list_new ();
  swatch_end = text->len;
  g_string_append (text, "  ");
  title_start = text->len;
  g_string_append (text, self->title);
  g_string_append_c (text, '\n');
  nodes_start = text->len;
  g_string_append (text, self->nodes);
  if (!self->dropped)
    {
      double r;
      double g;
      double b;

      graft_render_get_match_color (self->index, &r, &g, &b);
      rgb[0] = (guint) (r * 255);
      rgb[1] = (guint) (g * 255);
      rgb[2] = (guint) (b * 255);
    }
  add_row_attr (attrs,
                pango_attr_foreground_new ((guint16) (rgb[0] * 0x101), (guint16) (rgb[1] * 0x101),
                                           (guint16) (rgb[2] * 0x101)),
                0, swatch_end);
  add_row_attr (attrs, pango_attr_scale_new (PANGO_SCALE_X_LARGE), 0, swatch_end);
  if (self->dropped)
    add_row_attr (attrs, pango_attr_foreground_alpha_new (alpha), title_start, nodes_start - 1);
  /* Markup's "small" is 1 / 1.2 (PANGO_SCALE_SMALL rounds it). */
  add_row_attr (attrs, pango_attr_scale_new (1 / 1.2), nodes_start, text->len);
  add_row_attr (attrs, pango_attr_foreground_alpha_new (alpha), nodes_start, text->len);
  *out_attrs = attrs;
  return g_string_free (text, FALSE);
}
