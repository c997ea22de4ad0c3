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
