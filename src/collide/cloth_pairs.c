/* Cloth/cloth collision detection (sec. 2.4, 6): "pairs (p, t) and (e1, e2)" of close particles and
 * triangles and of close edges, their crossings over a postulated linear motion, and intersecting
 * triangles. One bounding box tree over all cloth triangles, built once and refitted at every call
 * (the "coherency-based bounding-box approach" of sec. 6); docs/collide.md. */
#include "cloth_pairs.h"

#include "geometry.h"

#include <float.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* Same threshold as point_triangle_closest: below this height / longest edge a triangle is its
 * three edges, and its plane has no trustworthy normal. */
#define TRIANGLE_DEGENERATE 1e-8

/* A difference of two computed points shorter than this many ulps of the largest coordinate
 * involved is rounding noise: its direction means nothing. */
#define NOISE_ULPS 64.0

/* ---- Topology --------------------------------------------------------------------------- */

typedef struct edge_rec {
	int32_t a, b; /* a < b */
	int32_t tri;
	int32_t k; /* edge k of tri joins corners k and (k + 1) % 3 */
} edge_rec;

static int cmp_edge_rec(const void* pa, const void* pb)
{
	const edge_rec* x = pa;
	const edge_rec* y = pb;
	if (x->a != y->a) return x->a < y->a ? -1 : 1;
	if (x->b != y->b) return x->b < y->b ? -1 : 1;
	if (x->tri != y->tri) return x->tri < y->tri ? -1 : 1;
	return (x->k > y->k) - (x->k < y->k);
}

void cloth_pairs_free(cloth_pairs* d)
{
	free(d->triangles);
	free(d->edges);
	free(d->triangle_edges);
	free(d->owns);
	rest_neighbours_free(&d->rest);
	free(d->boxes);
	free(d->edge_boxes);
	free(d->vf);
	free(d->ee);
	free(d->xvf);
	free(d->xee);
	free(d->vf_keys);
	free(d->ee_keys);
	free(d->xvf_keys);
	free(d->xee_keys);
	free(d->scratch);
	for (int32_t k = 0; k < d->part_count; ++k)
		for (int j = 0; j < 4; ++j) {
			free(d->parts[k].arr[j]);
			free(d->parts[k].keys[j]);
		}
	free(d->parts);
	if (d->tree_built) bvh_free(&d->tree);
	memset(d, 0, sizeof *d);
}

#define INITIAL_CAPACITY 64

