/* Smoothed-aggregation multigrid preconditioner (docs/solver.md, "Preconditioners"; Tamstorf,
 * Jones and McCormick 2015, "Smoothed Aggregation Multigrid for Cloth Simulation") for the
 * modified PCG of sec. 5.3.
 *
 * Each level's nodes are grouped into aggregates (aggregate.h; the cloth's pattern graph on the
 * finest level, the aggregates' adjacency below). The tentative prolongator moves an aggregate
 * rigidly: three translations and, optionally, three rotations about its centroid (a coarse node
 * is then two 3x3 block rows, translation and scaled rotation, so every level stays a bsr). One
 * damped block-Jacobi step smooths it, P = (I - w D^-1 A) P_tent with w = 4 / (3 rho(D^-1 A)), so
 * that a coarse node bends and stretches smoothly instead of moving as a rigid block (what limits
 * two_level.c). The coarse matrix is P^T A P. All patterns (P, A P, P^T A P) are computed once per
 * topology; a solve refills their values row by row, each row by one thread in a fixed order, so
 * the results are bit-identical for any thread count.
 *
 * The finest level's matrix is the filtered S A S + (I - S) d (filtered.h), SPD; a constrained
 * particle's tentative rows are multiplied by S_i, so the coarse space does not move constrained
 * directions. The V-cycle is symmetric: a forward hybrid Gauss-Seidel sweep, the coarse
 * correction, a backward sweep; CHOLMOD solves the coarsest level. */
#include "multigrid.h"

#include "../core.h"
#include "aggregate.h"
#include "block_inverse.h"
#include "cholesky.h"
#include "filtered.h"
#include "reduce.h"
#include "smoother.h"
#include "sparse_pattern.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LEVELS 10
/* Lanczos steps for rho(D^-1 A), the prolongator's damping: 6 gave 3.33 where 10 gave 3.24 and
 * 200 power iterations 3.30 (figure 2 sheet, 10K particles). */
#define LANCZOS_STEPS 6

typedef struct mg_level {
	int32_t n;            /* block rows */
	int32_t gs;           /* block rows per node: 1 (particles, or translations only), 2 (with rotations) */
	int32_t cs;           /* the next level's block rows per aggregate */
	bsr A;                /* this level's matrix; the finest: the filtered fine matrix */
	int32_t* tslot;       /* A.nnz: the slot of the transposed block */
	mat3* dinv;           /* n: inverses of A's diagonal blocks */
	vec3* pos;            /* n / gs: each node's position (the finest level: the caller's) */
	double* radius;       /* n / gs: its RMS radius (0 for particles) */
	/* The rest is empty on the coarsest level. */
	int32_t aggs;         /* aggregates: the next level has aggs * cs block rows */
	int32_t* agg;         /* n / gs: each node's aggregate */
	int32_t *member_start, *members; /* each aggregate's nodes in order */
	sparse_pattern graph; /* the aggregation graph over nodes */
	mat3* tent;           /* n x cs: the tentative prolongator's blocks of each row */
	sparse_pattern P;     /* n x n_next */
	mat3* p;
	int32_t* pslot;       /* A.nnz: the entry of P's row for the first column of the block column's aggregate */
	int32_t* own;         /* n: the same for the row's own aggregate */
	sparse_pattern PT;    /* P's pattern by column, for the restriction and P^T (A P) */
	int32_t* pt_from;     /* PT's entry -> P's entry */
	int32_t* pt_upper;    /* PT's entry (a, i) -> B's first entry in row i with a column >= a */
	sparse_pattern B;     /* A P */
	mat3* b;
	vec3 *rhs, *x, *t, *y; /* n: right-hand side, scratch (two), the cycle's answer */
	smoother smooth;      /* hybrid Gauss-Seidel (smoother.h) */
	mat3* pt_blocks;      /* P's blocks in PT's order, for the restriction */
} mg_level;

struct multigrid {
	int32_t levels; /* including the coarsest, factored one */
	mg_level lv[MAX_LEVELS];
	cholesky_precond* chol;
	uint8_t* none; /* the coarsest level's "constrained" flags: none */
	int32_t marker_threads, marker_size;
	int32_t* markers; /* marker_threads x marker_size: per-thread column positions */
	double* partial;  /* 2 per reduction chunk of the finest level */
	bool valid;
};

