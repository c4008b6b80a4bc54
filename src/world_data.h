/* The world's data: all particles of all cloths in global arrays, the force elements with their
 * per-element coefficients, constraints, user springs, and the solver's buffers (sized when the
 * topology changes, reused by every step), in three parts: model, state and workspace (below).
 * Types only, so that the files that fill and read it (cloth.c, seam.c, solid.c, the step) need
 * not depend on world.c, which drives them. */
#ifndef DRAPE_WORLD_DATA_H
#define DRAPE_WORLD_DATA_H

#include "drape.h"
#include "collide/cloth_contact.h"
#include "collide/cloth_layers.h"
#include "collide/cloth_pairs.h"
#include "collide/contact.h"
#include "forces/bend_tensor.h"
#include "forces/forces.h"
#include "mesh/topology.h"
#include "mesh/colouring.h"
#include "solver/bsr.h"
#include "solver/pcg.h"

/* A triangle: stretch, shear and drag act on it (sec. 4.2-4.4). Coefficients are per element,
 * derived from the SI material (docs/model.md). v must stay the first member (bsr builder). */
typedef struct triangle_elem {
	int32_t v[3];
	tri_rest rest;
	double bu, bv;
	double k_stretch, kd_stretch;
	double k_shear, kd_shear;
	double drag;
	bool springs_only; /* a mass-spring cloth's triangle: drag only (stretch, shear are springs) */
	int32_t slot[9]; /* block (a, b) of the element lives at A->blocks[slot[3a + b]] */
} triangle_elem;

/* A hinge: bend acts on the two triangles sharing edge v0-v1 (v2, v3 opposite; sec. 4.3). */
typedef struct hinge_elem {
	int32_t v[4];
	double k, kd;
	double guard; /* > 0: a tensor cloth's fold guard, acting past this angle only (bend_guarded) */
	int32_t slot[16];
} hinge_elem;

/* Force families (ADI Cloth sec. 2.3, 5): which terms an integrator treats implicitly, explicitly
 * or not at all. OTHER is drag, contacts and user springs. */
typedef enum force_family {
	FAMILY_STRETCH_U = 0, /* warp */
	FAMILY_STRETCH_V,     /* weft */
	FAMILY_SHEAR,
	FAMILY_BEND,
	FAMILY_OTHER,
	FAMILY_COUNT
} force_family;

/* How one assembly pass treats a family: left out, force on the right-hand side only, or
 * linearised (its K (v0 + y/h) on the right-hand side) with or without its Jacobians in A. */
typedef enum family_role {
	ROLE_OFF = 0,
	ROLE_EXPLICIT,
	ROLE_IMPLICIT_RHS, /* f + h K yv on the right; Jacobians not in A (split's second family) */
	ROLE_IMPLICIT,     /* ... and -h df/dv - h^2 df/dx in A */
} family_role;

/* One assembly pass: a role and a stiffness factor (On-Off's c1) per family. */
typedef struct assembly_plan {
	uint8_t role[FAMILY_COUNT];
	double scale[FAMILY_COUNT];
	bool rhs;        /* fill b (false: the matrix only, split's second sweep) */
	bool full_matrix; /* zero all of A first; false: only its diagonal is used */
} assembly_plan;

/* A mass-spring stretch or shear spring (ADI Cloth sec. 2.1): C = |x1 - x0| - rest. */
typedef struct ms_spring {
	int32_t v[2];
	int32_t family;
	double rest, k, kd;
	int32_t slot[4];
	/* A seam's spring (free_gap > 0): once its pair has been farther apart than free_gap (m),
	 * `capped`, its pull closes the pair no faster than max_speed (m/s) until the merge; at each
	 * step seam.c's seams_cap_speed sets kd (its own damping kd_free, plus the cap's). */
	double max_speed, free_gap, kd_free;
	bool capped;
} ms_spring;

/* A mass-spring bend spring over three consecutive particles of a grid line (the two-away
 * neighbours v[0], v[2] and the one between): C = x1 - (wt[0] x0 + wt[2] x2), zero-rest-length
 * (docs/mass-spring.md). s > 0 makes it stiffen: energy k (|C|^2 / 2 + |C|^4 / (4 s^2)). */
typedef struct ms_bend {
	int32_t v[3];
	int32_t family;
	double wt[3]; /* (-a, 1, -b): dC/dx_m = wt[m] I */
	double k, kd, s;
	int32_t slot[9];
} ms_bend;

/* The adaptive step control's state (sec. 7; step/step_control.c). */
#define STEP_CONTROL_FIRST_WAIT 2
#define STEP_CONTROL_MAX_WAIT 40

