/* The modified PCG's preconditioners (sec. 5.3) by scene-file name, and which ones this build
 * has; docs/solver.md, "Preconditioners". */
#include "cholesky.h"

#include <drape.h>
#include <string.h>

static const char* const names[DRAPE_PRECONDITIONER_COUNT] = {"block_jacobi", "cholesky", "two_level", "multigrid"};

const char* drape_preconditioner_name(drape_preconditioner p)
{
	return (int)p >= 0 && p < DRAPE_PRECONDITIONER_COUNT ? names[p] : NULL;
}

bool drape_preconditioner_from_name(const char* name, drape_preconditioner* out)
{
	for (int i = 0; name && i < DRAPE_PRECONDITIONER_COUNT; ++i)
		if (strcmp(name, names[i]) == 0) {
			*out = (drape_preconditioner)i;
			return true;
		}
	return false;
}

bool drape_preconditioner_available(drape_preconditioner p)
{
	if (p == DRAPE_PRECONDITIONER_CHOLESKY || p == DRAPE_PRECONDITIONER_TWO_LEVEL || p == DRAPE_PRECONDITIONER_MULTIGRID)
		return cholesky_available();
	return p == DRAPE_PRECONDITIONER_BLOCK_JACOBI;
}
