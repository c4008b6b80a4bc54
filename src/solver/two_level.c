/* Two-level additive preconditioner (docs/solver.md, "Preconditioners"): block Jacobi on the
 * particles plus an exact coarse solve on aggregates, each aggregate moving as one particle
 * (piecewise-constant prolongation, three translations per aggregate: unsmoothed aggregation in
 * the sense of Tamstorf, Jones and McCormick 2015, two levels only). The aggregates and the
 * coarse pattern depend on the topology only; the coarse matrix is the sum of the fine blocks
 * between two aggregates, so rebuilding it every step costs one pass over A. Where the coarse
 * level is too large to factor and becomes another level, the prolongator is smoothed instead
 * (smoothed_prolongator.h): measured, it pays only there. */
#include "two_level.h"

#include "aggregate.h"
#include "filtered.h"
#include "smoothed_prolongator.h"

#include <stdlib.h>
#include <string.h>

struct two_level {
	int32_t n, nc;
	int32_t* agg;        /* n: aggregate of each particle */
	int32_t* member_start; /* nc + 1 */
	int32_t* members;    /* n: each aggregate's particles, in index order */
	int32_t* slot;       /* A.nnz: the coarse slot each fine block adds into */
	int32_t* iso_slot;   /* the same for A's scalar part (bsr.h), if it has one */
	bsr coarse;
	cholesky_precond* chol; /* the exact coarse solve, or: */
	two_level* nested;      /* for a large coarse level, the same method one level down */
	mat3* pinv_c;           /* nc: inverses of A_c's diagonal blocks (nested only) */
	uint8_t* none;       /* nc zeros: the coarse system carries no constraints of its own */
	vec3 *rc, *xc;       /* nc */
	bool smoothed;          /* part of a hierarchy of more than two levels: P is sp's */
	smoothed_prolongator sp;
	bool valid;
};

static two_level* fail(two_level* t)
{
	two_level_destroy(t);
	return NULL;
}

static two_level* finish(two_level* t, int32_t max_factored);

/* TWO_LEVEL_MAX_FACTORED, measured on the 40K sheet (docs/solver.md): factoring its
 * 4,000-aggregate level cost 17 % more time than one more level (2,000 is exceeded there, not at
 * 10K); a limit of 300 (three levels) cost about as much as none, the iterations growing by 80 %.
 * coarse: A is a coarser level's matrix (a nested level). */
static two_level* create(const bsr* A, int32_t max_factored, bool coarse)
{
	if (!cholesky_available()) return NULL;
	two_level* t = calloc(1, sizeof *t);
	if (!t) return NULL;
	const int32_t n = A->n;
	t->n = n;
	t->agg = malloc((size_t)(n ? n : 1) * sizeof *t->agg);
	t->slot = malloc((size_t)(A->nnz ? A->nnz : 1) * sizeof *t->slot);
	if (!t->agg || !t->slot) return fail(t);
	/* A particle not yet aggregated starts an aggregate with its free pattern neighbours (the
	 * particles it shares a triangle or hinge with); particles left isolated join the aggregate of
	 * a neighbour (aggregate.h). */
	const int32_t nc = aggregate_greedy(n, A->row_start, A->cols, t->agg);
	t->nc = nc;
	/* Smoothed in a hierarchy of more than two levels (this level's coarse one too large to
	 * factor, or this level itself a nested one): there it saves more iterations than it costs.
	 * Where the coarse level is factored directly, its denser matrix (about 20 blocks a row
	 * against 7) costs more to factor than the iterations it saves (docs/solver.md,
	 * "Preconditioners"). */
	t->smoothed = (nc > max_factored || coarse) && nc < n;
	if (t->smoothed) {
		if (!smoothed_prolongator_init(&t->sp, A, t->agg, nc, &t->coarse)) return fail(t);
		return finish(t, max_factored);
	}
	t->member_start = calloc((size_t)nc + 1, sizeof *t->member_start);
	t->members = malloc((size_t)(n ? n : 1) * sizeof *t->members);
	if (!t->member_start || !t->members) return fail(t);
	aggregate_members(n, nc, t->agg, t->member_start, t->members);
	bsr_builder b;
	bool ok = bsr_builder_init(&b, nc);
	for (int32_t i = 0; ok && i < n; ++i) {
		for (int32_t k = A->row_start[i]; ok && k < A->row_start[i + 1]; ++k) {
			int32_t pair[2] = {t->agg[i], t->agg[A->cols[k]]};
			if (pair[0] != pair[1]) ok = bsr_builder_add_elements(&b, pair, 1, 2, sizeof pair);
		}
		for (int32_t k = bsr_iso_begin(A, i); ok && k < bsr_iso_end(A, i); ++k) {
			int32_t pair[2] = {t->agg[i], t->agg[A->iso_cols[k]]};
			if (pair[0] != pair[1]) ok = bsr_builder_add_elements(&b, pair, 1, 2, sizeof pair);
		}
	}
	if (!ok) {
		free(b.keys);
		return fail(t);
	}
	if (!bsr_builder_finish(&b, &t->coarse)) return fail(t);
	for (int32_t i = 0; i < n; ++i)
		for (int32_t k = A->row_start[i]; k < A->row_start[i + 1]; ++k) t->slot[k] = bsr_find(&t->coarse, t->agg[i], t->agg[A->cols[k]]);
	if (A->iso_start) {
		t->iso_slot = malloc((size_t)(A->iso_start[n] ? A->iso_start[n] : 1) * sizeof *t->iso_slot);
		if (!t->iso_slot) return fail(t);
		for (int32_t i = 0; i < n; ++i)
			for (int32_t k = bsr_iso_begin(A, i); k < bsr_iso_end(A, i); ++k)
				t->iso_slot[k] = bsr_find(&t->coarse, t->agg[i], t->agg[A->iso_cols[k]]);
	}
	return finish(t, max_factored);
}

