/* Steps on the grid H / 2^k (step_grid.h): integer positions, so that the call's end is hit
 * exactly and no step falls off the grid by rounding. */
#include "step_grid.h"

#include <math.h>

/* Positions are int64: the whole fractions m times 2^levels stay below 2^62. */
#define STEP_GRID_MAX_LEVELS 40
/* A proposal this close above a grid size is that size (a max_dt of 0.0333 for 1/30 s frames). */
#define STEP_GRID_SLACK 1e-4

void step_grid_begin(step_grid* g, double t0, double duration, double max_dt)
{
	double ratio = duration / max_dt * (1.0 - STEP_GRID_SLACK);
	double m = ceil(ratio);
	if (!(m >= 1.0)) m = 1.0;
	if (m > 4e18) m = 4e18; /* bounded work stops such a call long before (world.c) */
	int64_t whole = (int64_t)m;
	int bits = 0;
	while (bits < 63 && (whole >> bits) != 0) ++bits;
	g->levels = 62 - bits < STEP_GRID_MAX_LEVELS ? 62 - bits : STEP_GRID_MAX_LEVELS;
	if (g->levels < 0) g->levels = 0;
	g->t0 = t0;
	g->t_end = t0 + duration;
	g->unit = ldexp(duration / m, -g->levels);
	g->pos = 0;
	g->end = whole << g->levels;
}

double step_grid_next(const step_grid* g, double dt, int64_t* units, bool* full)
{
	int64_t size = (int64_t)1 << g->levels; /* H */
	while (size > 1 && (double)size * g->unit > dt * (1.0 + STEP_GRID_SLACK)) size >>= 1;
	*full = true;
	while (size > 1 && size > g->end - g->pos) {
		size >>= 1;
		*full = false;
	}
	*units = size;
	return (double)size * g->unit;
}

double step_grid_advance(step_grid* g, int64_t units)
{
	g->pos += units;
	if (g->pos >= g->end) {
		g->pos = g->end;
		return g->t_end;
	}
	return g->t0 + (double)g->pos * g->unit;
}
