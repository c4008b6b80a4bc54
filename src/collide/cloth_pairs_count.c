/* Cloth/cloth intersections (sec. 2.1: "actual intersection of cloth with itself"): pairs of
 * triangles of all cloths that intersect, counted with the triangle/triangle predicate of
 * geometry.h behind a separating-axis guard, culled by the tree of cloth_pairs.c. docs/collide.md. */
#include "cloth_pairs.h"

#include "geometry.h"

#include <float.h>
#include <math.h>

/* fmax is a library call under strict IEEE semantics; these operands are never NaN. */
static double max2(double a, double b) { return a > b ? a : b; }
static double maxabs(vec3 a) { return max2(fabs(a.x), max2(fabs(a.y), fabs(a.z))); }

static bool has_vertex(const int32_t* tv, int32_t p) { return tv[0] == p || tv[1] == p || tv[2] == p; }

typedef struct count_query {
	const cloth_pairs* d;
	const vec3* x;
	int32_t hits;
	int32_t* first;
	int32_t first_max, first_count;
	int64_t candidates;
} count_query;

/* Whether some axis separates the projections of the convex hulls of P (a segment, np = 2, or a
 * triangle, np = 3) and of the triangle Q by more than rounding could account for, which proves
 * them disjoint. The candidates are complete for such pairs (the separating axis theorem): the
 * triangles' normals, the cross products of an edge of each, and, for (nearly) coplanar pairs,
 * the in-plane normals of every edge. A guard in front of the intersection predicate, which
 * decides with signs of determinants: for two triangles (nearly) in one tilted plane, those
 * signs are rounding noise, and pairs a whole cell apart could be reported (docs/collide.md). */
typedef struct sat {
	const vec3 *P, *Q;
	int np;
	double tol; /* a projection dot(axis, x) errs by a few ulps of |axis| |x| <= |axis| sqrt(3) M */
} sat;

static bool separates(const sat* s, vec3 a)
{
	double lp = DBL_MAX, hp = -DBL_MAX, lq = DBL_MAX, hq = -DBL_MAX;
	for (int i = 0; i < s->np; ++i) {
		double v = v3_dot(a, s->P[i]);
		lp = v < lp ? v : lp;
		hp = v > hp ? v : hp;
	}
	for (int j = 0; j < 3; ++j) {
		double v = v3_dot(a, s->Q[j]);
		lq = v < lq ? v : lq;
		hq = v > hq ? v : hq;
	}
	double gap = lq - hp > lp - hq ? lq - hp : lp - hq;
	return gap > 0.0 && gap * gap > s->tol * s->tol * v3_len2(a);
}

static bool certainly_apart(const vec3* P, int np, const vec3* Q)
{
	vec3 ep[3], eq[3];
	int nep = np == 3 ? 3 : 1;
	double M = 0.0;
	for (int i = 0; i < np; ++i) M = max2(M, maxabs(P[i]));
	for (int j = 0; j < 3; ++j) M = max2(M, maxabs(Q[j]));
	sat s = {P, Q, np, 32.0 * DBL_EPSILON * M};
	for (int j = 0; j < 3; ++j) eq[j] = v3_sub(Q[(j + 1) % 3], Q[j]);
	vec3 normals[2];
	int nn = 0;
	normals[nn++] = v3_cross(eq[0], v3_sub(Q[2], Q[0]));
	if (separates(&s, normals[0])) return true;
	for (int i = 0; i < nep; ++i) ep[i] = v3_sub(P[(i + 1) % np], P[i]);
	if (np == 3) {
		normals[nn++] = v3_cross(ep[0], v3_sub(P[2], P[0]));
		if (separates(&s, normals[1])) return true;
	}
	for (int i = 0; i < nep; ++i)
		for (int j = 0; j < 3; ++j)
			if (separates(&s, v3_cross(ep[i], eq[j]))) return true;
	for (int k = 0; k < nn; ++k) {
		for (int j = 0; j < 3; ++j)
			if (separates(&s, v3_cross(normals[k], eq[j]))) return true;
		for (int i = 0; i < nep; ++i)
			if (separates(&s, v3_cross(normals[k], ep[i]))) return true;
	}
	return false;
}

