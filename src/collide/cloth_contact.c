/* Cloth/cloth contact response (sec. 6): "when collisions between a cloth vertex and triangle, or
 * two cloth edges are detected, we insert a strong damped spring force to push the cloth apart. A
 * dissipative force tangent to the contact is also applied, countering any sliding motion."
 *
 * Each pair becomes a repulsion element on C = n . (sum_k w_k x_k) - thickness with the normal n
 * and the weights w held fixed over the step (so C is linear and its Hessian vanishes):
 *   f_k = -k w_k n min(C0, 0)  - kd w_k n (n . u)  - kt w_k P u,     u = sum_l w_l v_l,
 *   df_k/dx_l = -k w_k w_l n n^T,   df_k/dv_l = -w_k w_l (kd n n^T + kt P),   P = I - n n^T.
 * min(C0, 0): a pair found crossing while still farther apart than the thickness exerts no force
 * at the step's start, but its stiffness resists the approach within the implicit step. All
 * derivatives are symmetric and negative semi-definite, so A stays positive definite. The
 * couplings between the four particles go to the matrix's extra elements (solver/bsr.h).
 * Detection: collide/cloth_pairs*.c. docs/collide.md. */
#include "cloth_contact.h"

#include "../world_data.h"
#include "cloth_layers.h"
#include "cloth_pairs.h"
#include "contact.h"

#include <math.h>
#include <stdlib.h>

/* Fastest the position alteration separates crossed cloth (m/s). */
#define PUSH_SPEED 1.0

static bool push(drape_world* w, const int32_t node[4], const double weight[4], vec3 normal)
{
	if (w->state.repulsion_count == w->state.repulsion_capacity) {
		int32_t cap = w->state.repulsion_capacity ? 2 * w->state.repulsion_capacity : 256;
		repulsion* r = realloc(w->state.repulsions, (size_t)cap * sizeof *r);
		if (!r) return false;
		w->state.repulsions = r;
		w->state.repulsion_capacity = cap;
	}
	repulsion* r = &w->state.repulsions[w->state.repulsion_count++];
	for (int k = 0; k < 4; ++k) {
		r->node[k] = node[k];
		r->weight[k] = weight[k];
	}
	r->normal = normal;
	return true;
}

static void push_vf(drape_world* w, int32_t p, int32_t t, const double bary[3], vec3 normal)
{
	const int32_t* tri = w->model.triangles[t].v;
	int32_t node[4] = {p, tri[0], tri[1], tri[2]};
	double weight[4] = {1.0, -bary[0], -bary[1], -bary[2]};
	push(w, node, weight, normal);
}

static void push_ee(drape_world* w, const int32_t e0[2], const int32_t e1[2], double s, double u, vec3 normal)
{
	int32_t node[4] = {e0[0], e0[1], e1[0], e1[1]};
	double weight[4] = {1.0 - s, s, -(1.0 - u), -u};
	push(w, node, weight, normal);
}

/* Each triangle's rest (u, v), so that proximity skips rest neighbours. */
static bool init_rest(drape_world* w)
{
	double* uv = malloc(6 * (size_t)(w->model.triangle_count > 0 ? w->model.triangle_count : 1) * sizeof *uv);
	if (!uv) return false;
	for (int32_t c = 0; c < w->model.cloth_count; ++c) {
		const drape_mesh* m = &w->model.cloths[c].mesh;
		for (int32_t t = 0; t < m->triangle_count; ++t)
			for (int k = 0; k < 3; ++k) {
				const double* src = &m->uvs[2 * m->triangle_uvs[3 * t + k]];
				double* dst = &uv[6 * (size_t)(w->model.cloths[c].first_triangle + t) + 2 * (size_t)k];
				dst[0] = src[0];
				dst[1] = src[1];
			}
	}
	bool ok = cloth_pairs_set_rest(&w->work.pairs, uv, CLOTH_REST_RADIUS * w->def.cloth_thickness);
	free(uv);
	return ok && cloth_layers_setup(&w->model.layers, w);
}

