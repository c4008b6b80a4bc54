/* Block-sparse symmetric matrix with 3x3 blocks (sec. 2.3), stored as full block-CSR so that each
 * row of a product is computed by one thread in a fixed order (bit-identical for any thread count).
 * The pattern is built once per topology change; assembly writes into precomputed slots. */
#ifndef DRAPE_BSR_H
#define DRAPE_BSR_H

#include "../math/mat3.h"
#include <stddef.h>
#include <stdint.h>

typedef struct bsr {
	int32_t n;          /* block rows */
	int32_t nnz;        /* stored blocks */
	int32_t* row_start; /* n + 1 */
	int32_t* cols;      /* nnz, sorted within each row */
	int32_t* diag;      /* n: slot of block (i, i) */
	mat3* blocks;       /* nnz */
	/* Couplings that come and go with cloth/cloth contacts (sec. 6): elements of 4 particles whose
	 * off-diagonal blocks live here instead of in the pattern (their diagonal blocks are added to
	 * the pattern's diagonal), so a changing contact set never rebuilds the pattern. */
	int32_t extra_count, extra_capacity;
	int32_t* extra_nodes; /* 4 per element */
	mat3* extra_blocks;   /* 16 per element, [4a + b]; the a == b blocks are unused */
	/* Couplings s I (a number times the 3x3 identity) outside the block pattern, as a scalar CSR
	 * matrix: the tensor bending's second ring (docs/bending.md), whose element matrices act on
	 * x, y and z alike, so one number stands for a block and a row stays short. NULL when there
	 * are none; bsr_place_entries makes them, their owner fills them, bsr_zero clears the values. */
	int32_t* iso_start; /* n + 1 */
	int32_t* iso_cols;  /* never a column of the row's blocks */
	double* iso_vals;
} bsr;

/* Builds the pattern of an n x n block matrix holding the diagonal and every (i, j) for i, j in
 * the same element. elems lists elem_count elements of `arity` particle indices each; several
 * element sets are merged by calling bsr_pattern_add for each before bsr_pattern_finish. */
typedef struct bsr_builder {
	int32_t n;
	int64_t count, capacity;
	uint64_t* keys; /* (row << 32) | col */
} bsr_builder;

bool bsr_builder_init(bsr_builder* b, int32_t n);
/* Element e's particles are the `arity` int32 at (const char*)elems + e * stride_bytes. */
bool bsr_builder_add_elements(bsr_builder* b, const void* elems, int32_t elem_count, int arity, size_t stride_bytes);
bool bsr_builder_finish(bsr_builder* b, bsr* out);
void bsr_free(bsr* m);

/* Slot of block (i, j), or -1 if it is not in the pattern. */
int32_t bsr_find(const bsr* m, int32_t i, int32_t j);
/* Each element's blocks' slots, once the pattern is built from the same elements: element e's
 * particles as bsr_builder_add_elements reads them, and its arity x arity slots (block (a, c) at
 * [arity a + c]) the int32 at slot_offset bytes into it. */
void bsr_element_slots(const bsr* m, void* elems, int32_t elem_count, int arity, size_t stride_bytes, size_t slot_offset);
/* Places a scalar sparse matrix's entries (rows 0..n-1 as CSR start[], col[]) in m: slot[k] is
 * the block of entry k, or, for an entry outside the block pattern, -1 - (its index in the
 * scalar part), which this makes, row by row in column order. False without memory. */
bool bsr_place_entries(bsr* m, const int32_t* start, const int32_t* col, int32_t* slot);
void bsr_zero(bsr* m, int threads);
/* Appends an extra element over nodes[4]; returns its 16 blocks (zeroed) or NULL without memory.
 * The nodes must be distinct. */
mat3* bsr_extra_add(bsr* m, const int32_t nodes[4]);
/* Row i's entries of the scalar part: [bsr_iso_begin, bsr_iso_end), empty when there is none. */
static inline int32_t bsr_iso_begin(const bsr* m, int32_t i) { return m->iso_start ? m->iso_start[i] : 0; }
static inline int32_t bsr_iso_end(const bsr* m, int32_t i) { return m->iso_start ? m->iso_start[i + 1] : 0; }
/* y = A x */
void bsr_mul(const bsr* m, const vec3* x, vec3* y, int threads);

/* The two halves of bsr_mul, for callers that run them inside their own parallel region: row i of
 * the pattern's product (any thread, any order), then the contact couplings added to y (one
 * thread, after every row). */
static inline vec3 bsr_row_mul(const bsr* m, const vec3* x, int32_t i)
{
	double s0 = 0.0, s1 = 0.0, s2 = 0.0;
	for (int32_t k = m->row_start[i]; k < m->row_start[i + 1]; ++k) {
		const mat3* a = &m->blocks[k];
		const vec3 v = x[m->cols[k]];
		s0 += a->m[0][0] * v.x + a->m[0][1] * v.y + a->m[0][2] * v.z;
		s1 += a->m[1][0] * v.x + a->m[1][1] * v.y + a->m[1][2] * v.z;
		s2 += a->m[2][0] * v.x + a->m[2][1] * v.y + a->m[2][2] * v.z;
	}
	for (int32_t k = bsr_iso_begin(m, i); k < bsr_iso_end(m, i); ++k) {
		const double a = m->iso_vals[k];
		const vec3 v = x[m->iso_cols[k]];
		s0 += a * v.x;
		s1 += a * v.y;
		s2 += a * v.z;
	}
	return v3(s0, s1, s2);
}
void bsr_mul_extras(const bsr* m, const vec3* x, vec3* y);

#endif
