/* A sparse Cholesky factorisation (CHOLMOD) of the filtered system matrix, used as the
 * preconditioner of the modified PCG (sec. 5.3) and reused across steps; docs/solver.md. */
#ifndef DRAPE_CHOLESKY_H
#define DRAPE_CHOLESKY_H

#include "bsr.h"

#include <stdbool.h>

typedef struct cholesky_precond cholesky_precond;

/* Whether this build has CHOLMOD (cmake found libcholmod). */
bool cholesky_available(void);

/* Symbolic analysis of A's block pattern (the fixed element pattern: contact couplings in
 * A's extras are left out). NULL without memory, or in a build without CHOLMOD. */
cholesky_precond* cholesky_create(const bsr* A);
void cholesky_destroy(cholesky_precond* p);

/* Numeric factorisation of S A S + (I - S) d (S the filter of eq. 13 on constrained particles,
 * d a positive scale of the particle's diagonal block), whose inverse on the free subspace is the
 * filtered system's. Reads only A's pattern blocks. False if the matrix is not positive definite
 * (then the preconditioner is invalid until the next successful factorisation). */
bool cholesky_factor(cholesky_precond* p, const bsr* A, const mat3* S, const uint8_t* constrained);
bool cholesky_valid(const cholesky_precond* p);

/* s = P^-1 r with the last factorisation (one thread, a fixed order: bit-identical for any
 * thread count). r and s may not alias. */
void cholesky_solve(cholesky_precond* p, const vec3* r, vec3* s);

#endif
