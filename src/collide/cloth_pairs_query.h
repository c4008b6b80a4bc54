/* Internal to the cloth/cloth detector (cloth_pairs_setup.c, cloth_pairs_query.c,
 * cloth_pairs_proximity.c, cloth_pairs_crossing.c, cloth_pairs_list.c): the query a tree traversal carries, the ownership rule that tests each
 * feature pair once, result arrays and their sort, and the small geometric helpers the proximity
 * and crossing tests share. docs/collide.md, "Cloth/cloth detection". */
#ifndef DRAPE_CLOTH_PAIRS_QUERY_H
#define DRAPE_CLOTH_PAIRS_QUERY_H

#include "cloth_pairs.h"
#include "math/scalar.h"

#include <float.h>
#include <math.h>

/* Result arrays start with this many entries and double as they fill. */
#define INITIAL_CAPACITY 64

/* Same threshold as point_triangle_closest: below this height / longest edge a triangle is its
 * three edges, and its plane has no trustworthy normal. */
#define TRIANGLE_DEGENERATE 1e-8

/* A difference of two computed points shorter than this many ulps of the largest coordinate
 * involved is rounding noise: its direction means nothing. */
#define NOISE_ULPS 64.0

/* ---- Small helpers ------------------------------------------------------------------------ */

static inline vec3 bary_point(vec3 a, vec3 b, vec3 c, const double w[3])
{
	return v3_add(v3_add(v3_scale(a, w[0]), v3_scale(b, w[1])), v3_scale(c, w[2]));
}

static inline bool has_vertex(const int32_t* tv, int32_t p) { return tv[0] == p || tv[1] == p || tv[2] == p; }

static inline bool share_endpoint(const int32_t* e, const int32_t* f)
{
	return e[0] == f[0] || e[0] == f[1] || e[1] == f[0] || e[1] == f[1];
}


/* The box of the point set P (edge ends, at one or two times). */
static inline aabb points_box(const vec3* P, int np)
{
	double lo[3], hi[3];
	for (int k = 0; k < 3; ++k) {
		lo[k] = DBL_MAX;
		hi[k] = -DBL_MAX;
		for (int i = 0; i < np; ++i) {
			double v = v3_get(P[i], k);
			lo[k] = v < lo[k] ? v : lo[k];
			hi[k] = v > hi[k] ? v : hi[k];
		}
	}
	return aabb_make(v3(lo[0], lo[1], lo[2]), v3(hi[0], hi[1], hi[2]));
}

/* Whether the boxes p and q of two point sets come within margin of each other on every axis: a
 * necessary condition for the sets' convex hulls to come within margin (in the Euclidean norm).
 * The edges' boxes are computed once per query (O(edges)), not once per candidate pair. */
static inline bool boxes_near(const aabb* p, const aabb* q, double margin)
{
	for (int k = 0; k < 3; ++k)
		if (v3_get(p->lo, k) - margin > v3_get(q->hi, k) || v3_get(q->lo, k) - margin > v3_get(p->hi, k)) return false;
	return true;
}

/* The unit normal of abc, or false when abc is degenerate (see TRIANGLE_DEGENERATE). */
static inline bool face_normal(vec3 a, vec3 b, vec3 c, vec3* n)
{
	vec3 ab = v3_sub(b, a), ac = v3_sub(c, a);
	vec3 m = v3_cross(ab, ac);
	double l2 = max2(max2(v3_len2(ab), v3_len2(ac)), v3_len2(v3_sub(c, b)));
	double m2 = v3_len2(m);
	if (!(m2 > TRIANGLE_DEGENERATE * TRIANGLE_DEGENERATE * l2 * l2)) return false;
	*n = v3_scale(m, 1.0 / sqrt(m2));
	return true;
}

/* (p - q) / |p - q| unless that is rounding noise at coordinate scale M. */
static inline bool direction(vec3 p, vec3 q, double M, vec3* n)
{
	vec3 r = v3_sub(p, q);
	double l = v3_len(r);
	if (!(l > NOISE_ULPS * DBL_EPSILON * M)) return false;
	*n = v3_scale(r, 1.0 / l);
	return true;
}

/* The unit common normal d1 x d2 of two edge directions, unless they are (nearly) parallel: the
 * same sin^2 > DBL_EPSILON cut as segment_segment_closest's. */
