/* The step's workspace (workspace.h): one init and one free per topology change. Its arrays
 * (WORKSPACE_ARRAYS in world_data.h), and the state's arrays that a topology change resets
 * (STATE_ARRAYS), come from one arena sized by the length rules below, each array named once in
 * those tables; the solver's structures (the block-sparse matrix of sec. 2.3, the PCG's and the
 * preconditioners' workspaces of sec. 5.3, the colourings, the cloth/cloth detector of sec. 6)
 * keep their own init and free, called from here. */
#include "workspace.h"

#include "bend_tensor_assemble.h"
#include "line_solve.h"
#include "strain_limit.h"
#include "../integrator.h"
#include "../seam.h"
#include "../world_error.h"
#include "../collide/cloth_contact.h"
#include "../solver/reduce.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The length rules of the arena's arrays. */
typedef enum length_rule {
	LEN_PARTICLES,       /* one per particle */
	LEN_CHUNKS,          /* reduction scratch: 4 per chunk of the longest vector, and 2 */
	LEN_LINE_SLOTS,      /* 4 per particle */
	LEN_LINE_MATRICES,   /* 4 per particle of the longest grid line, per thread */
	LEN_LINE_VECTORS,    /* 3 per particle of the longest grid line, per thread */
	LEN_NONZEROS,        /* one per block of A */
	LEN_ELEMENT_CORNERS, /* one per corner of each element: triangles 3, hinges 4, ms springs 2, ms bends 3 */
	LEN_ELEMENTS,        /* one per element */
	LEN_NEWTON,          /* one per particle with Newton iterations (def.newton_iterations > 1), else none */
	LEN_BEND_LINES,      /* 8 per particle with tensor bending, else none */
	LEN_BEND_YV,         /* 4 per particle with tensor bending, else none */
	LEN_RULES
} length_rule;

/* Each slice is a whole number of 64-byte lines from the arena's start. calloc's block is 16-byte
 * aligned, as each malloc'd array was before the arena; the rounding gives every array the same
 * offset within a cache line, so a loop over several of them (b, dv, z, ...) finds them aligned
 * alike. */
#define ARENA_ALIGN 64

static size_t aligned(size_t bytes) { return (bytes + ARENA_ALIGN - 1) / ARENA_ALIGN * ARENA_ALIGN; }

static void lengths(const drape_world* w, size_t len[LEN_RULES])
{
	const world_model* md = &w->model;
	const int32_t n = md->particle_count;
	const size_t m = (size_t)(n > 0 ? n : 1);
	const int32_t longest = n > md->triangle_count ? n : md->triangle_count;
	const size_t lines = (size_t)w->work.line_capacity * (size_t)w->threads_max;
	const size_t elements =
		(size_t)md->triangle_count + (size_t)md->hinge_count + (size_t)md->ms_spring_count + (size_t)md->ms_bend_count;
	const size_t corners = 3 * (size_t)md->triangle_count + 4 * (size_t)md->hinge_count +
			       2 * (size_t)md->ms_spring_count + 3 * (size_t)md->ms_bend_count;
	len[LEN_PARTICLES] = m;
	len[LEN_CHUNKS] = (size_t)(4 * reduce_chunks(longest) + 2);
	len[LEN_LINE_SLOTS] = 4 * m;
	len[LEN_LINE_MATRICES] = 4 * lines;
	len[LEN_LINE_VECTORS] = 3 * lines;
	len[LEN_NONZEROS] = (size_t)(w->work.A.nnz > 0 ? w->work.A.nnz : 1);
	len[LEN_ELEMENT_CORNERS] = corners ? corners : 1;
	len[LEN_ELEMENTS] = elements ? elements : 1;
	len[LEN_NEWTON] = w->def.newton_iterations > 1 ? m : 0;
	len[LEN_BEND_LINES] = md->btens_count > 0 ? 8 * m : 0;
	len[LEN_BEND_YV] = md->btens_count > 0 ? 4 * m : 0;
}

/* The arena: every array of WORKSPACE_ARRAYS and STATE_ARRAYS in one zeroed allocation (an array
 * of no length is NULL). */
static bool arena_build(drape_world* w)
{
	size_t len[LEN_RULES];
	lengths(w, len);
	size_t bytes = 0;
#define X(type, name, rule) bytes += aligned(len[rule] * sizeof(type));
	WORKSPACE_ARRAYS(X)
	STATE_ARRAYS(X)
#undef X
	char* base = calloc(1, bytes);
	if (!base) return false;
	w->work.arena = base;
	size_t at = 0;
#define X(type, name, rule)                                              \
	w->work.name = len[rule] > 0 ? (type*)(void*)(base + at) : NULL; \
	at += aligned(len[rule] * sizeof(type));
	WORKSPACE_ARRAYS(X)
#undef X
#define X(type, name, rule)                                               \
	w->state.name = len[rule] > 0 ? (type*)(void*)(base + at) : NULL; \
	at += aligned(len[rule] * sizeof(type));
	STATE_ARRAYS(X)
#undef X
	return true;
}