bool cloth_pairs_init(cloth_pairs* d, const int32_t* triangles, int32_t triangle_count, int32_t particle_count)
{
	memset(d, 0, sizeof *d);
	if (triangle_count < 0 || particle_count < 0 || triangle_count > INT32_MAX / 3) return false;
	for (int64_t i = 0; i < 3 * (int64_t)triangle_count; ++i)
		if (triangles[i] < 0 || triangles[i] >= particle_count) return false;
	for (int32_t t = 0; t < triangle_count; ++t) {
		const int32_t* v = triangles + 3 * t;
		if (v[0] == v[1] || v[1] == v[2] || v[2] == v[0]) return false;
	}
	size_t n3 = 3 * (size_t)triangle_count;
	d->threads = 1;
	d->triangle_count = triangle_count;
	d->particle_count = particle_count;
	d->triangles = malloc((n3 ? n3 : 1) * sizeof *d->triangles);
	d->triangle_edges = malloc((n3 ? n3 : 1) * sizeof *d->triangle_edges);
	d->owns = calloc(triangle_count ? (size_t)triangle_count : 1, 1);
	d->boxes = malloc((triangle_count ? (size_t)triangle_count : 1) * sizeof *d->boxes);
	d->vf = malloc(INITIAL_CAPACITY * sizeof *d->vf);
	d->ee = malloc(INITIAL_CAPACITY * sizeof *d->ee);
	d->xvf = malloc(INITIAL_CAPACITY * sizeof *d->xvf);
	d->xee = malloc(INITIAL_CAPACITY * sizeof *d->xee);
	d->vf_keys = malloc(INITIAL_CAPACITY * sizeof *d->vf_keys);
	d->ee_keys = malloc(INITIAL_CAPACITY * sizeof *d->ee_keys);
	d->xvf_keys = malloc(INITIAL_CAPACITY * sizeof *d->xvf_keys);
	d->xee_keys = malloc(INITIAL_CAPACITY * sizeof *d->xee_keys);
	edge_rec* rec = malloc((n3 ? n3 : 1) * sizeof *rec);
	bool* seen = calloc(particle_count ? (size_t)particle_count : 1, sizeof *seen);
	bool ok = d->triangles && d->triangle_edges && d->owns && d->boxes && d->vf && d->ee && d->xvf && d->xee &&
		  d->vf_keys && d->ee_keys && d->xvf_keys && d->xee_keys && rec && seen;
	if (ok) {
		d->vf_capacity = d->ee_capacity = d->xvf_capacity = d->xee_capacity = INITIAL_CAPACITY;
		if (n3) memcpy(d->triangles, triangles, n3 * sizeof *triangles);
		/* Vertex owners: the first (lowest-numbered) triangle holding the vertex. */
		for (int32_t t = 0; t < triangle_count; ++t)
			for (int k = 0; k < 3; ++k) {
				int32_t v = triangles[3 * t + k];
				if (!seen[v]) {
					seen[v] = true;
					d->owns[t] |= (uint8_t)(1u << k);
				}
			}
		/* Edges: sorted (lower vertex, higher vertex, triangle) records; the first record of
		 * each run names the edge's owner. */
		for (int32_t t = 0; t < triangle_count; ++t)
			for (int k = 0; k < 3; ++k) {
				int32_t a = triangles[3 * t + k], b = triangles[3 * t + (k + 1) % 3];
				edge_rec r = {a < b ? a : b, a < b ? b : a, t, k};
				rec[3 * (size_t)t + (size_t)k] = r;
			}
		qsort(rec, n3, sizeof *rec, cmp_edge_rec);
		int32_t ne = 0;
		for (size_t i = 0; i < n3; ++i)
			if (i == 0 || rec[i].a != rec[i - 1].a || rec[i].b != rec[i - 1].b) ++ne;
		d->edges = malloc((ne ? (size_t)ne : 1) * 2 * sizeof *d->edges);
		d->edge_boxes = malloc((ne ? (size_t)ne : 1) * sizeof *d->edge_boxes);
		ok = d->edges != NULL && d->edge_boxes != NULL;
		if (ok) {
			int32_t e = -1;
			for (size_t i = 0; i < n3; ++i) {
				if (i == 0 || rec[i].a != rec[i - 1].a || rec[i].b != rec[i - 1].b) {
					++e;
					d->edges[2 * e] = rec[i].a;
					d->edges[2 * e + 1] = rec[i].b;
					d->owns[rec[i].tri] |= (uint8_t)(8u << rec[i].k);
				}
				d->triangle_edges[3 * (size_t)rec[i].tri + (size_t)rec[i].k] = e;
			}
			d->edge_count = ne;
		}
	}
	free(rec);
	free(seen);
	if (!ok) cloth_pairs_free(d);
	return ok;
}

void cloth_pairs_rebuild_tree(cloth_pairs* d)
{
	if (d->tree_built) bvh_free(&d->tree);
	d->tree_built = false;
}

/* The tree's topology comes from the positions it was built at (the first query: the only
 * allocation of a query besides results outgrowing their arrays); later queries refit it. Cloth
 * hardly stretches, so neighbours on the mesh stay neighbours in space and a refitted tree stays
 * tight as the cloth drapes and folds: the coherence between steps that sec. 6 exploits. */
bool cloth_pairs_fit_tree(cloth_pairs* d)
{
	if (d->tree_built) {
		bvh_refit(&d->tree, d->boxes);
		return true;
	}
	if (!bvh_build(&d->tree, d->boxes, d->triangle_count)) return false;
	d->tree_built = true;
	return true;
}

/* ---- Small helpers ------------------------------------------------------------------------ */

static vec3 lerp(vec3 a, vec3 b, double t) { return v3_add(v3_scale(a, 1.0 - t), v3_scale(b, t)); }

