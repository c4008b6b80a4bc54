/* Adding a cloth to a world (drape_world_add_cloth, include/drape.h): particles, triangles and
 * bend hinges with their per-element coefficients (Baraff & Witkin sec. 4; docs/model.md). */
#ifndef DRAPE_CLOTH_H
#define DRAPE_CLOTH_H

#include "world_data.h"

/* Bend hinge k of a triangles cloth whose particles start at n0 and triangles at t0. Also used by
 * seam.c to rebuild the hinges across a merged seam. */
void cloth_hinge_init(const drape_world* w, const drape_mesh* m, const drape_material* mat, const hinge_ref* hr,
		      int32_t n0, int32_t t0, hinge_elem* e);

#endif
