/* Untangling small knots of cloth that is already through itself (after Baraff, Witkin and Kass
 * 2003): smoothing the patch around the intersecting triangles, kept only where the exact count
 * falls. */
#ifndef DRAPE_CLOTH_UNTANGLE_H
#define DRAPE_CLOTH_UNTANGLE_H

#include <stdint.h>

typedef struct drape_world drape_world;

/* When w->intersections > 0: smooths the patch around the intersecting triangles (growing it ring
 * by ring) until the count is 0 or the sweeps run out, keeps the new positions if they have fewer
 * intersections and restores the old ones otherwise. Sets and returns w->intersections. Between
 * steps only (it moves w->x): drape_world_step calls it after the topology changed (a merge).
 * Allocates its scratch, which only tangled cloth pays for. */
int32_t cloth_untangle(drape_world* w);

#endif