static multigrid* fail(multigrid* m)
{
	multigrid_destroy(m);
	return NULL;
}

static int32_t* copy_ints(const int32_t* a, size_t count)
{
	int32_t* r = core_alloc_array(count, sizeof *r);
	if (r && count) memcpy(r, a, count * sizeof *r);
	return r;
}

/* A square pattern with its diagonal as a bsr with values. Takes the pattern's arrays. */
static bool bsr_from_pattern(sparse_pattern* p, bsr* out)
{
	memset(out, 0, sizeof *out);
	out->n = p->rows;
	out->nnz = p->start[p->rows];
	out->row_start = p->start;
	out->cols = p->cols;
	memset(p, 0, sizeof *p);
	out->diag = core_alloc_array((size_t)out->n, sizeof *out->diag);
	out->blocks = calloc((size_t)(out->nnz ? out->nnz : 1), sizeof *out->blocks);
	if (!out->diag || !out->blocks) return false;
	for (int32_t i = 0; i < out->n; ++i)
		if ((out->diag[i] = bsr_find(out, i, i)) < 0) return false;
	return true;
}

static bool level_vectors(mg_level* l)
{
	const size_t n = (size_t)l->n;
	l->dinv = core_alloc_array(n, sizeof *l->dinv);
	l->rhs = core_alloc_array(n, sizeof *l->rhs);
	l->x = core_alloc_array(n, sizeof *l->x);
	l->t = core_alloc_array(n, sizeof *l->t);
	l->y = core_alloc_array(n, sizeof *l->y);
	l->tslot = core_alloc_array((size_t)l->A.nnz, sizeof *l->tslot);
	if (!l->dinv || !l->rhs || !l->x || !l->t || !l->y || !l->tslot || !smoother_init(&l->smooth, &l->A)) return false;
	for (int32_t i = 0; i < l->n; ++i)
		for (int32_t k = l->A.row_start[i]; k < l->A.row_start[i + 1]; ++k) l->tslot[k] = bsr_find(&l->A, l->A.cols[k], i);
	return true;
}

/* Level l's aggregates: 1, or 0 where they would not make a smaller level (nodes without
 * neighbours: separate small pieces of cloth; l is then the coarsest), or -1 without memory. */
static int aggregate_level(mg_level* L, bool rotations)
{
	const int32_t nodes = L->n / L->gs;
	L->cs = rotations ? 2 : 1;
	L->agg = core_alloc_array((size_t)nodes, sizeof *L->agg);
	if (!L->agg) return -1;
	L->aggs = aggregate_greedy(nodes, L->graph.start, L->graph.cols, L->agg);
	if (L->aggs * L->cs < L->n) return 1;
	free(L->agg);
	L->agg = NULL;
	return 0;
}

/* The symbolic part of level l -> l + 1 once aggregated: the patterns of P, P^T, A P and P^T A P,
 * and the next level's aggregation graph. */
