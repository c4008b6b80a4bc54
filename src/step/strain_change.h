/* The step control's measure of a proposal (strain_change.c; sec. 7). */
#ifndef DRAPE_STRAIN_CHANGE_H
#define DRAPE_STRAIN_CHANGE_H

#include "../world_data.h"

/* The held elements' largest strain change (strain_change_free): elements whose every particle is
 * held by a contact or constraint (w->work.constrained), whose motion the solids and pins drive;
 * triangle or spring names where, the other -1 (both -1 for no change). */
typedef struct strain_held {
	double change;
	int32_t triangle, spring;
} strain_held;

/* The largest strain change between `from` and w->x1: of |w_u| or |w_v| over the triangles, or of
 * a mass-spring stretch spring's strain; *worst (triangle) or *spring names where, the other -1. */
double strain_change_of_proposal(drape_world* w, const vec3* from, int32_t* worst, int32_t* spring);
/* The same over the free elements only; the held ones' apart in *held. */
double strain_change_free(drape_world* w, const vec3* from, int32_t* worst, int32_t* spring, strain_held* held);
/* The same as the step control judges it while strain limiting is on: also from the last accepted
 * proposal before its projection, where the cloth starts where the limiter put it; the smaller. */
double strain_change_judged(drape_world* w, int32_t* worst, int32_t* spring);
/* The last solve's relative residual on the held particles, in the directions their constraints
 * leave free: |S (A dv - b)| / |S b| over the particles with constrained[i] (0 where nothing is
 * left free). */
double strain_change_held_residual(const drape_world* w);
/* After an accepted step (x now the proposal): keeps what the strain limiter did to it, so that the
 * next step's strain change can be judged from the proposal before the projection. */
void strain_change_accept_limit(drape_world* w);
/* After an accepted step: where the judge measured the proposal (measured), the triangles' w_u,
 * w_v and their lengths there (tri_w1) are the next step's start's (tri_w0, for the state's x:
 * strain_w0_of): strain_change_of_proposal from the state's x and the stretch and shear forces
 * (step/implicit.c) read them instead of forming them again (bit for bit the same numbers);
 * otherwise none are kept. */
void strain_change_keep(drape_world* w, bool measured);

#endif
