/* Checks of the limits in drape_limits.h that need more than a comparison (docs/reliability.md). */
#include "drape_limits.h"

#include "core.h"

#include <math.h>
#include <unistd.h>

static double physical_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	return pages > 0 && size > 0 ? (double)pages * (double)size : INFINITY;
}

bool limits_memory(int64_t particles, int64_t existing, char* why, size_t why_size)
{
	double need = LIMIT_BYTES_PER_PARTICLE * (double)(particles + existing), have = physical_memory();
	if (need <= have) return true;
	return core_fail(why, why_size,
			 "%lld particles%s need at least %.1f GB (%.0f bytes each), more than this machine's %.1f GB",
			 (long long)particles, existing > 0 ? " on top of the world's" : "", need / 1e9,
			 LIMIT_BYTES_PER_PARTICLE, have / 1e9);
}

bool limits_positions(const double* xyz, int64_t n, char* why, size_t why_size)
{
	for (int64_t i = 0; i < 3 * n; ++i)
		if (!(fabs(xyz[i]) <= LIMIT_COORDINATE))
			return core_fail(why, why_size,
					 "vertex %lld is at %g m from the origin along %c, beyond drape's range of +-%g m "
					 "(precision is lost there)",
					 (long long)(i / 3), xyz[i], "xyz"[i % 3], LIMIT_COORDINATE);
	return true;
}
