/* Cloth/cloth collision detection (sec. 2.4, 6), querying: the traversal of the cloth's tree on
 * several threads, per-thread result arrays merged and sorted so the output depends on the input
 * alone. The tests a traversal applies are in cloth_pairs_proximity.c and cloth_pairs_crossing.c;
 * docs/collide.md. */
#include "cloth_pairs_query.h"

#include "core.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

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
/* False when the traversal failed, was interrupted, or went over its budget (d->overloaded). */
static bool traversal_verdict(cloth_pairs* d, bool failed, bool stopped, int64_t candidates, int64_t budget)
{
	const bool interrupted = d->cancel && *d->cancel;
	d->overloaded = !interrupted && (stopped || candidates > budget);
	return !failed && !stopped && !d->overloaded && !interrupted;
}

/* The candidate list's pairs [lo, hi) whose boxes overlap in this query: the pairs the tree
 * would report (cloth_pairs_list_ready), in another order. */
static void visit_list(const cloth_pairs* d, query* q, int64_t lo, int64_t hi)
{
	const int32_t* p = d->list;
	for (int64_t k = lo; k < hi; ++k) {
		int32_t A = p[2 * k], B = p[2 * k + 1];
		if (aabb_overlap(d->boxes[A], d->boxes[B]) && !q->visit_live(q, A, B, d->list_live[k])) return;
	}
}

/* Task k of task_count: the k-th of equal slices of the list, or the subtree pair tasks[2 k ..]. */
static void run_task(const cloth_pairs* d, query* q, bool listed, const int32_t* tasks, int32_t k, int32_t task_count)
{
	if (listed) {
		visit_list(d, q, d->list_count * k / task_count, d->list_count * (k + 1) / task_count);
		return;
	}
	int32_t stack[BVH_PAIRS_STACK];
	bvh_pairs_from_cb(&d->tree, &d->tree, tasks[2 * k], tasks[2 * k + 1], q->visit, q, stack, BVH_PAIRS_STACK);
}

bool cloth_pairs_traverse(cloth_pairs* d, const query* proto, bool listed)
{
	d->candidate_pairs = 0;
	d->overloaded = false;
	for (int w = 0; w < 2; ++w) *main_results(d, proto->kind[w]).count = 0;
	if (d->triangle_count == 0) return true;
	if (!listed && !cloth_pairs_fit_tree(d, d->boxes)) return false;
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
	int32_t task_count = threads <= 1 ? 0 : listed ? SPLIT_TARGET : bvh_self_pairs_split(&d->tree, SPLIT_TARGET, tasks, SPLIT_MAX);
	if (task_count < 2) threads = 1;
	/* Each thread may use the whole budget; the verdict is taken on the total, and a thread that
	 * ran out alone means the total is over too, so it does not depend on the thread count. */
	const int64_t budget = (int64_t)CLOTH_PAIRS_BUDGET * d->triangle_count;
	if (threads == 1) {
		query q = *proto;
		q.budget = budget;
		bind_results(d, &q, 0);
		tasks[0] = tasks[1] = 0; /* unlisted: the whole traversal, from the root pair */
		run_task(d, &q, listed, tasks, 0, 1);
		unbind_results(d, &q, 0);
		d->candidate_pairs = q.candidates;
		return traversal_verdict(d, q.failed, q.stopped, q.candidates, budget);
	}
	int64_t candidates = 0;
	bool failed = false, stopped = false;
	int used = 1;
#pragma omp parallel num_threads(threads) reduction(+ : candidates) reduction(|| : failed, stopped)
	{
		const int id = omp_get_thread_num();
		if (id == 0) used = omp_get_num_threads();
		query q = *proto;
		q.budget = budget;
		bind_results(d, &q, id);
#pragma omp for schedule(dynamic, 1)
		for (int32_t k = 0; k < task_count; ++k) run_task(d, &q, listed, tasks, k, task_count);
		unbind_results(d, &q, id);
		candidates += q.candidates;
		failed = failed || q.failed;
		stopped = stopped || q.stopped;
	}
	d->candidate_pairs = candidates;
	if (!traversal_verdict(d, failed, stopped, candidates, budget)) return false;
	return merge_results(d, proto->kind[0], used) && merge_results(d, proto->kind[1], used);
}
