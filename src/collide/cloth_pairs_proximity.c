/* Cloth/cloth proximity (sec. 2.4, 6): the vertex/triangle and edge/edge pairs closer than the
 * cloth thickness, "pairs (p, t) and (e1, e2)" of close particles and triangles and of close edges,
 * except rest neighbours (rest_neighbours.h). docs/collide.md, "Cloth/cloth detection". */
#include "cloth_pairs_list.h"
#include "cloth_pairs_query.h"

#include "geometry.h"

#include <string.h>

/* Vertex p against triangle t, t not holding p and the two not rest neighbours (the body of
 * proximity_vf). */
static void proximity_vf_live(query* q, int32_t p, int32_t t)
{
	const cloth_pairs* d = q->d;
	const int32_t* tv = d->triangles + 3 * (size_t)t;
	if (sewn_to_triangle(d->sewn, p, tv)) return;
	const double h = q->margin;
	vec3 xp = q->x[p], a = q->x[tv[0]], b = q->x[tv[1]], c = q->x[tv[2]];
	/* d->boxes[t] is t's box grown by h / 2 */
	if (!aabb_contains_point(aabb_grow(d->boxes[t], 0.5 * h), xp)) return;
	double w[3];
	double d2 = point_triangle_closest(xp, a, b, c, w);
	if (!(d2 < h * h)) return;
	/* The face normal toward p (as is when p lies in the plane). A degenerate triangle has no
	 * plane: the direction from its closest point to p instead, or nothing when p touches it. */
	vec3 n;
	if (face_normal(a, b, c, &n)) {
		if (v3_dot(n, v3_sub(xp, a)) < 0.0) n = v3_neg(n);
	} else {
		double M = max2(v3_max_abs(xp), max2(v3_max_abs(a), max2(v3_max_abs(b), v3_max_abs(c))));
		if (!direction(xp, bary_point(a, b, c, w), M, &n)) return;
	}
	cc_vf* r = emit(q, 0, pair_key(p, t));
	if (!r) return;
	r->p = p;
	r->t = t;
	memcpy(r->bary, w, sizeof w);
	r->normal = n;
	r->distance = sqrt(d2);
}

/* Edges e and f without a common endpoint, not rest neighbours (the body of proximity_ee). */
static void proximity_ee_live(query* q, int32_t e, int32_t f)
{
	const cloth_pairs* d = q->d;
	if (f < e) {
		int32_t tmp = e;
		e = f;
		f = tmp;
	}
	const int32_t* ev = d->edges + 2 * (size_t)e;
	const int32_t* fv = d->edges + 2 * (size_t)f;
	if (sewn_to_edge(d->sewn, ev, fv)) return;
	const double h = q->margin;
	if (!boxes_near(&d->edge_boxes[e], &d->edge_boxes[f], h)) return;
	vec3 P[2] = {q->x[ev[0]], q->x[ev[1]]}, Q[2] = {q->x[fv[0]], q->x[fv[1]]};
	double s, u;
	double d2 = segment_segment_closest(P[0], P[1], Q[0], Q[1], &s, &u);
	if (!(d2 < h * h)) return;
	/* From e1's closest point toward e0's; where they coincide (crossing edges), the edges'
	 * common normal e0 x e1, each edge directed from its lower vertex: a fixed function of the
	 * topology, so the same pair gets the same orientation from call to call. Coincident
	 * parallel edges have no normal and are skipped. */
	vec3 n;
	double M = max2(max2(v3_max_abs(P[0]), v3_max_abs(P[1])), max2(v3_max_abs(Q[0]), v3_max_abs(Q[1])));
	if (!direction(v3_lerp(P[0], P[1], s), v3_lerp(Q[0], Q[1], u), M, &n) &&
	    !edges_normal(v3_sub(P[1], P[0]), v3_sub(Q[1], Q[0]), &n))
		return;
	cc_ee* r = emit(q, 1, pair_key(e, f));
	if (!r) return;
	r->e0[0] = ev[0];
	r->e0[1] = ev[1];
	r->e1[0] = fv[0];
	r->e1[1] = fv[1];
	r->s = s;
	r->u = u;
	r->normal = n;
	r->distance = sqrt(d2);
}

static void proximity_vf(query* q, int32_t p, int32_t t)
{
	if (!has_vertex(q->d->triangles + 3 * (size_t)t, p) && !rest_near_vf(&q->d->rest, p, t)) proximity_vf_live(q, p, t);
}

static void proximity_ee(query* q, int32_t e, int32_t f)
{
	if (!share_endpoint(q->d->edges + 2 * (size_t)e, q->d->edges + 2 * (size_t)f) && !rest_near_ee(&q->d->rest, e, f))
		proximity_ee_live(q, e, f);
}

static bool visit_proximity(void* q, int32_t A, int32_t B) { return visit_pair(q, A, B, proximity_vf, proximity_ee); }

static bool visit_proximity_live(query* q, int32_t A, int32_t B, uint32_t live)
{
	return visit_pair_live(q, A, B, live, proximity_vf_live, proximity_ee_live);
}

int32_t cloth_pairs_proximity(cloth_pairs* d, const vec3* x, double thickness)
{
	d->vf_count = d->ee_count = 0;
	if (!(thickness >= 0.0)) return 0;
	/* Each triangle's box grown by half the thickness: two primitives within the thickness of
	 * each other have boxes that overlap (the boxes' gap on any axis is at most the distance). */
	for (int32_t t = 0; t < d->triangle_count; ++t) {
		const int32_t* v = d->triangles + 3 * (size_t)t;
		aabb b = aabb_add_point(aabb_of_segment(x[v[0]], x[v[1]]), x[v[2]]);
		d->boxes[t] = aabb_grow(b, 0.5 * thickness);
	}
	for (int32_t e = 0; e < d->edge_count; ++e) {
		vec3 P[2] = {x[d->edges[2 * e]], x[d->edges[2 * e + 1]]};
		d->edge_boxes[e] = points_box(P, 2);
	}
	query q = {.d = d, .x = x, .margin = thickness, .grow = 0.5 * thickness, .visit = visit_proximity,
		   .visit_live = visit_proximity_live, .proximity = true, .kind = {KIND_VF, KIND_EE}};
	if (!cloth_pairs_traverse(d, &q, cloth_pairs_list_ready(d, &q))) {
		d->vf_count = d->ee_count = 0;
		return -1;
	}
	if (!cloth_pairs_sort(d, d->vf, d->vf_keys, d->vf_count, sizeof *d->vf) ||
	    !cloth_pairs_sort(d, d->ee, d->ee_keys, d->ee_count, sizeof *d->ee)) {
		d->vf_count = d->ee_count = 0;
		return -1;
	}
	return d->vf_count + d->ee_count;
}