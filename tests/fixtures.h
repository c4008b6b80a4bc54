/* Small worlds shared by the solver, world and physics tests. */
#ifndef DRAPE_TEST_FIXTURES_H
#define DRAPE_TEST_FIXTURES_H

#include "drape.h"

/* A size x size m horizontal sheet of res x res particles centred at (0, 0, 1), optionally pinned
 * (fixed points) at its two v = max corners, as in the paper's figure 2. */
drape_world* make_sheet(const drape_world_def* wdef, const drape_material* mat, int res, double size, bool pin_corners,
			drape_cloth_id* cloth);
/* The same with a given bending model, for tests of one model's own elements or matrix structure
 * (make_sheet takes the default, docs/bending.md). */
drape_world* make_sheet_bent(const drape_world_def* wdef, const drape_material* mat, int res, double size,
			     bool pin_corners, drape_cloth_id* cloth, drape_bend_model bend_model);

/* Adds a res x res sheet of side `size` centred at c, in the plane spanned by the unit vectors u
 * and v (material m, or the default when NULL). */
drape_cloth_id fixture_add_sheet(drape_world* w, int res, double size, const double c[3], const double u[3],
				 const double v[3], const drape_material* m);

/* A res x res sheet (0.5 m, bending model, corners pinned with pins) with random deformation and
 * velocities, prepared and its system of eq. 18 assembled for a step of h: the solver tests'
 * system. */
drape_world* fixture_assembled_sheet(const drape_world_def* wdef, drape_bend_model bend_model, int res, double h,
				     uint64_t seed, bool pins);

/* Deterministic pseudo-random numbers in [-1, 1). */
double fixture_rand(uint64_t* state);

/* Largest |a_i - b_i| over n doubles. */
double max_abs_diff(const double* a, const double* b, int n);

#endif
