/* Cloth/cloth collision detection (sec. 6), the candidate list: the triangle pairs whose boxes,
 * grown by a skin beyond a query's, overlap at reference positions (a Verlet list, in molecular
 * dynamics' terms). A cloth that hardly moves between steps (lying on a body, swaying) makes the
 * tree report the same pairs at every query; filtering the list by the query's own boxes gives
 * exactly those pairs for a fraction of a traversal. docs/collide.md, "Candidate list". */
#include "cloth_pairs_list.h"

#include <stdlib.h>
#include <string.h>

/* After a build fails (a crowded cloth, whose grown boxes overlap more than the budget allows),
 * this many queries traverse the tree before the next try: a cloth in that state tends to stay
 * there a while, and each failed build costs about a traversal. */
#define LIST_RETRY_AFTER 16

void cloth_pairs_set_skin(cloth_pairs* d, double skin)
{
	d->skin = skin > 0.0 && isfinite(skin) ? skin : 0.0;
	d->list_valid = false;
	d->list_wait = 0;
}

/* How far the query's points are from the list's reference positions once one common translation
 * is taken out: the largest half-range, over the three axes, of the displacements x - list_ref
 * (and, for crossings, x1 - drift - list_ref, the points the swept boxes hold). Box overlap does
 * not change under a common translation, so only this spread counts. *M: the largest coordinate
 * involved, for the rounding allowance. NaN when a position is. */
static double list_spread(const cloth_pairs* d, const query* q, double* M)
{
	double lo[3] = {DBL_MAX, DBL_MAX, DBL_MAX}, hi[3] = {-DBL_MAX, -DBL_MAX, -DBL_MAX};
	double m = 0.0;
	bool finite = true;
	for (int32_t i = 0; i < d->particle_count; ++i) {
		vec3 p[2] = {q->x[i], q->x1 ? v3_sub(q->x1[i], q->drift) : q->x[i]};
		for (int j = 0; j < 2; ++j) {
			vec3 e = v3_sub(p[j], d->list_ref[i]);
			finite = finite && isfinite(e.x) && isfinite(e.y) && isfinite(e.z);
			for (int k = 0; k < 3; ++k) {
				double v = v3_get(e, k);
				lo[k] = v < lo[k] ? v : lo[k];
				hi[k] = v > hi[k] ? v : hi[k];
			}
			m = max2(m, max2(v3_max_abs(p[j]), v3_max_abs(d->list_ref[i])));
		}
	}
	*M = m;
	if (!finite) return NAN;
	double spread = 0.0;
	for (int k = 0; k < 3; ++k) spread = max2(spread, 0.5 * (hi[k] - lo[k]));
	return spread;
}

/* Whether the list covers the query: every point within spread of its reference position moved
 * by the common translation, so each of the query's boxes (the points' box grown by q->grow) lies
 * in its list box (grown by list_grow) so moved, when spread + grow <= list_grow. The allowance
 * covers the rounding of the boxes and of the displacements (a few ulps of the coordinates). */
static bool list_covers(const cloth_pairs* d, const query* q)
{
	double M;
	double spread = list_spread(d, q, &M);
	return spread + q->grow + 64.0 * DBL_EPSILON * (M + d->list_grow) <= d->list_grow;
}

/* The live tests of pair (A, B) (pair_live) whose features are within reach = 2 list_grow of each
 * other at list_ref. A query the list covers moves every point by at most D from its reference
 * position (and the common translation), and its tests go on only for features whose points' boxes
 * come within 2 g of each other (g its growth: vertex/triangle boxes, boxes_near of edges), so
 * within 2 (g + D) <= 2 list_grow at list_ref: the others would stop at that box test. A vertex is
 * compared with the triangle's list box, grown by list_grow already; edges by their boxes at
 * list_ref (list_edge_boxes). */
static uint32_t live_near(const cloth_pairs* d, int32_t A, int32_t B, uint32_t live)
{
	const double G = d->list_grow;
	const vec3* x = d->list_ref;
	const int32_t* ta = d->triangles + 3 * (size_t)A;
	const int32_t* tb = d->triangles + 3 * (size_t)B;
	for (int k = 0; k < 3; ++k) {
		aabb pa = aabb_of_point(x[ta[k]]), pb = aabb_of_point(x[tb[k]]);
		if ((live & (0x10001u << k)) && !boxes_near(&pa, &d->list_boxes[B], G)) live &= ~(0x10001u << k);
		if ((live & (0x80008u << k)) && !boxes_near(&pb, &d->list_boxes[A], G)) live &= ~(0x80008u << k);
	}
	for (int b = 0; b < 9; ++b) {
		if (!(live & (0x400040u << b))) continue;
		int32_t e = d->triangle_edges[3 * (size_t)A + b / 3], f = d->triangle_edges[3 * (size_t)B + b % 3];
		if (!boxes_near(&d->list_edge_boxes[e], &d->list_edge_boxes[f], 2.0 * G)) live &= ~(0x400040u << b);
	}
	return live;
}