/* Keeps the first_max smallest pairs, sorted, by insertion: allocation-free, and independent of
 * the order in which the tree reports them. */
static void keep_smallest(count_query* q, int32_t A, int32_t B)
{
	int32_t* f = q->first;
	int32_t n = q->first_count;
	if (!f || q->first_max <= 0) return;
	if (n == q->first_max) {
		int32_t la = f[2 * (n - 1)], lb = f[2 * (n - 1) + 1];
		if (A > la || (A == la && B > lb)) return;
		--n;
	}
	int32_t i = n;
	while (i > 0 && (f[2 * (i - 1)] > A || (f[2 * (i - 1)] == A && f[2 * (i - 1) + 1] > B))) {
		f[2 * i] = f[2 * (i - 1)];
		f[2 * i + 1] = f[2 * (i - 1) + 1];
		--i;
	}
	f[2 * i] = A;
	f[2 * i + 1] = B;
	q->first_count = n + 1;
}

static void visit_intersection(void* ctx, int32_t A, int32_t B)
{
	count_query* q = ctx;
	const cloth_pairs* d = q->d;
	++q->candidates;
	const int32_t* ta = d->triangles + 3 * (size_t)A;
	const int32_t* tb = d->triangles + 3 * (size_t)B;
	int shared = has_vertex(tb, ta[0]) + has_vertex(tb, ta[1]) + has_vertex(tb, ta[2]);
	if (shared >= 2) return; /* neighbours across an edge */
	const vec3* x = q->x;
	vec3 xa[3] = {x[ta[0]], x[ta[1]], x[ta[2]]}, xb[3] = {x[tb[0]], x[tb[1]], x[tb[2]]};
	if (shared == 0) {
		if (certainly_apart(xa, 3, xb)) return;
	} else {
		/* Sharing vertex v, they meet only if the edge opposite v in one meets the other
		 * (geometry.h): both of those segments proved apart settles it. */
		int ia = has_vertex(tb, ta[0]) ? 0 : (has_vertex(tb, ta[1]) ? 1 : 2);
		int ib = tb[0] == ta[ia] ? 0 : (tb[1] == ta[ia] ? 1 : 2);
		vec3 sa[2] = {xa[(ia + 1) % 3], xa[(ia + 2) % 3]}, sb[2] = {xb[(ib + 1) % 3], xb[(ib + 2) % 3]};
		if (certainly_apart(sa, 2, xb) && certainly_apart(sb, 2, xa)) return;
	}
	if (!mesh_triangles_intersect(x, ta, tb)) return;
	++q->hits;
	keep_smallest(q, A, B);
}

int32_t cloth_pairs_intersections(cloth_pairs* d, const vec3* x, int32_t* first_pairs, int32_t k)
{
	d->candidate_pairs = 0;
	if (d->triangle_count == 0) return 0;
	/* Exact boxes: the predicate counts touching, and closed boxes of touching triangles
	 * overlap. */
	for (int32_t t = 0; t < d->triangle_count; ++t) {
		const int32_t* v = d->triangles + 3 * (size_t)t;
		d->boxes[t] = aabb_add_point(aabb_of_segment(x[v[0]], x[v[1]]), x[v[2]]);
	}
	if (!cloth_pairs_fit_tree(d)) return -1;
	count_query q = {.d = d, .x = x, .first = first_pairs, .first_max = k};
	int32_t stack[BVH_PAIRS_STACK];
	bvh_pairs_cb(&d->tree, &d->tree, visit_intersection, &q, stack, BVH_PAIRS_STACK);
	d->candidate_pairs = q.candidates;
	return q.hits;
}
