/* Cloth/cloth response (sec. 2.4, 6): for each vertex/triangle or edge/edge pair closer than the
 * cloth thickness, a stiff damped repulsion spring along the contact normal and a damping force
 * against tangential slip, both with their derivatives in the implicit system; pairs found
 * crossing during a step get the same spring and the step is solved again. */
#ifndef DRAPE_CLOTH_CONTACT_H
#define DRAPE_CLOTH_CONTACT_H

#include <stdbool.h>
#include <stdint.h>

#include "../math/vec3.h"

/* One repulsion element over four distinct particles. The contact point difference is
 * sum_k weight[k] x[node[k]] (vertex minus triangle point, or edge point minus edge point), and
 * C = normal . that - thickness measures the penetration of the thickness layer. */
typedef struct repulsion {
	int32_t node[4];
	double weight[4];
	vec3 normal;
} repulsion;

typedef struct drape_world drape_world;

/* Pairs closer than this many cloth thicknesses on the rest mesh are never contacts
 * (docs/collide.md, "Rest neighbours"): a thickness of margin for in-plane compression. */
#define CLOTH_REST_RADIUS 1.5

/* The cloth/cloth candidate list's skin, in cloth thicknesses (cloth_pairs_set_skin): the list is
 * rebuilt when the cloth has deformed by about this much (docs/collide.md, "Candidate list"). */
#define CLOTH_PAIRS_SKIN 0.5

/* Once per topology (step/workspace.c, self_collision): the cloth/cloth detector over all cloth
 * triangles, told each triangle's rest (u, v) so that proximity skips rest neighbours, the
 * particles the open seams will merge (sewn, as pairs), the world's threads and the list's skin;
 * then the intersections at the current state (state.intersections). False when out of memory or
 * interrupted (the world's cancel flag); the detector is then marked ready only if its init
 * succeeded (work.pairs_ready), for workspace_free. */
bool cloth_contacts_setup(drape_world* w, const int32_t* sewn, int32_t sewn_count);

/* Before a step: the pairs within the cloth thickness at the step's start. False when the search
 * went over its budget (cloth_pairs.overloaded) or was interrupted. */
bool cloth_contacts_prepare(drape_world* w);

/* Adds the repulsions' forces and derivatives to A and b (called by the assembly). */
void cloth_contacts_assemble(drape_world* w, double h);

/* After a solve: pairs whose motion x -> x1 crosses get a repulsion too, and their free particles
 * a position correction y for the next solve (sec. 6.2). Solid contacts of their particles become
 * pinched (contact_pinch); *pinched counts the new ones, and when it is > 0 no correction is made
 * yet: the caller makes the constraints again, then calls cloth_contacts_alter_crossings. Returns
 * how many pairs, or -1 when the search went over its budget or was interrupted. */
int32_t cloth_contacts_catch_crossings(drape_world* w, double h, int32_t* pinched);

/* The position corrections of every pair caught crossing in this step (after the constraints were
 * made again). */
void cloth_contacts_alter_crossings(drape_world* w, double h);

/* After an accepted step: pinched contacts whose particle is in no repulsion pair any more are
 * released from the pinch (their thickness comes back, at the contacts' push speed). */
void cloth_contacts_commit_pinches(drape_world* w);

/* Intersecting triangle pairs at positions x (exact test); -1 as above. */
int32_t cloth_contacts_intersections(drape_world* w, const vec3* x);

#endif