static bool build_level(multigrid* m, int32_t l)
{
	mg_level* L = &m->lv[l];
	mg_level* C = &m->lv[l + 1];
	const int32_t n = L->n, gs = L->gs, nodes = n / gs, cs = L->cs;
	L->member_start = core_alloc_array((size_t)nodes + 1, sizeof *L->member_start);
	L->members = core_alloc_array((size_t)nodes, sizeof *L->members);
	if (!L->member_start || !L->members) return false;
	aggregate_members(nodes, L->aggs, L->agg, L->member_start, L->members);
	const int32_t nc = L->aggs * cs;
	/* The tentative prolongator's pattern: row i's cs columns of its node's aggregate. */
	int32_t* ts = core_alloc_array((size_t)n + 1, sizeof *ts);
	int32_t* tc = core_alloc_array((size_t)n * (size_t)cs, sizeof *tc);
	bool ok = ts && tc;
	for (int32_t i = 0; ok && i <= n; ++i) ts[i] = cs * i;
	for (int32_t i = 0; ok && i < n; ++i)
		for (int32_t c = 0; c < cs; ++c) tc[cs * i + c] = cs * L->agg[i / gs] + c;
	/* P's pattern: row i holds the aggregates of i's matrix neighbours (one smoothing step). */
	ok = ok && pattern_product(n, L->A.row_start, L->A.cols, ts, tc, nc, &L->P);
	free(ts);
	free(tc);
	if (!ok) return false;
	L->tent = core_alloc_array((size_t)n * (size_t)cs, sizeof *L->tent);
	L->p = core_alloc_array((size_t)L->P.start[n], sizeof *L->p);
	L->pslot = core_alloc_array((size_t)L->A.nnz, sizeof *L->pslot);
	L->own = core_alloc_array((size_t)n, sizeof *L->own);
	if (!L->tent || !L->p || !L->pslot || !L->own || !pattern_transpose(n, L->P.start, L->P.cols, nc, &L->PT, &L->pt_from) ||
	    !pattern_product(n, L->A.row_start, L->A.cols, L->P.start, L->P.cols, nc, &L->B))
		return false;
	/* An aggregate's cs columns are adjacent in every row that holds them. */
	for (int32_t i = 0; i < n; ++i) {
		L->own[i] = pattern_find(&L->P, i, cs * L->agg[i / gs]);
		for (int32_t k = L->A.row_start[i]; k < L->A.row_start[i + 1]; ++k)
			L->pslot[k] = pattern_find(&L->P, i, cs * L->agg[L->A.cols[k] / gs]);
	}
	L->b = core_alloc_array((size_t)L->B.start[n], sizeof *L->b);
	L->pt_upper = core_alloc_array((size_t)L->PT.start[nc], sizeof *L->pt_upper);
	L->pt_blocks = core_alloc_array((size_t)L->PT.start[nc], sizeof *L->pt_blocks);
	if (!L->b || !L->pt_upper || !L->pt_blocks) return false;
	for (int32_t a = 0; a < nc; ++a)
		for (int32_t e = L->PT.start[a]; e < L->PT.start[a + 1]; ++e) {
			const int32_t i = L->PT.cols[e];
			int32_t s = L->B.start[i];
			while (s < L->B.start[i + 1] && L->B.cols[s] < a) ++s;
			L->pt_upper[e] = s;
		}
	/* The coarse matrix's pattern P^T (A P). */
	sparse_pattern ac;
	if (!pattern_product(nc, L->PT.start, L->PT.cols, L->B.start, L->B.cols, nc, &ac)) return false;
	C->n = nc;
	C->gs = cs;
	ok = bsr_from_pattern(&ac, &C->A);
	pattern_free(&ac);
	/* The coarse aggregation graph: aggregates are neighbours when two of their nodes are
	 * (agg^T graph agg). */
	int32_t* ident = core_alloc_array((size_t)nodes + 1, sizeof *ident);
	ok = ok && ident;
	for (int32_t i = 0; ok && i <= nodes; ++i) ident[i] = i;
	sparse_pattern gagg;
	ok = ok && pattern_product(nodes, L->graph.start, L->graph.cols, ident, L->agg, L->aggs, &gagg);
	free(ident);
	if (!ok) return false;
	ok = pattern_product(L->aggs, L->member_start, L->members, gagg.start, gagg.cols, L->aggs, &C->graph);
	pattern_free(&gagg);
	return ok;
}

