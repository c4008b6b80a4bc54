/* Strain limiting: the step's proposal projected so that no triangle's warp or weft stretch
 * (|w_u|, |w_v| of eq. 9) leaves [min(b, 1) (1 - s), max(b, 1) (1 + s)] (b = b_u, b_v of eq. 10)
 * and no mass-spring stretch spring leaves [rest (1 - s), rest (1 + s)]. docs/solver.md,
 * "Strain limiting". */
#ifndef DRAPE_STRAIN_LIMIT_H
#define DRAPE_STRAIN_LIMIT_H

#include "../world_data.h"

typedef struct strain_limit_report {
	double excess;   /* largest |strain| - s in the proposal before projecting (0 if none) */
	double residual; /* the same after the last sweep */
	int newton; /* Newton steps taken */
} strain_limit_report;

/* Whether strain limiting acts: strain_limit > 0 and no seam is open (sewing pulls panels together
 * through stiff springs, a process rather than cloth physics; limiting starts once it is done). */
bool strain_limit_active(const drape_world* w);

/* Projects w->x1 (and moves w->v1 with it, by the position change / h) with s =
 * w->def.strain_limit. With strain_from_limiter the caller keeps the proposal in
 * w->work.limit_pending (its copy of x1 before the call): the projection's fail-safe against
 * crossing cloth goes back to it. Particles move in proportion to their inverse mass and only in the
 * directions their constraints leave free (the filter S of sec. 5.3), so pins stay exact and
 * linear and angular momentum are kept. The same answer for any thread count. */
strain_limit_report strain_limit_apply(drape_world* w, double h);

/* The largest strain beyond the limit at positions x, over the elements the projection could move
 * (0 if none, or if strain limiting is off); which particles it may slide is as the step's last
 * strain_limit_apply found them. */
double strain_limit_violation(const drape_world* w, const vec3* x);

/* The projection's scratch (limit_set, world_data.h) for n particles; false on no memory (what
 * was allocated is freed by limit_set_free). */
bool limit_set_init(limit_set* set, int32_t n);
void limit_set_free(limit_set* set);

#endif
