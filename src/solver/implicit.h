/* One backward-Euler step (sec. 3) with constraints (sec. 5) and position alteration (eq. 18):
 * assemble A dv = b, solve it with the modified PCG, and propose the new state. */
#ifndef DRAPE_IMPLICIT_H
#define DRAPE_IMPLICIT_H

#include "../world_data.h"

typedef enum step_outcome {
	STEP_ACCEPTED = 0,
	STEP_CG_BREAKDOWN,   /* A was not positive definite along a search direction */
	STEP_NONFINITE,      /* the proposal holds NaN or Inf */
	STEP_STRETCH_CHANGE, /* sec. 7: some triangle's stretch changed drastically */
	STEP_PENETRATION,    /* re-solving with new contacts did not stop particles crossing solids */
	STEP_SELF_INTERSECTION, /* more intersecting triangle pairs than at the step's start */
	STEP_FORCED,         /* rejected by the test hook */
	STEP_DIVERGING,      /* an explicit part blew up: strain jumped by > 25 % in a step */
	STEP_CANCELLED,      /* the world's cancel flag was raised mid-step; the step is dropped */
	STEP_CROWDED,        /* the cloth/cloth search went over its budget (collide/cloth_pairs.h) */
} step_outcome;

typedef struct step_report {
	step_outcome outcome;
	int cg_iterations;
	bool cg_converged;
	double eval_ms;
	double cg_ms;
	double cs_ms; /* cloth/solid contact detection and handling */
	double cc_ms; /* cloth/cloth contact detection and handling */
	int32_t intersections; /* intersecting triangle pairs in the proposal */
	double stretch_change; /* largest | |w_u| or |w_v| change | over triangles */
	int32_t worst_triangle;
	int32_t worst_spring; /* a mass-spring stretch spring whose strain changed most, or -1 */
	double limit_excess;  /* largest strain beyond strain_limit before limiting (solver/strain_limit.h) */
	double limit_residual; /* the same after limiting (the last contact pass) */
	int limit_newton;
	int solves;         /* linear solves (contact passes, Newton iterations) */
	int release_solves; /* passes solved again because contacts were released (sec. 5.4) */
	int released;       /* contacts released within the step */
} step_report;

/* Assembles eq. 18 for the state (w->x, w->v) at time t and step h into w->A and w->b, using the
 * constraint data (w->y) already prepared. Exposed for tests (symmetry, free fall). */
void implicit_assemble(drape_world* w, double t, double h);
/* One assembly pass of an integrator (solver/integrators.h): A and, if plan->rhs, b. */
void assemble_pass(drape_world* w, double t, double h, const assembly_plan* plan);

/* Takes the step from t to t + h: constraints, assembly, solve, constraint forces (w->e), and the
 * proposal in w->x1, w->v1, judged as sec. 7 says. Does not change w->x or w->v. */
void implicit_step(drape_world* w, double t, double h, step_report* report);

#endif
