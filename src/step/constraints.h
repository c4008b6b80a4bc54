/* Per-step constraint setup (sec. 5.1, eq. 13) and position alteration for constrained particles
 * (sec. 6.2, eq. 17), and the readback of constraint forces (sec. 5.4). */
#ifndef DRAPE_CONSTRAINTS_H
#define DRAPE_CONSTRAINTS_H

#include "../world_data.h"

#include <stdbool.h>

/* For a step from t to t + h: fills w->S (the filter of eq. 13), w->constrained, w->z (the
 * velocity change along constrained directions) and w->y (the position correction of eq. 17),
 * so that each constrained particle ends the step exactly on its target along those directions. */
void constraints_prepare(drape_world* w, double t, double h);

/* Constrains particle i along the unit direction d (unless an earlier constraint already does):
 * at the step's end its velocity along d is pv's and its position along d is p's. Contacts use it
 * too (collide/contact.c). */
void constraints_add_direction(drape_world* w, int32_t i, vec3 d, vec3 p, vec3 pv, double h);

/* Adds an inequality on particle i along the unit direction d = the part of n its pins leave free
 * (pcg.h, pcg_bound; docs/solver.md, "Contacts inside the solve"): at the step's end the particle
 * is no further in along d than p, which moves with velocity pv. held: it starts in the active set
 * as constraints_add_direction's equality (d in S, z and y); free: no y, and it may come up to p.
 * floor: the pull (an impulse) it holds before the solve releases it. A free bound of the particle
 * is replaced, a held one kept. Call before directions only a held bound keeps (a sticking
 * contact's tangents). Returns its index in w->bounds, -1 when it was not added. */
int32_t constraints_add_bound(drape_world* w, int32_t i, vec3 n, vec3 p, vec3 pv, double h, double floor, bool held);

/* Reference point p and its velocity at time t. */
void constraint_target(const constraint_data* c, double t, vec3* p, vec3* pv);

/* Stores each active constraint's force e / h, e = A dv - b (sec. 5.4), after a solve. */
void constraints_store_forces(drape_world* w, double h);

#endif