/* fmax is a library call under strict IEEE semantics; these operands are never NaN. */
static double max2(double a, double b) { return a > b ? a : b; }
static double maxabs(vec3 a) { return max2(fabs(a.x), max2(fabs(a.y), fabs(a.z))); }

static vec3 bary_point(vec3 a, vec3 b, vec3 c, const double w[3])
{
	return v3_add(v3_add(v3_scale(a, w[0]), v3_scale(b, w[1])), v3_scale(c, w[2]));
}

static bool has_vertex(const int32_t* tv, int32_t p) { return tv[0] == p || tv[1] == p || tv[2] == p; }

static bool share_endpoint(const int32_t* e, const int32_t* f)
{
	return e[0] == f[0] || e[0] == f[1] || e[1] == f[0] || e[1] == f[1];
}

/* The box of the point set P (edge ends, at one or two times). */
static aabb points_box(const vec3* P, int np)
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
static bool boxes_near(const aabb* p, const aabb* q, double margin)
{
	for (int k = 0; k < 3; ++k)
		if (v3_get(p->lo, k) - margin > v3_get(q->hi, k) || v3_get(q->lo, k) - margin > v3_get(p->hi, k)) return false;
	return true;
}

/* The unit normal of abc, or false when abc is degenerate (see TRIANGLE_DEGENERATE). */
static bool face_normal(vec3 a, vec3 b, vec3 c, vec3* n)
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
static bool direction(vec3 p, vec3 q, double M, vec3* n)
{
	vec3 r = v3_sub(p, q);
	double l = v3_len(r);
	if (!(l > NOISE_ULPS * DBL_EPSILON * M)) return false;
	*n = v3_scale(r, 1.0 / l);
	return true;
}

/* The unit common normal d1 x d2 of two edge directions, unless they are (nearly) parallel: the
 * same sin^2 > DBL_EPSILON cut as segment_segment_closest's. */
static bool edges_normal(vec3 d1, vec3 d2, vec3* n)
{
	vec3 c = v3_cross(d1, d2);
	double c2 = v3_len2(c);
	if (!(c2 > DBL_EPSILON * v3_len2(d1) * v3_len2(d2))) return false;
	*n = v3_scale(c, 1.0 / sqrt(c2));
	return true;
}

/* Result arrays (and their sort keys) grow by doubling and never shrink. */
static bool reserve(void** arr, uint64_t** keys, int32_t* capacity, int32_t count, size_t size)
{
	if (count < *capacity) return true;
	if (*capacity > INT32_MAX / 2) return false;
	int32_t cap = *capacity ? 2 * *capacity : INITIAL_CAPACITY;
	void* p = realloc(*arr, (size_t)cap * size);
	if (!p) return false;
	*arr = p;
	uint64_t* k = realloc(*keys, (size_t)cap * sizeof *k);
	if (!k) return false;
	*keys = k;
	*capacity = cap;
	return true;
}

/* Sorting makes the output a function of the input alone: the order in which the tree reports
 * pairs depends on the positions it was built at. Keys are (p, t) or (edge index, edge index),
 * unique, packed in 64 bits (edge indices follow the lexicographic order of their vertices). An
 * LSD radix sort on bytes, skipping bytes that no key varies in (typically 4 passes), then one
 * gather; its buffers live in d->scratch and only grow. */
typedef struct sort_item {
	uint64_t key;
	int64_t index;
} sort_item;

static bool sort_results(cloth_pairs* d, void* arr, const uint64_t* keys, int32_t count, size_t size)
{
	if (count < 2) return true;
	size_t n = (size_t)count;
	size_t need = 2 * n * sizeof(sort_item) + n * size;
	if (need > d->scratch_bytes) {
		void* p = realloc(d->scratch, need);
		if (!p) return false;
		d->scratch = p;
		d->scratch_bytes = need;
	}
	sort_item* a = d->scratch;
	sort_item* b = a + n;
	unsigned char* gather = (unsigned char*)(b + n);
	uint64_t all_or = 0, all_and = ~(uint64_t)0;
	for (size_t i = 0; i < n; ++i) {
		a[i].key = keys[i];
		a[i].index = (int64_t)i;
		all_or |= keys[i];
		all_and &= keys[i];
	}
	uint64_t varies = all_or ^ all_and;
	for (int shift = 0; shift < 64; shift += 8) {
		if (!((varies >> shift) & 0xffu)) continue;
		size_t count_of[257] = {0};
		for (size_t i = 0; i < n; ++i) ++count_of[((a[i].key >> shift) & 0xffu) + 1];
		for (int k = 0; k < 256; ++k) count_of[k + 1] += count_of[k];
		for (size_t i = 0; i < n; ++i) b[count_of[(a[i].key >> shift) & 0xffu]++] = a[i];
		sort_item* t = a;
		a = b;
		b = t;
	}
	const unsigned char* src = arr;
	for (size_t i = 0; i < n; ++i) memcpy(gather + i * size, src + (size_t)a[i].index * size, size);
	memcpy(arr, gather, n * size);
	return true;
}