multigrid* multigrid_create(const bsr* A, int32_t max_factored, bool rotations)
{
	/* Coarsens by A's block pattern, so A must hold everything there (workspace_prepare). */
	if (!cholesky_available() || A->iso_start) return NULL;
	multigrid* m = calloc(1, sizeof *m);
	if (!m) return NULL;
	mg_level* f = &m->lv[0];
	f->n = A->n;
	f->gs = 1;
	f->A = (bsr){.n = A->n, .nnz = A->nnz};
	f->A.row_start = copy_ints(A->row_start, (size_t)A->n + 1);
	f->A.cols = copy_ints(A->cols, (size_t)A->nnz);
	f->A.diag = copy_ints(A->diag, (size_t)A->n);
	f->A.blocks = core_alloc_array((size_t)A->nnz, sizeof *f->A.blocks);
	f->graph = (sparse_pattern){.rows = A->n, .ncols = A->n};
	f->graph.start = copy_ints(A->row_start, (size_t)A->n + 1);
	f->graph.cols = copy_ints(A->cols, (size_t)A->nnz);
	if (!f->A.row_start || !f->A.cols || !f->A.diag || !f->A.blocks || !f->graph.start || !f->graph.cols) return fail(m);
	int32_t l = 0;
	while (m->lv[l].n > max_factored && l + 1 < MAX_LEVELS) {
		const int coarser = aggregate_level(&m->lv[l], rotations);
		if (coarser < 0) return fail(m);
		if (coarser == 0) break;
		if (!build_level(m, l) || !level_vectors(&m->lv[l])) return fail(m);
		l++;
	}
	m->levels = l + 1;
	for (int32_t k = 1; k <= l; ++k) {
		m->lv[k].pos = core_alloc_array((size_t)(m->lv[k].n / m->lv[k].gs), sizeof *m->lv[k].pos);
		m->lv[k].radius = core_alloc_array((size_t)(m->lv[k].n / m->lv[k].gs), sizeof *m->lv[k].radius);
		if (!m->lv[k].pos || !m->lv[k].radius) return fail(m);
	}
	mg_level* c = &m->lv[l];
	if (!level_vectors(c)) return fail(m);
	m->none = calloc((size_t)(c->n ? c->n : 1), 1);
	m->chol = cholesky_create(&c->A);
	if (!m->none || !m->chol) return fail(m);
	m->marker_threads = omp_get_max_threads();
	m->marker_size = m->levels > 1 ? m->lv[1].n : 1;
	m->markers = core_alloc_array((size_t)m->marker_threads * (size_t)m->marker_size, sizeof *m->markers);
	m->partial = core_alloc_array(2 * (size_t)reduce_chunks(A->n) + 2, sizeof *m->partial);
	if (!m->markers || !m->partial) return fail(m);
	return m;
}

void multigrid_destroy(multigrid* m)
{
	if (!m) return;
	for (int32_t l = 0; l < MAX_LEVELS; ++l) {
		mg_level* L = &m->lv[l];
		bsr_free(&L->A);
		free(L->tslot);
		free(L->dinv);
		if (l > 0) {
			free(L->pos);
			free(L->radius);
		}
		free(L->agg);
		free(L->member_start);
		free(L->members);
		pattern_free(&L->graph);
		free(L->tent);
		pattern_free(&L->P);
		free(L->p);
		free(L->pslot);
		free(L->own);
		pattern_free(&L->PT);
		free(L->pt_from);
		free(L->pt_upper);
		pattern_free(&L->B);
		free(L->b);
		free(L->rhs);
		free(L->x);
		free(L->t);
		free(L->y);
		smoother_free(&L->smooth);
		free(L->pt_blocks);
	}
	cholesky_destroy(m->chol);
	free(m->none);
	free(m->markers);
	free(m->partial);
	free(m);
}

int32_t multigrid_level_count(const multigrid* m) { return m->levels; }
int32_t multigrid_level_size(const multigrid* m, int32_t level) { return level >= 0 && level < m->levels ? m->lv[level].n : 0; }

/* A deterministic start vector for the Lanczos steps (no special structure: a hash). */
static inline double hash_unit(uint32_t i)
{
	i ^= i >> 16;
	i *= 0x7feb352du;
	i ^= i >> 15;
	i *= 0x846ca68bu;
	i ^= i >> 16;
	return (double)(i & 0xffffu) / 65535.0 - 0.5;
}

/* The largest eigenvalue of D^-1 A (A v = rho D v) for the prolongator's damping: Lanczos steps,
 * run as block-Jacobi-preconditioned CG from a fixed vector (their coefficients give the Lanczos
 * tridiagonal matrix T), then the largest eigenvalue of T by bisection. A Ritz value approaches
 * rho from below much faster than the power method's Rayleigh quotient (which after 8 steps gave
 * 2.0 where rho is 3.3 on the figure 2 sheet). The sums run in fixed chunks. Uses the level's
 * four vectors; inside a parallel region. */
