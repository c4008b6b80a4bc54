/* A two-level additive preconditioner for the modified PCG (sec. 5.3; docs/solver.md,
 * "Preconditioners"): block Jacobi plus a coarse correction over aggregates of neighbouring
 * particles, P = D^-1 + R^T A_c^-1 R, with A_c = R A R^T rebuilt every step (a sum of blocks) and
 * factored by CHOLMOD (cholesky.h); a coarse level too large to factor is treated the same way
 * again, with smoothed prolongators (smoothed_prolongator.h). */
#ifndef DRAPE_TWO_LEVEL_H
#define DRAPE_TWO_LEVEL_H

#include "bsr.h"
#include "cholesky.h"

typedef struct two_level two_level;

/* Aggregates A's particles (greedy, in index order: deterministic) and analyses the coarse
 * pattern. A coarse level of more than max_factored aggregates gets another level instead of a
 * factorisation (TWO_LEVEL_MAX_FACTORED by default). NULL without memory or CHOLMOD. */
#define TWO_LEVEL_MAX_FACTORED 2000
two_level* two_level_create(const bsr* A, int32_t max_factored);
void two_level_destroy(two_level* t);
int32_t two_level_coarse_count(const two_level* t);
/* Whether the prolongator is smoothed (smoothed_prolongator.h): in a hierarchy of more than two
 * levels. */
bool two_level_smoothed(const two_level* t);

/* Forms A_c from the filtered S A S + (I - S) d (as cholesky_factor) and factors it. */
bool two_level_setup(two_level* t, const bsr* A, const mat3* S, const uint8_t* constrained);
bool two_level_valid(const two_level* t);

/* s = pinv r + R^T A_c^-1 R r (one thread, fixed order). */
void two_level_apply(two_level* t, const mat3* pinv, const vec3* r, vec3* s);

/* The same in three parts, for a caller's parallel region: R r for aggregates [lo, hi) (any
 * thread; each aggregate sums its members in index order), the coarse solve (one thread, after
 * every aggregate), then particle i's s (any thread). The bits do not depend on the split. */
int32_t two_level_aggregate_count(const two_level* t);
void two_level_restrict(two_level* t, const vec3* r, int32_t lo, int32_t hi);
void two_level_coarse_solve(two_level* t);
vec3 two_level_prolong(const two_level* t, const mat3* pinv, const vec3* r, int32_t i);

#endif