static uint64_t pair_key(int32_t hi, int32_t lo) { return ((uint64_t)(uint32_t)hi << 32) | (uint32_t)lo; }

void cloth_pairs_set_threads(cloth_pairs* d, int threads) { d->threads = threads > 1 ? threads : 1; }

/* ---- Traversal ---------------------------------------------------------------------------- */

/* The four kinds of result, indexing cloth_pairs_part's arrays. */
enum { KIND_VF, KIND_EE, KIND_XVF, KIND_XEE };

static const size_t kind_size[4] = {sizeof(cc_vf), sizeof(cc_ee), sizeof(cc_xvf), sizeof(cc_xee)};

/* One thread's view of a query: the inputs, and where its two kinds of result go (its own arrays;
 * thread 0's are the cloth_pairs' own). */
typedef struct query {
	const cloth_pairs* d;
	const vec3* x;  /* proximity: positions; crossings: start */
	const vec3* x1; /* crossings: end */
	vec3 drift;     /* crossings: the mean displacement, taken out of the culling */
	double pad;     /* crossings: rounding allowance of the culling */
	double margin;  /* thickness or eps */
	/* visit_pair with the query's two tests (a wrapper per query, so that they are direct calls) */
	void (*visit)(void* q, int32_t A, int32_t B);
	int kind[2]; /* [0]: the particle/triangle kind, [1]: the edge/edge kind */
	void* arr[2];
	uint64_t* keys[2];
	int32_t count[2], capacity[2];
	int64_t candidates; /* triangle pairs reported by the tree */
	bool failed;        /* a result array could not grow */
} query;

/* A slot for result `which` (0: vf kind, 1: ee kind) with sort key key, or NULL (and q->failed)
 * when its array cannot grow. */
static void* emit(query* q, int which, uint64_t key)
{
	if (!reserve(&q->arr[which], &q->keys[which], &q->capacity[which], q->count[which], kind_size[q->kind[which]])) {
		q->failed = true;
		return NULL;
	}
	q->keys[which][q->count[which]] = key;
	return (char*)q->arr[which] + (size_t)q->count[which]++ * kind_size[q->kind[which]];
}

/* The cloth_pairs' own result arrays of one kind. */
typedef struct result_ref {
	void** arr;
	uint64_t** keys;
	int32_t *count, *capacity;
} result_ref;

static result_ref main_results(cloth_pairs* d, int kind)
{
	switch (kind) {
	case KIND_VF: return (result_ref){(void**)&d->vf, &d->vf_keys, &d->vf_count, &d->vf_capacity};
	case KIND_EE: return (result_ref){(void**)&d->ee, &d->ee_keys, &d->ee_count, &d->ee_capacity};
	case KIND_XVF: return (result_ref){(void**)&d->xvf, &d->xvf_keys, &d->xvf_count, &d->xvf_capacity};
	default: return (result_ref){(void**)&d->xee, &d->xee_keys, &d->xee_count, &d->xee_capacity};
	}
}

/* Thread id's result arrays into q (empty), and back after the traversal (they may have grown). */
static void bind_results(cloth_pairs* d, query* q, int id)
{
	for (int w = 0; w < 2; ++w) {
		if (id == 0) {
			result_ref r = main_results(d, q->kind[w]);
			q->arr[w] = *r.arr;
			q->keys[w] = *r.keys;
			q->capacity[w] = *r.capacity;
		} else {
			cloth_pairs_part* p = &d->parts[id - 1];
			q->arr[w] = p->arr[q->kind[w]];
			q->keys[w] = p->keys[q->kind[w]];
			q->capacity[w] = p->capacity[q->kind[w]];
		}
		q->count[w] = 0;
	}
}

