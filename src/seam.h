/* Seams between cloths and within one (docs/garments.md): stiff zero-length springs while open,
 * then merged particles with several rest uv (Baraff & Witkin sec. 8). */
#ifndef DRAPE_SEAM_H
#define DRAPE_SEAM_H

#include "world_data.h"

/* Before a step: the springs of the open seams whose pairs are, or have been, farther apart than
 * their free gap are damped so that their pull k |d| (1 - closing speed / max_speed) cannot close
 * them faster than max_speed (docs/garments.md, "Sewing at a bounded speed"). The cap is a damping
 * k |d| / max_speed along the pair: explicit, at the steps it is for, it would overshoot, so only
 * an integrator whose step treats the "other" family implicitly (the caller's scheme) gets it. */
void seams_cap_speed(drape_world* w, bool implicit);
/* Frees the seams. */
void seams_free(drape_world* w);
/* Whether some seam is still open (sewing is under way). */
bool seams_open(const drape_world* w);
/* The largest gap of the open seams, m (0 when none is open). */
double seams_max_gap(const drape_world* w);
/* The particles the open seams will merge, as pairs (2 * *count of them, malloc'd): what the
 * cloth/cloth detector is told (cloth_pairs_set_sewn), so that a seam's two sides are never held
 * apart as contacts. NULL on allocation failure. */
int32_t* seams_sewn_pairs(const drape_world* w, int32_t* count);
/* Seam s's pairs: 2 * pair_count cloth-local vertex indices, renumbered by every merge of its
 * cloth; and its merged flag. For saving and restoring a sewn garment (world_state.c). */
int32_t* seam_pairs(drape_world* w, int32_t s, int32_t* pair_count);
void seam_set_merged(drape_world* w, int32_t s, bool merged);

#endif
