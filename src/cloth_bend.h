/* Tensor bending elements of a triangles cloth (docs/bending.md). */
#ifndef DRAPE_CLOTH_BEND_H
#define DRAPE_CLOTH_BEND_H

#include "world_data.h"

/* The elements of a TRIANGLES cloth whose first triangle is t0 and first particle n0. */
drape_status cloth_bend_tensors(drape_world* w, const drape_cloth_def* def, const void* hinges, int32_t hinge_count,
				int32_t t0, int32_t n0);

#endif