static void arena_free(drape_world* w)
{
	free(w->work.arena);
	w->work.arena = NULL;
#define X(type, name, rule) w->work.name = NULL;
	WORKSPACE_ARRAYS(X)
#undef X
#define X(type, name, rule) w->state.name = NULL;
	STATE_ARRAYS(X)
#undef X
}

/* The arrays the step trades with x and v (TRADED_ARRAYS): as large as x and v may grow before
 * the next topology change (model.particle_capacity). Zeroed, as the arena is: a checkpoint
 * writes BDF2's history (v_prev) whether or not a BDF2 step has filled it. */
static bool traded_build(drape_world* w)
{
	const size_t cap = (size_t)(w->model.particle_capacity > 0 ? w->model.particle_capacity : 1);
	bool ok = true;
#define X(part, name) ok = ok && (w->part.name = calloc(cap, sizeof(vec3))) != NULL;
	TRADED_ARRAYS(X)
#undef X
	return ok;
}

static void traded_free(drape_world* w)
{
#define X(part, name)          \
	free(w->part.name);    \
	w->part.name = NULL;
	TRADED_ARRAYS(X)
#undef X
}

/* Line solves: scratch for the longest grid line, per thread. */
static int32_t longest_line(const drape_world* w)
{
	int32_t longest = 1;
	for (int32_t c = 0; c < w->model.cloth_count; ++c) {
		if (w->model.cloths[c].nu > longest) longest = w->model.cloths[c].nu;
		if (w->model.cloths[c].nv > longest) longest = w->model.cloths[c].nv;
	}
	return longest;
}

void workspace_free(drape_world* w)
{
	world_workspace* k = &w->work;
	/* The step's own buffers, then the rooms below it in turn: the cloth/cloth detector, the
	 * colourings, the solver's matrix and preconditioners. */
	bend_tensor_free(w);
	limit_set_free(&k->limit);
	arena_free(w);
	memset(&k->bounds, 0, sizeof k->bounds); /* its arrays were the arena's */
	traded_free(w);
	if (k->pairs_ready) cloth_pairs_free(&k->pairs);
	k->pairs_ready = false;
	colouring_free(&k->triangle_colours);
	colouring_free(&k->hinge_colours);
	colouring_free(&k->ms_spring_colours);
	colouring_free(&k->ms_bend_colours);
	bsr_free(&k->A);
	pcg_workspace_free(&k->pcg);
	cholesky_destroy(k->cholesky);
	k->cholesky = NULL;
	two_level_destroy(k->two_level);
	k->two_level = NULL;
	multigrid_destroy(k->multigrid);
	k->multigrid = NULL;
	k->reuse_valid = false;
	k->limit_pending_moved = false;
	k->strain_w0_of = NULL;
	k->bend_f0_x = k->bend_f0_v = NULL;
	w->state.limit_moved = false;
	w->state.h_last = 0.0;
	w->state.h_prev = 0.0;
}

/* One stage that owns its calls and runs downward through the rooms: the step's own buffers (the
 * strain limiter's scratch, the arrays traded with x and v), the cloth/cloth detector (collide/),
 * the colourings (mesh/), the matrix (solver/), and last the arena, which the matrix's size sets. */
