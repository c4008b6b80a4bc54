/* Block-tridiagonal solve with 3x3 blocks: the line systems of the ADI and Split schemes (Boxerman
 * 2003, sec. 5, eq. 19), where each warp or weft fibre gives one block-tridiagonal system. */
#ifndef DRAPE_BLOCK_TRIDIAG_H
#define DRAPE_BLOCK_TRIDIAG_H

#include "math/mat3.h"

#include <stdbool.h>
#include <stdint.h>

/* Largest condition number (infinity norm) accepted for an eliminated pivot block. */
#define BLOCK_TRIDIAG_MAX_COND 1e12

/* Solves the n-row system lower[i] x[i-1] + diag[i] x[i] + upper[i] x[i+1] = rhs[i] by block
 * Thomas elimination (block LU without pivoting); lower[0] and upper[n-1] are not read. O(n), no
 * allocation: scratch_m and scratch_v hold n entries each. x may alias rhs. Returns false, with x
 * unspecified, when a pivot block is singular, ill-conditioned (BLOCK_TRIDIAG_MAX_COND) or not
 * finite; diagonally dominant and symmetric positive definite systems never fail that way. */
bool block_tridiag_solve(int32_t n, const mat3* lower, const mat3* diag, const mat3* upper, const vec3* rhs, vec3* x,
			 mat3* scratch_m, vec3* scratch_v);

#endif
