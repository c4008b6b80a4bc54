/* The PCG's product on packed blocks (bsr_packed.h; sec. 5.3, line 8; docs/solver.md, "The
 * matrix product"). The product was a fifth of the skirt's profile: its nine multiplications and
 * additions per block ran as three scalar sums. Packed by columns, a block's product is three
 * multiplications and additions of four lanes; with AVX those are single instructions (a clone
 * chosen at load time), elsewhere the compiler splits them into SSE2 pairs. No fused multiply-add
 * (the build's -ffp-contract=off): every lane rounds as bsr_row_mul's sums do. */
#include "bsr_packed.h"

#include <stdlib.h>
#include <string.h>

typedef double lanes __attribute__((vector_size(32)));

bool bsr_packed_reserve(bsr_packed* p, const bsr* A)
{
	if (A->nnz <= p->capacity) return true;
	double* c = malloc(12 * sizeof(double) * (size_t)A->nnz);
	if (!c) return false;
	free(p->cols);
	p->cols = c;
	p->capacity = A->nnz;
	return true;
}

void bsr_packed_fill(bsr_packed* p, const bsr* A, int32_t lo, int32_t hi)
{
	for (int64_t k = A->row_start[lo]; k < A->row_start[hi]; ++k) {
		const mat3* a = &A->blocks[k];
		double* c = &p->cols[12 * k];
		for (int j = 0; j < 3; ++j) {
			c[4 * j + 0] = a->m[0][j];
			c[4 * j + 1] = a->m[1][j];
			c[4 * j + 2] = a->m[2][j];
			c[4 * j + 3] = 0.0;
		}
	}
}

void bsr_packed_free(bsr_packed* p)
{
	free(p->cols);
	memset(p, 0, sizeof *p);
}

/* GCC picks the AVX clone at load time where the processor has it (an ifunc); the arithmetic is
 * the same either way. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
__attribute__((target_clones("avx", "default")))
#endif
void bsr_packed_rows(const bsr_packed* p, const bsr* A, const vec3* x, vec3* y, int32_t lo, int32_t hi)
{
	const double* cols = p->cols;
	for (int32_t i = lo; i < hi; ++i) {
		lanes acc = {0.0, 0.0, 0.0, 0.0};
		for (int32_t k = A->row_start[i]; k < A->row_start[i + 1]; ++k) {
			const vec3 v = x[A->cols[k]];
			lanes c0, c1, c2;
			memcpy(&c0, &cols[12 * (size_t)k], sizeof c0);
			memcpy(&c1, &cols[12 * (size_t)k + 4], sizeof c1);
			memcpy(&c2, &cols[12 * (size_t)k + 8], sizeof c2);
			/* s_r += a_r0 x + a_r1 y + a_r2 z, left to right, on lane r */
			acc += c0 * v.x + c1 * v.y + c2 * v.z;
		}
		for (int32_t k = bsr_iso_begin(A, i); k < bsr_iso_end(A, i); ++k) {
			const vec3 v = x[A->iso_cols[k]];
			const lanes u = {v.x, v.y, v.z, 0.0};
			acc += A->iso_vals[k] * u;
		}
		y[i] = v3(acc[0], acc[1], acc[2]);
	}
}
