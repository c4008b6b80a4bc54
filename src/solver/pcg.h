/* The modified preconditioned conjugate gradient method of sec. 5.3, which solves A dv = b while
 * holding each constrained particle's velocity change in its constrained directions exactly at z,
 * and the constraint-force readback e = A dv - b of sec. 5.4. */
#ifndef DRAPE_PCG_H
#define DRAPE_PCG_H

#include "bsr.h"
#include "bsr_packed.h"
#include "cholesky.h"
#include "multigrid.h"
#include "two_level.h"

typedef struct pcg_workspace {
	int32_t n;
	vec3* r;
	vec3* c;
	vec3* q;
	vec3* s;
	mat3* pinv;      /* inverses of A's diagonal blocks (the preconditioner P of sec. 5.3) */
	double* partial; /* one per reduction chunk */
	/* The preconditioner: a valid Cholesky factorisation if set (cholesky.h), otherwise block
	 * Jacobi (the inverses in pinv). Owned by the caller. */
	cholesky_precond* cholesky;
	two_level* two_level; /* or a valid two-level preconditioner (two_level.h) */
	multigrid* multigrid; /* or a valid multigrid preconditioner (multigrid.h) */
	/* When set and non-zero, the solve stops early with cancelled set (an interrupt mid-step,
	 * drape_world_set_cancel). Owned by the caller. */
	const volatile int* cancel;
	/* A's blocks packed for the iterations' product (bsr_packed.h), refilled by every solve. */
	bsr_packed packed;
} pcg_workspace;

bool pcg_workspace_init(pcg_workspace* w, int32_t n);
void pcg_workspace_free(pcg_workspace* w);

/* A contact's inequality (docs/solver.md, "Contacts inside the solve"): particle i's velocity change
 * along the unit normal n obeys n . dv >= lower. While held (in the active set) the bound is one
 * of the filter's constrained directions, as an equality constraint of sec. 5.1; it is released
 * when its constraint impulse pulls, n . (b - A dv) > floor (sec. 5.4 with a noise floor), and a
 * free one is taken in when an iterate reaches it. */
typedef struct pcg_bound {
	int32_t particle;
	vec3 normal;  /* unit, orthogonal to the particle's other constrained directions */
	double lower; /* n . dv >= lower */
	double floor; /* the pull, an impulse along n, held before release (INFINITY: never) */
	/* The particle's filter, z and flag without this bound (its pins only); a held bound's are
	 * S_free - n n^T (less any friction directions the caller added), z_free + lower n. */
	mat3 S_free;
	vec3 z_free;
	uint8_t constrained_free;
	bool held; /* in: held at the start (S, z, constrained hold it); out: at the answer */
	bool held_at_start; /* scratch */
	vec3 ru;   /* scratch: the unfiltered residual b - A dv at the particle */
	vec3 qu;   /* scratch: the unfiltered product A c at the particle */
} pcg_bound;

typedef struct pcg_bounds {
	pcg_bound* items;
	int32_t count, capacity;
	int32_t* of_particle; /* per particle: its bound's index in items, or -1 */
	/* After a solve: how many bounds were taken in and released during it, and how many steps
	 * of each kind the active-set iteration took (tests, stats). */
	int32_t activated, released;
	int32_t expansions, proportionings;
} pcg_bounds;

typedef struct pcg_result {
	int iterations;
	bool converged;
	/* c^T A c <= 0: A is not positive definite along the search direction (the step is too
	 * large for the current state); the caller rejects the step. */
	bool breakdown;
	bool cancelled; /* stopped by the workspace's cancel flag; dv is not an answer */
} pcg_result;

/* The filter of sec. 5.3: S[i] (eq. 13) for particles with constrained[i] != 0, identity for the
 * others. dv receives the solution. The iteration starts from dv = z (the paper's line 2) or, if
 * guess is given, from filter(guess) + z, which keeps the invariant and starts closer to the
 * answer when the guess is good (the previous step's dv, scaled to this step's size, or the
 * previous pass's answer). guess may be dv itself. */
pcg_result pcg_solve(const bsr* A, const vec3* b, const vec3* z, const vec3* guess, const mat3* S,
		     const uint8_t* constrained, double tolerance, int max_iterations, int threads, pcg_workspace* w,
		     vec3* dv);

/* pcg_solve with inequality bounds (MPRGP, Dostal and Schoberl 2005, preconditioned in the face;
 * docs/solver.md, "Contacts inside the solve"): minimises 1/2 dv^T A dv - b^T dv subject to the
 * filter's equalities and each bound, activating and releasing bounds within the one solve. S, z
 * and constrained start with the held bounds in them and end with the answer's active set. With
 * bounds NULL or empty it is pcg_solve, bit for bit. */
pcg_result pcg_solve_bounded(const bsr* A, const vec3* b, vec3* z, const vec3* guess, mat3* S, uint8_t* constrained,
			     pcg_bounds* bounds, double tolerance, int max_iterations, int threads, pcg_workspace* w,
			     vec3* dv);

/* e = A dv - b: for a constrained particle, the impulse its constraint supplied (sec. 5.4). */
void pcg_residual(const bsr* A, const vec3* dv, const vec3* b, vec3* e, int threads);

/* Shifts dv uniformly so that the residual b - A dv sums to zero (no net force from an
 * unconverged solve; docs/solver.md), when no particle is constrained. scratch: n vectors.
 * Returns whether it applied. */
bool pcg_net_force_correction(const bsr* A, const vec3* b, const uint8_t* constrained, int threads, vec3* scratch, vec3* dv);

#endif