static void unbind_results(cloth_pairs* d, const query* q, int id)
{
	for (int w = 0; w < 2; ++w) {
		if (id == 0) {
			result_ref r = main_results(d, q->kind[w]);
			*r.arr = q->arr[w];
			*r.keys = q->keys[w];
			*r.capacity = q->capacity[w];
			*r.count = q->count[w];
		} else {
			cloth_pairs_part* p = &d->parts[id - 1];
			p->arr[q->kind[w]] = q->arr[w];
			p->keys[q->kind[w]] = q->keys[w];
			p->capacity[q->kind[w]] = q->capacity[w];
			p->count[q->kind[w]] = q->count[w];
		}
	}
}

/* Appends threads 1 .. used - 1's results of kind to the cloth_pairs' own arrays, in thread order
 * (the sort that follows fixes the final order anyway: keys are unique). */
static bool merge_results(cloth_pairs* d, int kind, int used)
{
	result_ref r = main_results(d, kind);
	const size_t size = kind_size[kind];
	int64_t total = *r.count;
	for (int id = 1; id < used; ++id) total += d->parts[id - 1].count[kind];
	if (total > INT32_MAX) return false;
	while (*r.capacity < total) /* reserve grows a full array */
		if (!reserve(r.arr, r.keys, r.capacity, *r.capacity, size)) return false;
	for (int id = 1; id < used; ++id) {
		const cloth_pairs_part* p = &d->parts[id - 1];
		int32_t m = p->count[kind];
		if (m == 0) continue;
		memcpy((char*)*r.arr + (size_t)*r.count * size, p->arr[kind], (size_t)m * size);
		memcpy(*r.keys + *r.count, p->keys[kind], (size_t)m * sizeof **r.keys);
		*r.count += m;
	}
	return true;
}

/* De-duplication by ownership. The tree reports each unordered pair of triangles (A, B) whose
 * boxes overlap once. Vertex v is tested against B only when A owns v, and edge e against edge f
 * only when A owns e and B owns f (or the reverse): then (v, B) is tested only in the report of
 * (owner(v), B), and (e, f) only in that of (owner(e), owner(f)), each exactly once. Nothing is
 * lost: owner(v)'s box holds v, and owner(e)'s holds e, so the boxes, grown by half the margin
 * each, overlap whenever v (or e) comes within the margin of B (of f). */
static inline void visit_pair(query* q, int32_t A, int32_t B, void (*vf)(query* q, int32_t p, int32_t t),
			      void (*ee)(query* q, int32_t e, int32_t f))
{
	const cloth_pairs* d = q->d;
	++q->candidates;
	const int32_t* ta = d->triangles + 3 * (size_t)A;
	const int32_t* tb = d->triangles + 3 * (size_t)B;
	unsigned oa = d->owns[A], ob = d->owns[B];
	for (int k = 0; k < 3; ++k) {
		if (oa & (1u << k)) vf(q, ta[k], B);
		if (ob & (1u << k)) vf(q, tb[k], A);
	}
	if (!(oa & 0x38u) || !(ob & 0x38u)) return;
	for (int i = 0; i < 3; ++i) {
		if (!(oa & (8u << i))) continue;
		for (int j = 0; j < 3; ++j)
			if (ob & (8u << j)) ee(q, d->triangle_edges[3 * (size_t)A + i], d->triangle_edges[3 * (size_t)B + j]);
	}
}

/* The traversal is split into at least this many independent subtree pairs, handed out to the
 * threads one at a time (they differ widely in work); at most SPLIT_MAX of them. */
#define SPLIT_TARGET 64
#define SPLIT_MAX 256

/* Runs the query's tree traversal against itself, filling the result arrays of q's two kinds
 * (unsorted). On several threads (cloth_pairs_set_threads) the traversal is split into subtree
 * pairs (bvh_self_pairs_split); each thread tests the pairs of the subtrees it takes into its own
 * arrays, and these are concatenated. Each primitive pair is tested exactly once whatever the
 * split, by the same function of its inputs, and the results are then sorted by their unique
 * keys: the output is bit-identical for any thread count. */
