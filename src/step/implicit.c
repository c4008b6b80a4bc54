/* The implicit step's linear system and its solve (the stages that run them: src/step/step.c). Eq. 18:
 *   (M - h df/dv - h^2 df/dx) dv = h (f0 + h df/dx v0 + df/dx y),   dx = h (v0 + dv) + y,
 * solved by modified PCG with the constraint filter (sec. 5.3). Every element's local terms are
 * scattered straight into precomputed matrix slots, in coloured tiles (no allocation, and the same
 * sums in the same order whatever the thread count). The right-hand side is gathered the same way
 * as h f_e + h^2 K_e (v0 + y/h), so df/dx is never stored as a matrix of its own. */
#include "implicit.h"

#include "../collide/cloth_contact.h"
#include "../collide/contact.h"
#include "../math/scalar.h"
#include "bend_tensor_assemble.h"
#include "explicit_triangles.h"
#include "implicit_triangles.h"
#include "integrators.h"
#include "line_solve.h"
#include "../solver/reduce.h"
#include "strain_limit.h"

#include <math.h>
#include <string.h>
#include <time.h>

/* The air velocity at time t: a steady wind plus a sinusoidal gust (docs/scene-format.md). */
static vec3 world_wind(const drape_world* w, double t)
{
	double s = sin(2.0 * DRAPE_PI * w->def.gust_frequency * t);
	return v3_madd(v3_load(w->def.air_velocity), s, v3_load(w->def.gust_amplitude));
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

/* An element's terms, sorted by what the pass does with them: [0] explicit (force only), [1]
 * linearised on the right-hand side only, [2] implicit (also into A). Cleared on first use. */
typedef struct sinks {
	element_terms t[3];
	bool used[3];
	bool jacobians[3]; /* t[k]'s Jacobian blocks were cleared */
	int n;
} sinks;

/* Not a designated initialiser: that would zero all three terms (7 KB) for every element. */
static inline void sinks_init(sinks* s, int n)
{
	s->n = n;
	s->used[0] = s->used[1] = s->used[2] = false;
}

static element_terms* sink(sinks* s, const assembly_plan* p, int family)
{
	int role = p->role[family];
	if (role == ROLE_OFF) return NULL;
	int k = role - 1;
	if (!s->used[k] || !s->jacobians[k]) {
		if (s->used[k]) {
			/* forces kept: clear the blocks the force-only terms before left alone */
			vec3 f[COND_MAX_NODES];
			for (int i = 0; i < s->n; ++i) f[i] = s->t[k].f[i];
			element_terms_reset(&s->t[k], s->n);
			for (int i = 0; i < s->n; ++i) s->t[k].f[i] = f[i];
		} else {
			element_terms_reset(&s->t[k], s->n);
		}
		s->used[k] = true;
		s->jacobians[k] = true;
	}
	return &s->t[k];
}

/* The terms of an element's conditions, and how to form them: an explicit family's (force only)
 * skip the Jacobians and their clearing, two thirds of an explicit step's element work. */
static element_terms* sink_for(sinks* s, const assembly_plan* p, int family, jacobian_mode* mode)
{
	int role = p->role[family];
	if (role != ROLE_EXPLICIT) {
		*mode = JACOBIAN_DEFINITE;
		return sink(s, p, family);
	}
	*mode = JACOBIAN_NONE;
	const int k = ROLE_EXPLICIT - 1;
	if (!s->used[k]) {
		for (int i = 0; i < s->n; ++i) s->t[k].f[i] = v3_zero();
		s->t[k].n = s->n;
		s->used[k] = true;
		s->jacobians[k] = false;
	}
	return &s->t[k];
}

/* What element assembly does with its terms (w->reuse_mode). A step that is solved again (new
 * contacts) has the same x, v, t and h in every pass: the element terms are the same, and only
 * y, in b's h^2 K (v0 + y/h), changes, at the few particles that got a contact or a position
 * correction. The first pass records A after the element terms and each element's contribution
 * to b (REUSE_RECORD, plans with implicit families only); a later pass restores A, re-forms the
 * terms of the elements that touch a particle whose y changed (REUSE_CHANGED: their b
 * contributions only), and sums every element's contribution into b in the order of a full
 * assembly. The same numbers added in the same order: the system is bit-identical to a full
 * assembly (the world tests compare the two). */
enum { REUSE_OFF, REUSE_RECORD, REUSE_CHANGED };

/* Adds one group of terms: the matrix part  A -= h df/dv + h^2 df/dx  for implicit terms, and
 * b += h f (+ h^2 K yv for linearised terms). yv[a] = v0 + y/h of the element's particles. With
 * rec, the b terms are also written to rec[0 .. n); under REUSE_CHANGED only there. */
static void scatter_role(drape_world* w, const element_terms* t, int role, bool rhs, const int32_t* vert, const int32_t* slot,
			 const vec3* yv, double h, vec3* rec)
{
	if (rec && w->work.reuse_mode == REUSE_CHANGED) {
		const double h2 = h * h;
		for (int a = 0; a < t->n; ++a) {
			vec3 r = v3_scale(t->f[a], h);
			for (int c = 0; c < t->n; ++c) r = v3_madd(r, h2, m3_mulv(t->dfdx[a][c], yv[c]));
			rec[a] = r;
		}
		return;
	}
	const int n = t->n;
	const double h2 = h * h;
	for (int a = 0; a < n; ++a) {
		vec3 r = v3_scale(t->f[a], h);
		for (int c = 0; c < n; ++c) {
			if (role != ROLE_EXPLICIT) r = v3_madd(r, h2, m3_mulv(t->dfdx[a][c], yv[c]));
			if (role != ROLE_IMPLICIT) continue;
			/* Through the written-out helpers of mat3.h: a 3x3 loop here stayed rolled (GCC 12,
			 * -O2) and was the assembly's hottest line, 8 % of the figure 1 drape. The same
			 * operations as blk[i][j] -= h dfdv[i][j] + h^2 dfdx[i][j], so the same bits. */
			mat3* blk = &w->work.A.blocks[slot[a * n + c]];
			*blk = m3_sub(*blk, m3_madd(m3_scale(t->dfdv[a][c], h), h2, t->dfdx[a][c]));
		}
		if (rhs) w->work.b[vert[a]] = v3_add(w->work.b[vert[a]], r);
		if (rec) rec[a] = r;
	}
}

/* Whether an element's gradient g, velocities v and yv (n each) are finite: then the terms of a
 * condition of value +0 and stiffness and damping 0 are all +0 (each a sum from +0 of products
 * of 0 with finite numbers), and scatter_role adds exactly nothing to A and +0 to b, as
 * scatter_zero does. A fold-guarded hinge within its guard is such an element: most of a
 * garment's hinges, most of the time (docs/solver.md, "One step", *Assembly*). */
static bool finite_terms(const vec3* g, const vec3* v, const vec3* yv, int n)
{
	bool finite = true;
	for (int a = 0; a < n; ++a) finite = finite && v3_isfinite(g[a]) && v3_isfinite(v[a]) && v3_isfinite(yv[a]);
	return finite;
}

/* What scatter adds for an element whose terms are all +0 (finite_terms): b + (+0), which leaves
 * b as it was except a -0, rec +0, used set; A as it was (a block minus +0 is the block). */
static void scatter_zero(drape_world* w, const assembly_plan* p, const int32_t* vert, int n, vec3* rec, uint8_t* used)
{
	const bool changed = rec && w->work.reuse_mode == REUSE_CHANGED;
	for (int a = 0; a < n; ++a) {
		if (p->rhs && !changed) w->work.b[vert[a]] = v3_add(w->work.b[vert[a]], v3_zero());
		if (rec) rec[a] = v3_zero();
	}
	if (used) *used = 1;
}

/* rec, used: the element's slots in w->reuse_r and w->reuse_used (reuse modes only, where every
 * family is implicit, so at most one group of terms is used). */
static void scatter(drape_world* w, const sinks* s, const assembly_plan* p, const int32_t* vert, const int32_t* slot,
		    const vec3* yv, double h, vec3* rec, uint8_t* used)
{
	for (int k = 0; k < 3; ++k)
		if (s->used[k]) {
			scatter_role(w, &s->t[k], k + 1, p->rhs, vert, slot, yv, h, rec);
			if (used) *used = 1;
		}
}

/* Element number idx of a kind whose elements have n vertices, starting at vertex slot
 * r_base and element slot u_base of the reuse arrays: its slots, or NULL outside the reuse
 * modes. Under REUSE_CHANGED, false when none of its particles' y changed (nothing to redo). */
static bool reuse_slots(drape_world* w, const int32_t* vert, int n, size_t r_base, size_t u_base, int32_t idx, vec3** rec,
			uint8_t** used)
{
	*rec = NULL;
	*used = NULL;
	if (w->work.reuse_mode == REUSE_OFF) return true;
	if (w->work.reuse_mode == REUSE_CHANGED) {
		bool dirty = false;
		for (int a = 0; a < n; ++a) dirty = dirty || w->work.reuse_dirty[vert[a]];
		if (!dirty) return false;
	}
	*rec = w->work.reuse_r + r_base + (size_t)n * (size_t)idx;
	*used = w->work.reuse_used + u_base + (size_t)idx;
	return true;
}

static size_t hinge_r_base(const drape_world* w) { return 3 * (size_t)w->model.triangle_count; }
static size_t spring_r_base(const drape_world* w) { return hinge_r_base(w) + 4 * (size_t)w->model.hinge_count; }
static size_t bend_r_base(const drape_world* w) { return spring_r_base(w) + 2 * (size_t)w->model.ms_spring_count; }
static size_t hinge_u_base(const drape_world* w) { return (size_t)w->model.triangle_count; }
static size_t spring_u_base(const drape_world* w) { return hinge_u_base(w) + (size_t)w->model.hinge_count; }
static size_t bend_u_base(const drape_world* w) { return spring_u_base(w) + (size_t)w->model.ms_spring_count; }

static void gather(const drape_world* w, const int32_t* vert, int n, double h, vec3* x, vec3* v, vec3* yv)
{
	for (int a = 0; a < n; ++a) {
		x[a] = w->state.x[vert[a]];
		v[a] = w->state.v[vert[a]];
		yv[a] = v3_madd(v[a], 1.0 / h, w->work.y[vert[a]]);
	}
}

static void assemble_triangle(drape_world* w, const triangle_elem* e, vec3 wind, double h, const assembly_plan* p)
{
	vec3* rec;
	uint8_t* used;
	if (!reuse_slots(w, e->v, 3, 0, 0, (int32_t)(e - w->model.triangles), &rec, &used)) return;
	vec3 x[3], v[3], yv[3];
	gather(w, e->v, 3, h, x, v, yv);
	sinks s;
	sinks_init(&s, 3);
	condition c;
	element_terms* t;
	if (!e->springs_only) {
		jacobian_mode mu = JACOBIAN_NONE, mv = JACOBIAN_NONE, m;
		element_terms* tu = p->role[FAMILY_STRETCH_U] != ROLE_OFF ? sink_for(&s, p, FAMILY_STRETCH_U, &mu) : NULL;
		element_terms* tv = p->role[FAMILY_STRETCH_V] != ROLE_OFF ? sink_for(&s, p, FAMILY_STRETCH_V, &mv) : NULL;
		/* The triangle's w at the state's x: kept from the judge's measure of the proposal that
		 * became it (step/strain_change.c), else formed here; the same numbers either way. */
		tri_w tw;
		if (w->state.x == w->work.strain_w0_of && !w->work.fused_disabled) tw = w->work.tri_w0[e - w->model.triangles];
		else tri_w_at(&e->rest, x, &tw);
		if (tu || tv) {
			stretch_condition_w(&e->rest, &tw, e->bu, e->bv, (tu && mu != JACOBIAN_NONE) || (tv && mv != JACOBIAN_NONE), &c);
			/* Component 0 is the warp (u) stretch, 1 the weft (v). */
			if (tu)
				condition_terms_component(&c, 0, e->k_stretch * p->scale[FAMILY_STRETCH_U],
							  e->kd_stretch * p->scale[FAMILY_STRETCH_U], v, mu, tu);
			if (tv)
				condition_terms_component(&c, 1, e->k_stretch * p->scale[FAMILY_STRETCH_V],
							  e->kd_stretch * p->scale[FAMILY_STRETCH_V], v, mv, tv);
			/* Beyond the strain limit the stretch stiffens (docs/solver.md, "Strain limiting"). */
			condition cs;
			const int beyond = strain_limit_active(w)
						   ? stretch_limit_condition(&e->rest, &c, e->bu, e->bv, w->def.strain_limit, &cs)
						   : 0;
			const double ks = (STRETCH_LIMIT_STIFFENING - 1.0) * e->k_stretch;
			if (tu && (beyond & 1))
				condition_terms_component(&cs, 0, ks * p->scale[FAMILY_STRETCH_U], 0.0, v, mu, tu);
			if (tv && (beyond & 2))
				condition_terms_component(&cs, 1, ks * p->scale[FAMILY_STRETCH_V], 0.0, v, mv, tv);
		}
		if (p->role[FAMILY_SHEAR] != ROLE_OFF && (t = sink_for(&s, p, FAMILY_SHEAR, &m))) {
			shear_condition_w(&e->rest, &tw, false, &c);
			condition_terms(&c, e->k_shear * p->scale[FAMILY_SHEAR], e->kd_shear * p->scale[FAMILY_SHEAR], v, m, t);
		}
	}
	jacobian_mode md;
	if (e->drag > 0.0 && p->role[FAMILY_OTHER] != ROLE_OFF && (t = sink_for(&s, p, FAMILY_OTHER, &md)))
		drag_terms(x, v, wind, e->drag, md, t);
	scatter(w, &s, p, e->v, e->slot, yv, h, rec, used);
}

/* Whether a plan's triangle terms are force only (every triangle family explicit, no strain-limit
 * stiffening, no recording): then step/explicit_triangles.c forms them. */
static bool triangles_explicit(const drape_world* w, const assembly_plan* p)
{
	return p->role[FAMILY_STRETCH_U] == ROLE_EXPLICIT && p->role[FAMILY_STRETCH_V] == ROLE_EXPLICIT &&
	       p->role[FAMILY_SHEAR] == ROLE_EXPLICIT && p->role[FAMILY_OTHER] == ROLE_EXPLICIT && !strain_limit_active(w) &&
	       w->work.reuse_mode == REUSE_OFF && !w->work.fused_disabled;
}

static void assemble_hinge(drape_world* w, const hinge_elem* e, double h, const assembly_plan* p)
{
	vec3* rec;
	uint8_t* used;
	if (!reuse_slots(w, e->v, 4, hinge_r_base(w), hinge_u_base(w), (int32_t)(e - w->model.hinges), &rec, &used)) return;
	sinks s;
	sinks_init(&s, 4);
	if (p->role[FAMILY_BEND] == ROLE_OFF) return;
	vec3 x[4], v[4], yv[4];
	gather(w, e->v, 4, h, x, v, yv);
	condition c;
	bend_condition(x, false, &c);
	double k = e->k, kd = e->kd;
	if (e->guard > 0.0) {
		/* A fold guard: the same hinge past its angle, nothing within it. */
		c.c[0] = bend_guarded(c.c[0], e->guard);
		if (c.c[0] == 0.0) k = kd = 0.0;
		if (c.c[0] == 0.0 && !w->work.fused_disabled && isfinite(p->scale[FAMILY_BEND]) && finite_terms(c.grad[0], v, yv, 4)) {
			scatter_zero(w, p, e->v, 4, rec, used);
			return;
		}
	}
	jacobian_mode mode;
	element_terms* t = sink_for(&s, p, FAMILY_BEND, &mode);
	condition_terms(&c, k * p->scale[FAMILY_BEND], kd * p->scale[FAMILY_BEND], v, mode, t);
	scatter(w, &s, p, e->v, e->slot, yv, h, rec, used);
}

/* Force only: b += h f for an explicit spring (no Jacobians to form). */
static void explicit_force(drape_world* w, const int32_t* vert, int n, const vec3* f, double h)
{
	for (int a = 0; a < n; ++a) w->work.b[vert[a]] = v3_madd(w->work.b[vert[a]], h, f[a]);
}

static void assemble_ms_spring(drape_world* w, const ms_spring* e, double h, const assembly_plan* p)
{
	vec3* rec;
	uint8_t* used;
	if (!reuse_slots(w, e->v, 2, spring_r_base(w), spring_u_base(w), (int32_t)(e - w->model.ms_springs), &rec, &used)) return;
	if (p->role[e->family] == ROLE_EXPLICIT) {
		if (!p->rhs) return;
		vec3 f[2];
		ms_spring_force(w->state.x[e->v[0]], w->state.x[e->v[1]], w->state.v[e->v[0]], w->state.v[e->v[1]], e->rest, e->k * p->scale[e->family],
				e->kd * p->scale[e->family], f);
		explicit_force(w, e->v, 2, f, h);
		return;
	}
	sinks s;
	sinks_init(&s, 2);
	element_terms* t = sink(&s, p, e->family);
	if (!t) return;
	vec3 x[2], v[2], yv[2];
	gather(w, e->v, 2, h, x, v, yv);
	ms_spring_terms(x, v, e->rest, e->k * p->scale[e->family], e->kd * p->scale[e->family], t);
	scatter(w, &s, p, e->v, e->slot, yv, h, rec, used);
}

static void assemble_ms_bend(drape_world* w, const ms_bend* e, double h, const assembly_plan* p)
{
	vec3* rec;
	uint8_t* used;
	if (!reuse_slots(w, e->v, 3, bend_r_base(w), bend_u_base(w), (int32_t)(e - w->model.ms_bends), &rec, &used)) return;
	if (p->role[e->family] == ROLE_EXPLICIT) {
		if (!p->rhs) return;
		vec3 x[3], v[3], f[3];
		for (int a = 0; a < 3; ++a) x[a] = w->state.x[e->v[a]], v[a] = w->state.v[e->v[a]];
		ms_bend_force(x, v, e->wt, e->k * p->scale[e->family], e->kd * p->scale[e->family], e->s, f);
		explicit_force(w, e->v, 3, f, h);
		return;
	}
	sinks s;
	sinks_init(&s, 3);
	element_terms* t = sink(&s, p, e->family);
	if (!t) return;
	vec3 x[3], v[3], yv[3];
	gather(w, e->v, 3, h, x, v, yv);
	ms_bend_terms(x, v, e->wt, e->k * p->scale[e->family], e->kd * p->scale[e->family], e->s, t);
	scatter(w, &s, p, e->v, e->slot, yv, h, rec, used);
}

/* The tiles of one colour in parallel, each tile's elements in order on one thread, colours in
 * order (src/mesh/colouring.h, COLOURING_TILES): j is the element's place in col->order. */
#define ASSEMBLE_COLOURED(col, call) \
	COLOURING_TILES(col, t_, for (int32_t j = (col)->tile[t_]; j < (col)->tile[t_ + 1]; ++j) call)

/* b += an element's recorded terms, as scatter_role added them. */
static void replay(drape_world* w, const int32_t* vert, int n, size_t r_base, size_t u_base, int32_t idx)
{
	if (!w->work.reuse_used[u_base + (size_t)idx]) return;
	const vec3* rec = w->work.reuse_r + r_base + (size_t)n * (size_t)idx;
	for (int a = 0; a < n; ++a) w->work.b[vert[a]] = v3_add(w->work.b[vert[a]], rec[a]);
}

/* Whether this pass may record or reuse element terms: inside a step, a plan whose families are
 * all implicit or off (one group of terms per element), with b and the full matrix. */
static bool reusable(const drape_world* w, double t, double h, const assembly_plan* p)
{
	if (!w->work.reuse_step || w->work.reuse_disabled || !w->work.reuse_A || !p->rhs || !p->full_matrix) return false;
	for (int f = 0; f < FAMILY_COUNT; ++f)
		if (p->role[f] != ROLE_OFF && p->role[f] != ROLE_IMPLICIT) return false;
	return !w->work.reuse_valid || (w->work.reuse_t == t && w->work.reuse_h == h);
}

void assemble_pass(drape_world* w, double t, double h, const assembly_plan* p)
{
	const int threads = w->threads;
	const int32_t n = w->model.particle_count;
	const vec3 g = v3_load(w->def.gravity);
	const vec3 wind = world_wind(w, t);
	const bool reuse = reusable(w, t, h, p);
	if (reuse && w->work.reuse_valid) {
		/* A later pass of the step (see REUSE_CHANGED): A as after the first pass's element
		 * terms, the changed elements' b terms re-formed, then b summed as a full pass would. */
		memcpy(w->work.A.blocks, w->work.reuse_A, (size_t)w->work.A.nnz * sizeof *w->work.A.blocks);
		w->work.A.extra_count = 0;
		w->work.reuse_passes++;
		for (int32_t i = 0; i < n; ++i) w->work.reuse_dirty[i] = memcmp(&w->work.y[i], &w->work.reuse_y[i], sizeof(vec3)) != 0;
		w->work.reuse_mode = REUSE_CHANGED;
		ASSEMBLE_COLOURED(&w->work.triangle_colours, assemble_triangle(w, &w->model.triangles[w->work.triangle_colours.order[j]], wind, h, p))
		ASSEMBLE_COLOURED(&w->work.hinge_colours, assemble_hinge(w, &w->model.hinges[w->work.hinge_colours.order[j]], h, p))
		ASSEMBLE_COLOURED(&w->work.ms_spring_colours, assemble_ms_spring(w, &w->model.ms_springs[w->work.ms_spring_colours.order[j]], h, p))
		ASSEMBLE_COLOURED(&w->work.ms_bend_colours, assemble_ms_bend(w, &w->model.ms_bends[w->work.ms_bend_colours.order[j]], h, p))
		w->work.reuse_mode = REUSE_OFF;
		memcpy(w->work.reuse_y, w->work.y, (size_t)n * sizeof *w->work.y);
#pragma omp parallel for num_threads(threads) schedule(static) if (n > 2048)
		for (int32_t i = 0; i < n; ++i) w->work.b[i] = v3_scale(g, h * w->model.mass[i]);
		const size_t hr = hinge_r_base(w), sr = spring_r_base(w), br = bend_r_base(w);
		const size_t hu = hinge_u_base(w), su = spring_u_base(w), bu = bend_u_base(w);
		ASSEMBLE_COLOURED(&w->work.triangle_colours,
				  replay(w, w->model.triangles[w->work.triangle_colours.order[j]].v, 3, 0, 0, w->work.triangle_colours.order[j]))
		ASSEMBLE_COLOURED(&w->work.hinge_colours, replay(w, w->model.hinges[w->work.hinge_colours.order[j]].v, 4, hr, hu, w->work.hinge_colours.order[j]))
		ASSEMBLE_COLOURED(&w->work.ms_spring_colours,
				  replay(w, w->model.ms_springs[w->work.ms_spring_colours.order[j]].v, 2, sr, su, w->work.ms_spring_colours.order[j]))
		ASSEMBLE_COLOURED(&w->work.ms_bend_colours,
				  replay(w, w->model.ms_bends[w->work.ms_bend_colours.order[j]].v, 3, br, bu, w->work.ms_bend_colours.order[j]))
		bend_tensor_assemble(w, h, p, false); /* A already holds its part (reuse_A) */
	} else {
		/* Without implicit couplings only the diagonal blocks are read (SOLVE_DIAGONAL). */
		if (p->full_matrix) bsr_zero(&w->work.A, threads);
#pragma omp parallel for num_threads(threads) schedule(static) if (n > 2048)
		for (int32_t i = 0; i < n; ++i) {
			w->work.A.blocks[w->work.A.diag[i]] = m3_diag(w->model.mass[i]);
			if (p->rhs) w->work.b[i] = v3_scale(g, h * w->model.mass[i]);
		}
		if (reuse) {
			size_t elems = (size_t)w->model.triangle_count + (size_t)w->model.hinge_count + (size_t)w->model.ms_spring_count +
				       (size_t)w->model.ms_bend_count;
			memset(w->work.reuse_used, 0, elems);
			w->work.reuse_mode = REUSE_RECORD;
		}
		if (triangles_explicit(w, p))
			explicit_triangles_assemble(w, wind, h, p);
		else if (implicit_triangles_lanes(w, p))
			implicit_triangles_assemble(w, wind, h, p, reuse ? w->work.reuse_r : NULL, reuse ? w->work.reuse_used : NULL,
						    assemble_triangle);
		else
			ASSEMBLE_COLOURED(&w->work.triangle_colours, assemble_triangle(w, &w->model.triangles[w->work.triangle_colours.order[j]], wind, h, p))
		ASSEMBLE_COLOURED(&w->work.hinge_colours, assemble_hinge(w, &w->model.hinges[w->work.hinge_colours.order[j]], h, p))
		ASSEMBLE_COLOURED(&w->work.ms_spring_colours, assemble_ms_spring(w, &w->model.ms_springs[w->work.ms_spring_colours.order[j]], h, p))
		ASSEMBLE_COLOURED(&w->work.ms_bend_colours, assemble_ms_bend(w, &w->model.ms_bends[w->work.ms_bend_colours.order[j]], h, p))
		bend_tensor_assemble(w, h, p, true);
		if (reuse) {
			w->work.reuse_mode = REUSE_OFF;
			memcpy(w->work.reuse_A, w->work.A.blocks, (size_t)w->work.A.nnz * sizeof *w->work.A.blocks);
			memcpy(w->work.reuse_y, w->work.y, (size_t)n * sizeof *w->work.y);
			w->work.reuse_t = t;
			w->work.reuse_h = h;
			w->work.reuse_valid = true;
		}
	}
	if (!p->rhs) return;
	/* Per-particle terms are implicit on their own 3x3 block whatever the integrator: O(n), and a
	 * slip-stopping friction or a stiff user spring never sets the step size. */
	const assembly_plan local = {.role = {ROLE_IMPLICIT, ROLE_IMPLICIT, ROLE_IMPLICIT, ROLE_IMPLICIT, ROLE_IMPLICIT}, .rhs = true};
	/* Sliding friction (sec. 5.4): a tangential damping against the slip, implicit in v. */
	for (int32_t i = 0; w->model.solid_count > 0 && i < n; ++i) {
		sinks s;
	sinks_init(&s, 1);
		element_terms* et = sink(&s, &local, FAMILY_OTHER);
		if (!contact_friction(w, i, h, &et->f[0], &et->dfdv[0][0])) continue;
		vec3 yv = v3_madd(w->state.v[i], 1.0 / h, w->work.y[i]);
		scatter(w, &s, &local, &i, &w->work.A.diag[i], &yv, h, NULL, NULL);
	}
	if (p->role[FAMILY_OTHER] == ROLE_IMPLICIT) cloth_contacts_assemble(w, h);
	for (int32_t k = 0; k < w->model.spring_count; ++k) {
		const spring_data* sp = &w->model.springs[k];
		if (!sp->alive) continue;
		int32_t i = sp->particle;
		sinks s;
	sinks_init(&s, 1);
		element_terms* et = sink(&s, &local, FAMILY_OTHER);
		spring_terms(w->state.x[i], w->state.v[i], sp->target, sp->stiffness, sp->damping, sp->force, et);
		vec3 yv = v3_madd(w->state.v[i], 1.0 / h, w->work.y[i]);
		scatter(w, &s, &local, &i, &w->work.A.diag[i], &yv, h, NULL, NULL);
	}
}

void implicit_assemble(drape_world* w, double t, double h)
{
	step_scheme s;
	integrator_scheme(w, &s);
	assemble_pass(w, t, h, &s.pass[0]);
}

/* Forward Euler (old_velocity) moves free directions with v0: x1 = x + h (S v0 + (I - S) v1) + y,
 * so constrained directions still land exactly on their targets. */
bool implicit_propose(drape_world* w, double h, bool old_velocity)
{
	const int32_t n = w->model.particle_count;
	bool finite = true;
#pragma omp parallel for num_threads(w->threads) schedule(static) if (n > 2048) reduction(&& : finite)
	for (int32_t i = 0; i < n; ++i) {
		w->work.v1[i] = v3_add(w->state.v[i], w->work.dv[i]);
		vec3 move = w->work.v1[i];
		if (old_velocity) {
			move = w->state.v[i];
			if (w->work.constrained[i]) move = v3_add(m3_mulv(w->work.S[i], w->state.v[i]), v3_sub(w->work.v1[i], m3_mulv(w->work.S[i], w->work.v1[i])));
		}
		w->work.x1[i] = v3_add(v3_add(w->state.x[i], v3_scale(move, h)), w->work.y[i]);
		finite = finite && v3_isfinite(w->work.x1[i]) && v3_isfinite(w->work.v1[i]);
	}
	return finite;
}

/* A free particle's block when it is a mass block (m3_is_positive_diag): m3_inverse's diagonal
 * case, m3_mulv's u = A^-1 r and e = A u - r with the products of the +0 off the diagonal kept (a
 * +0 or -0 each, which decide the sign of a zero sum), without the general matrices' passes: the
 * same bits. False, with nothing written, where the general path must decide (not a mass block, or
 * an inverse m3_inverse would refuse). */
static inline bool mass_block_solve(const mat3* a, vec3 r, vec3* dv, vec3* e)
{
	if (!m3_is_positive_diag(*a)) return false;
	const double p = a->m[0][0], q = a->m[1][1], s = a->m[2][2];
	const double dd = p * (q * s);
	if (!(dd != 0.0) || !isfinite(1.0 / dd) || !isfinite(dd)) return false;
	const double d = 1.0 / dd;
	const double i0 = (q * s) * d, i1 = (p * s) * d, i2 = (p * q) * d;
	/* m3_norm_inf of each: a row's sum is its diagonal entry (+0 added twice), the largest kept by
	 * the same comparisons */
	double na = 0.0, ni = 0.0;
	if (p > na) na = p;
	if (q > na) na = q;
	if (s > na) na = s;
	if (i0 > ni) ni = i0;
	if (i1 > ni) ni = i1;
	if (i2 > ni) ni = i2;
	if (!(na * ni <= 1e12)) return false;
	const vec3 u = v3(i0 * r.x + 0.0 * r.y + 0.0 * r.z, 0.0 * r.x + i1 * r.y + 0.0 * r.z, 0.0 * r.x + 0.0 * r.y + i2 * r.z);
	*dv = u;
	*e = v3_sub(v3(p * u.x + 0.0 * u.y + 0.0 * u.z, 0.0 * u.x + q * u.y + 0.0 * u.z, 0.0 * u.x + 0.0 * u.y + s * u.z), r);
	return true;
}

/* Explicit schemes: A is block-diagonal (mass, friction, user springs). Each particle solves
 * [S A_ii S + (I - S)] u = S (b - A_ii z), dv = S u + z (the filter of sec. 5.3 on one block), and
 * e = A_ii dv - b is its constraint impulse. */
static bool solve_diagonal(drape_world* w)
{
	const int32_t n = w->model.particle_count;
	bool ok = true;
	for (int32_t i = 0; i < n; ++i) {
		mat3 a = w->work.A.blocks[w->work.A.diag[i]];
		vec3 r = w->work.b[i];
		if (!w->work.constrained[i] && mass_block_solve(&a, r, &w->work.dv[i], &w->work.e[i])) continue;
		if (w->work.constrained[i]) {
			const mat3 S = w->work.S[i];
			r = m3_mulv(S, v3_sub(r, m3_mulv(a, w->work.z[i])));
			a = m3_add(m3_mul(S, m3_mul(a, S)), m3_sub(m3_identity(), S));
		}
		mat3 inv;
		if (!m3_inverse(a, 1e12, &inv)) {
			ok = false;
			w->work.dv[i] = v3_zero();
			continue;
		}
		vec3 u = m3_mulv(inv, r);
		w->work.dv[i] = w->work.constrained[i] ? v3_add(m3_mulv(w->work.S[i], u), w->work.z[i]) : u;
		w->work.e[i] = v3_sub(m3_mulv(w->work.A.blocks[w->work.A.diag[i]], w->work.dv[i]), w->work.b[i]);
	}
	return ok;
}

void implicit_assemble_step(drape_world* w, const step_scheme* sc, double t, double h, const vec3* inertia_v0, solve_tally* r)
{
	const int32_t n = w->model.particle_count;
	double ta = now_ms();
	assemble_pass(w, t, h, &sc->pass[0]);
	if (inertia_v0)
		for (int32_t i = 0; i < n; ++i) w->work.b[i] = v3_madd(w->work.b[i], -w->model.mass[i], v3_sub(w->state.v[i], inertia_v0[i]));
	r->eval_ms += now_ms() - ta;
}

pcg_result implicit_solve_step(drape_world* w, const step_scheme* sc, double t, double h, const vec3* guess, solve_tally* r)
{
	const int threads = w->threads;
	const int32_t n = w->model.particle_count;
	pcg_result res = {.iterations = 0, .converged = true};
	double tb = now_ms();
	switch (sc->solve) {
	case SOLVE_PCG:
		if (w->work.cholesky) {
			/* The factor is kept while it works: refactor when the last solve needed many
			 * iterations (the cloth has moved on, contacts came) or the step size changed
			 * (A = M - h df/dv - h^2 df/dx depends on it directly). docs/solver.md, "Preconditioners". */
			if (!cholesky_valid(w->work.cholesky) || h != w->work.cholesky_h ||
			    w->work.cholesky_last_iterations >= w->def.refactor_iterations) {
				cholesky_factor(w->work.cholesky, &w->work.A, w->work.S, w->work.constrained);
				w->work.cholesky_h = h;
				w->state.stats.factorizations++;
			}
			w->work.pcg.cholesky = w->work.cholesky;
		}
		if (w->work.two_level) {
			/* The coarse matrix is one pass over A and a small factorisation: every solve. */
			two_level_setup(w->work.two_level, &w->work.A, w->work.S, w->work.constrained);
			w->state.stats.factorizations++;
			w->work.pcg.two_level = w->work.two_level;
		}
		if (w->work.multigrid) {
			/* Prolongators and Galerkin matrices are refilled from A at a step's first solve;
			 * a contact pass of the same step (the same x, v and h: A differs by the contacts)
			 * refreshes only the finest level, which keeps the cycle SPD (docs/solver.md). */
			if (!w->work.multigrid_step_built || !multigrid_valid(w->work.multigrid)) {
				multigrid_setup(w->work.multigrid, &w->work.A, w->work.S, w->work.constrained, w->state.x, threads);
				w->state.stats.factorizations++;
				w->work.multigrid_step_built = true;
			} else {
				multigrid_refresh(w->work.multigrid, &w->work.A, w->work.S, w->work.constrained, threads);
			}
			w->work.pcg.multigrid = w->work.multigrid;
		}
		w->work.pcg.cancel = w->cancel;
		/* Contacts are bounds the solve holds or releases (docs/solver.md, "Contacts inside the
		 * solve"): S, z and constrained leave it with its active set. */
		res = pcg_solve_bounded(&w->work.A, w->work.b, w->work.z, guess, w->work.S, w->work.constrained, &w->work.bounds, w->def.cg_tolerance,
					w->def.cg_max_iterations, threads, &w->work.pcg, w->work.dv);
		w->work.cholesky_last_iterations = res.iterations;
		pcg_net_force_correction(&w->work.A, w->work.b, w->work.constrained, threads, w->work.e, w->work.dv);
		pcg_residual(&w->work.A, w->work.dv, w->work.b, w->work.e, threads);
		break;
	case SOLVE_DIAGONAL:
		res.breakdown = !solve_diagonal(w);
		break;
	case SOLVE_LINES_U:
	case SOLVE_LINES_V:
		res.breakdown = !line_solve(w, sc->solve == SOLVE_LINES_U ? 0 : 1, w->work.b, w->work.dv);
		pcg_residual(&w->work.A, w->work.dv, w->work.b, w->work.e, threads);
		break;
	case SOLVE_SPLIT: {
		/* Eq. 19 as A_U M^-1 A_V dv = b: rows solve A_U w = b, then columns A_V dv = M w. The
		 * constraint impulse is the sum of both sweeps' residuals (docs/integrators.md). */
		res.breakdown = !line_solve(w, 0, w->work.b, w->work.w_mid);
		pcg_residual(&w->work.A, w->work.w_mid, w->work.b, w->work.e_mid, threads);
		double tc = now_ms();
		assemble_pass(w, t, h, &sc->pass[1]);
		r->eval_ms += now_ms() - tc;
		for (int32_t i = 0; i < n; ++i) w->work.w_mid[i] = v3_scale(w->work.w_mid[i], w->model.mass[i]);
		res.breakdown = !line_solve(w, 1, w->work.w_mid, w->work.dv) || res.breakdown;
		pcg_residual(&w->work.A, w->work.dv, w->work.w_mid, w->work.e, threads);
		for (int32_t i = 0; i < n; ++i) w->work.e[i] = v3_add(w->work.e[i], w->work.e_mid[i]);
		break;
	}
	}
	r->cg_ms += now_ms() - tb;
	r->cg_iterations += res.iterations;
	r->cg_converged = res.converged;
	r->solves++;
	return res;
}

/* Both, as one pass of a step does. */
static pcg_result solve_step(drape_world* w, const step_scheme* sc, double t, double h, const vec3* guess,
			     const vec3* inertia_v0, solve_tally* r)
{
	implicit_assemble_step(w, sc, t, h, inertia_v0, r);
	return implicit_solve_step(w, sc, t, h, guess, r);
}

/* Newton iterations stop once the largest velocity correction is this share of the largest
 * velocity change of the step. */
#define NEWTON_TOLERANCE 1e-2

/* Newton iterations on the step's nonlinear system (docs/integrators.md, "Where the swing's
 * energy goes"). Eq. 18 is one Newton step of M (v1 - v0) = h f(x0 + h v1 + y, v1), linearised
 * about (x0, v0); at large steps a fast rotation linearised that way stretches the cloth by about
 * (omega h)^2 / 2, which the stiff stretch then turns into heat. Iteration k linearises about the
 * proposal (x_k, v_k) instead: (M - h df/dv - h^2 df/dx) d = h f(x_k, v_k) - M (v_k - v0), then
 * x_k+1 = x_k + h d, v_k+1 = v_k + d. It is the same assembly and solve with the state swapped for
 * the iterate, y = -h v_k (so that b's h^2 K (v + y/h) vanishes and x1 = x_k + h d) and z = 0 (the
 * constrained directions are on their targets already), plus b's -M (v_k - v0). BDF2's step is
 * backward Euler's from (xb, vb), so the same iteration solves it (v0 is vb there). The Jacobian
 * is eq. 18's (Gauss-Newton in compression, drag's df/dx left out), so convergence is linear.
 * Returns whether the final x1 and v1 are finite. */
bool implicit_newton_refine(drape_world* w, const step_scheme* sc, double t, double h, solve_tally* r)
{
	const int32_t n = w->model.particle_count;
	vec3 *x0 = w->state.x, *v0 = w->state.v, *y0 = w->work.y, *z0 = w->work.z;
	double change = 0.0;
	for (int32_t i = 0; i < n; ++i) change = fmax(change, v3_len(v3_sub(w->work.v1[i], v0[i])));
	/* Later passes must not reuse (or overwrite) the element terms recorded about (x0, v0). */
	const bool reuse_step = w->work.reuse_step;
	w->work.reuse_step = false;
	/* The iterations keep the first solve's active set: its contacts as equalities. */
	const int32_t bounds = w->work.bounds.count;
	w->work.bounds.count = 0;
	bool values = true; /* the last iterate's x1 and v1 are finite */
	for (int k = 1; k < w->def.newton_iterations; ++k) {
		for (int32_t i = 0; i < n; ++i) {
			w->work.newton_x[i] = w->work.x1[i];
			w->work.newton_v[i] = w->work.v1[i];
			w->work.newton_y[i] = v3_scale(w->work.v1[i], -h);
		}
		w->state.x = w->work.newton_x, w->state.v = w->work.newton_v, w->work.y = w->work.newton_y, w->work.z = w->work.newton_z;
		w->work.multigrid_step_built = false; /* a different matrix: rebuild the hierarchy */
		pcg_result res = solve_step(w, sc, t, h, NULL, v0, r);
		double correction = 0.0;
		values = true;
		for (int32_t i = 0; i < n; ++i) {
			w->work.x1[i] = v3_madd(w->work.newton_x[i], h, w->work.dv[i]);
			w->work.v1[i] = v3_add(w->work.newton_v[i], w->work.dv[i]);
			values = values && v3_isfinite(w->work.x1[i]) && v3_isfinite(w->work.v1[i]);
			correction = fmax(correction, v3_len(w->work.dv[i]));
		}
		w->state.x = x0, w->state.v = v0, w->work.y = y0, w->work.z = z0;
		if (!values || res.breakdown || !(correction > NEWTON_TOLERANCE * change)) break;
	}
	w->work.reuse_step = reuse_step;
	w->work.bounds.count = bounds;
	/* dv is the step's whole velocity change again (the warm start and the constraint forces
	 * read it); e keeps the last iteration's residual, the nonlinear system's constraint impulse. */
	for (int32_t i = 0; i < n; ++i) w->work.dv[i] = v3_sub(w->work.v1[i], v0[i]);
	return values;
}