static inline bool edges_normal(vec3 d1, vec3 d2, vec3* n)
{
	vec3 c = v3_cross(d1, d2);
	double c2 = v3_len2(c);
	if (!(c2 > DBL_EPSILON * v3_len2(d1) * v3_len2(d2))) return false;
	*n = v3_scale(c, 1.0 / sqrt(c2));
	return true;
}

/* ---- Results ------------------------------------------------------------------------------ */

/* Result arrays (and their sort keys) grow by doubling and never shrink. */
bool cloth_pairs_reserve(void** arr, uint64_t** keys, int32_t* capacity, int32_t count, size_t size);

/* Sorts count results of `size` bytes in arr by their unique keys. */
bool cloth_pairs_sort(cloth_pairs* d, void* arr, const uint64_t* keys, int32_t count, size_t size);

static inline uint64_t pair_key(int32_t hi, int32_t lo) { return ((uint64_t)(uint32_t)hi << 32) | (uint32_t)lo; }

/* ---- Traversal ---------------------------------------------------------------------------- */

/* The four kinds of result, indexing cloth_pairs_part's arrays. */
enum { KIND_VF, KIND_EE, KIND_XVF, KIND_XEE };

static inline size_t kind_size(int kind)
{
	static const size_t size[4] = {sizeof(cc_vf), sizeof(cc_ee), sizeof(cc_xvf), sizeof(cc_xee)};
	return size[kind];
}

/* One thread's view of a query: the inputs, and where its two kinds of result go (its own arrays;
 * thread 0's are the cloth_pairs' own). */
typedef struct query {
	const cloth_pairs* d;
	const vec3* x;  /* proximity: positions; crossings: start */
	const vec3* x1; /* crossings: end */
	vec3 drift;     /* crossings: the mean displacement, taken out of the culling */
	double pad;     /* crossings: rounding allowance of the culling */
	double margin;  /* thickness or eps */
	double grow;    /* how much d->boxes are grown beyond the points' boxes */
	/* visit_pair with the query's two tests (a wrapper per query, so that they are direct calls) */
	bool (*visit)(void* q, int32_t A, int32_t B);
	/* the same for a pair of the candidate list, given its live tests (pair_live) */
	bool (*visit_live)(struct query* q, int32_t A, int32_t B, uint32_t live);
	bool proximity; /* which half of pair_live's mask applies */
	int kind[2]; /* [0]: the particle/triangle kind, [1]: the edge/edge kind */
	void* arr[2];
	uint64_t* keys[2];
	int32_t count[2], capacity[2];
	int64_t candidates; /* triangle pairs reported by the tree */
	int64_t budget;     /* ... at most (CLOTH_PAIRS_BUDGET per triangle) */
	bool failed;        /* a result array could not grow */
	bool stopped;       /* over the budget, or interrupted (cloth_pairs.cancel) */
} query;

/* A slot for result `which` (0: vf kind, 1: ee kind) with sort key key, or NULL (and q->failed)
 * when its array cannot grow. */
static inline void* emit(query* q, int which, uint64_t key)
{
	if (!cloth_pairs_reserve(&q->arr[which], &q->keys[which], &q->capacity[which], q->count[which], kind_size(q->kind[which]))) {
		q->failed = true;
		return NULL;
	}
	q->keys[which][q->count[which]] = key;
	return (char*)q->arr[which] + (size_t)q->count[which]++ * kind_size(q->kind[which]);
}

/* De-duplication by ownership. The tree reports each unordered pair of triangles (A, B) whose
 * boxes overlap once. Vertex v is tested against B only when A owns v, and edge e against edge f
 * only when A owns e and B owns f (or the reverse): then (v, B) is tested only in the report of
 * (owner(v), B), and (e, f) only in that of (owner(e), owner(f)), each exactly once. Nothing is
 * lost: owner(v)'s box holds v, and owner(e)'s holds e, so the boxes, grown by half the margin
 * each, overlap whenever v (or e) comes within the margin of B (of f). */
