/* The modified PCG's matrix product (sec. 5.3, line 8) on a packed copy of A's blocks: each 3x3
 * block stored by columns, each column padded to four doubles, so that one row of the product is
 * acc += col0 x_j + col1 y_j + col2 z_j on four lanes at once (docs/solver.md, "The matrix
 * product"). Each lane does the operations of bsr_row_mul's scalar sums in the same order, so
 * the result is bit-identical to bsr_mul's, on any machine and for any thread count. */
#ifndef DRAPE_BSR_PACKED_H
#define DRAPE_BSR_PACKED_H

#include "bsr.h"

typedef struct bsr_packed {
	double* cols;      /* 12 per block of the pattern: three columns of four, the fourth lane 0 */
	int64_t capacity;  /* blocks it has room for */
	double* lines;     /* the product's x, four per particle (x, y, z, 0) */
	int32_t line_capacity;
} bsr_packed;

/* Copies A's blocks into p, growing it to A's pattern (and its lines to A's rows); false (p unchanged but still freeable) on
 * allocation failure, when the caller keeps using bsr_row_mul. Rows [lo, hi) only, so that the
 * PCG's threads can share the copy; bsr_packed_reserve first, by one thread. */
bool bsr_packed_reserve(bsr_packed* p, const bsr* A);
void bsr_packed_fill(bsr_packed* p, const bsr* A, int32_t lo, int32_t hi);
void bsr_packed_free(bsr_packed* p);

/* Particles [lo, hi) of x into p's lines: the vector the next bsr_packed_rows multiplies (its
 * scalar part reads a particle's x, y and z as one load of four). Every row's lines before any
 * product (a barrier between the two where threads share them). */
void bsr_packed_lines(bsr_packed* p, const vec3* x, int32_t lo, int32_t hi);

/* Rows [lo, hi) of y = A x, x the lines of bsr_packed_lines, the pattern's part (bsr_row_mul's);
 * the contact couplings follow with bsr_mul_extras, as with bsr_row_mul. */
void bsr_packed_rows(const bsr_packed* p, const bsr* A, vec3* y, int32_t lo, int32_t hi);

#endif
