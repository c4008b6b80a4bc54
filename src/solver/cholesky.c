/* The Cholesky preconditioner of the modified PCG (sec. 5.3; docs/solver.md, "Preconditioners"):
 * CHOLMOD factors the filtered system matrix S A S + (I - S) d over the fixed element pattern.
 * The symbolic analysis (fill-reducing ordering) is done once per pattern; the numeric
 * factorisation is redone only when the caller decides the old one has gone stale (implicit.c),
 * so most steps pay two triangular solves per CG iteration and nothing else.
 *
 * The factorisation and the solves run on one thread with the reference BLAS order, so the
 * preconditioner gives the same bits whatever drape's thread count. */
#include "cholesky.h"
#include "filtered.h"

#include <stdlib.h>
#include <string.h>

#ifdef DRAPE_HAVE_CHOLMOD
#include <cholmod.h>

struct cholesky_precond {
	cholmod_common c;
	cholmod_sparse* M;  /* upper triangle, scalar CSC, 3n x 3n */
	cholmod_factor* L;
	cholmod_dense *B, *X, *Y, *E;
	int32_t* src;       /* per scalar entry of M: 9 * slot + 3 * a + b in A's blocks */
	int32_t* src_row;   /* per scalar entry: the block row I (for the filter) */
	int32_t* src_col;   /* ... and the block column J */
	mat3* filtered;     /* A.nnz scratch: S_I A_IJ S_J */
	bool valid;
};

bool cholesky_available(void) { return true; }

static cholesky_precond* fail(cholesky_precond* p)
{
	cholesky_destroy(p);
	return NULL;
}

cholesky_precond* cholesky_create(const bsr* A)
{
	/* Factors A's block pattern, so A must hold everything there (workspace_prepare). */
	if (A->iso_start) return NULL;
	cholesky_precond* p = calloc(1, sizeof *p);
	if (!p) return NULL;
	cholmod_start(&p->c);
	p->c.print = 0;
	p->c.error_handler = NULL;
	/* Simplicial LDL': no BLAS, so no BLAS threads (bit-identical for any thread count);
	 * docs/solver.md compares it with the supernodal factorisation. */
	p->c.supernodal = CHOLMOD_SIMPLICIAL;
	const int32_t n = A->n;
	/* Entries of the upper triangle: 9 per off-diagonal block above the diagonal, 6 per
	 * diagonal block. */
	int64_t nz = 0;
	for (int32_t i = 0; i < n; ++i)
		for (int32_t k = A->row_start[i]; k < A->row_start[i + 1]; ++k) nz += A->cols[k] > i ? 9 : (A->cols[k] == i ? 6 : 0);
	p->M = cholmod_allocate_sparse((size_t)3 * (size_t)n, (size_t)3 * (size_t)n, (size_t)nz, 1, 1, 1, CHOLMOD_REAL, &p->c);
	p->src = malloc((size_t)(nz ? nz : 1) * sizeof *p->src);
	p->src_row = malloc((size_t)(nz ? nz : 1) * sizeof *p->src_row);
	p->src_col = malloc((size_t)(nz ? nz : 1) * sizeof *p->src_col);
	p->filtered = malloc((size_t)(A->nnz ? A->nnz : 1) * sizeof *p->filtered);
	if (!p->M || !p->src || !p->src_row || !p->src_col || !p->filtered) return fail(p);
	/* Column 3J + b of the upper triangle holds rows 3I + a of the blocks (I, J), I <= J, in
	 * order. The pattern is symmetric, so block row J lists those I. */
	int* colp = p->M->p;
	int* rowi = p->M->i;
	int64_t e = 0;
	for (int32_t J = 0; J < n; ++J)
		for (int b = 0; b < 3; ++b) {
			colp[3 * J + b] = (int)e;
			for (int32_t k = A->row_start[J]; k < A->row_start[J + 1]; ++k) {
				int32_t I = A->cols[k];
				if (I > J) break;
				int32_t slot = I == J ? k : bsr_find(A, I, J);
				if (slot < 0) return fail(p); /* not symmetric: cannot happen for element patterns */
				for (int a = 0; a < 3 && (I < J || a <= b); ++a) {
					rowi[e] = 3 * I + a;
					p->src[e] = 9 * slot + 3 * a + b;
					p->src_row[e] = I;
					p->src_col[e] = J;
					e++;
				}
			}
		}
	colp[3 * n] = (int)e;
	p->L = cholmod_analyze(p->M, &p->c);
	p->B = cholmod_allocate_dense((size_t)3 * (size_t)n, 1, (size_t)3 * (size_t)n, CHOLMOD_REAL, &p->c);
	if (!p->L || !p->B || p->c.status < CHOLMOD_OK) return fail(p);
	return p;
}

