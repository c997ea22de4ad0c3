/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * program.h: a torch.export program made by hand for the editor's tests,
 * shaped as torchvision's resnet exports: parameters and buffers first
 * (with the unused `num_batches_tracked` buffers), then per basic block two
 * convolutions and batch norms, an add and relus, each node with its
 * shape, stack trace and module frames.
 */
#pragma once

#include "graft-view.h"

GraftGraph *program_new (guint n_blocks) G_GNUC_WARN_UNUSED_RESULT;