static bool traverse(cloth_pairs* d, const query* proto)
{
	d->candidate_pairs = 0;
	for (int w = 0; w < 2; ++w) *main_results(d, proto->kind[w]).count = 0;
	if (d->triangle_count == 0) return true;
	if (!cloth_pairs_fit_tree(d)) return false;
	int threads = d->threads > 1 ? d->threads : 1;
	if (threads - 1 > d->part_count) {
		/* Once per thread count: the workers' result arrays (empty; they grow on demand). */
		cloth_pairs_part* p = realloc(d->parts, (size_t)(threads - 1) * sizeof *p);
		if (p) {
			d->parts = p;
			memset(p + d->part_count, 0, (size_t)(threads - 1 - d->part_count) * sizeof *p);
			d->part_count = threads - 1;
		} else {
			threads = 1;
		}
	}
	int32_t tasks[2 * SPLIT_MAX];
	int32_t task_count = threads > 1 ? bvh_self_pairs_split(&d->tree, SPLIT_TARGET, tasks, SPLIT_MAX) : 0;
	if (task_count < 2) threads = 1;
	if (threads == 1) {
		query q = *proto;
		bind_results(d, &q, 0);
		int32_t stack[BVH_PAIRS_STACK];
		bvh_pairs_cb(&d->tree, &d->tree, q.visit, &q, stack, BVH_PAIRS_STACK);
		unbind_results(d, &q, 0);
		d->candidate_pairs = q.candidates;
		return !q.failed;
	}
	int64_t candidates = 0;
	bool failed = false;
	int used = 1;
#pragma omp parallel num_threads(threads) reduction(+ : candidates) reduction(|| : failed)
	{
		const int id = omp_get_thread_num();
		if (id == 0) used = omp_get_num_threads();
		query q = *proto;
		bind_results(d, &q, id);
		int32_t stack[BVH_PAIRS_STACK];
#pragma omp for schedule(dynamic, 1)
		for (int32_t k = 0; k < task_count; ++k)
			bvh_pairs_from_cb(&d->tree, &d->tree, tasks[2 * k], tasks[2 * k + 1], q.visit, &q, stack,
					  BVH_PAIRS_STACK);
		unbind_results(d, &q, id);
		candidates += q.candidates;
		failed = failed || q.failed;
	}
	d->candidate_pairs = candidates;
	if (failed) return false;
	return merge_results(d, proto->kind[0], used) && merge_results(d, proto->kind[1], used);
}

/* ---- Proximity ---------------------------------------------------------------------------- */