void cholesky_destroy(cholesky_precond* p)
{
	if (!p) return;
	cholmod_free_sparse(&p->M, &p->c);
	cholmod_free_factor(&p->L, &p->c);
	cholmod_free_dense(&p->B, &p->c);
	cholmod_free_dense(&p->X, &p->c);
	cholmod_free_dense(&p->Y, &p->c);
	cholmod_free_dense(&p->E, &p->c);
	cholmod_finish(&p->c);
	free(p->src);
	free(p->src_row);
	free(p->src_col);
	free(p->filtered);
	free(p);
}

bool cholesky_factor(cholesky_precond* p, const bsr* A, const mat3* S, const uint8_t* constrained)
{
	const int32_t n = A->n;
	const int64_t nz = ((const int*)p->M->p)[3 * n];
	double* val = p->M->x;
	bool any = false;
	for (int32_t i = 0; i < n && !any; ++i) any = constrained[i] != 0;
	const double* from = (const double*)A->blocks;
	if (any) {
		/* S_I A_IJ S_J for every block; on the diagonal of a constrained particle, (I - S_I) d
		 * keeps the factor positive definite without coupling the constrained directions. */
		for (int32_t I = 0; I < n; ++I)
			for (int32_t k = A->row_start[I]; k < A->row_start[I + 1]; ++k) {
				p->filtered[k] = filtered_block(A, k, I, A->cols[k], S, constrained);
			}
		from = (const double*)p->filtered;
	}
	for (int64_t e = 0; e < nz; ++e) val[e] = from[p->src[e]];
	p->valid = false;
	if (!cholmod_factorize(p->M, p->L, &p->c) || p->c.status != CHOLMOD_OK || p->L->minor < p->L->n) return false;
	if (!p->L->is_super && !p->L->is_ll) {
		/* LDL': CHOLMOD stops only at a zero pivot; a preconditioner must be definite. */
		const int* lp = p->L->p;
		const double* lx = p->L->x;
		for (size_t j = 0; j < p->L->n; ++j)
			if (!(lx[lp[j]] > 0.0)) return false;
	}
	p->valid = true;
	return true;
}

bool cholesky_valid(const cholesky_precond* p) { return p && p->valid; }

void cholesky_solve(cholesky_precond* p, const vec3* r, vec3* s)
{
	const size_t m = p->B->nrow;
	double* bx = p->B->x;
	for (size_t i = 0; i < m / 3; ++i) {
		bx[3 * i] = r[i].x;
		bx[3 * i + 1] = r[i].y;
		bx[3 * i + 2] = r[i].z;
	}
	/* X, Y and E are allocated by the first solve and reused by every later one. */
	cholmod_solve2(CHOLMOD_A, p->L, p->B, NULL, &p->X, NULL, &p->Y, &p->E, &p->c);
	const double* x = p->X->x;
	for (size_t i = 0; i < m / 3; ++i) s[i] = v3(x[3 * i], x[3 * i + 1], x[3 * i + 2]);
}

#else

bool cholesky_available(void) { return false; }
cholesky_precond* cholesky_create(const bsr* A)
{
	(void)A;
	return NULL;
}
void cholesky_destroy(cholesky_precond* p) { (void)p; }
bool cholesky_factor(cholesky_precond* p, const bsr* A, const mat3* S, const uint8_t* constrained)
{
	(void)p, (void)A, (void)S, (void)constrained;
	return false;
}
bool cholesky_valid(const cholesky_precond* p)
{
	(void)p;
	return false;
}
void cholesky_solve(cholesky_precond* p, const vec3* r, vec3* s) { (void)p, (void)r, (void)s; }

#endif
