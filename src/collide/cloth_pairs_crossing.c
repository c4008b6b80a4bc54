/* Cloth/cloth crossings (sec. 6): "we postulate a linear motion for the cloth particles ... and
 * check for either particle/triangle or edge/edge crossings", with the normal oriented by the side
 * each pair started on. docs/collide.md, "Cloth/cloth detection". */
#include "cloth_pairs_list.h"
#include "cloth_pairs_query.h"

#include "geometry.h"

#include <string.h>

/* det(b - a, c - a, p - a): positive when p is on the side of abc's normal. Below tol it is
 * rounding noise (the bound used by the crossing tests themselves, geometry.c). */
static double side_volume(vec3 p, vec3 a, vec3 b, vec3 c, double* tol)
{
	vec3 ab = v3_sub(b, a), ac = v3_sub(c, a), ap = v3_sub(p, a);
	double l0 = v3_len(ab), l1 = v3_len(ac), l2 = v3_len(ap);
	double M = max2(max2(v3_max_abs(p), v3_max_abs(a)), max2(v3_max_abs(b), v3_max_abs(c)));
	*tol = 32.0 * DBL_EPSILON * (l0 * l1 * l2 + M * (l0 * l1 + l1 * l2 + l2 * l0));
	return v3_dot(v3_cross(ab, ac), ap);
}

/* The side the configuration started on: the sign of the signed volume at x0; if that is zero
 * (up to rounding), the opposite of its sign at x1, where the motion ended; 0 if both vanish (the
 * four points stayed coplanar, as far as the arithmetic can tell). */
static int start_side(vec3 p0, vec3 a0, vec3 b0, vec3 c0, vec3 p1, vec3 a1, vec3 b1, vec3 c1)
{
	double tol;
	double v0 = side_volume(p0, a0, b0, c0, &tol);
	if (fabs(v0) > tol) return v0 > 0.0 ? 1 : -1;
	double v1 = side_volume(p1, a1, b1, c1, &tol);
	if (fabs(v1) > tol) return v1 > 0.0 ? -1 : 1;
	return 0;
}

static double det3(vec3 u, vec3 v, vec3 w) { return v3_dot(u, v3_cross(v, w)); }

/* True if the four points o, a, b, c, each moving linearly from *0 to *1, are coplanar at no time
 * in [0, 1], so no crossing test is needed. det(a - o, b - o, c - o) is the cubic
 * c0 + c1 t + c2 t^2 + c3 t^3, and |c0| > |c1| + |c2| + |c3| rules out a root in [0, 1]. Most
 * candidate pairs of a cloth that moves little relative to itself pass this test at the cost of
 * eight small determinants, skipping the root search (a factor of 2 margin plus a rounding
 * allowance keep it conservative). */
static bool never_coplanar(vec3 o0, vec3 o1, vec3 a0, vec3 a1, vec3 b0, vec3 b1, vec3 c0, vec3 c1)
{
	vec3 A = v3_sub(a0, o0), B = v3_sub(b0, o0), C = v3_sub(c0, o0);
	vec3 dA = v3_sub(v3_sub(a1, o1), A), dB = v3_sub(v3_sub(b1, o1), B), dC = v3_sub(v3_sub(c1, o1), C);
	double k0 = det3(A, B, C);
	double k1 = det3(dA, B, C) + det3(A, dB, C) + det3(A, B, dC);
	double k2 = det3(dA, dB, C) + det3(dA, B, dC) + det3(A, dB, dC);
	double k3 = det3(dA, dB, dC);
	double scale = (v3_len(A) + v3_len(dA)) * (v3_len(B) + v3_len(dB)) * (v3_len(C) + v3_len(dC));
	return fabs(k0) > 2.0 * (fabs(k1) + fabs(k2) + fabs(k3)) + 1e-12 * scale;
}

/* Largest displacement of the points b relative to the point o over the step. A distance between
 * o and any convex combination of the b changes by at most this, so a pair farther apart at the
 * start than this plus eps cannot touch during the step. */
static double relative_motion(vec3 o0, vec3 o1, const vec3* b0, const vec3* b1, int n)
{
	vec3 d = v3_sub(o1, o0);
	double m = 0.0;
	for (int k = 0; k < n; ++k) {
		double l = v3_len2(v3_sub(v3_sub(b1[k], b0[k]), d));
		if (l > m) m = l;
	}
	return sqrt(m);
}