static void proximity_vf(query* q, int32_t p, int32_t t)
{
	const cloth_pairs* d = q->d;
	const int32_t* tv = d->triangles + 3 * (size_t)t;
	if (has_vertex(tv, p) || rest_near_vf(&d->rest, p, t)) return;
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
		double M = max2(maxabs(xp), max2(maxabs(a), max2(maxabs(b), maxabs(c))));
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

static void proximity_ee(query* q, int32_t e, int32_t f)
{
	const cloth_pairs* d = q->d;
	if (f < e) {
		int32_t tmp = e;
		e = f;
		f = tmp;
	}
	const int32_t* ev = d->edges + 2 * (size_t)e;
	const int32_t* fv = d->edges + 2 * (size_t)f;
	if (share_endpoint(ev, fv) || rest_near_ee(&d->rest, e, f)) return;
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
	double M = max2(max2(maxabs(P[0]), maxabs(P[1])), max2(maxabs(Q[0]), maxabs(Q[1])));
	if (!direction(lerp(P[0], P[1], s), lerp(Q[0], Q[1], u), M, &n) &&
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

static void visit_proximity(void* q, int32_t A, int32_t B) { visit_pair(q, A, B, proximity_vf, proximity_ee); }

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
	query q = {.d = d, .x = x, .margin = thickness, .visit = visit_proximity, .kind = {KIND_VF, KIND_EE}};
	if (!traverse(d, &q)) {
		d->vf_count = d->ee_count = 0;
		return -1;
	}
	if (!sort_results(d, d->vf, d->vf_keys, d->vf_count, sizeof *d->vf) ||
	    !sort_results(d, d->ee, d->ee_keys, d->ee_count, sizeof *d->ee)) {
		d->vf_count = d->ee_count = 0;
		return -1;
	}
	return d->vf_count + d->ee_count;
}

/* ---- Crossings ---------------------------------------------------------------------------- */

/* det(b - a, c - a, p - a): positive when p is on the side of abc's normal. Below tol it is
 * rounding noise (the bound used by the crossing tests themselves, geometry.c). */
static double side_volume(vec3 p, vec3 a, vec3 b, vec3 c, double* tol)
{
	vec3 ab = v3_sub(b, a), ac = v3_sub(c, a), ap = v3_sub(p, a);
	double l0 = v3_len(ab), l1 = v3_len(ac), l2 = v3_len(ap);
	double M = max2(max2(maxabs(p), maxabs(a)), max2(maxabs(b), maxabs(c)));
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

static void crossing_vf(query* q, int32_t p, int32_t t)
{
	const cloth_pairs* d = q->d;
	const int32_t* tv = d->triangles + 3 * (size_t)t;
	if (has_vertex(tv, p)) return;
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
	vec3 xp = lerp(x0[p], x1[p], toi), a = lerp(x0[tv[0]], x1[tv[0]], toi), b = lerp(x0[tv[1]], x1[tv[1]], toi),
	     c = lerp(x0[tv[2]], x1[tv[2]], toi);
	vec3 closest = bary_point(a, b, c, w);
	/* The normal at impact, on the side p started on (sec. 2.4: the spring pulls the particle
	 * "back to the correct side of the triangle"). A motion that kept the four points coplanar
	 * has no such side: the face normal as is, as proximity does for p in the plane. */
	vec3 n;
	if (face_normal(a, b, c, &n)) {
		int side = start_side(x0[p], x0[tv[0]], x0[tv[1]], x0[tv[2]], x1[p], x1[tv[0]], x1[tv[1]], x1[tv[2]]);
		if (side < 0) n = v3_neg(n);
	} else {
		double M = max2(maxabs(xp), max2(maxabs(a), max2(maxabs(b), maxabs(c))));
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

static void crossing_ee(query* q, int32_t e, int32_t f)
{
	const cloth_pairs* d = q->d;
	if (f < e) {
		int32_t tmp = e;
		e = f;
		f = tmp;
	}
	const int32_t* ev = d->edges + 2 * (size_t)e;
	const int32_t* fv = d->edges + 2 * (size_t)f;
	if (share_endpoint(ev, fv)) return;
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
	vec3 p0 = lerp(P[0], P[2], toi), p1 = lerp(P[1], P[3], toi);
	vec3 q0 = lerp(Q[0], Q[2], toi), q1 = lerp(Q[1], Q[3], toi);
	vec3 cp = lerp(p0, p1, s), cq = lerp(q0, q1, u);
	double M = max2(max2(maxabs(p0), maxabs(p1)), max2(maxabs(q0), maxabs(q1)));
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

static void visit_crossing(void* q, int32_t A, int32_t B) { visit_pair(q, A, B, crossing_vf, crossing_ee); }

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
				M = max2(M, max2(maxabs(x0[v]), maxabs(x1[v])));
				++owned;
			}
	if (owned) w = v3_scale(w, 1.0 / (double)owned);
	double pad = 4.0 * DBL_EPSILON * (M + maxabs(w));
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
	query q = {.d = d, .x = x0, .x1 = x1, .drift = w, .pad = pad, .margin = eps, .visit = visit_crossing,
		   .kind = {KIND_XVF, KIND_XEE}};
	if (!traverse(d, &q)) {
		d->xvf_count = d->xee_count = 0;
		return -1;
	}
	if (!sort_results(d, d->xvf, d->xvf_keys, d->xvf_count, sizeof *d->xvf) ||
	    !sort_results(d, d->xee, d->xee_keys, d->xee_count, sizeof *d->xee)) {
		d->xvf_count = d->xee_count = 0;
		return -1;
	}
	return d->xvf_count + d->xee_count;
}