static double spectral_radius(mg_level* L, double* partial)
{
	const int32_t n = L->n, chunks = reduce_chunks(n);
	vec3 *r = L->x, *z = L->rhs, *p = L->y, *q = L->t;
	double alpha[LANCZOS_STEPS], beta[LANCZOS_STEPS];
#pragma omp for schedule(static)
	for (int32_t k = 0; k < chunks; ++k) {
		double rz = 0.0;
		for (int32_t i = k * REDUCE_CHUNK; i < reduce_chunk_end(k, n); ++i) {
			r[i] = v3(hash_unit(3u * (uint32_t)i), hash_unit(3u * (uint32_t)i + 1u), hash_unit(3u * (uint32_t)i + 2u));
			z[i] = m3_mulv(L->dinv[i], r[i]);
			p[i] = z[i];
			rz += v3_dot(r[i], z[i]);
		}
		partial[k] = rz;
	}
	double rz = reduce_sum(partial, chunks);
	int steps = 0;
	for (; steps < LANCZOS_STEPS && n > 0; ++steps) {
#pragma omp barrier
#pragma omp for schedule(static)
		for (int32_t k = 0; k < chunks; ++k) {
			double pq = 0.0;
			for (int32_t i = k * REDUCE_CHUNK; i < reduce_chunk_end(k, n); ++i) {
				q[i] = bsr_row_mul(&L->A, p, i);
				pq += v3_dot(p[i], q[i]);
			}
			partial[k] = pq;
		}
		const double pq = reduce_sum(partial, chunks);
		if (!(pq > 0.0) || !(rz > 0.0)) break;
		alpha[steps] = rz / pq;
#pragma omp barrier
#pragma omp for schedule(static)
		for (int32_t k = 0; k < chunks; ++k) {
			double s = 0.0;
			for (int32_t i = k * REDUCE_CHUNK; i < reduce_chunk_end(k, n); ++i) {
				r[i] = v3_madd(r[i], -alpha[steps], q[i]);
				z[i] = m3_mulv(L->dinv[i], r[i]);
				s += v3_dot(r[i], z[i]);
			}
			partial[k] = s;
		}
		const double rz_next = reduce_sum(partial, chunks);
		beta[steps] = rz_next / rz;
		rz = rz_next;
#pragma omp for schedule(static)
		for (int32_t i = 0; i < n; ++i) p[i] = v3_madd(z[i], beta[steps], p[i]);
	}
	if (steps == 0) return 1.0;
	/* T's diagonal and off-diagonal (Saad, "Iterative Methods for Sparse Linear Systems", 6.7.3). */
	double d[LANCZOS_STEPS], e[LANCZOS_STEPS];
	for (int j = 0; j < steps; ++j) {
		d[j] = 1.0 / alpha[j] + (j > 0 ? beta[j - 1] / alpha[j - 1] : 0.0);
		e[j] = j + 1 < steps ? sqrt(fmax(beta[j], 0.0)) / alpha[j] : 0.0;
	}
	double lo = INFINITY, hi = -INFINITY;
	for (int j = 0; j < steps; ++j) {
		const double band = fabs(e[j]) + (j > 0 ? fabs(e[j - 1]) : 0.0);
		lo = fmin(lo, d[j] - band);
		hi = fmax(hi, d[j] + band);
	}
	/* Bisection: the number of eigenvalues below x is the number of negative pivots of T - x I. */
	for (int it = 0; it < 60; ++it) {
		const double mid = 0.5 * (lo + hi);
		int below = 0;
		double piv = 1.0;
		for (int j = 0; j < steps; ++j) {
			piv = d[j] - mid - (j > 0 ? e[j - 1] * e[j - 1] / piv : 0.0);
			if (piv == 0.0) piv = -1e-300;
			below += piv < 0.0;
		}
		if (below == steps) hi = mid;
		else lo = mid;
	}
	return hi > 0.0 ? hi : 1.0;
}

/* The tentative prolongator of level l (tent, cs blocks per row): an aggregate's rigid motions
 * about its centroid c with RMS radius r, u(p) = T + theta x (p - c), with the rotation scaled to
 * rho = r theta so that its blocks are as large as the translation's. A node of a coarse level is
 * itself such a pair (T, rho) at a position with a radius, so its rows are those of u at the node:
 * T_node = T - [(c_node - c) / r]x rho, rho_node = (r_node / r) rho. The aggregates' centroids and
 * radii become the next level's node positions. Particles (the finest level) have radius 0. */
