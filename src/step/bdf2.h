/* BDF2 with variable steps (docs/integrators.md): each step is backward Euler's system (sec. 3,
 * eq. 18) of a shortened step taken from a state extrapolated from the last two. */
#ifndef DRAPE_BDF2_H
#define DRAPE_BDF2_H

#include "../world_data.h"

/* Before a step of size h: for BDF2 with a usable history, puts the extrapolated velocity in
 * w->v (v_n kept aside) and the position extrapolation's offset from x_n aside, and returns the
 * backward-Euler step size beta h that reproduces BDF2; otherwise (other integrators, the first
 * step, a step that grew more than 2x) returns h and changes nothing. */
double bdf2_begin(drape_world* w, double h);
/* After the constraints (and contacts) set y: adds the position offset in free directions. */
void bdf2_shift(drape_world* w);
/* The step was rejected: v_n back in w->v. */
void bdf2_reject(drape_world* w);
/* The step of size h was accepted (w->x1, w->v1 hold the new state, not yet swapped in): keeps
 * x_n, v_n as the history. */
void bdf2_accept(drape_world* w, double h);

#endif
