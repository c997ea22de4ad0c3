/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * graft-program.c: what the readers of torch.export programs share: the
 * refusal of a dialect without torch.export, with one message for the three
 * forms of a program.
 */
#include "config.h"

#include "graft-program.h"
#include "graft-error.h"

/**
 * graft_program_check_dialect:
 * @dialect: the torch a program is read for
 * @filename: the input, as errors name it
 * @error: return location for a #GRAFT_PARSE_ERROR at `FILE:1:1`
 *
 * Returns: whether @dialect has torch.export (%GraftDialect.has_export);
 *   %FALSE with @error set otherwise
 */
gboolean
graft_program_check_dialect (const GraftDialect *dialect,
                             const char         *filename,
                             GError            **error)
{
  g_return_val_if_fail (dialect != NULL && filename != NULL, FALSE);

  if (dialect->has_export)
    return TRUE;
  graft_set_error_at (error, filename, 1, 1, GRAFT_PARSE_ERROR_UNSUPPORTED, "%s",
                      GRAFT_PROGRAM_NEEDS_TORCH_2_6);
  return FALSE;
}
