/* The stability experiments' case (include/drape_stability.h's opaque drape_stab_case), for
 * src/stability/ and the tests that look into the rod's PDE. */
#ifndef DRAPE_STABILITY_CASE_H
#define DRAPE_STABILITY_CASE_H

#include "drape_stability.h"

struct drape_stab_case {
	drape_stab_setting setting;
	drape_integrator integrator;
	int32_t grid;
	double unit; /* sqrt(m / k_s) of an interior particle and stretch spring, s */
	double dt;
	drape_world* world; /* NULL for DRAPE_STAB_WAVE1D */
	void* pde;          /* the wave1d of DRAPE_STAB_WAVE1D */
	int32_t particles;
	double* x; /* positions scratch for drape_stab_case_tangled (the rod's) */
};

#endif
