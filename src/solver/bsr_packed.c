/* The PCG's product on packed blocks (bsr_packed.h; sec. 5.3, line 8; docs/solver.md, "The
 * matrix product"). The product was a fifth of the skirt's profile: its nine multiplications and
 * additions per block ran as three scalar sums. Packed by columns, a block's product is three
 * multiplications and additions of four lanes; with AVX those are single instructions (a clone
 * chosen at load time), elsewhere the compiler splits them into SSE2 pairs. No fused multiply-add
 * (the build's -ffp-contract=off): every lane rounds as bsr_row_mul's sums do. The vector is
 * copied into lines of four doubles first (bsr_packed_lines): the scalar part (the tensor
 * bending's second ring, about 12 of a row's 19 entries on a grid) then reads a particle in one
 * load instead of three and two shuffles, which made the product a fifth cheaper on the figure 1
 * drape. */
#include "bsr_packed.h"

#include "../math/lanes.h"

#include <stdlib.h>
#include <string.h>

bool bsr_packed_reserve(bsr_packed* p, const bsr* A)
{
	if (A->n > p->line_capacity) {
		double* l = malloc(4 * sizeof(double) * (size_t)A->n);
		if (!l) return false;
		free(p->lines);
		p->lines = l;
		p->line_capacity = A->n;
	}
	if (A->nnz <= p->capacity) return true;
	double* c = malloc(12 * sizeof(double) * (size_t)A->nnz);
	if (!c) return false;
	free(p->cols);
	p->cols = c;
	p->capacity = A->nnz;
	return true;
}

void bsr_packed_lines(bsr_packed* p, const vec3* x, int32_t lo, int32_t hi)
{
	for (int32_t i = lo; i < hi; ++i) lanes_line(p->lines + 4 * (size_t)i, x[i]);
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
	free(p->lines);
	memset(p, 0, sizeof *p);
}

/* GCC picks the AVX clone at load time where the processor has it (an ifunc); the arithmetic is
 * the same either way. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
__attribute__((target_clones("avx", "default")))
#endif
void bsr_packed_rows(const bsr_packed* p, const bsr* A, vec3* y, int32_t lo, int32_t hi)
{
	const double* cols = p->cols;
	const double* lines = p->lines;
	const int32_t* row_start = A->row_start;
	const int32_t* bcols = A->cols;
	const int32_t* iso_cols = A->iso_cols;
	const double* iso_vals = A->iso_vals;
	for (int32_t i = lo; i < hi; ++i) {
		d4 acc = {0.0, 0.0, 0.0, 0.0};
		for (int32_t k = row_start[i]; k < row_start[i + 1]; ++k) {
			const double* v = &lines[4 * (size_t)bcols[k]];
			d4 c0, c1, c2;
			memcpy(&c0, &cols[12 * (size_t)k], sizeof c0);
			memcpy(&c1, &cols[12 * (size_t)k + 4], sizeof c1);
			memcpy(&c2, &cols[12 * (size_t)k + 8], sizeof c2);
			/* s_r += a_r0 x + a_r1 y + a_r2 z, left to right, on lane r */
			acc += c0 * v[0] + c1 * v[1] + c2 * v[2];
		}
		/* s += a (x, y, z) in one multiplication of the particle's line (its fourth lane 0) */
		for (int32_t k = bsr_iso_begin(A, i); k < bsr_iso_end(A, i); ++k) {
			d4 u;
			memcpy(&u, &lines[4 * (size_t)iso_cols[k]], sizeof u);
			acc += iso_vals[k] * u;
		}
		y[i] = v3(acc[0], acc[1], acc[2]);
	}
}