typedef struct step_control {
	double dt;        /* the step to propose next */
	double max_dt;
	double min_dt;
	int successes;    /* accepted steps since the last change of dt */
	int wait;         /* successes required before the next attempt to grow */
	bool just_grew;   /* the current dt is an attempt to grow */
	double rejected_dt; /* the size of the last rejected step */
	int rejected_runs;  /* rejections at rejected_dt with none at another size between */
	/* The strain limiter's residual (the judge's rule, step/step_judge.c): the last step halved for
	 * it (its start, size and residual growth per second; probe_h 0: none waiting for its retry),
	 * and whether a halving has shown that smaller steps do not shrink that growth. */
	double probe_t, probe_h, probe_rate;
	bool limit_futile;
} step_control;

/* The scratch of strain limiting's projection (step/strain_limit.c): its rows and a particle
 * numbering local to them. Kept with the world's other step buffers, so that a step allocates
 * nothing once the rows have grown to their largest count. */
/* One limited direction: a triangle's w_u or w_v, or a mass-spring stretch spring; or, where the
 * projection keeps cloth/cloth contact (strain_from_limiter), a repulsion pair's gap. */
typedef struct limit_row {
	int32_t p[4]; /* local particle indices */
	double c[4];  /* w = sum c[m] x_m */
	int count;
	vec3 n;      /* w / |w| */
	double C;    /* |w| - bound, in length units of w */
	double diag; /* sum c[m]^2 n^T W_m n */
	double side; /* +1: held from stretching further (lambda >= 0); -1: from shrinking (lambda <= 0) */
	int32_t pair; /* the repulsion pair of a gap's row, else -1 */
} limit_row;

typedef struct limit_set {
	limit_row* rows;
	double* lambda; /* one per row */
	double* cg;     /* three per row: the CG's residual, direction and product */
	int32_t count, capacity;
	int32_t* local;  /* particle -> local index + 1 (0: none; all 0 between projections) */
	int32_t* global; /* local -> particle */
	int32_t particles;
	vec3* dx; /* per local particle */
	/* Particles held by static friction alone (a sticking contact, no pin) that the projection
	 * slides along their contact's surface, where strain_from_limiter asks (sliding). */
	uint8_t* slide;
	bool sliding;
	/* Where the projection keeps the step's cloth/cloth pairs apart (strain_from_limiter): per
	 * repulsion pair (state.repulsions), the gap below which the projection may not bring it, and
	 * whether it is a row of the projection (1) for this call. */
	double* gap_floor;
	uint8_t* gap_row;
	int32_t gap_capacity;
} limit_set;

typedef struct solid_data solid_data; /* collide/solid.h */
typedef struct seam_data seam_data;   /* seam.c */

typedef struct cloth_data {
	char* name;
	int32_t first_vertex;
	int32_t first_triangle;
	drape_mesh mesh; /* a copy of what was given */
	drape_material material; /* kept to rebuild hinges when seams merge (seam.c) */
	drape_cloth_model model;
	drape_bend_model bend_model; /* TRIANGLES: hinges or tensor elements, rebuilt when seams merge */
	double fold_guard;           /* TENSOR: the guard hinges' angle, or 0 (no hinges) */
	int32_t layer;               /* drape_cloth_def.layer (collide/cloth_layers.c) */
	int32_t nu, nv; /* MASS_SPRING grid */
} cloth_data;

typedef struct constraint_data {
	bool alive;
	uint16_t generation; /* bumped at each add into the slot: ids of earlier occupants are stale */
	bool active;
	int32_t particle;
	drape_constraint_kind kind;
	vec3 axis; /* unit */
	drape_motion motion;
	bool use_position;
	vec3 position;
	vec3 velocity;
	drape_keyframe* keyframes;
	int32_t keyframe_count;
	double start_time, end_time;
	vec3 origin;         /* p at activation (FIXED, VELOCITY) */
	double origin_time;
	vec3 force;          /* last step's constraint force, N */
} constraint_data;

typedef struct spring_data {
	bool alive;
	uint16_t generation; /* as constraint_data's */
	int32_t particle;
	vec3 target;
	double stiffness, damping;
	vec3 force;
} spring_data;

/* The world in three parts (docs/architecture.md, "The world's three parts"): the model the user
 * built, the state a step advances, and the workspace a step computes in. Box2D keeps body state
 * apart from body definitions for the same reason: what the step reads and writes every time is
 * apart from what changes only with the topology.
 *
 * The model: particles' masses, the force elements with their coefficients and rest state, the
 * cloths, constraints, springs, solids, seams and layers. It changes only through the API (adding
 * a cloth, a seam's merge), and then marks the workspace stale (dirty). */
