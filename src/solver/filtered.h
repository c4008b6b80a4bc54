/* One block of the filtered system matrix S A S + (I - S) d (S the filter of eq. 13 on the
 * constrained particles, d a positive scale of the particle's diagonal block): the SPD matrix the
 * coarse-space preconditioners approximate (cholesky.c, two_level.c, multigrid.c; docs/solver.md,
 * "Preconditioners"). Its inverse on the free subspace is the filtered system's, and the
 * (I - S) d term keeps it definite without coupling the constrained directions. */
#ifndef DRAPE_FILTERED_H
#define DRAPE_FILTERED_H

#include "bsr.h"

/* Block k of A, in row I and column J. */
static inline mat3 filtered_block(const bsr* A, int32_t k, int32_t I, int32_t J, const mat3* S, const uint8_t* constrained)
{
	mat3 a = A->blocks[k];
	if (constrained[I]) a = m3_mul(S[I], a);
	if (constrained[J]) a = m3_mul(a, S[J]);
	if (I == J && constrained[I]) {
		const mat3* d = &A->blocks[k];
		double scale = (d->m[0][0] + d->m[1][1] + d->m[2][2]) / 3.0;
		a = m3_add(a, m3_scale(m3_sub(m3_identity(), S[I]), scale > 0.0 ? scale : 1.0));
	}
	return a;
}

/* Entry k of A's scalar part (bsr.h), in row I, as a block of the same filtered matrix. Never on
 * the diagonal. */
static inline mat3 filtered_iso(const bsr* A, int32_t k, int32_t I, const mat3* S, const uint8_t* constrained)
{
	const int32_t J = A->iso_cols[k];
	mat3 a = m3_scale(m3_identity(), A->iso_vals[k]);
	if (constrained[I]) a = m3_mul(S[I], a);
	if (constrained[J]) a = m3_mul(a, S[J]);
	return a;
}

/* c += w times filtered_iso(A, k, I, S, constrained). Between two free particles the entry is a
 * number times the identity, so only the diagonal changes (adding the zeros would change no bit). */
static inline void filtered_iso_add(const bsr* A, int32_t k, int32_t I, const mat3* S, const uint8_t* constrained, double w, mat3* c)
{
	if (!constrained[I] && !constrained[A->iso_cols[k]]) {
		const double v = A->iso_vals[k] * w;
		c->m[0][0] += v;
		c->m[1][1] += v;
		c->m[2][2] += v;
		return;
	}
	*c = m3_add(*c, m3_scale(filtered_iso(A, k, I, S, constrained), w));
}

#endif
