/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * test-util.h: helpers the core tests share.
 */
#pragma once

#include "graft-view.h"

#include <cairo.h>

char            *test_data_path (const char *dir,
                                 const char *name);
GraftGraph      *test_load_graph (const char *path);
GraftGraph      *test_load_graph_as (const char *path,
                                     GraftTorch  torch);
char            *test_describe_program (GraftGraph *graph);
void             test_assert_layouts_equal (GraftLayout *a,
                                            GraftLayout *b);
GraftGraph      *test_trace_in (GraftTorch  torch,
                                const char *code,
                                const char *entry);
gboolean         test_program_form_has_reader (const char *suffix);
guint            test_count (const char *haystack,
                             const char *needle);
guint            test_count_files (const char *dir);
cairo_surface_t *test_png_read (gconstpointer data,
                                gsize         length);
