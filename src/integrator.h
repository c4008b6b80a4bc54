/* The integrators a world def may name: what each one supports (integrator.c; docs/integrators.md).
 * Their scene-file names are public (drape_integrator_name, drape_integrator_from_name). */
#ifndef DRAPE_INTEGRATOR_H
#define DRAPE_INTEGRATOR_H

#include "drape.h"

#include <stdbool.h>

/* Whether scenes turn strain limiting on by default (docs/solver.md, "Strain limiting"): integrators
 * whose stretch is implicit at every step. Where stretch has explicit parts, the limiter would hold
 * a diverging scheme together and hide the instability that ADI Cloth's study measures. */
bool integrator_limits_strain_by_default(drape_integrator i);

/* Whether the integrator needs a grid (the ADI and split line schemes) and whether it can
 * handle cloth/cloth contact. */
bool integrator_needs_grid(drape_integrator integrator);
bool integrator_supports_cloth_contact(drape_integrator integrator);
/* Whether every family is explicit (forward and symplectic Euler): the system is the mass matrix's
 * diagonal blocks alone (plus per-particle friction and user springs), solved block by block. */
bool integrator_diagonal_system(drape_integrator integrator);

#endif