/* The coarse level's vectors and its solve, once its pattern is known. */
static two_level* finish(two_level* t, int32_t max_factored)
{
	const int32_t nc = t->nc;
	t->none = calloc((size_t)(nc ? nc : 1), 1);
	t->rc = malloc((size_t)(nc ? nc : 1) * sizeof *t->rc);
	t->xc = malloc((size_t)(nc ? nc : 1) * sizeof *t->xc);
	if (!t->none || !t->rc || !t->xc) return fail(t);
	/* A coarse level still too large to factor cheaply is itself preconditioned the same way
	 * (an additive multilevel method); the factorisation happens at the last level. */
	if (nc > max_factored && nc < t->n) {
		t->nested = create(&t->coarse, max_factored, true);
		t->pinv_c = malloc((size_t)nc * sizeof *t->pinv_c);
		if (!t->nested || !t->pinv_c) return fail(t);
		return t;
	}
	t->chol = cholesky_create(&t->coarse);
	if (!t->chol) return fail(t);
	return t;
}

two_level* two_level_create(const bsr* A, int32_t max_factored) { return create(A, max_factored, false); }

void two_level_destroy(two_level* t)
{
	if (!t) return;
	cholesky_destroy(t->chol);
	two_level_destroy(t->nested);
	free(t->pinv_c);
	bsr_free(&t->coarse);
	free(t->agg);
	free(t->member_start);
	free(t->members);
	free(t->slot);
	free(t->iso_slot);
	smoothed_prolongator_free(&t->sp);
	free(t->none);
	free(t->rc);
	free(t->xc);
	free(t);
}

int32_t two_level_coarse_count(const two_level* t) { return t->nc; }

bool two_level_smoothed(const two_level* t) { return t->smoothed; }

bool two_level_setup(two_level* t, const bsr* A, const mat3* S, const uint8_t* constrained)
{
	bsr_zero(&t->coarse, 1);
	if (t->smoothed) {
		smoothed_prolongator_galerkin(&t->sp, A, S, constrained, &t->coarse);
	} else {
		for (int32_t I = 0; I < A->n; ++I)
			for (int32_t k = A->row_start[I]; k < A->row_start[I + 1]; ++k) {
				/* The filtered matrix of cholesky_factor (filtered.h). */
				mat3 a = filtered_block(A, k, I, A->cols[k], S, constrained);
				mat3* c = &t->coarse.blocks[t->slot[k]];
				*c = m3_add(*c, a);
			}
		for (int32_t I = 0; I < A->n; ++I)
			for (int32_t k = bsr_iso_begin(A, I); k < bsr_iso_end(A, I); ++k)
				filtered_iso_add(A, k, I, S, constrained, 1.0, &t->coarse.blocks[t->iso_slot[k]]);
	}
	if (t->nested) {
		for (int32_t c = 0; c < t->nc; ++c) {
			mat3 inv;
			t->pinv_c[c] = m3_inverse(t->coarse.blocks[t->coarse.diag[c]], 1e14, &inv) ? inv : m3_identity();
		}
		t->valid = two_level_setup(t->nested, &t->coarse, NULL, t->none);
	} else {
		t->valid = cholesky_factor(t->chol, &t->coarse, NULL, t->none);
	}
	return t->valid;
}

bool two_level_valid(const two_level* t) { return t && t->valid; }

int32_t two_level_aggregate_count(const two_level* t) { return t->nc; }

void two_level_restrict(two_level* t, const vec3* r, int32_t lo, int32_t hi)
{
	if (t->smoothed) {
		for (int32_t c = lo; c < hi; ++c) t->rc[c] = smoothed_prolongator_restrict(&t->sp, r, c);
		return;
	}
	for (int32_t c = lo; c < hi; ++c) {
		vec3 sum = v3_zero();
		for (int32_t k = t->member_start[c]; k < t->member_start[c + 1]; ++k) sum = v3_add(sum, r[t->members[k]]);
		t->rc[c] = sum;
	}
}

void two_level_coarse_solve(two_level* t)
{
	if (t->nested) two_level_apply(t->nested, t->pinv_c, t->rc, t->xc);
	else cholesky_solve(t->chol, t->rc, t->xc);
}

vec3 two_level_prolong(const two_level* t, const mat3* pinv, const vec3* r, int32_t i)
{
	if (t->smoothed) return v3_add(m3_mulv(pinv[i], r[i]), smoothed_prolongator_prolong(&t->sp, t->xc, i));
	return v3_add(m3_mulv(pinv[i], r[i]), t->xc[t->agg[i]]);
}

void two_level_apply(two_level* t, const mat3* pinv, const vec3* r, vec3* s)
{
	two_level_restrict(t, r, 0, t->nc);
	two_level_coarse_solve(t);
	for (int32_t i = 0; i < t->n; ++i) s[i] = two_level_prolong(t, pinv, r, i);
}
