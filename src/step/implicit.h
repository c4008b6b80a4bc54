/* One backward-Euler step's system (sec. 3) with constraints (sec. 5) and position alteration
 * (eq. 18): assemble A dv = b, solve it with the modified PCG, and propose the new state. The
 * step's stages that call these, and the judge of their proposal, live in src/step/. */
#ifndef DRAPE_IMPLICIT_H
#define DRAPE_IMPLICIT_H

#include "../world_data.h"
#include "integrators.h"

/* Wall time and iterations of a step's assembly and solves (Table 1's EVAL and CG). */
typedef struct solve_tally {
	double eval_ms;
	double cg_ms;
	int cg_iterations;
	bool cg_converged;
	int solves; /* linear solves (contact passes, Newton iterations) */
} solve_tally;

/* Assembles eq. 18 for the state (w->x, w->v) at time t and step h into w->A and w->b, using the
 * constraint data (w->y) already prepared. Exposed for tests (symmetry, free fall). */
void implicit_assemble(drape_world* w, double t, double h);
/* One assembly pass of an integrator (step/integrators.h): A and, if plan->rhs, b. */
void assemble_pass(drape_world* w, double t, double h, const assembly_plan* plan);

/* The step's system as the integrator's first pass assembles it. With inertia_v0 (a Newton
 * iteration, implicit_newton_refine), b also gets -M (v - inertia_v0). */
void implicit_assemble_step(drape_world* w, const step_scheme* sc, double t, double h, const vec3* inertia_v0, solve_tally* r);
/* Solves the assembled system as the integrator says (a split scheme assembles its second pass
 * here), leaving dv and the constraint impulse e. */
pcg_result implicit_solve_step(drape_world* w, const step_scheme* sc, double t, double h, const vec3* guess, solve_tally* r);
/* x1 = x + h (v + dv) + y, v1 = v + dv (eq. 17); false if anything is not finite. */
bool implicit_propose(drape_world* w, double h, bool old_velocity);
/* Newton iterations on the step's nonlinear system after the first proposal (newton_iterations > 1);
 * returns whether the final x1 and v1 are finite. */
bool implicit_newton_refine(drape_world* w, const step_scheme* sc, double t, double h, solve_tally* r);

#endif
