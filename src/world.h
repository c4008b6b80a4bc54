/* The world's internal interface: what world.c offers the rest of the library besides the public
 * API. Its data (world_data.h) and error reporting (world_error.h) live apart, so that the files
 * world.c drives need not depend on it. */
#ifndef DRAPE_WORLD_H
#define DRAPE_WORLD_H

#include "world_data.h"
#include "world_error.h"
#include "step/workspace.h" /* workspace_prepare: the buffers a topology change rebuilds */

#endif