static inline bool visit_pair(query* q, int32_t A, int32_t B, void (*vf)(query* q, int32_t p, int32_t t),
			      void (*ee)(query* q, int32_t e, int32_t f))
{
	const cloth_pairs* d = q->d;
	if (++q->candidates > q->budget || ((q->candidates & 1023) == 0 && d->cancel && *d->cancel)) {
		q->stopped = true;
		return false;
	}
	const int32_t* ta = d->triangles + 3 * (size_t)A;
	const int32_t* tb = d->triangles + 3 * (size_t)B;
	unsigned oa = d->owns[A], ob = d->owns[B];
	for (int k = 0; k < 3; ++k) {
		if (oa & (1u << k)) vf(q, ta[k], B);
		if (ob & (1u << k)) vf(q, tb[k], A);
	}
	if (!(oa & 0x38u) || !(ob & 0x38u)) return true;
	for (int i = 0; i < 3; ++i) {
		if (!(oa & (8u << i))) continue;
		for (int j = 0; j < 3; ++j)
			if (ob & (8u << j)) ee(q, d->triangle_edges[3 * (size_t)A + i], d->triangle_edges[3 * (size_t)B + j]);
	}
	return true;
}

/* The feature tests visit_pair(q, A, B, ...) makes that get past the topology: bit k (k < 3): vertex
 * k of A against B, bit 3 + k: vertex k of B against A, bit 6 + 3 i + j: edge i of A against edge j
 * of B; only the owned ones (visit_pair), not sharing a vertex. The low 16 bits are the crossing
 * tests, the high 16 the proximity tests, which also leave out rest neighbours. A function of the
 * topology alone: the candidate list keeps it with each pair, so that a query runs only these
 * (visit_live) and skips the tests that would stop at their first line. */
static inline uint32_t pair_live(const cloth_pairs* d, int32_t A, int32_t B)
{
	const int32_t* ta = d->triangles + 3 * (size_t)A;
	const int32_t* tb = d->triangles + 3 * (size_t)B;
	unsigned oa = d->owns[A], ob = d->owns[B];
	uint32_t live = 0;
	for (int k = 0; k < 3; ++k) {
		if ((oa & (1u << k)) && !has_vertex(tb, ta[k])) {
			live |= 1u << k;
			if (!rest_near_vf(&d->rest, ta[k], B)) live |= 1u << (16 + k);
		}
		if ((ob & (1u << k)) && !has_vertex(ta, tb[k])) {
			live |= 1u << (3 + k);
			if (!rest_near_vf(&d->rest, tb[k], A)) live |= 1u << (19 + k);
		}
	}
	for (int i = 0; i < 3; ++i)
		for (int j = 0; j < 3; ++j) {
			if (!(oa & (8u << i)) || !(ob & (8u << j))) continue;
			int32_t e = d->triangle_edges[3 * (size_t)A + i], f = d->triangle_edges[3 * (size_t)B + j];
			if (share_endpoint(d->edges + 2 * (size_t)e, d->edges + 2 * (size_t)f)) continue;
			live |= 1u << (6 + 3 * i + j);
			if (!rest_near_ee(&d->rest, e, f)) live |= 1u << (22 + 3 * i + j);
		}
	return live;
}

/* visit_pair for a candidate-list pair: the live tests only, by the tests' bodies (vf(q, p, t),
 * ee(q, e, f) past their topology checks). The same tests of the same inputs as visit_pair makes
 * and gets results from, so the same results. */
static inline bool visit_pair_live(query* q, int32_t A, int32_t B, uint32_t live, void (*vf)(query* q, int32_t p, int32_t t),
				   void (*ee)(query* q, int32_t e, int32_t f))
{
	const cloth_pairs* d = q->d;
	if (++q->candidates > q->budget || ((q->candidates & 1023) == 0 && d->cancel && *d->cancel)) {
		q->stopped = true;
		return false;
	}
	if (q->proximity) live >>= 16;
	live &= 0x7fffu;
	if (!live) return true;
	const int32_t* ta = d->triangles + 3 * (size_t)A;
	const int32_t* tb = d->triangles + 3 * (size_t)B;
	for (int k = 0; k < 3; ++k) {
		if (live & (1u << k)) vf(q, ta[k], B);
		if (live & (8u << k)) vf(q, tb[k], A);
	}
	if (live >> 6)
		for (int b = 0; b < 9; ++b)
			if (live & (64u << b)) ee(q, d->triangle_edges[3 * (size_t)A + b / 3], d->triangle_edges[3 * (size_t)B + b % 3]);
	return true;
}

/* Runs the query's tree traversal against itself, or with `listed` the candidate list's pairs
 * (cloth_pairs_list_ready said it holds them all), filling the result arrays of proto's two kinds
 * (unsorted), on d->threads threads. False when a result array could not grow, the budget was
 * exceeded (d->overloaded) or the cancel flag was raised. */
bool cloth_pairs_traverse(cloth_pairs* d, const query* proto, bool listed);

#endif