static void tentative(multigrid* m, int32_t l, const mat3* S, const uint8_t* constrained, const vec3* x)
{
	mg_level* L = &m->lv[l];
	mg_level* C = &m->lv[l + 1];
	const int32_t gs = L->gs, cs = L->cs, n = L->n;
	const vec3* pos = l == 0 ? x : L->pos;
	const double* radius = l == 0 ? NULL : L->radius;
	if (cs == 2) {
#pragma omp for schedule(static)
		for (int32_t a = 0; a < L->aggs; ++a) {
			const int32_t first = L->member_start[a], count = L->member_start[a + 1] - first;
			vec3 c = v3_zero();
			for (int32_t e = 0; e < count; ++e) c = v3_add(c, pos[L->members[first + e]]);
			c = v3_scale(c, 1.0 / count);
			double r2 = 0.0;
			for (int32_t e = 0; e < count; ++e) {
				const int32_t j = L->members[first + e];
				const vec3 d = v3_sub(pos[j], c);
				r2 += v3_dot(d, d) + (radius ? radius[j] * radius[j] : 0.0);
			}
			C->pos[a] = c;
			C->radius[a] = sqrt(r2 / count);
		}
	}
#pragma omp for schedule(static)
	for (int32_t i = 0; i < n; ++i) {
		mat3* t = &L->tent[cs * i];
		const int32_t node = i / gs, a = L->agg[node];
		t[0] = i % gs == 0 ? m3_identity() : m3_zero();
		if (cs == 2) {
			const double inv_r = C->radius[a] > 0.0 ? 1.0 / C->radius[a] : 0.0;
			t[1] = i % gs == 0 ? m3_scale(m3_skew(v3_sub(pos[node], C->pos[a])), -inv_r) : m3_diag(radius[node] * inv_r);
		}
		if (l == 0 && constrained[i])
			for (int32_t c = 0; c < cs; ++c) t[c] = m3_mul(S[i], t[c]);
	}
}

/* Level l's values from its matrix: smoother, prolongator, A P and the next level's P^T A P.
 * Inside a parallel region; marker: this thread's column positions. */