drape_status workspace_prepare(drape_world* w)
{
	world_model* md = &w->model;
	world_workspace* k = &w->work;
	const int32_t n = md->particle_count;
	k->line_capacity = longest_line(w);
	workspace_free(w);
	/* The step's own buffers. */
	bool ok = limit_set_init(&k->limit, n) && traded_build(w);
	/* The cloth/cloth detector (collide/), told which particles the open seams will merge. */
	if (ok && w->def.self_collision) {
		int32_t sewn_count = 0;
		int32_t* sewn = seams_sewn_pairs(w, &sewn_count);
		ok = sewn != NULL && cloth_contacts_setup(w, sewn, sewn_count);
		free(sewn);
	}
	/* The elements' colourings (mesh/). */
	ok = ok && colouring_build(&k->triangle_colours, md->triangles, md->triangle_count, 3, sizeof(triangle_elem), n) &&
	     colouring_build(&k->hinge_colours, md->hinges, md->hinge_count, 4, sizeof(hinge_elem), n) &&
	     colouring_build(&k->ms_spring_colours, md->ms_springs, md->ms_spring_count, 2, sizeof(ms_spring), n) &&
	     colouring_build(&k->ms_bend_colours, md->ms_bends, md->ms_bend_count, 3, sizeof(ms_bend), n);
	/* The matrix (solver/): the pattern of every element's blocks, each element's slots in it,
	 * tensor bending's summed rows (forces/) placed in it, the PCG's workspace and the
	 * preconditioner that factors or coarsens it. The tensor bending's second ring stays out of
	 * A's block pattern (bsr.h, the scalar part) except for the preconditioners that factor or
	 * coarsen A by its pattern; the factorisation serves only the general implicit solve
	 * (SOLVE_PCG). */
	const bool btens_blocks =
		w->def.preconditioner == DRAPE_PRECONDITIONER_CHOLESKY || w->def.preconditioner == DRAPE_PRECONDITIONER_MULTIGRID;
	const bool general = integrator_supports_cloth_contact(w->def.integrator);
	/* An explicit integrator's system is block-diagonal (step/integrators.c, SOLVE_DIAGONAL): its
	 * pattern is the diagonal alone, n blocks side by side, where the elements' pattern spread them
	 * over the whole matrix (72 bytes a block, 3.6 MB for a 51 x 51 tensor sheet: the block solve
	 * waited on a cache miss for each; docs/reliability.md). The elements' slots are then -1, which
	 * no explicit family reads. */
	const bool elements = !integrator_diagonal_system(w->def.integrator);
	bsr_builder bb;
	ok = ok && bend_tensor_rows_build(md->btens, md->btens_count, n, &k->bq_start, &k->bq_col, &k->bq_k, &k->bq_d) &&
	     bsr_builder_init(&bb, n) &&
	     bsr_builder_add_elements(&bb, md->triangles, elements ? md->triangle_count : 0, 3, sizeof(triangle_elem)) &&
	     bsr_builder_add_elements(&bb, md->hinges, elements ? md->hinge_count : 0, 4, sizeof(hinge_elem)) &&
	     bsr_builder_add_elements(&bb, md->ms_springs, elements ? md->ms_spring_count : 0, 2, sizeof(ms_spring)) &&
	     bsr_builder_add_elements(&bb, md->ms_bends, elements ? md->ms_bend_count : 0, 3, sizeof(ms_bend)) &&
	     bsr_builder_add_elements(&bb, md->btens, elements && btens_blocks ? md->btens_count : 0, BEND_TENSOR_NODES,
				      sizeof(bend_tensor_elem)) &&
	     bsr_builder_finish(&bb, &k->A) && pcg_workspace_init(&k->pcg, n);
	if (ok && md->btens_count > 0) {
		const size_t nnz = (size_t)k->bq_start[n];
		ok = (k->bq_slot = malloc((nnz ? nnz : 1) * sizeof *k->bq_slot)) != NULL &&
		     bsr_place_entries(&k->A, k->bq_start, k->bq_col, k->bq_slot);
	}
	if (ok) {
		bsr_element_slots(&k->A, md->triangles, md->triangle_count, 3, sizeof(triangle_elem), offsetof(triangle_elem, slot));
		bsr_element_slots(&k->A, md->hinges, md->hinge_count, 4, sizeof(hinge_elem), offsetof(hinge_elem, slot));
		bsr_element_slots(&k->A, md->ms_springs, md->ms_spring_count, 2, sizeof(ms_spring), offsetof(ms_spring, slot));
		bsr_element_slots(&k->A, md->ms_bends, md->ms_bend_count, 3, sizeof(ms_bend), offsetof(ms_bend, slot));
	}
	if (ok && w->def.preconditioner == DRAPE_PRECONDITIONER_CHOLESKY && general)
		ok = (k->cholesky = cholesky_create(&k->A)) != NULL;
	if (ok && w->def.preconditioner == DRAPE_PRECONDITIONER_TWO_LEVEL && general)
		ok = (k->two_level = two_level_create(&k->A, TWO_LEVEL_MAX_FACTORED)) != NULL;
	if (ok && w->def.preconditioner == DRAPE_PRECONDITIONER_MULTIGRID && general)
		ok = (k->multigrid = multigrid_create(&k->A, MULTIGRID_MAX_FACTORED, true)) != NULL;
	/* Last the arena, which the matrix's size sets (no contacts, no warm start, no history), and
	 * the line solves' slots in it; the contact bounds' arrays are the arena's too. */
	ok = ok && arena_build(w);
	if (ok) k->bounds = (pcg_bounds){.items = k->bound_items, .capacity = n, .of_particle = k->bound_of};
	for (int32_t i = 0; ok && i < n; ++i) k->bound_of[i] = -1;
	if (!ok) {
		workspace_free(w);
		if (w->cancel && *w->cancel) {
			/* the rest neighbours' build looks at the flag (collide/rest_neighbours.h) */
			return world_fail_status(w, DRAPE_ERROR_INTERRUPTED, "interrupted while preparing the solver for %d particles", n);
		}
		return world_fail_status(w, DRAPE_ERROR_MEMORY, "out of memory preparing the solver for %d particles", n);
	}
	for (int32_t i = 0; i < n; ++i) {
		w->state.contacts[i] = (contact){.solid = -1};
		k->contact_trials[i] = (contact_trial){.near = -1};
	}
	line_slots_build(w);
	w->model.dirty = false;
	return DRAPE_OK;
}