typedef struct world_model {
	/* particle_capacity is also that of the state's x and v, and of the arrays that trade places
	 * with them (TRADED_ARRAYS) */
	int32_t particle_count, particle_capacity;
	double* mass;

	triangle_elem* triangles;
	int32_t triangle_count, triangle_capacity;
	hinge_elem* hinges;
	int32_t hinge_count, hinge_capacity;
	/* Mass-spring cloths; a mass-spring cloth's triangles (if any) carry drag only. */
	ms_spring* ms_springs;
	int32_t ms_spring_count, ms_spring_capacity;
	ms_bend* ms_bends;
	int32_t ms_bend_count, ms_bend_capacity;
	/* Tensor bending's elements (forces/bend_tensor.h; their summed matrix is the workspace's bq_). */
	bend_tensor_elem* btens;
	int32_t btens_count, btens_capacity;

	cloth_data* cloths;
	int32_t cloth_count, cloth_capacity;
	constraint_data* constraints;
	int32_t constraint_count, constraint_capacity;
	spring_data* springs;
	int32_t spring_count, spring_capacity;
	solid_data* solids;
	int32_t solid_count, solid_capacity;
	seam_data* seams; /* seam.c */
	int32_t seam_count, seam_capacity;
	cloth_layers layers; /* cloths' layers, when they differ (collide/cloth_layers.c) */

	/* The topology changed since the workspace was built: the next step prepares it again
	 * (step/workspace.c). */
	bool dirty;
} world_model;

/* The state's per-particle arrays that a topology change resets, each named once: element type,
 * name and length rule. They live in the workspace's arena (step/workspace.c). */
#define STATE_ARRAYS(X)                                                                                     \
	X(contact, contacts, LEN_PARTICLES) /* cloth/solid contact per particle, kept from step to step */ \
	X(vec3, dv_last, LEN_PARTICLES)     /* the last accepted step's dv: the PCG's warm start */        \
	X(vec3, x_prev, LEN_PARTICLES)      /* BDF2 (step/bdf2.c): x one accepted step back */             \
	/* the last proposal before and after the strain limiter's projection (when it moved           \
	 * anything): the step control measures the next proposal's strain change from the former       \
	 * while the cloth is where the latter put it (step/strain_change.c, strain_change_judged) */    \
	X(vec3, limit_from, LEN_PARTICLES)                                                                  \
	X(vec3, limit_to, LEN_PARTICLES)

/* The arrays that the step trades with x and v by swapping pointers (step_commit, BDF2), each a
 * separate allocation of particle_capacity elements: whichever of them x or v points to after a
 * trade, it is as large as cloth.c's growth of x and v expects. */
#define TRADED_ARRAYS(X)                                                      \
	X(work, x1) /* this step's proposal: x1 = x0 + h (v0 + dv) + y */     \
	X(work, v1)                                                           \
	X(work, v_keep) /* during a BDF2 step: v_n while v holds the extrapolated v */ \
	X(state, v_prev) /* BDF2: v one accepted step back */

/* The state: what a step advances and a checkpoint saves (world_state.c): time, positions and
 * velocities, contacts, the step control, and the history the next step starts from. */
typedef struct world_state {
	double time;
	vec3* x;
	vec3* v;
#define X(type, name, len) type* name;
	STATE_ARRAYS(X)
#undef X
	vec3* v_prev; /* TRADED_ARRAYS */
	double h_last; /* the size of the step dv_last belongs to; 0 when there is none */
	double h_prev; /* BDF2: the size of the step x_prev is from (0: none) */
	bool limit_moved; /* limit_from, limit_to hold a projection */
	int32_t adi_phase; /* ADI: 0 when warp (u) is implicit in the next step, 1 for weft (v) */
	step_control control;
	drape_stats stats;
	/* Cloth/cloth contact: this step's repulsions, and the count found by proximity at the step's
	 * start; intersecting triangle pairs at the current state. */
	repulsion* repulsions;
	int32_t repulsion_count, repulsion_capacity;
	int32_t proximity_count;
	int32_t intersections;
} world_state;

/* The workspace's arrays, each named once: element type, name and length rule. One arena per
 * topology change holds them all with the state's STATE_ARRAYS (step/workspace.c: one init, one
 * free); a step allocates nothing. */