static void setup_level(multigrid* m, int32_t l, const mat3* S, const uint8_t* constrained, const vec3* x, int32_t* marker)
{
	mg_level* L = &m->lv[l];
	mg_level* C = &m->lv[l + 1];
	const int32_t n = L->n, nc = C->n, cs = L->cs;
	const bsr* A = &L->A;
	if (l > 0) {
#pragma omp for schedule(static)
		for (int32_t i = 0; i < n; ++i) L->dinv[i] = block_inverse(&A->blocks[A->diag[i]]);
		smoother_setup(&L->smooth, A);
	}
	const double rho = spectral_radius(L, m->partial);
	const double omega = 4.0 / (3.0 * rho);
	tentative(m, l, S, constrained, x);
	/* P = (I - w D^-1 A) P_tent. */
	const bool fine = l == 0;
	const int32_t gs = L->gs;
#pragma omp for schedule(static)
	for (int32_t i = 0; i < n; ++i) {
		mat3* p = L->p;
		for (int32_t s = L->P.start[i]; s < L->P.start[i + 1]; ++s) p[s] = m3_zero();
		for (int32_t k = A->row_start[i]; k < A->row_start[i + 1]; ++k) {
			/* The translation block is the identity (zero in a coarse rotation row) but for
			 * constrained particles; a coarse rotation row's rotation block is a multiple of it. */
			const int32_t j = A->cols[k];
			const mat3* t = &L->tent[cs * j];
			mat3* acc = &p[L->pslot[k]];
			if (fine && constrained[j]) m3_add_mul(&acc[0], &A->blocks[k], &t[0]);
			else if (j % gs == 0) acc[0] = m3_add(acc[0], A->blocks[k]);
			if (cs == 2 && j % gs == 1) acc[1] = m3_madd(acc[1], t[1].m[0][0], A->blocks[k]);
			else if (cs == 2) m3_add_mul(&acc[1], &A->blocks[k], &t[1]);
		}
		for (int32_t s = L->P.start[i]; s < L->P.start[i + 1]; ++s) p[s] = m3_scale(m3_mul(L->dinv[i], p[s]), -omega);
		for (int32_t c = 0; c < cs; ++c) p[L->own[i] + c] = m3_add(p[L->own[i] + c], L->tent[cs * i + c]);
	}
	/* B = A P, row by row. */
#pragma omp for schedule(static)
	for (int32_t i = 0; i < n; ++i) {
		for (int32_t s = L->B.start[i]; s < L->B.start[i + 1]; ++s) {
			marker[L->B.cols[s]] = s;
			L->b[s] = m3_zero();
		}
		for (int32_t k = A->row_start[i]; k < A->row_start[i + 1]; ++k) {
			const int32_t j = A->cols[k];
			for (int32_t s = L->P.start[j]; s < L->P.start[j + 1]; ++s) m3_add_mul(&L->b[marker[L->P.cols[s]]], &A->blocks[k], &L->p[s]);
		}
	}
	/* A_c = P^T B by coarse row, its upper triangle only (columns b >= a, from B's entries at
	 * pt_upper on): row a sums over its fine rows in increasing order. */
	bsr* Ac = &C->A;
#pragma omp for schedule(static)
	for (int32_t a = 0; a < nc; ++a) {
		for (int32_t s = Ac->diag[a]; s < Ac->row_start[a + 1]; ++s) {
			marker[Ac->cols[s]] = s;
			Ac->blocks[s] = m3_zero();
		}
		for (int32_t e = L->PT.start[a]; e < L->PT.start[a + 1]; ++e) {
			const int32_t i = L->PT.cols[e];
			const mat3* p = &L->p[L->pt_from[e]];
			L->pt_blocks[e] = *p;
			for (int32_t s = L->pt_upper[e]; s < L->B.start[i + 1]; ++s) m3_add_tmul(&Ac->blocks[marker[L->B.cols[s]]], p, &L->b[s]);
		}
	}
	/* The lower triangle is the upper's transpose, and the diagonal blocks are made exactly
	 * symmetric (round-off): row a alone writes the blocks (b, a) for b > a. */
#pragma omp for schedule(static)
	for (int32_t a = 0; a < nc; ++a) {
		const mat3* d = &Ac->blocks[Ac->diag[a]];
		Ac->blocks[Ac->diag[a]] = m3_scale(m3_add(*d, m3_transpose(*d)), 0.5);
		for (int32_t s = Ac->diag[a] + 1; s < Ac->row_start[a + 1]; ++s) Ac->blocks[C->tslot[s]] = m3_transpose(Ac->blocks[s]);
	}
	if (cs < 2) return;
	/* A rotation block is made definite by a tiny shift: an aggregate whose nodes lie on a line
	 * cannot rotate about it. */
#pragma omp for schedule(static)
	for (int32_t a = 0; a < nc / 2; ++a) {
		const mat3* d = &Ac->blocks[Ac->diag[2 * a]];
		const double shift = 1e-12 * (d->m[0][0] + d->m[1][1] + d->m[2][2]);
		mat3* r = &Ac->blocks[Ac->diag[2 * a + 1]];
		*r = m3_add(*r, m3_diag(shift > 0.0 ? shift : 1e-300));
	}
}

/* The finest level's filtered matrix, block-Jacobi inverses and smoother (inside a parallel
 * region). */
static void refresh_fine(multigrid* m, const bsr* A, const mat3* S, const uint8_t* constrained)
{
	mg_level* f = &m->lv[0];
	const int32_t n = A->n;
#pragma omp for schedule(static)
	for (int32_t i = 0; i < n; ++i)
		for (int32_t k = A->row_start[i]; k < A->row_start[i + 1]; ++k) f->A.blocks[k] = filtered_block(A, k, i, A->cols[k], S, constrained);
#pragma omp for schedule(static)
	for (int32_t i = 0; i < n; ++i) f->dinv[i] = block_inverse(&f->A.blocks[f->A.diag[i]]);
	if (m->levels > 1) smoother_setup(&f->smooth, &f->A);
}

