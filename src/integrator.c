/* The integrators a world def may name (docs/integrators.md): their scene-file names and what
 * each one supports. Facts about the def, asked by its validator (world_def_check.c), the scene
 * loader and cloth.c; how each integrator steps is step/integrators.c. */
#include "integrator.h"

#include <string.h>

static const char* const names[DRAPE_INTEGRATOR_COUNT] = {
	"backward_euler", "forward_euler", "symplectic_euler", "imex_bend", "imex_bend_shear", "cn_adi", "onoff_adi", "split", "bdf2",
};

const char* drape_integrator_name(drape_integrator i)
{
	return (int)i >= 0 && i < DRAPE_INTEGRATOR_COUNT ? names[i] : NULL;
}

bool drape_integrator_from_name(const char* name, drape_integrator* out)
{
	for (int i = 0; name && i < DRAPE_INTEGRATOR_COUNT; ++i)
		if (strcmp(name, names[i]) == 0) {
			*out = (drape_integrator)i;
			return true;
		}
	return false;
}

bool integrator_needs_grid(drape_integrator i)
{
	return i == DRAPE_INTEGRATOR_CN_ADI || i == DRAPE_INTEGRATOR_ONOFF_ADI || i == DRAPE_INTEGRATOR_SPLIT;
}

bool integrator_supports_cloth_contact(drape_integrator i)
{
	/* Cloth/cloth repulsions couple four arbitrary particles: they need the general solve. */
	return i == DRAPE_INTEGRATOR_BACKWARD_EULER || i == DRAPE_INTEGRATOR_IMEX_BEND || i == DRAPE_INTEGRATOR_IMEX_BEND_SHEAR ||
	       i == DRAPE_INTEGRATOR_BDF2;
}

bool integrator_limits_strain_by_default(drape_integrator i)
{
	return i == DRAPE_INTEGRATOR_BACKWARD_EULER || i == DRAPE_INTEGRATOR_BDF2 || i == DRAPE_INTEGRATOR_IMEX_BEND ||
	       i == DRAPE_INTEGRATOR_IMEX_BEND_SHEAR;
}

bool integrator_diagonal_system(drape_integrator i)
{
	return i == DRAPE_INTEGRATOR_FORWARD_EULER || i == DRAPE_INTEGRATOR_SYMPLECTIC_EULER;
}