/* Vertex p against triangle t, t not holding p (the body of crossing_vf). */
static void crossing_vf_live(query* q, int32_t p, int32_t t)
{
	const cloth_pairs* d = q->d;
	const int32_t* tv = d->triangles + 3 * (size_t)t;
	if (sewn_to_triangle(d->sewn, p, tv)) return;
	const double eps = q->margin;
	const vec3 *x0 = q->x, *x1 = q->x1;
	/* d->boxes[t] is t's swept box (drift removed) grown by eps / 2 + pad */
	aabb tb = aabb_grow(d->boxes[t], 0.5 * eps + q->pad);
	if (!aabb_overlap(aabb_of_segment(x0[p], v3_sub(x1[p], q->drift)), tb)) return;
	vec3 t0[3] = {x0[tv[0]], x0[tv[1]], x0[tv[2]]}, t1[3] = {x1[tv[0]], x1[tv[1]], x1[tv[2]]};
	double bary0[3];
	double gap = sqrt(point_triangle_closest(x0[p], t0[0], t0[1], t0[2], bary0));
	if (gap > relative_motion(x0[p], x1[p], t0, t1, 3) + eps) return;
	if (never_coplanar(x0[p], x1[p], x0[tv[0]], x1[tv[0]], x0[tv[1]], x1[tv[1]], x0[tv[2]], x1[tv[2]])) return;
	double toi, w[3];
	if (!ccd_point_triangle(x0[p], x1[p], x0[tv[0]], x1[tv[0]], x0[tv[1]], x1[tv[1]], x0[tv[2]], x1[tv[2]], eps,
				&toi, w))
		return;
	vec3 xp = v3_lerp(x0[p], x1[p], toi), a = v3_lerp(x0[tv[0]], x1[tv[0]], toi), b = v3_lerp(x0[tv[1]], x1[tv[1]], toi),
	     c = v3_lerp(x0[tv[2]], x1[tv[2]], toi);
	vec3 closest = bary_point(a, b, c, w);
	/* The normal at impact, on the side p started on (sec. 2.4: the spring pulls the particle
	 * "back to the correct side of the triangle"). A motion that kept the four points coplanar
	 * has no such side: the face normal as is, as proximity does for p in the plane. */
	vec3 n;
	if (face_normal(a, b, c, &n)) {
		int side = start_side(x0[p], x0[tv[0]], x0[tv[1]], x0[tv[2]], x1[p], x1[tv[0]], x1[tv[1]], x1[tv[2]]);
		if (side < 0) n = v3_neg(n);
	} else {
		double M = max2(v3_max_abs(xp), max2(v3_max_abs(a), max2(v3_max_abs(b), v3_max_abs(c))));
		if (!direction(xp, closest, M, &n)) return;
	}
	cc_xvf* r = emit(q, 0, pair_key(p, t));
	if (!r) return;
	r->p = p;
	r->t = t;
	memcpy(r->bary, w, sizeof w);
	r->normal = n;
	r->distance = v3_len(v3_sub(xp, closest));
	r->toi = toi;
}

/* Edges e and f without a common endpoint (the body of crossing_ee). */
static void crossing_ee_live(query* q, int32_t e, int32_t f)
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
	const double eps = q->margin;
	const vec3 *x0 = q->x, *x1 = q->x1;
	/* the boxes of the ends at x0 and at x1 - drift (cloth_pairs_crossings) */
	if (!boxes_near(&d->edge_boxes[e], &d->edge_boxes[f], eps + 2.0 * q->pad)) return;
	vec3 P[4] = {x0[ev[0]], x0[ev[1]], x1[ev[0]], x1[ev[1]]};
	vec3 Q[4] = {x0[fv[0]], x0[fv[1]], x1[fv[0]], x1[fv[1]]};
	{
		/* relative to e's first end: e's other end and f's ends */
		vec3 r0[3] = {P[1], Q[0], Q[1]}, r1[3] = {P[3], Q[2], Q[3]};
		double ps, pu;
		double gap = sqrt(segment_segment_closest(P[0], P[1], Q[0], Q[1], &ps, &pu));
		/* each edge point moves relative to e's first end by at most the largest of these, so
		 * the distance between the edges changes by at most twice that */
		if (gap > 2.0 * relative_motion(P[0], P[2], r0, r1, 3) + eps) return;
	}
	if (never_coplanar(P[0], P[2], P[1], P[3], Q[0], Q[2], Q[1], Q[3])) return;
	double toi, s, u;
	if (!ccd_edge_edge(P[0], P[2], P[1], P[3], Q[0], Q[2], Q[1], Q[3], eps, &toi, &s, &u)) return;
	vec3 p0 = v3_lerp(P[0], P[2], toi), p1 = v3_lerp(P[1], P[3], toi);
	vec3 q0 = v3_lerp(Q[0], Q[2], toi), q1 = v3_lerp(Q[1], Q[3], toi);
	vec3 cp = v3_lerp(p0, p1, s), cq = v3_lerp(q0, q1, u);
	double M = max2(max2(v3_max_abs(p0), v3_max_abs(p1)), max2(v3_max_abs(q0), v3_max_abs(q1)));
	/* The common normal e0 x e1 at impact, toward the side e0 started on: the sign of
	 * det(e0, e1, e0[0] - e1[0]) at x0 (the same volume as the particle/triangle one with
	 * a = e1[0], b = e1[1], c = a + e0, p = e0[0]). Parallel edges at impact, and motions that
	 * kept the edges coplanar, have no such normal: the direction from e1's closest point to
	 * e0's, as proximity does. */
	vec3 n, common;
	bool has_common = edges_normal(v3_sub(p1, p0), v3_sub(q1, q0), &common);
	int side = 0;
	if (has_common) {
		vec3 c0 = v3_add(Q[0], v3_sub(P[1], P[0])), c1 = v3_add(Q[2], v3_sub(P[3], P[2]));
		side = start_side(P[0], Q[0], Q[1], c0, P[2], Q[2], Q[3], c1);
	}
	/* that volume is det(e1, e0, e0[0] - e1[0]) = -(e0 x e1) . (e0[0] - e1[0]) */
	if (side != 0) n = side > 0 ? v3_neg(common) : common;
	else if (!direction(cp, cq, M, &n)) {
		if (!has_common) return;
		n = common; /* touching at impact with no side to go by: as is */
	}
	cc_xee* r = emit(q, 1, pair_key(e, f));
	if (!r) return;
	r->e0[0] = ev[0];
	r->e0[1] = ev[1];
	r->e1[0] = fv[0];
	r->e1[1] = fv[1];
	r->s = s;
	r->u = u;
	r->normal = n;
	r->distance = v3_len(v3_sub(cp, cq));
	r->toi = toi;
}