bool cloth_contacts_setup(drape_world* w, const int32_t* sewn, int32_t sewn_count)
{
	const world_model* md = &w->model;
	world_workspace* k = &w->work;
	/* the detector wants the triangles as plain vertex triples */
	int32_t* tris = malloc(3 * (size_t)(md->triangle_count > 0 ? md->triangle_count : 1) * sizeof *tris);
	bool ok = tris != NULL;
	for (int32_t t = 0; ok && t < md->triangle_count; ++t)
		for (int c = 0; c < 3; ++c) tris[3 * t + c] = md->triangles[t].v[c];
	ok = ok && cloth_pairs_init(&k->pairs, tris, md->triangle_count, md->particle_count);
	k->pairs.cancel = w->cancel;
	k->pairs_ready = ok;
	ok = ok && init_rest(w) && cloth_pairs_set_sewn(&k->pairs, sewn, sewn_count);
	if (ok) cloth_pairs_set_threads(&k->pairs, w->threads);
	if (ok) cloth_pairs_set_skin(&k->pairs, CLOTH_PAIRS_SKIN * w->def.cloth_thickness);
	free(tris);
	if (ok) w->state.intersections = cloth_pairs_intersections(&k->pairs, w->state.x, NULL, 0);
	/* over the search's budget (a cloth crushed onto itself): the first step's proximity search
	 * finds the same and rejects the step (STEP_CROWDED); otherwise interrupted or out of memory,
	 * both reported by the caller */
	if (ok && w->state.intersections < 0 && !k->pairs.overloaded) ok = false;
	if (w->state.intersections < 0) w->state.intersections = 0;
	return ok;
}

bool cloth_contacts_prepare(drape_world* w)
{
	w->state.repulsion_count = 0;
	cloth_layers* l = &w->model.layers;
	cloth_layers_clear_roles(l, w);
	if (!w->def.self_collision || !w->work.pairs_ready) return true;
	cloth_pairs* d = &w->work.pairs;
	if (cloth_pairs_proximity(d, w->state.x, w->def.cloth_thickness) < 0 && (d->overloaded || (w->cancel && *w->cancel)))
		return false;
	/* Between layers the side comes from the layers (cloth_layers.c): a pair found the wrong
	 * way round is pushed back through, not held there. Each pair between layers also tells its
	 * particles which side their solid contacts belong to (contact.c, "Pinched layers"). */
	cloth_layers_normals(l, w, w->state.x);
	for (int32_t k = 0; k < d->vf_count; ++k) {
		const cc_vf* c = &d->vf[k];
		const int32_t* tv = w->model.triangles[c->t].v;
		vec3 n = c->normal;
		cloth_layers_orient_vf(l, w, c->p, c->t, w->state.x[tv[0]], w->state.x[tv[1]], w->state.x[tv[2]], &n);
		push_vf(w, c->p, c->t, c->bary, n);
		cloth_layers_mark(l, (const int32_t[4]){c->p, tv[0], tv[1], tv[2]}, 1);
	}
	for (int32_t k = 0; k < d->ee_count; ++k) {
		const cc_ee* c = &d->ee[k];
		vec3 n = c->normal;
		cloth_layers_orient_ee(l, c->e0, c->e1, c->s, c->u, &n);
		push_ee(w, c->e0, c->e1, c->s, c->u, n);
		cloth_layers_mark(l, (const int32_t[4]){c->e0[0], c->e0[1], c->e1[0], c->e1[1]}, 2);
	}
	/* Between layers, intersections already there are pulled back into order: particles on the
	 * wrong side of an intersecting triangle farther than the thickness have no proximity pair. */
	const int32_t pulls = cloth_layers_pulls(l, w, d, w->state.x);
	if (pulls < 0 && (d->overloaded || (w->cancel && *w->cancel))) return false;
	for (int32_t k = 0; k < pulls; ++k) {
		push_vf(w, l->pulls[k].p, l->pulls[k].t, l->pulls[k].bary, l->pulls[k].normal);
		const int32_t* tv = w->model.triangles[l->pulls[k].t].v;
		cloth_layers_mark(l, (const int32_t[4]){l->pulls[k].p, tv[0], tv[1], tv[2]}, 1);
	}
	w->state.proximity_count = w->state.repulsion_count;
	return true;
}

