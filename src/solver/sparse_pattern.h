/* Patterns of sparse block matrices as compressed rows (sorted column indices), and the symbolic
 * products and transposes the multigrid preconditioner needs once per topology: the pattern of
 * the prolongator, of A P and of P^T A P (multigrid.c; docs/solver.md, "Preconditioners"). */
#ifndef DRAPE_SPARSE_PATTERN_H
#define DRAPE_SPARSE_PATTERN_H

#include <stdbool.h>
#include <stdint.h>

typedef struct sparse_pattern {
	int32_t rows, ncols;
	int32_t* start; /* rows + 1 */
	int32_t* cols;  /* start[rows], sorted within each row */
} sparse_pattern;

/* The pattern of X Y, X given by rows rows of (xs, xc) into Y's rows, Y by (ys, yc) into ncols
 * columns. False without memory. */
bool pattern_product(int32_t rows, const int32_t* xs, const int32_t* xc, const int32_t* ys, const int32_t* yc, int32_t ncols,
		     sparse_pattern* out);

/* The transpose of X (rows rows, ncols columns); from[e] receives the entry of X that the
 * transpose's entry e came from (the rows of each column in increasing order). from may be NULL. */
bool pattern_transpose(int32_t rows, const int32_t* xs, const int32_t* xc, int32_t ncols, sparse_pattern* out, int32_t** from);

/* Position of column c in row r, or -1. */
int32_t pattern_find(const sparse_pattern* p, int32_t r, int32_t c);

void pattern_free(sparse_pattern* p);

#endif