static void crossing_vf(query* q, int32_t p, int32_t t)
{
	if (!has_vertex(q->d->triangles + 3 * (size_t)t, p)) crossing_vf_live(q, p, t);
}

static void crossing_ee(query* q, int32_t e, int32_t f)
{
	if (!share_endpoint(q->d->edges + 2 * (size_t)e, q->d->edges + 2 * (size_t)f)) crossing_ee_live(q, e, f);
}

static bool visit_crossing(void* q, int32_t A, int32_t B) { return visit_pair(q, A, B, crossing_vf, crossing_ee); }

static bool visit_crossing_live(query* q, int32_t A, int32_t B, uint32_t live)
{
	return visit_pair_live(q, A, B, live, crossing_vf_live, crossing_ee_live);
}

int32_t cloth_pairs_crossings(cloth_pairs* d, const vec3* x0, const vec3* x1, double eps)
{
	d->xvf_count = d->xee_count = 0;
	if (!(eps > 0.0)) return 0;
	/* Culling in a frame that moves with the cloth's mean displacement w: positions x(t) - t w
	 * have the same differences, hence the same distances, at every t, and a sheet falling by
	 * more than its size in one step no longer has all its swept boxes overlapping. Swept boxes
	 * (the box of a triangle's start and end holds it at every time of a linear motion) grown
	 * by eps / 2, plus pad for the rounding of x1 - w. The tests themselves use x0 and x1. */
	vec3 w = v3_zero();
	double M = 0.0;
	int64_t owned = 0;
	for (int32_t t = 0; t < d->triangle_count; ++t)
		for (int k = 0; k < 3; ++k)
			if (d->owns[t] & (1u << k)) {
				int32_t v = d->triangles[3 * (size_t)t + k];
				w = v3_add(w, v3_sub(x1[v], x0[v]));
				M = max2(M, max2(v3_max_abs(x0[v]), v3_max_abs(x1[v])));
				++owned;
			}
	if (owned) w = v3_scale(w, 1.0 / (double)owned);
	double pad = 4.0 * DBL_EPSILON * (M + v3_max_abs(w));
	for (int32_t t = 0; t < d->triangle_count; ++t) {
		const int32_t* v = d->triangles + 3 * (size_t)t;
		aabb b = aabb_add_point(aabb_of_segment(x0[v[0]], x0[v[1]]), x0[v[2]]);
		for (int k = 0; k < 3; ++k) b = aabb_add_point(b, v3_sub(x1[v[k]], w));
		d->boxes[t] = aabb_grow(b, 0.5 * eps + pad);
	}
	for (int32_t e = 0; e < d->edge_count; ++e) {
		int32_t a = d->edges[2 * e], b = d->edges[2 * e + 1];
		vec3 P[4] = {x0[a], x0[b], v3_sub(x1[a], w), v3_sub(x1[b], w)};
		d->edge_boxes[e] = points_box(P, 4);
	}
	query q = {.d = d, .x = x0, .x1 = x1, .drift = w, .pad = pad, .margin = eps, .grow = 0.5 * eps + pad, .visit = visit_crossing,
		   .visit_live = visit_crossing_live,
		   .kind = {KIND_XVF, KIND_XEE}};
	if (!cloth_pairs_traverse(d, &q, cloth_pairs_list_ready(d, &q))) {
		d->xvf_count = d->xee_count = 0;
		return -1;
	}
	if (!cloth_pairs_sort(d, d->xvf, d->xvf_keys, d->xvf_count, sizeof *d->xvf) ||
	    !cloth_pairs_sort(d, d->xee, d->xee_keys, d->xee_count, sizeof *d->xee)) {
		d->xvf_count = d->xee_count = 0;
		return -1;
	}
	return d->xvf_count + d->xee_count;
}