/* Position alteration for a pair caught crossing (sec. 6.2: "we can also add correction terms to
 * particles involved in cloth/cloth collisions"): the proposal left its gap at g1 < thickness, so
 * the next solve shifts its free particles apart by the deficit, half on each side in proportion
 * to the pair weights, through y (eq. 17-18). Constrained particles keep their constraints' y. */
static void alter_positions(drape_world* w, const repulsion* r, double h)
{
	vec3 gap = v3_zero();
	for (int a = 0; a < 4; ++a) gap = v3_madd(gap, r->weight[a], w->work.x1[r->node[a]]);
	double deficit = w->def.cloth_thickness - v3_dot(r->normal, gap);
	if (!(deficit > 0.0)) return;
	/* At most PUSH_SPEED h per step, as for solids: a correction that does not shrink with the
	 * step would leave the step control nothing to reduce. */
	if (deficit > PUSH_SPEED * h) deficit = PUSH_SPEED * h;
	for (int a = 0; a < 4; ++a) {
		int32_t i = r->node[a];
		/* weights are +1 (or 1 - s, s) on the near side and -bary (or -(1 - u), -u) on the far
		 * side, each side summing to one in magnitude */
		vec3 move = v3_scale(r->normal, 0.5 * deficit * r->weight[a]);
		if (w->work.constrained[i]) {
			/* a pinched contact's particle moves in the directions its contact leaves free (its
			 * filter S, sec. 5.1); other constrained particles keep their constraints' y */
			if (w->model.solid_count == 0 || !w->state.contacts[i].pinched) continue;
			move = m3_mulv(w->work.S[i], move);
		}
		w->work.y[i] = v3_add(w->work.y[i], move);
	}
}

int32_t cloth_contacts_catch_crossings(drape_world* w, double h, int32_t* pinched)
{
	*pinched = 0;
	if (!w->def.self_collision || !w->work.pairs_ready) return 0;
	cloth_pairs* d = &w->work.pairs;
	if (cloth_pairs_crossings(d, w->state.x, w->work.x1, 1e-9) < 0 && (d->overloaded || (w->cancel && *w->cancel))) return -1;
	int32_t before = w->state.repulsion_count;
	const cloth_layers* l = &w->model.layers;
	for (int32_t k = 0; k < d->xvf_count; ++k) {
		const cc_xvf* c = &d->xvf[k];
		const int32_t* tv = w->model.triangles[c->t].v;
		vec3 n = c->normal, at[3];
		for (int a = 0; a < 3; ++a) at[a] = v3_lerp(w->state.x[tv[a]], w->work.x1[tv[a]], c->toi);
		cloth_layers_orient_vf(l, w, c->p, c->t, at[0], at[1], at[2], &n);
		push_vf(w, c->p, c->t, c->bary, n);
	}
	for (int32_t k = 0; k < d->xee_count; ++k) {
		const cc_xee* c = &d->xee[k];
		vec3 n = c->normal;
		cloth_layers_orient_ee(l, c->e0, c->e1, c->s, c->u, &n);
		push_ee(w, c->e0, c->e1, c->s, c->u, n);
	}
	/* Cloth caught crossing while held by solids on both sides (an arm closing on the torso,
	 * docs/garments.md) cannot be separated by the repulsion: the contacts fix its particles'
	 * normal motion, and sticking ones all of it. Such contacts are pinched: they slide, on the
	 * solid's bare surface (a hair outside it, PINCH_MARGIN), leaving the thickness to the layers; the caller makes the
	 * constraints again and then applies the corrections (cloth_contacts_alter_crossings). */
	for (int32_t k = before; k < w->state.repulsion_count; ++k)
		for (int a = 0; a < 4; ++a) *pinched += contact_pinch(w, w->state.repulsions[k].node[a]);
	if (*pinched == 0)
		for (int32_t k = before; k < w->state.repulsion_count; ++k) alter_positions(w, &w->state.repulsions[k], h);
	return w->state.repulsion_count - before;
}