#define WORKSPACE_ARRAYS(X)                                                                                        \
	X(vec3, b, LEN_PARTICLES) /* eq. 18's right-hand side */                                                   \
	X(vec3, dv, LEN_PARTICLES)                                                                                 \
	X(vec3, z, LEN_PARTICLES) /* the constrained velocity change (sec. 5.1) */                                 \
	X(vec3, y, LEN_PARTICLES) /* the position alteration (eq. 17) */                                           \
	X(vec3, e, LEN_PARTICLES) /* the residual A dv - b: constraint impulses (sec. 5.4) */                      \
	X(mat3, S, LEN_PARTICLES) /* the filter of eq. 13 */                                                       \
	X(uint8_t, constrained, LEN_PARTICLES)                                                                     \
	/* the contact bounds' items and each particle's bound (-1: none): the arrays of bounds below */          \
	X(pcg_bound, bound_items, LEN_PARTICLES)                                                                   \
	X(int32_t, bound_of, LEN_PARTICLES)                                                                        \
	X(contact_trial, contact_trials, LEN_PARTICLES) /* with the bounds: each contact's step (contact.h) */   \
	X(double, contact_room, LEN_PARTICLES) /* squeezed cloth (collide/contact.c): the most this step's     \
						* contact target lies off its surface; INFINITY: no squeeze */ \
	X(double, partial, LEN_CHUNKS) /* reduction scratch, 4 per chunk (solver/reduce.h) */                      \
	/* line solves (step/line_solve.c): per particle the slots of blocks (p, p-1), (p, p+1),                 \
	 * (p, p-nu), (p, p+nu) on its grid, -1 where there is none; per thread scratch for the longest line */  \
	X(int32_t, line_slots, LEN_LINE_SLOTS)                                                                     \
	X(mat3, line_m, LEN_LINE_MATRICES) /* lower, diag, upper, scratch */                                       \
	X(vec3, line_v, LEN_LINE_VECTORS)  /* rhs, solution, scratch */                                            \
	X(vec3, w_mid, LEN_PARTICLES)      /* split's intermediate w */                                            \
	X(vec3, e_mid, LEN_PARTICLES)      /* split's first-sweep residual */                                      \
	/* re-solve passes of one step reuse the element part of the system (step/implicit.c) */                 \
	X(mat3, reuse_A, LEN_NONZEROS)       /* A after the mass and element terms of the step's first pass */    \
	X(vec3, reuse_r, LEN_ELEMENT_CORNERS) /* each element's right-hand-side terms, per vertex: triangles   \
					       * (3 each), hinges (4), ms springs (2), ms bends (3) */            \
	X(uint8_t, reuse_used, LEN_ELEMENTS) /* per element, in the same order: whether it added terms */        \
	X(vec3, reuse_y, LEN_PARTICLES)      /* the y those terms were formed with */                             \
	X(uint8_t, reuse_dirty, LEN_PARTICLES) /* per particle: y differs from reuse_y */                         \
	X(vec3, limit_pending, LEN_PARTICLES) /* this step's proposal before the projection, until accepted */   \
	/* the step control's strain measure (step/strain_change.c): per triangle w_u, w_v and their lengths \
	 * at x1, and at the start, where the last accepted proposal's are kept (strain_w0_of); the judge's  \
	 * energy and the next step's forces read them too */                                                   \
	X(tri_w, tri_w1, LEN_ELEMENTS)                                                                             \
	X(tri_w, tri_w0, LEN_ELEMENTS)                                                                             \
	/* an explicit tensor bending's force (step/bend_tensor_assemble.c), formed with the judge's energy \
	 * at the proposal (x1, v1), and kept for the state it became (bend_f0_x, bend_f0_v) */              \
	X(vec3, bend_f1, LEN_PARTICLES)                                                                            \
	X(vec3, bend_f0, LEN_PARTICLES)                                                                            \
	/* the x and v its rows read, one 64-byte line per particle (x, 0, v, 0): each entry's two loads \
	 * of four doubles (step/bend_tensor_assemble.c); none without tensor bending */                \
	X(double, bend_xv, LEN_BEND_LINES)                                                                         \
	/* and the v + y / h of an implicit role's rows, (x, y, z, 0) per particle */                             \
	X(double, bend_yv, LEN_BEND_YV)                                                                            \
	X(vec3, x_keep, LEN_PARTICLES)        /* BDF2: the extrapolation's shift of x (bdf2_shift) */             \
	/* Newton iterations (def.newton_iterations > 1; step/implicit.c): the iterate's state, its y          \
	 * (-h v_k) and a zero z; none (NULL) otherwise */                                                        \
	X(vec3, newton_x, LEN_NEWTON)                                                                              \
	X(vec3, newton_v, LEN_NEWTON)                                                                              \
	X(vec3, newton_y, LEN_NEWTON)                                                                              \
	X(vec3, newton_z, LEN_NEWTON)

