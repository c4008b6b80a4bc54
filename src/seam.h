/* Seams between cloths and within one (docs/garments.md): stiff zero-length springs while open,
 * then merged particles with several rest uv (Baraff & Witkin sec. 8). */
#ifndef DRAPE_SEAM_H
#define DRAPE_SEAM_H

#include "world_data.h"

/* Frees the seams. */
void seams_free(drape_world* w);
/* The largest gap of the open seams, m (0 when none is open). */
double seams_max_gap(const drape_world* w);
/* Tells the cloth/cloth detector which particles the open seams will merge (cloth_pairs.sewn), so
 * that a seam's two sides are never held apart as contacts. False on allocation failure. */
bool seams_set_sewn(drape_world* w);

#endif