typedef struct collect_ctx {
	cloth_pairs* d;
	int64_t budget;
	bool failed;
} collect_ctx;

static bool collect_pair(void* ctx, int32_t A, int32_t B)
{
	collect_ctx* c = ctx;
	cloth_pairs* d = c->d;
	if (d->list_count >= c->budget || ((d->list_count & 1023) == 0 && d->cancel && *d->cancel)) {
		c->failed = true;
		return false;
	}
	if (d->list_count == d->list_capacity) {
		int64_t cap = d->list_capacity ? 2 * d->list_capacity : 1024;
		int32_t* p = realloc(d->list, 2 * (size_t)cap * sizeof *p);
		if (p) d->list = p;
		uint32_t* l = p ? realloc(d->list_live, (size_t)cap * sizeof *l) : NULL;
		if (l) d->list_live = l;
		if (!p || !l) {
			c->failed = true;
			return false;
		}
		d->list_capacity = cap;
	}
	d->list[2 * d->list_count] = A;
	d->list[2 * d->list_count + 1] = B;
	d->list_live[d->list_count] = live_near(d, A, B, pair_live(d, A, B));
	d->list_count++;
	return true;
}

/* Builds the list at the query's start positions, its boxes grown by the query's growth, the
 * spread of the query itself (a crossing's motion) and the skin. False (the list off until the
 * next query) on allocation failure, an interrupt, or more pairs than the query's budget: a cloth
 * crushed or flung, which the query's own traversal then reports. */
static bool list_build(cloth_pairs* d, const query* q)
{
	d->list_valid = false;
	d->list_count = 0;
	if (!d->list_ref) d->list_ref = malloc((d->particle_count ? (size_t)d->particle_count : 1) * sizeof *d->list_ref);
	if (!d->list_boxes) d->list_boxes = malloc((size_t)d->triangle_count * sizeof *d->list_boxes);
	if (!d->list_edge_boxes) d->list_edge_boxes = malloc((d->edge_count ? (size_t)d->edge_count : 1) * sizeof *d->list_edge_boxes);
	if (!d->list_ref || !d->list_boxes || !d->list_edge_boxes) return false;
	memcpy(d->list_ref, q->x, (size_t)d->particle_count * sizeof *d->list_ref);
	double M;
	double spread = list_spread(d, q, &M);
	if (!isfinite(spread)) return false;
	d->list_grow = q->grow + spread + d->skin;
	for (int32_t t = 0; t < d->triangle_count; ++t) {
		const int32_t* v = d->triangles + 3 * (size_t)t;
		aabb b = aabb_add_point(aabb_of_segment(q->x[v[0]], q->x[v[1]]), q->x[v[2]]);
		d->list_boxes[t] = aabb_grow(b, d->list_grow);
	}
	for (int32_t e = 0; e < d->edge_count; ++e)
		d->list_edge_boxes[e] = aabb_of_segment(q->x[d->edges[2 * e]], q->x[d->edges[2 * e + 1]]);
	if (!cloth_pairs_fit_tree(d, d->list_boxes)) return false;
	collect_ctx c = {d, (int64_t)CLOTH_PAIRS_BUDGET * d->triangle_count, false};
	int32_t stack[BVH_PAIRS_STACK];
	bvh_pairs_cb(&d->tree, &d->tree, collect_pair, &c, stack, BVH_PAIRS_STACK);
	d->list_builds++;
	d->list_valid = !c.failed && list_covers(d, q);
	if (!d->list_valid) d->list_wait = LIST_RETRY_AFTER;
	return d->list_valid;
}

bool cloth_pairs_list_ready(cloth_pairs* d, const query* q)
{
	if (!(d->skin > 0.0) || d->triangle_count == 0) return false;
	bool ready = d->list_valid && list_covers(d, q);
	if (!ready && d->list_wait > 0) {
		d->list_wait--;
		return false;
	}
	ready = ready || list_build(d, q);
	d->list_queries += ready;
	return ready;
}