/* The workspace: built from the model by step/workspace.c at each topology change, then reused
 * by every step. Its arrays (WORKSPACE_ARRAYS) come from one arena; the solver's structures (the
 * matrix, PCG, preconditioners, colourings, the cloth/cloth detector) keep their own init and free,
 * called from the workspace's one init and one free. */
typedef struct world_workspace {
	void* arena; /* every WORKSPACE_ARRAYS and STATE_ARRAYS array, one allocation */
#define X(type, name, len) type* name;
	WORKSPACE_ARRAYS(X)
#undef X
	vec3* x1; /* TRADED_ARRAYS */
	vec3* v1;
	vec3* v_keep;
	int32_t line_capacity; /* the longest grid line */
	colouring triangle_colours, hinge_colours, ms_spring_colours, ms_bend_colours;
	bsr A;
	pcg_workspace pcg;
	pcg_bounds bounds; /* this step's contact inequalities (step/constraints.c, collide/contact.c), on bound_items and bound_of */
	limit_set limit; /* strain limiting's projection (step/strain_limit.c) */
	bool limit_pending_moved;
	/* The positions tri_w0 belongs to (the state's x after the commit that kept them, unchanged
	 * since within one call of drape_world_step); NULL when none. */
	const vec3* strain_w0_of;
	/* The state bend_f0 is the explicit tensor bending force of (its x and v, and the family's
	 * scale); NULL when none. bend_f1_s: the scale bend_f1 was formed with. */
	const vec3 *bend_f0_x, *bend_f0_v;
	double bend_f0_s, bend_f1_s;
	cholesky_precond* cholesky; /* preconditioner CHOLESKY; NULL otherwise */
	two_level* two_level;       /* preconditioner TWO_LEVEL; NULL otherwise */
	multigrid* multigrid;       /* preconditioner MULTIGRID; NULL otherwise */
	bool multigrid_step_built;  /* its hierarchy was built by this step's first solve */
	double cholesky_h;          /* the step size its factor was made for */
	int cholesky_last_iterations; /* of the last solve with it */
	/* Tensor bending (step/bend_tensor_assemble.c): the elements' summed constant stiffness and
	 * damping as a scalar CSR matrix (E = 1/2 sum q_ij x_i.x_j) with each entry's slot in A. */
	int32_t* bq_start;
	int32_t* bq_col;
	int32_t* bq_slot;
	double* bq_k;
	double* bq_d;
	double reuse_t, reuse_h;
	int reuse_mode;      /* what element assembly does with its terms (implicit.c) */
	bool reuse_step;     /* inside a step's contact passes (step/step.c) */
	bool reuse_valid;    /* the reuse_ arrays hold this step's first pass */
	bool reuse_disabled; /* assemble every pass in full (tests compare the two) */
	bool fused_disabled; /* explicit terms by the general path, nothing kept (tests compare the two) */
	bool lanes_plain;    /* the explicit kernels' plain clone where AVX runs (math/lanes.h; tests) */
	int64_t reuse_passes; /* passes that reused the element terms (tests) */
	bool bdf2_active;     /* x_keep, v_keep hold this step's extrapolation */
	/* Cloth/cloth contact: the detector over all cloth triangles (with self_collision). */
	cloth_pairs pairs;
	bool pairs_ready;
	/* BVH query scratch, grown on demand (collide/solid_query.c). */
	int32_t* query_hits;
	int32_t query_capacity;
	int32_t* query_stack;
	int32_t query_stack_size;
} world_workspace;

struct drape_world {
	drape_world_def def;
	int threads;
	/* threads: the count of this step; threads_max: the most it may be (scratch is sized for it).
	 * An automatic world (def.threads = 0) sets threads before each drape_world_step to the
	 * cores other processes leave free (solver/thread_policy.h). */
	int threads_max;
	const volatile int* cancel; /* drape_world_set_cancel: stop between steps while non-zero */
	char error[512];
	drape_status status; /* of the last failed call (world_error.c) */
	char* warnings; /* accumulated, newline-separated */
	/* Test hook: reject this many upcoming steps as if they had blown up. */
	int32_t fail_next_steps;

	world_model model;
	world_state state;
	world_workspace work;
};

#endif
