/* The grid the adaptive steps of sec. 7 fall on (issue 27; docs/solver.md, "Adaptive time
 * stepping"): within one call of drape_world_step of duration D, every step is H / 2^k, with
 * H = D / m the largest whole fraction of D not above max_dt (H = max_dt when D is a multiple of
 * it), and the call ends exactly at its end: a step longer than what is left is halved until it
 * fits, which always lands on the end since every step is a power-of-two fraction of H. So no
 * sliver step is left at a frame's end, and the warm start's rescale h / h_prev is a power of
 * two. Steps are not aligned to multiples of their own size (a doubled step may start after an
 * odd number of halves): aligning them split growth tries in two, and an explicit scheme's
 * repeated failures at one size (world.c, EXPLICIT_REPEATS) were then never counted in a row. */
#ifndef DRAPE_STEP_GRID_H
#define DRAPE_STEP_GRID_H

#include <stdbool.h>
#include <stdint.h>

typedef struct step_grid {
	double t0, t_end;
	double unit;      /* H / 2^levels: positions count these */
	int64_t pos, end; /* the current time and t_end, in units from t0 */
	int levels;       /* the finest step is H / 2^levels = one unit */
} step_grid;

/* The grid of a call from t0 lasting duration (> 0). */
void step_grid_begin(step_grid* g, double t0, double duration, double max_dt);
/* The next step for the step control's proposal dt: the largest H / 2^k not above dt (within
 * 1e-4, as a max_dt written as a short decimal of a frame), halved further while longer than
 * what is left of the call. *units: its length in units; *full: whether it is the proposal's own
 * size (not shortened to the end). Below one unit the step is one unit. */
double step_grid_next(const step_grid* g, double dt, int64_t* units, bool* full);
/* Moves past an accepted step of `units`; returns the new time, t_end exactly at the end. */
double step_grid_advance(step_grid* g, int64_t units);

#endif
