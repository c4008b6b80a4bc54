/* Cloth/cloth intersections (sec. 2.1: "actual intersection of cloth with itself"): pairs of
 * triangles of all cloths that intersect, counted with the triangle/triangle predicate of
 * geometry.h, culled by the tree of cloth_pairs_setup.c. docs/collide.md. */
#include "cloth_pairs.h"

#include "geometry.h"

static bool has_vertex(const int32_t* tv, int32_t p) { return tv[0] == p || tv[1] == p || tv[2] == p; }

typedef struct count_query {
	const cloth_pairs* d;
	const vec3* x;
	int32_t hits;
	int32_t* first;
	int32_t first_max, first_count;
	/* Optional: tally[ga * groups + gb] (ga <= gb) counts the pairs between the groups of their
	 * triangles (group[t]: triangle t's cloth). */
	const int32_t* group;
	int32_t groups;
	int32_t* tally;
	int64_t candidates, budget;
	bool stopped;
} count_query;

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

static bool visit_intersection(void* ctx, int32_t A, int32_t B)
{
	count_query* q = ctx;
	const cloth_pairs* d = q->d;
	if (++q->candidates > q->budget || ((q->candidates & 1023) == 0 && d->cancel && *d->cancel)) {
		q->stopped = true;
		return false;
	}
	const int32_t* ta = d->triangles + 3 * (size_t)A;
	const int32_t* tb = d->triangles + 3 * (size_t)B;
	int shared = has_vertex(tb, ta[0]) + has_vertex(tb, ta[1]) + has_vertex(tb, ta[2]);
	if (shared >= 2) return true; /* neighbours across an edge */
	/* Triangles meeting across an open seam (a corner of one sewn to a corner of the other,
	 * cloth_pairs.sewn) are neighbours about to share that vertex, not an intersection. */
	for (int k = 0; d->sewn && k < 3; ++k)
		if (!has_vertex(tb, ta[k]) && sewn_to_triangle(d->sewn, ta[k], tb)) return true;
	if (!mesh_triangles_intersect(q->x, ta, tb)) return true;
	++q->hits;
	keep_smallest(q, A, B);
	if (q->tally) {
		int32_t ga = q->group[A], gb = q->group[B];
		++q->tally[ga < gb ? ga * q->groups + gb : gb * q->groups + ga];
	}
	return true;
}

static int32_t count_intersections(cloth_pairs* d, const vec3* x, count_query* q)
{
	d->candidate_pairs = 0;
	d->overloaded = false;
	if (d->triangle_count == 0) return 0;
	/* Exact boxes: the predicate counts touching, and closed boxes of touching triangles
	 * overlap. */
	for (int32_t t = 0; t < d->triangle_count; ++t) {
		const int32_t* v = d->triangles + 3 * (size_t)t;
		d->boxes[t] = aabb_add_point(aabb_of_segment(x[v[0]], x[v[1]]), x[v[2]]);
	}
	if (!cloth_pairs_fit_tree(d, d->boxes)) return -1;
	q->d = d;
	q->x = x;
	q->budget = (int64_t)CLOTH_PAIRS_BUDGET * d->triangle_count;
	int32_t stack[BVH_PAIRS_STACK];
	bvh_pairs_cb(&d->tree, &d->tree, visit_intersection, q, stack, BVH_PAIRS_STACK);
	d->candidate_pairs = q->candidates;
	if (q->stopped) {
		d->overloaded = !(d->cancel && *d->cancel);
		return -1;
	}
	return q->hits;
}

int32_t cloth_pairs_intersections(cloth_pairs* d, const vec3* x, int32_t* first_pairs, int32_t k)
{
	count_query q = {.first = first_pairs, .first_max = k};
	return count_intersections(d, x, &q);
}

int32_t cloth_pairs_intersections_by_group(cloth_pairs* d, const vec3* x, const int32_t* group, int32_t groups,
					   int32_t* tally)
{
	for (int64_t i = 0; i < (int64_t)groups * groups; ++i) tally[i] = 0;
	count_query q = {.group = group, .groups = groups, .tally = tally};
	return count_intersections(d, x, &q);
}
