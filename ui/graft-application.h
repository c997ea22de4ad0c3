/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-application.h: the Graft Editor application.
 */
#pragma once

#include <adwaita.h>

#include "graft-view.h"

G_BEGIN_DECLS

#define GRAFT_TYPE_APPLICATION (graft_application_get_type ())

G_DECLARE_FINAL_TYPE (GraftApplication, graft_application, GRAFT, APPLICATION, AdwApplication)

GraftApplication   *graft_application_new (void) G_GNUC_WARN_UNUSED_RESULT;
const GraftDialect *graft_application_get_dialect (GraftApplication *self);

G_END_DECLS
