/* sq-core.h: everything the format core offers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sq-clip.h"
#include "sq-clip-new.h"
#include "sq-convert.h"
#include "sq-diff.h"
#include "sq-dump.h"
#include "sq-edit.h"
#include "sq-error.h"
#include "sq-fields.h"
#include "sq-format.h"
#include "sq-joint-map.h"
#include "sq-math.h"
#include "sq-motion.h"
#include "sq-pose.h"
#include "worlds/sq-sl-skeleton.h"
#include "sq-units.h"
#include "sq-pose-library.h"
#include "sq-posing.h"
#include "sq-validate.h"
#include "sq-world.h"
#include "worlds/sq-sims-edit.h"
#include "worlds/sq-layers.h"
#include "worlds/sq-sl-behaviour.h"
