/* Integrators as assembly plans (step/integrators.h) and their scene-file names. */
#include "integrators.h"

#include <string.h>

static void plan_all(assembly_plan* p, family_role role)
{
	for (int f = 0; f < FAMILY_COUNT; ++f) {
		p->role[f] = (uint8_t)role;
		p->scale[f] = 1.0;
	}
	p->rhs = true;
	p->full_matrix = true;
}

void integrator_scheme(const drape_world* w, step_scheme* s)
{
	memset(s, 0, sizeof *s);
	assembly_plan* p = &s->pass[0];
	const int implicit_family = w->state.adi_phase == 0 ? FAMILY_STRETCH_U : FAMILY_STRETCH_V;
	const int other_family = w->state.adi_phase == 0 ? FAMILY_STRETCH_V : FAMILY_STRETCH_U;
	switch (w->def.integrator) {
	case DRAPE_INTEGRATOR_FORWARD_EULER:
	case DRAPE_INTEGRATOR_SYMPLECTIC_EULER:
		plan_all(p, ROLE_EXPLICIT);
		p->full_matrix = false;
		s->solve = SOLVE_DIAGONAL; /* the pattern is the diagonal alone (integrator_diagonal_system) */
		s->old_velocity_positions = w->def.integrator == DRAPE_INTEGRATOR_FORWARD_EULER;
		return;
	case DRAPE_INTEGRATOR_IMEX_BEND:
		plan_all(p, ROLE_IMPLICIT);
		p->role[FAMILY_BEND] = ROLE_EXPLICIT;
		s->solve = SOLVE_PCG;
		return;
	case DRAPE_INTEGRATOR_IMEX_BEND_SHEAR:
		plan_all(p, ROLE_IMPLICIT);
		p->role[FAMILY_BEND] = p->role[FAMILY_SHEAR] = ROLE_EXPLICIT;
		s->solve = SOLVE_PCG;
		return;
	case DRAPE_INTEGRATOR_CN_ADI:
	case DRAPE_INTEGRATOR_ONOFF_ADI:
		/* Shear, bend and drag stay explicit: they couple across lines. */
		plan_all(p, ROLE_EXPLICIT);
		p->role[implicit_family] = ROLE_IMPLICIT;
		if (w->def.integrator == DRAPE_INTEGRATOR_ONOFF_ADI) {
			p->role[other_family] = ROLE_OFF;
			p->scale[implicit_family] = w->def.onoff_c1;
		}
		s->solve = implicit_family == FAMILY_STRETCH_U ? SOLVE_LINES_U : SOLVE_LINES_V;
		return;
	case DRAPE_INTEGRATOR_SPLIT:
		plan_all(p, ROLE_EXPLICIT);
		p->role[FAMILY_STRETCH_U] = ROLE_IMPLICIT;
		p->role[FAMILY_STRETCH_V] = ROLE_IMPLICIT_RHS;
		plan_all(&s->pass[1], ROLE_OFF);
		s->pass[1].role[FAMILY_STRETCH_V] = ROLE_IMPLICIT;
		s->pass[1].rhs = false;
		s->solve = SOLVE_SPLIT;
		return;
	case DRAPE_INTEGRATOR_BACKWARD_EULER:
	case DRAPE_INTEGRATOR_BDF2: /* backward Euler's system from BDF2's extrapolated state (bdf2.c) */
	default:
		plan_all(p, ROLE_IMPLICIT);
		s->solve = SOLVE_PCG;
		return;
	}
}