void cloth_contacts_alter_crossings(drape_world* w, double h)
{
	for (int32_t k = w->state.proximity_count; k < w->state.repulsion_count; ++k) alter_positions(w, &w->state.repulsions[k], h);
}

void cloth_contacts_commit_pinches(drape_world* w)
{
	if (w->model.solid_count == 0) return;
	/* A pinch lasts while its particle is in some repulsion pair (layers still pressed on it):
	 * mark every pinched contact, clear the mark of those in a pair, release the rest. */
	for (int32_t i = 0; i < w->model.particle_count; ++i)
		if (w->state.contacts[i].pinched) w->state.contacts[i].pinched = PINCH_UNPRESSED;
	for (int32_t e = 0; e < w->state.repulsion_count; ++e)
		for (int a = 0; a < 4; ++a) {
			contact* c = &w->state.contacts[w->state.repulsions[e].node[a]];
			if (c->pinched) c->pinched = PINCH_PRESSED;
		}
	for (int32_t i = 0; i < w->model.particle_count; ++i)
		if (w->state.contacts[i].pinched == PINCH_UNPRESSED) w->state.contacts[i].pinched = 0;
}

void cloth_contacts_assemble(drape_world* w, double h)
{
	const double k = w->def.cloth_repulsion, kd = w->def.cloth_repulsion_damping, kt = w->def.cloth_friction_damping;
	const double thickness = w->def.cloth_thickness, h2 = h * h;
	for (int32_t e = 0; e < w->state.repulsion_count; ++e) {
		const repulsion* r = &w->state.repulsions[e];
		vec3 n = r->normal;
		vec3 gap = v3_zero(), u = v3_zero();
		for (int a = 0; a < 4; ++a) {
			gap = v3_madd(gap, r->weight[a], w->state.x[r->node[a]]);
			u = v3_madd(u, r->weight[a], w->state.v[r->node[a]]);
		}
		double c0 = v3_dot(n, gap) - thickness;
		if (c0 > 0.0) c0 = 0.0;
		mat3 nn = m3_outer(n, n);
		mat3 tangent = m3_sub(m3_identity(), nn);
		mat3 dv = m3_add(m3_scale(nn, kd), m3_scale(tangent, kt)); /* -df/dv per unit w_a w_b */
		vec3 fdir = v3_add(v3_scale(n, -k * c0 - kd * v3_dot(n, u)), v3_scale(m3_mulv(tangent, u), -kt));
		/* K (v0 + y/h) with K_ab = -k w_a w_b n n^T: */
		vec3 ky = v3_zero();
		for (int b = 0; b < 4; ++b) ky = v3_madd(ky, r->weight[b], v3_madd(w->state.v[r->node[b]], 1.0 / h, w->work.y[r->node[b]]));
		double kyn = -k * v3_dot(n, ky);
		mat3* extra = bsr_extra_add(&w->work.A, r->node);
		for (int a = 0; a < 4; ++a) {
			int32_t i = r->node[a];
			/* b_a += h f_a + h^2 sum_b K_ab (v0 + y/h)_b */
			vec3 rhs = v3_add(v3_scale(fdir, h * r->weight[a]), v3_scale(n, h2 * r->weight[a] * kyn));
			w->work.b[i] = v3_add(w->work.b[i], rhs);
			for (int c = 0; c < 4; ++c) {
				double ww = r->weight[a] * r->weight[c];
				/* A_ac += -h df/dv - h^2 df/dx = ww (h dv + h^2 k n n^T) */
				mat3 blk = m3_scale(m3_add(m3_scale(dv, h), m3_scale(nn, h2 * k)), ww);
				if (a == c) w->work.A.blocks[w->work.A.diag[i]] = m3_add(w->work.A.blocks[w->work.A.diag[i]], blk);
				else if (extra) extra[4 * a + c] = blk;
			}
		}
	}
}

int32_t cloth_contacts_intersections(drape_world* w, const vec3* x)
{
	if (!w->def.self_collision || !w->work.pairs_ready) return 0;
	return cloth_pairs_intersections(&w->work.pairs, x, NULL, 0);
}
