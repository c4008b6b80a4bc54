/* The integrator family of Boxerman's "ADI Cloth" (sec. 2.2, 2.3, 5.2, 5.3, 5.5) expressed as
 * assembly plans: per force family, whether a pass treats it implicitly (Jacobians in A),
 * explicitly (force on the right-hand side only) or not at all, and how A is then solved (modified
 * PCG, per-particle blocks, or block-tridiagonal grid lines). docs/integrators.md. */
#ifndef DRAPE_INTEGRATORS_H
#define DRAPE_INTEGRATORS_H

#include "../world_data.h"

typedef enum solve_kind {
	SOLVE_PCG = 0, /* backward Euler and IMEX: the whole system, modified PCG (sec. 5.3) */
	SOLVE_DIAGONAL, /* forward / symplectic Euler: only per-particle blocks (mass, friction, user springs) */
	SOLVE_LINES_U,  /* ADI step with warp implicit: one block-tridiagonal system per grid row */
	SOLVE_LINES_V,  /* ... weft implicit: one per grid column */
	SOLVE_SPLIT,    /* eq. 19: rows with pass 0's matrix, then columns with pass 1's */
} solve_kind;

typedef struct step_scheme {
	solve_kind solve;
	assembly_plan pass[2]; /* pass[1] only for SOLVE_SPLIT (its matrix, no right-hand side) */
	bool old_velocity_positions; /* forward Euler: x1 = x0 + h v0 in free directions */
} step_scheme;

/* The scheme of the world's integrator for its next step (ADI alternates with w->adi_phase). */
void integrator_scheme(const drape_world* w, step_scheme* out);

#endif