bool multigrid_setup(multigrid* m, const bsr* A, const mat3* S, const uint8_t* constrained, const vec3* x, int threads)
{
	if (threads > m->marker_threads) threads = m->marker_threads;
	if (threads < 1) threads = 1;
#pragma omp parallel num_threads(threads) if (A->n > 2 * REDUCE_CHUNK)
	{
		int32_t* marker = m->markers + (size_t)omp_get_thread_num() * (size_t)m->marker_size;
		refresh_fine(m, A, S, constrained);
		for (int32_t l = 0; l + 1 < m->levels; ++l) setup_level(m, l, S, constrained, x, marker);
	}
	m->valid = cholesky_factor(m->chol, &m->lv[m->levels - 1].A, NULL, m->none);
	return m->valid;
}

bool multigrid_refresh(multigrid* m, const bsr* A, const mat3* S, const uint8_t* constrained, int threads)
{
	if (threads < 1) threads = 1;
#pragma omp parallel num_threads(threads) if (A->n > 2 * REDUCE_CHUNK)
	refresh_fine(m, A, S, constrained);
	if (m->levels == 1) m->valid = cholesky_factor(m->chol, &m->lv[0].A, NULL, m->none);
	return m->valid;
}

bool multigrid_valid(const multigrid* m) { return m && m->valid; }

/* out = V(b) on level l: a forward hybrid Gauss-Seidel sweep from zero, the coarse correction, a
 * backward sweep. The second smoother is the first's transpose, so the cycle is symmetric, and the
 * l1 hybrid Gauss-Seidel converges for any SPD matrix, so the cycle is positive definite without a
 * damping factor to estimate (a damped Jacobi smoother with w = 4 / (3 rho) was not: 8 power
 * iterations put rho at 2.0 where it is 3.3, and CG then stopped on a wrong answer). */
static void vcycle(multigrid* m, int32_t l, const vec3* b, vec3* out)
{
	if (l == m->levels - 1) {
#pragma omp single
		cholesky_solve(m->chol, b, out);
		return;
	}
	mg_level* L = &m->lv[l];
	mg_level* C = &m->lv[l + 1];
	const int32_t n = L->n, nc = C->n;
	const bsr* A = &L->A;
	vec3 *x = out, *t = L->t, *old = L->smooth.old;
#pragma omp for schedule(static)
	for (int32_t i = 0; i < n; ++i) x[i] = v3_zero();
	smoother_sweep(&L->smooth, A, b, x, true, false);
#pragma omp for schedule(static)
	for (int32_t i = 0; i < n; ++i) t[i] = v3_sub(b[i], bsr_row_mul(A, x, i));
	/* Restriction P^T t: each coarse row sums its fine rows in increasing order. */
#pragma omp for schedule(static)
	for (int32_t a = 0; a < nc; ++a) {
		vec3 sum = v3_zero();
		for (int32_t e = L->PT.start[a]; e < L->PT.start[a + 1]; ++e) {
			const mat3* p = &L->pt_blocks[e];
			const vec3 v = t[L->PT.cols[e]];
			sum = v3_add(sum, v3(p->m[0][0] * v.x + p->m[1][0] * v.y + p->m[2][0] * v.z,
					     p->m[0][1] * v.x + p->m[1][1] * v.y + p->m[2][1] * v.z,
					     p->m[0][2] * v.x + p->m[1][2] * v.y + p->m[2][2] * v.z));
		}
		C->rhs[a] = sum;
	}
	vcycle(m, l + 1, C->rhs, C->y);
	const vec3* xc = C->y;
#pragma omp for schedule(static)
	for (int32_t i = 0; i < n; ++i) {
		vec3 sum = x[i];
		for (int32_t s = L->P.start[i]; s < L->P.start[i + 1]; ++s) sum = v3_add(sum, m3_mulv(L->p[s], xc[L->P.cols[s]]));
		x[i] = sum;
		old[i] = sum;
	}
	smoother_sweep(&L->smooth, A, b, x, false, true);
}

void multigrid_apply(multigrid* m, const vec3* r, vec3* s) { vcycle(m, 0, r, s); }
