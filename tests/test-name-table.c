/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-name-table.c: the string table of graft-name-table-private.h
 * against a GHashTable, through insertions, removals and
 * _graft_name_table_find_or_insert(), which finds a key or adds it in
 * one probe.
 */
#include "config.h"

#include "graft-name-table-private.h"

#include <string.h>

/* Random keys among a few hundred (so that keys come back after their
 * removal, over removed marks), checked against a model after each step:
 * find_or_insert finds exactly the keys present, with their value, adds
 * the others where a lookup finds them, and the table keeps its count. */
static void
test_against_model (void)
{
  GraftNameTable t;
  g_autoptr (GHashTable) model = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GRand) rand = g_rand_new_with_seed (20);
  guint serial = 0;

  _graft_name_table_init (&t, TRUE);
  for (guint step = 0; step < 20000; step++)
    {
      g_autofree char *key = g_strdup_printf ("h%u", g_rand_int_range (rand, 0, 600));
      guint            len = (guint) strlen (key);
      guint            hash = _graft_name_hash (key, len);
      gpointer         expected = NULL;
      gboolean         present = g_hash_table_lookup_extended (model, key, NULL, &expected);
      guint            what = g_rand_int_range (rand, 0, 3);

      if (what == 0)
        {
          gboolean       inserted = FALSE;
          char          *owned = g_strdup (key);
          GraftNameSlot *slot =
              _graft_name_table_find_or_insert (&t, owned, len, hash, GUINT_TO_POINTER (++serial),
                                                &inserted);

          g_assert_cmpint (inserted, ==, !present);
          g_assert_cmpstr (slot->key, ==, key);
          if (present)
            {
              g_assert_true (slot->value == expected);
              g_free (owned);
            }
          else
            {
              g_assert_true (slot->value == GUINT_TO_POINTER (serial));
              g_hash_table_insert (model, g_strdup (key), GUINT_TO_POINTER (serial));
            }
        }
      else if (what == 1)
        {
          g_assert_cmpint (_graft_name_table_remove (&t, key, len, hash), ==, present);
          g_hash_table_remove (model, key);
        }
      else if (!present)
        {
          _graft_name_table_insert_len (&t, g_strdup (key), len, hash, GUINT_TO_POINTER (++serial));
          g_hash_table_insert (model, g_strdup (key), GUINT_TO_POINTER (serial));
        }
      g_assert_cmpuint (t.n_items, ==, g_hash_table_size (model));
      {
        GraftNameSlot *found = _graft_name_table_find (&t, key, len, hash);
        gpointer       value = NULL;

        g_assert_cmpint (found != NULL, ==,
                         g_hash_table_lookup_extended (model, key, NULL, &value));
        if (found != NULL)
          g_assert_true (found->value == value);
      }
    }
  /* Every key of the model, at the end. */
  {
    GHashTableIter iter;
    gpointer       key, value;

    g_hash_table_iter_init (&iter, model);
    while (g_hash_table_iter_next (&iter, &key, &value))
      g_assert_true (_graft_name_table_lookup (&t, key) == value);
  }
  _graft_name_table_clear (&t);
}

/* A table filled by find_or_insert alone grows as insertions grow it, and
 * keeps every key. */
static void
test_grows (void)
{
  GraftNameTable t;

  _graft_name_table_init (&t, TRUE);
  for (guint i = 0; i < 5000; i++)
    {
      char    *key = g_strdup_printf ("name_%u", i);
      guint    len = (guint) strlen (key);
      gboolean inserted = FALSE;

      _graft_name_table_find_or_insert (&t, key, len, _graft_name_hash (key, len),
                                        GUINT_TO_POINTER (i + 1), &inserted);
      g_assert_true (inserted);
    }
  g_assert_cmpuint (t.n_items, ==, 5000);
  g_assert_cmpuint ((t.n_occupied + 0) * 4, <=, (t.mask + 1) * 3);
  for (guint i = 0; i < 5000; i++)
    {
      g_autofree char *key = g_strdup_printf ("name_%u", i);

      g_assert_true (_graft_name_table_lookup (&t, key) == GUINT_TO_POINTER (i + 1));
    }
  _graft_name_table_clear (&t);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/name-table/against-model", test_against_model);
  g_test_add_func ("/core/name-table/grows", test_grows);

  return g_test_run ();
}
