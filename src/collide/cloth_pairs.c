/* Cloth/cloth collision detection (sec. 2.4, 6): "pairs (p, t) and (e1, e2)" of close particles and
 * triangles and of close edges, their crossings over a postulated linear motion, and intersecting
 * triangles. One bounding box tree over all cloth triangles, built once and refitted at every call
 * (the "coherency-based bounding-box approach" of sec. 6); docs/collide.md. */
#include "cloth_pairs_query.h"

#include "core.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

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

bool cloth_pairs_set_sewn(cloth_pairs* d, const int32_t* pairs, int32_t pair_count)
{
	free(d->sewn);
	d->sewn = NULL;
	if (pair_count <= 0 || d->particle_count <= 0) return true;
	int32_t* parent = malloc((size_t)d->particle_count * sizeof *parent);
	if (!parent) return false;
	for (int32_t i = 0; i < d->particle_count; ++i) parent[i] = i;
	for (int32_t k = 0; k < pair_count; ++k) {
		int32_t a = core_find_root(parent, pairs[2 * k]), b = core_find_root(parent, pairs[2 * k + 1]);
		if (a < b) parent[b] = a; /* the lowest index is the root */
		else if (b < a) parent[a] = b;
	}
	for (int32_t i = 0; i < d->particle_count; ++i) parent[i] = core_find_root(parent, i);
	d->sewn = parent;
	return true;
}

void cloth_pairs_free(cloth_pairs* d)
{
	free(d->triangles);
	free(d->edges);
	free(d->triangle_edges);
	free(d->owns);
	rest_neighbours_free(&d->rest);
	free(d->sewn);
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


/* ---- Results ------------------------------------------------------------------------------ */

/* Result arrays (and their sort keys) grow by doubling and never shrink. */
bool cloth_pairs_reserve(void** arr, uint64_t** keys, int32_t* capacity, int32_t count, size_t size)
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

bool cloth_pairs_sort(cloth_pairs* d, void* arr, const uint64_t* keys, int32_t count, size_t size)
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

void cloth_pairs_set_threads(cloth_pairs* d, int threads) { d->threads = threads > 1 ? threads : 1; }

/* ---- Traversal ---------------------------------------------------------------------------- */

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
	const size_t size = kind_size(kind);
	int64_t total = *r.count;
	for (int id = 1; id < used; ++id) total += d->parts[id - 1].count[kind];
	if (total > INT32_MAX) return false;
	while (*r.capacity < total) /* reserve grows a full array */
		if (!cloth_pairs_reserve(r.arr, r.keys, r.capacity, *r.capacity, size)) return false;
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
bool cloth_pairs_traverse(cloth_pairs* d, const query* proto)
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
