/* The smoothed prolongator of the two-level preconditioner's large cloths (two_level.h; docs/solver.md,
 * "Preconditioners"; Tamstorf, Jones and McCormick 2015, sec. 4): the piecewise-constant
 * aggregate prolongator smoothed by one damped Jacobi step on the pattern graph,
 * P = (I - 2/3 D^-1 L) P_tent, so that an aggregate's coarse motion fades into its neighbours'
 * instead of stopping at its edge. Its weights are scalars of the topology alone; the coarse
 * matrix is the Galerkin P^T A P, formed every solve as P^T (A P) over patterns analysed once. */
#ifndef DRAPE_SMOOTHED_PROLONGATOR_H
#define DRAPE_SMOOTHED_PROLONGATOR_H

#include "bsr.h"
#include "sparse_pattern.h"

typedef struct smoothed_prolongator {
	int32_t n;
	sparse_pattern P;  /* n rows: each particle's aggregates, in increasing order */
	double* w;         /* P's weights */
	sparse_pattern PT; /* nc rows: each aggregate's particles, in increasing order */
	double* wt;        /* PT's weights */
	sparse_pattern B;  /* the pattern of B = A P (A's blocks and scalar part) */
	int32_t *cb_start, *cb; /* per row i, per entry of P's row i, per entry of B's row i: A_c's slot */
	mat3* b;           /* one row of B's values (the widest) */
	int32_t* at;       /* nc: an aggregate's place in the row being formed */
} smoothed_prolongator;

/* P for A's pattern and the aggregates agg[n] (nc of them), and the coarse matrix's pattern into
 * *coarse. False without memory (p freed). */
bool smoothed_prolongator_init(smoothed_prolongator* p, const bsr* A, const int32_t* agg, int32_t nc, bsr* coarse);
void smoothed_prolongator_free(smoothed_prolongator* p);

/* coarse = P^T (S A S + (I - S) d) P (filtered.h); coarse's pattern is the one init made. */
void smoothed_prolongator_galerkin(smoothed_prolongator* p, const bsr* A, const mat3* S, const uint8_t* constrained, bsr* coarse);

/* (P^T r) of aggregate a, summed over its rows in index order. */
static inline vec3 smoothed_prolongator_restrict(const smoothed_prolongator* p, const vec3* r, int32_t a)
{
	vec3 sum = v3_zero();
	for (int32_t e = p->PT.start[a]; e < p->PT.start[a + 1]; ++e) sum = v3_madd(sum, p->wt[e], r[p->PT.cols[e]]);
	return sum;
}

/* (P xc) of particle i. */
static inline vec3 smoothed_prolongator_prolong(const smoothed_prolongator* p, const vec3* xc, int32_t i)
{
	vec3 sum = v3_zero();
	for (int32_t e = p->P.start[i]; e < p->P.start[i + 1]; ++e) sum = v3_madd(sum, p->w[e], xc[p->P.cols[e]]);
	return sum;
}

#endif
