/* Mass-spring cloths (Boxerman 2003, sec. 2.1): a grid's stretch, shear and bend springs and its
 * masses. */
#ifndef DRAPE_CLOTH_SPRINGS_H
#define DRAPE_CLOTH_SPRINGS_H

#include "world_data.h"

/* Validation of the grid of a mass-spring cloth. */
drape_status cloth_springs_check(drape_world* w, const drape_cloth_def* def);
/* Its springs and masses, for a cloth whose first particle is n0. */
drape_status cloth_springs_build(drape_world* w, const drape_cloth_def* def, int32_t n0);

#endif
