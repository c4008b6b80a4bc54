/* A smoothed-aggregation multigrid V-cycle as the preconditioner of the modified PCG (sec. 5.3;
 * docs/solver.md, "Preconditioners"; Tamstorf, Jones and McCormick 2015): aggregates of the
 * pattern graph, prolongators smoothed by one damped block-Jacobi step, Galerkin coarse matrices
 * P^T A P rebuilt every solve over patterns computed once per topology, damped block-Jacobi
 * smoothing, and CHOLMOD (cholesky.h) on the coarsest level. */
#ifndef DRAPE_MULTIGRID_H
#define DRAPE_MULTIGRID_H

#include "bsr.h"

typedef struct multigrid multigrid;

/* Levels are added until one has at most max_factored block rows, which is factored
 * (MULTIGRID_MAX_FACTORED by default). With rotations, a coarse node has three rotations besides
 * its three translations (two block rows). NULL without memory or CHOLMOD. */
#define MULTIGRID_MAX_FACTORED 300
multigrid* multigrid_create(const bsr* A, int32_t max_factored, bool rotations);
void multigrid_destroy(multigrid* m);
int32_t multigrid_level_count(const multigrid* m); /* levels including the factored one */
int32_t multigrid_level_size(const multigrid* m, int32_t level);

/* Rebuilds the hierarchy's values for the filtered S A S + (I - S) d (filtered.h), x the particles'
 * positions (the rotations' centres): prolongators,
 * Galerkin matrices, smoothers, the coarse factorisation. Reads only A's pattern blocks (contact
 * couplings in A's extras are left out, as in two_level.h). Bit-identical for any thread count. */
bool multigrid_setup(multigrid* m, const bsr* A, const mat3* S, const uint8_t* constrained, const vec3* x, int threads);
bool multigrid_valid(const multigrid* m);

/* The finest level only (its filtered matrix and smoother; the coarse levels stay as the last
 * setup left them), for a system close to the last setup's: the cycle stays SPD with any SPD
 * coarse matrices. A hierarchy of one level is factored again. */
bool multigrid_refresh(multigrid* m, const bsr* A, const mat3* S, const uint8_t* constrained, int threads);

/* s = P^-1 r, one symmetric V-cycle (P is symmetric positive definite). Called by every thread of
 * an enclosing OpenMP parallel region (its loops are orphaned work-sharing constructs), or outside
 * one on a single thread; the bits do not depend on the thread count. r and s may not alias. */
void multigrid_apply(multigrid* m, const vec3* r, vec3* s);

#endif
