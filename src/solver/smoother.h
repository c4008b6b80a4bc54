/* The multigrid preconditioner's smoother (multigrid.c; docs/solver.md, "Preconditioners"): l1
 * hybrid block Gauss-Seidel (Baker, Falgout, Kolev and Yang 2011, "Multigrid smoothers for
 * ultraparallel computing", sec. 6). */
#ifndef DRAPE_SMOOTHER_H
#define DRAPE_SMOOTHER_H

#include "bsr.h"

typedef struct smoother {
	int32_t n;
	mat3* ginv;        /* n: inverses of the diagonal blocks with the l1 term */
	vec3* old;         /* n: the iterate at the start of a sweep */
	int32_t* in_chunk; /* 2 n: the slots of each row's blocks in its own chunk, [first, end) */
} smoother;

/* For A's pattern. False without memory. */
bool smoother_init(smoother* g, const bsr* A);
void smoother_free(smoother* g);

/* The diagonal blocks for A's values. Called by every thread of a parallel region (or outside
 * one). */
void smoother_setup(smoother* g, const bsr* A);

/* One sweep x += M^-1 (b - A x): forward, or backward (M^T: a forward sweep followed by a backward
 * one is symmetric). from_zero: x is zero on entry. A backward sweep reads the iterate at its
 * start from g->old, which the caller fills. Called by every thread of a parallel region (or
 * outside one); the bits do not depend on the thread count. */
void smoother_sweep(smoother* g, const bsr* A, const vec3* b, vec3* x, bool from_zero, bool backward);

#endif
