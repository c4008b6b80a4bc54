/* Bounding box tree, analytic solids and rigid transforms (sec. 6 and 2.1): every query checked
 * against brute force, distances against closed forms and fine surface sampling, first hits against
 * dense sampling of the path. */
#include "fixtures.h"
#include "test.h"

#include "collide/bvh.h"
#include "collide/shapes.h"
#include "collide/transform.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* M_PI is not C11. */
static const double pi = 3.14159265358979323846;

/* ---- helpers ---- */

static double urand(uint64_t* s, double lo, double hi) { return lo + (hi - lo) * 0.5 * (fixture_rand(s) + 1.0); }
static vec3 vrand(uint64_t* s, double lo, double hi) { return v3(urand(s, lo, hi), urand(s, lo, hi), urand(s, lo, hi)); }

/* Boxes of widely varying size (some flat, some long) in a cube of side `span`. */
static void random_boxes(uint64_t* s, aabb* b, int32_t n, double span, double size)
{
	for (int32_t i = 0; i < n; ++i) {
		vec3 c = vrand(s, -0.5 * span, 0.5 * span);
		vec3 h = v3_scale(vrand(s, 0.0, 1.0), size);
		if (i % 7 == 0) h.x *= 8.0;
		if (i % 11 == 0) h.z = 0.0;
		b[i] = aabb_make(v3_sub(c, h), v3_add(c, h));
	}
}

static int cmp_i32(const void* a, const void* b)
{
	int32_t x = *(const int32_t*)a, y = *(const int32_t*)b;
	return (x > y) - (x < y);
}

static int32_t brute_query(const aabb* b, int32_t n, aabb q, int32_t* out)
{
	int32_t k = 0;
	for (int32_t i = 0; i < n; ++i)
		if (aabb_overlap(b[i], q)) out[k++] = i;
	return k;
}

/* Every query of `queries` random boxes equals brute force, as a set. */
static void check_queries(const bvh* t, const aabb* b, int32_t n, uint64_t* s, int queries, double span, double size)
{
	int32_t* got = malloc((size_t)(n > 0 ? n : 1) * sizeof *got);
	int32_t* want = malloc((size_t)(n > 0 ? n : 1) * sizeof *want);
	int32_t stack[BVH_QUERY_STACK];
	int bad = 0;
	for (int q = 0; q < queries; ++q) {
		aabb box;
		random_boxes(s, &box, 1, span, size * (q % 4 == 0 ? 6.0 : 1.0));
		int32_t k = bvh_query(t, box, got, n, stack, BVH_QUERY_STACK);
		int32_t kw = brute_query(b, n, box, want);
		if (k != kw) {
			++bad;
			continue;
		}
		qsort(got, (size_t)k, sizeof *got, cmp_i32);
		if (k && memcmp(got, want, (size_t)k * sizeof *got) != 0) ++bad;
	}
	CHECK(bad == 0);
	free(got);
	free(want);
}

/* Structural invariants: node boxes contain their children's / primitives' boxes, the leaves
 * partition the primitives, leaf sizes are 1..BVH_LEAF_MAX, children follow their parents, and the
 * recorded depth is the true depth. */
static void check_structure(const bvh* t)
{
	int32_t n = t->prim_count;
	char* seen = calloc((size_t)(n > 0 ? n : 1), 1);
	int bad = 0, maxdepth = 0;
	int32_t* level = calloc((size_t)(t->node_count > 0 ? t->node_count : 1), sizeof *level);
	if (t->node_count) level[0] = 1;
	for (int32_t i = 0; i < t->node_count; ++i) {
		const bvh_node* nd = &t->nodes[i];
		if (level[i] > maxdepth) maxdepth = level[i];
		if (nd->count) {
			if (nd->count < 1 || nd->count > BVH_LEAF_MAX) ++bad;
			for (int32_t k = nd->first; k < nd->first + nd->count; ++k) {
				if (seen[t->prims[k]]++) ++bad;
				if (!aabb_contains(nd->box, t->prim_boxes[k])) ++bad;
			}
		} else {
			if (nd->first <= i || nd->first + 1 >= t->node_count) {
				++bad;
				continue;
			}
			for (int c = 0; c < 2; ++c) {
				level[nd->first + c] = level[i] + 1;
				if (!aabb_contains(nd->box, t->nodes[nd->first + c].box)) ++bad;
			}
		}
	}
	for (int32_t p = 0; p < n; ++p)
		if (seen[p] != 1) ++bad;
	CHECK(bad == 0);
	CHECK(maxdepth == bvh_depth(t));
	free(seen);
	free(level);
}

/* ---- BVH ---- */

static void test_bvh_empty_and_single(void)
{
	bvh t;
	int32_t stack[BVH_PAIRS_STACK], out[4];
	aabb big = aabb_make(v3(-1e3, -1e3, -1e3), v3(1e3, 1e3, 1e3));
	CHECK(bvh_build(&t, NULL, 0));
	CHECK(t.node_count == 0 && bvh_depth(&t) == 0);
	CHECK(bvh_query(&t, big, out, 4, stack, 0) == 0);
	bvh_refit(&t, NULL);
	bvh_free(&t);
	CHECK(!bvh_build(&t, NULL, -1));
	CHECK(t.node_count == 0);

	aabb one = aabb_make(v3(0.0, 0.0, 0.0), v3(1.0, 1.0, 1.0));
	CHECK(bvh_build(&t, &one, 1));
	CHECK(bvh_depth(&t) == 1 && t.node_count == 1);
	CHECK(bvh_query(&t, big, out, 4, stack, bvh_query_stack_size(&t)) == 1 && out[0] == 0);
	/* touching boxes overlap */
	CHECK(bvh_query(&t, aabb_make(v3(1.0, 1.0, 1.0), v3(2.0, 2.0, 2.0)), out, 4, stack, 1) == 1);
	CHECK(bvh_query(&t, aabb_make(v3(1.5, 0.0, 0.0), v3(2.0, 1.0, 1.0)), out, 4, stack, 1) == 0);
	check_structure(&t);
	bvh_free(&t);
}

static int32_t pair_calls;
static bool count_pair(void* ctx, int32_t a, int32_t b)
{
	(void)ctx;
	(void)a;
	(void)b;
	++pair_calls;
	return true;
}

static void test_bvh_pairs_of_tiny_trees(void)
{
	bvh e, one;
	int32_t stack[BVH_PAIRS_STACK];
	aabb b = aabb_make(v3(0.0, 0.0, 0.0), v3(1.0, 1.0, 1.0));
	CHECK(bvh_build(&e, NULL, 0));
	CHECK(bvh_build(&one, &b, 1));
	pair_calls = 0;
	CHECK(bvh_pairs_cb(&one, &one, count_pair, NULL, stack, BVH_PAIRS_STACK));
	CHECK(bvh_pairs_cb(&e, &one, count_pair, NULL, stack, BVH_PAIRS_STACK));
	CHECK(bvh_pairs_cb(&e, &e, count_pair, NULL, stack, BVH_PAIRS_STACK));
	CHECK(pair_calls == 0); /* never (i, i) */
	bvh one_b;
	CHECK(bvh_build(&one_b, &b, 1));
	CHECK(bvh_pairs_cb(&one, &one_b, count_pair, NULL, stack, BVH_PAIRS_STACK));
	CHECK(pair_calls == 1); /* two trees: (0, 0) is a real pair */
	bvh_free(&e);
	bvh_free(&one);
	bvh_free(&one_b);
}

static void test_bvh_query_matches_brute_force(void)
{
	uint64_t s = 11;
	const int32_t sizes[4] = {2, 5, 37, 3000};
	for (int k = 0; k < 4; ++k) {
		int32_t n = sizes[k];
		aabb* b = malloc((size_t)n * sizeof *b);
		random_boxes(&s, b, n, 10.0, 0.3);
		bvh t;
		CHECK(bvh_build(&t, b, n));
		check_structure(&t);
		check_queries(&t, b, n, &s, n < 100 ? 200 : 1000, 10.0, 0.3);
		bvh_free(&t);
		free(b);
	}
}

static void test_bvh_query_truncates_and_counts(void)
{
	uint64_t s = 12;
	enum { N = 500 };
	aabb b[N];
	random_boxes(&s, b, N, 4.0, 0.3);
	bvh t;
	CHECK(bvh_build(&t, b, N));
	int32_t all[N], few[8 + 1], want[N], stack[BVH_QUERY_STACK];
	aabb q = aabb_make(v3(-1.0, -1.0, -1.0), v3(1.0, 1.0, 1.0));
	int32_t total = bvh_query(&t, q, all, N, stack, BVH_QUERY_STACK);
	CHECK(total == brute_query(b, N, q, want) && total > 8);
	few[8] = -77;
	CHECK(bvh_query(&t, q, few, 8, stack, BVH_QUERY_STACK) == total);
	CHECK(few[8] == -77);                     /* nothing past max_out */
	CHECK(memcmp(few, all, sizeof(int32_t) * 8) == 0); /* the same deterministic order */
	CHECK(bvh_query(&t, q, NULL, 0, stack, BVH_QUERY_STACK) == total);
	bvh_free(&t);
}

static bool stop_after_three(void* ctx, int32_t prim)
{
	(void)prim;
	return ++*(int*)ctx < 3;
}

static void test_bvh_query_cb_stops(void)
{
	uint64_t s = 13;
	enum { N = 300 };
	aabb b[N];
	random_boxes(&s, b, N, 2.0, 0.3);
	bvh t;
	CHECK(bvh_build(&t, b, N));
	int calls = 0;
	int32_t stack[BVH_QUERY_STACK];
	CHECK(bvh_query_cb(&t, aabb_make(v3(-9, -9, -9), v3(9, 9, 9)), stop_after_three, &calls, stack, BVH_QUERY_STACK));
	CHECK(calls == 3);
	bvh_free(&t);
}

static void test_bvh_refit_matches_brute_force(void)
{
	uint64_t s = 14;
	enum { N = 2000 };
	aabb* b = malloc(N * sizeof *b);
	random_boxes(&s, b, N, 10.0, 0.3);
	bvh t;
	CHECK(bvh_build(&t, b, N));
	/* Large moves (a refit tree must stay correct even when it has become poor), then small. */
	for (int round = 0; round < 3; ++round) {
		double amp = round == 0 ? 5.0 : 0.2;
		for (int32_t i = 0; i < N; ++i) {
			vec3 d = vrand(&s, -amp, amp);
			vec3 g = vrand(&s, 0.0, 0.1);
			b[i] = aabb_make(v3_sub(v3_add(b[i].lo, d), g), v3_add(v3_add(b[i].hi, d), g));
		}
		bvh_refit(&t, b);
		check_structure(&t);
		check_queries(&t, b, N, &s, 500, 12.0, 0.3);
	}
	bvh_free(&t);
	free(b);
}

static void test_bvh_every_primitive_reachable(void)
{
	uint64_t s = 15;
	enum { N = 4000 };
	aabb* b = malloc(N * sizeof *b);
	random_boxes(&s, b, N, 10.0, 0.05);
	/* a cluster of identical boxes: coincident centroids must still split */
	for (int32_t i = 0; i < 300; ++i) b[i] = aabb_make(v3(1.0, 1.0, 1.0), v3(1.1, 1.1, 1.1));
	bvh t;
	CHECK(bvh_build(&t, b, N));
	check_structure(&t);
	int32_t out[N], stack[BVH_QUERY_STACK];
	int missing = 0;
	for (int32_t i = 0; i < N; ++i) {
		int32_t k = bvh_query(&t, b[i], out, N, stack, BVH_QUERY_STACK);
		bool found = false;
		for (int32_t j = 0; j < k && j < N; ++j) found = found || out[j] == i;
		if (!found) ++missing;
	}
	CHECK(missing == 0);
	bvh_free(&t);
	free(b);
}

static void test_bvh_depth_logarithmic(void)
{
	uint64_t s = 16;
	enum { N = 10000 };
	aabb* b = malloc(N * sizeof *b);
	random_boxes(&s, b, N, 10.0, 0.05);
	bvh t;
	CHECK(bvh_build(&t, b, N));
	int32_t d = bvh_depth(&t);
	CHECK(d <= 2.0 * log2((double)N) + 4.0);
	/* median splits: exactly the documented bound */
	CHECK(d <= 1 + (int32_t)ceil(log2(ceil(N / (double)BVH_LEAF_MAX))));
	CHECK(bvh_query_stack_size(&t) <= BVH_QUERY_STACK);
	CHECK(bvh_pairs_stack_size(&t, &t) <= BVH_PAIRS_STACK);
	bvh_free(&t);
	/* all boxes identical: still balanced */
	for (int32_t i = 0; i < N; ++i) b[i] = aabb_make(v3_zero(), v3(1.0, 1.0, 1.0));
	CHECK(bvh_build(&t, b, N));
	CHECK(bvh_depth(&t) == d);
	check_structure(&t);
	bvh_free(&t);
	free(b);
}

/* Splits follow the longest axis: primitives strung along any one axis give leaves that do not
 * overlap along it, so the leaves' extents add up to about the string's length. */
static void test_bvh_splits_longest_axis(void)
{
	enum { N = 1024 };
	aabb* b = malloc(N * sizeof *b);
	uint64_t s = 21;
	for (int axis = 0; axis < 3; ++axis) {
		for (int32_t i = 0; i < N; ++i) {
			double c[3] = {urand(&s, -0.5, 0.5), urand(&s, -0.5, 0.5), urand(&s, -0.5, 0.5)};
			c[axis] = 1000.0 * urand(&s, 0.0, 1.0);
			vec3 cv = v3_load(c);
			b[i] = aabb_make(v3_sub(cv, v3(0.01, 0.01, 0.01)), v3_add(cv, v3(0.01, 0.01, 0.01)));
		}
		bvh t;
		CHECK(bvh_build(&t, b, N));
		double sum = 0.0;
		for (int32_t i = 0; i < t.node_count; ++i)
			if (t.nodes[i].count) sum += v3_get(aabb_extent(t.nodes[i].box), axis);
		CHECK(sum < 1.05 * 1000.0);
		bvh_free(&t);
	}
	free(b);
}

static void test_bvh_build_deterministic(void)
{
	uint64_t s = 17;
	enum { N = 1000 };
	aabb b[N];
	random_boxes(&s, b, N, 3.0, 0.2);
	bvh t1, t2;
	CHECK(bvh_build(&t1, b, N));
	CHECK(bvh_build(&t2, b, N));
	CHECK(t1.node_count == t2.node_count);
	CHECK(memcmp(t1.nodes, t2.nodes, (size_t)t1.node_count * sizeof *t1.nodes) == 0);
	CHECK(memcmp(t1.prims, t2.prims, N * sizeof *t1.prims) == 0);
	bvh_free(&t1);
	bvh_free(&t2);
}

/* Pair collection into an n_a x n_b count matrix. */
typedef struct pair_grid {
	int32_t nb;
	uint8_t* hits;
	int bad_order;
} pair_grid;

static bool grid_pair(void* ctx, int32_t a, int32_t b)
{
	pair_grid* g = ctx;
	g->hits[(size_t)a * (size_t)g->nb + (size_t)b]++;
	return true;
}

static bool grid_pair_self(void* ctx, int32_t a, int32_t b)
{
	pair_grid* g = ctx;
	if (a >= b) g->bad_order++;
	grid_pair(ctx, a, b);
	return true;
}

/* A visit that stops the traversal after `left` more pairs. */
static bool pair_until(void* ctx, int32_t a, int32_t b)
{
	(void)a;
	(void)b;
	int32_t* left = ctx;
	return --*left > 0;
}

static void test_bvh_self_pairs_match_brute_force(void)
{
	uint64_t s = 18;
	enum { N = 1500 };
	aabb* b = malloc(N * sizeof *b);
	random_boxes(&s, b, N, 6.0, 0.5);
	/* some duplicates: a pair of identical boxes overlaps and must still come once */
	for (int32_t i = 0; i < 20; ++i) b[N - 1 - i] = b[i];
	bvh t;
	CHECK(bvh_build(&t, b, N));
	pair_grid g = {N, calloc((size_t)N * N, 1), 0};
	int32_t size = bvh_pairs_stack_size(&t, &t);
	int32_t* stack = malloc((size_t)(size + 8) * sizeof *stack);
	for (int i = 0; i < 8; ++i) stack[size + i] = -12345;
	CHECK(bvh_pairs_cb(&t, &t, grid_pair_self, &g, stack, size));
	for (int i = 0; i < 8; ++i) CHECK(stack[size + i] == -12345);
	CHECK(g.bad_order == 0);
	int bad = 0, pairs = 0;
	for (int32_t i = 0; i < N; ++i)
		for (int32_t j = 0; j < N; ++j) {
			int want = i < j && aabb_overlap(b[i], b[j]);
			pairs += want;
			if (g.hits[(size_t)i * N + j] != want) ++bad;
		}
	CHECK(bad == 0);
	CHECK(pairs > N); /* the test is not vacuous */
	/* a visit that says stop ends the traversal there (a caller's work budget) */
	int32_t left = 10;
	CHECK(bvh_pairs_cb(&t, &t, pair_until, &left, stack, size));
	CHECK(left == 0);
	/* a stack one pair too small is refused, not overrun */
	CHECK(!bvh_pairs_cb(&t, &t, grid_pair_self, &g, stack, size - 2));
	free(stack);
	free(g.hits);
	bvh_free(&t);
	free(b);
}

/* The split of the self traversal: running the traversal from every split pair reports every
 * overlapping pair exactly once, for split targets from 1 (the root alone) to more pairs than
 * the tree can give, and the split is a function of the tree. */
static void test_bvh_self_pairs_split_covers_once(void)
{
	uint64_t s = 41;
	enum { N = 900, MAXP = 512 };
	aabb* b = malloc(N * sizeof *b);
	random_boxes(&s, b, N, 5.0, 0.5);
	bvh t;
	CHECK(bvh_build(&t, b, N));
	int32_t stack[BVH_PAIRS_STACK];
	int32_t* split = malloc(2 * MAXP * sizeof *split);
	int32_t* again = malloc(2 * MAXP * sizeof *again);
	const int32_t targets[] = {1, 2, 7, 64, 200, 10000};
	int32_t most = 0;
	for (size_t c = 0; c < sizeof targets / sizeof targets[0]; ++c) {
		int32_t count = bvh_self_pairs_split(&t, targets[c], split, MAXP);
		CHECK(count >= 1 && count <= MAXP);
		if (targets[c] <= 64) CHECK(count >= targets[c]);
		CHECK(bvh_self_pairs_split(&t, targets[c], again, MAXP) == count);
		CHECK(memcmp(split, again, 2 * (size_t)count * sizeof *split) == 0);
		most = count > most ? count : most;
		pair_grid g = {N, calloc((size_t)N * N, 1), 0};
		/* backwards, as a thread might take them */
		for (int32_t k = count - 1; k >= 0; --k)
			CHECK(bvh_pairs_from_cb(&t, &t, split[2 * k], split[2 * k + 1], grid_pair_self, &g, stack, BVH_PAIRS_STACK));
		CHECK(g.bad_order == 0);
		int bad = 0, pairs = 0;
		for (int32_t i = 0; i < N; ++i)
			for (int32_t j = 0; j < N; ++j) {
				int want = i < j && aabb_overlap(b[i], b[j]);
				pairs += want;
				if (g.hits[(size_t)i * N + j] != want) ++bad;
			}
		CHECK(bad == 0);
		CHECK(pairs > N);
		free(g.hits);
	}
	CHECK(most > 64); /* the largest targets did split further */
	/* an empty tree has nothing to split */
	bvh e;
	CHECK(bvh_build(&e, b, 0));
	CHECK(bvh_self_pairs_split(&e, 8, split, MAXP) == 0);
	bvh_free(&e);
	free(split);
	free(again);
	bvh_free(&t);
	free(b);
}

static void test_bvh_two_tree_pairs_match_brute_force(void)
{
	uint64_t s = 19;
	enum { NA = 900, NB = 1300 };
	aabb* a = malloc(NA * sizeof *a);
	aabb* b = malloc(NB * sizeof *b);
	random_boxes(&s, a, NA, 6.0, 0.5);
	random_boxes(&s, b, NB, 5.0, 0.4);
	bvh ta, tb;
	CHECK(bvh_build(&ta, a, NA));
	CHECK(bvh_build(&tb, b, NB));
	pair_grid g = {NB, calloc((size_t)NA * NB, 1), 0};
	int32_t size = bvh_pairs_stack_size(&ta, &tb);
	int32_t* stack = malloc((size_t)(size + 8) * sizeof *stack);
	for (int i = 0; i < 8; ++i) stack[size + i] = -12345;
	CHECK(bvh_pairs_cb(&ta, &tb, grid_pair, &g, stack, size));
	for (int i = 0; i < 8; ++i) CHECK(stack[size + i] == -12345);
	int bad = 0, pairs = 0;
	for (int32_t i = 0; i < NA; ++i)
		for (int32_t j = 0; j < NB; ++j) {
			int want = aabb_overlap(a[i], b[j]);
			pairs += want;
			if (g.hits[(size_t)i * NB + j] != want) ++bad;
		}
	CHECK(bad == 0);
	CHECK(pairs > NA);
	free(stack);
	free(g.hits);
	bvh_free(&ta);
	bvh_free(&tb);
	free(a);
	free(b);
}

static void test_bvh_stack_bound_respected(void)
{
	uint64_t s = 20;
	const int32_t sizes[5] = {5, 9, 64, 700, 5000};
	for (int k = 0; k < 5; ++k) {
		int32_t n = sizes[k];
		aabb* b = malloc((size_t)n * sizeof *b);
		random_boxes(&s, b, n, 4.0, 0.4);
		bvh t;
		CHECK(bvh_build(&t, b, n));
		int32_t need = bvh_query_stack_size(&t);
		CHECK(need == bvh_depth(&t));
		int32_t stack[BVH_QUERY_STACK + 8];
		for (int i = 0; i < 8; ++i) stack[need + i] = -12345;
		/* a query box covering everything visits every node: the deepest traversal */
		aabb all = aabb_make(v3(-9, -9, -9), v3(9, 9, 9));
		CHECK(bvh_query(&t, all, NULL, 0, stack, need) == n);
		for (int i = 0; i < 8; ++i) CHECK(stack[need + i] == -12345);
		CHECK(bvh_query(&t, all, NULL, 0, stack, need - 1) == -1);
		check_queries(&t, b, n, &s, 50, 4.0, 0.4);
		bvh_free(&t);
		free(b);
	}
	/* The pairs traversal is deepest when everything overlaps: identical boxes. */
	enum { N = 700 };
	aabb* same = malloc(N * sizeof *same);
	for (int32_t i = 0; i < N; ++i) same[i] = aabb_make(v3_zero(), v3(1.0, 1.0, 1.0));
	bvh t, u;
	CHECK(bvh_build(&t, same, N));
	CHECK(bvh_build(&u, same, N / 3));
	int32_t stack[BVH_PAIRS_STACK + 8];
	int32_t need = bvh_pairs_stack_size(&t, &t);
	for (int i = 0; i < 8; ++i) stack[need + i] = -12345;
	pair_calls = 0;
	CHECK(bvh_pairs_cb(&t, &t, count_pair, NULL, stack, need));
	CHECK(pair_calls == N * (N - 1) / 2);
	for (int i = 0; i < 8; ++i) CHECK(stack[need + i] == -12345);
	need = bvh_pairs_stack_size(&t, &u);
	for (int i = 0; i < 8; ++i) stack[need + i] = -12345;
	pair_calls = 0;
	CHECK(bvh_pairs_cb(&t, &u, count_pair, NULL, stack, need));
	CHECK(pair_calls == N * (N / 3));
	for (int i = 0; i < 8; ++i) CHECK(stack[need + i] == -12345);
	bvh_free(&t);
	bvh_free(&u);
	free(same);
}

/* ---- analytic solids ---- */

static shape make_shape(shape_kind k)
{
	shape s = {k, 0.0, 0.0, v3_zero()};
	switch (k) {
	case SHAPE_SPHERE: s.radius = 0.7; break;
	case SHAPE_CAPSULE:
		s.radius = 0.3;
		s.half_height = 0.5;
		break;
	case SHAPE_CYLINDER:
		s.radius = 0.6;
		s.half_height = 0.4;
		break;
	case SHAPE_BOX: s.half_extents = v3(0.5, 0.3, 0.8); break;
	default: break;
	}
	return s;
}

static void test_shapes_closed_forms(void)
{
	uint64_t r = 30;
	shape pl = make_shape(SHAPE_PLANE), sp = make_shape(SHAPE_SPHERE), ca = make_shape(SHAPE_CAPSULE);
	int bad = 0;
	for (int i = 0; i < 2000; ++i) {
		vec3 p = vrand(&r, -2.0, 2.0);
		if (fabs(shape_signed_distance(&pl, p, NULL, NULL) - p.z) > 0.0) ++bad;
		if (fabs(shape_signed_distance(&sp, p, NULL, NULL) - (v3_len(p) - 0.7)) > 1e-15) ++bad;
		double z = fmin(fmax(p.z, -0.5), 0.5);
		double want = sqrt(p.x * p.x + p.y * p.y + (p.z - z) * (p.z - z)) - 0.3;
		if (fabs(shape_signed_distance(&ca, p, NULL, NULL) - want) > 1e-15) ++bad;
	}
	CHECK(bad == 0);
	/* deterministic normals where the gradient is undefined */
	vec3 n;
	shape_signed_distance(&sp, v3_zero(), NULL, &n);
	CHECK(n.x == 0.0 && n.y == 0.0 && n.z == 1.0);
	CHECK(shape_signed_distance(&ca, v3(0.0, 0.0, 0.2), NULL, &n) == -0.3);
	CHECK(n.x == 1.0 && n.y == 0.0 && n.z == 0.0);
	shape cy = make_shape(SHAPE_CYLINDER), bx = make_shape(SHAPE_BOX);
	CHECK(shape_signed_distance(&cy, v3_zero(), NULL, &n) == -0.4 && n.z == 1.0);
	/* a box corner: ties go to the lowest axis */
	CHECK(shape_signed_distance(&bx, v3(0.5, 0.3, 0.8), NULL, &n) == 0.0 && n.x == 1.0);
	/* a cylinder's rim: the cap */
	CHECK(shape_signed_distance(&cy, v3(0.6, 0.0, -0.4), NULL, &n) == 0.0 && n.z == -1.0);
}

/* Minimum distance from p to a fine sampling of the surface, and the sampling's spacing bound. */
static double box_sampled_distance(vec3 e, vec3 p, int m)
{
	double best = INFINITY;
	for (int f = 0; f < 6; ++f) {
		int k = f / 2;
		double side = (f & 1) ? 1.0 : -1.0;
		int i = (k + 1) % 3, j = (k + 2) % 3;
		for (int a = 0; a <= m; ++a)
			for (int b = 0; b <= m; ++b) {
				double q[3];
				q[k] = side * v3_get(e, k);
				q[i] = v3_get(e, i) * (2.0 * a / m - 1.0);
				q[j] = v3_get(e, j) * (2.0 * b / m - 1.0);
				best = fmin(best, v3_len2(v3_sub(p, v3_load(q))));
			}
	}
	return sqrt(best);
}

static double cylinder_sampled_distance(double r, double h, vec3 p, int na, int nz, int nr)
{
	double best = INFINITY;
	for (int a = 0; a < na; ++a) {
		double th = 2.0 * pi * a / na, cx = cos(th), sy = sin(th);
		for (int z = 0; z <= nz; ++z)
			best = fmin(best, v3_len2(v3_sub(p, v3(r * cx, r * sy, h * (2.0 * z / nz - 1.0)))));
		for (int k = 0; k <= nr; ++k) {
			double rr = r * k / nr;
			best = fmin(best, v3_len2(v3_sub(p, v3(rr * cx, rr * sy, h))));
			best = fmin(best, v3_len2(v3_sub(p, v3(rr * cx, rr * sy, -h))));
		}
	}
	return sqrt(best);
}

static bool box_contains(vec3 e, vec3 p) { return fabs(p.x) <= e.x && fabs(p.y) <= e.y && fabs(p.z) <= e.z; }

static void test_shapes_box_and_cylinder_vs_sampling(void)
{
	uint64_t r = 31;
	shape bx = make_shape(SHAPE_BOX), cy = make_shape(SHAPE_CYLINDER);
	vec3 e = bx.half_extents;
	const int m = 80;
	/* Grid spacing 2e/m: any surface point is within half a cell diagonal of a sample. */
	double box_tol = 0.5 * sqrt(pow(2.0 * 0.8 / m, 2) * 2.0) + 1e-12;
	const int na = 360, nz = 40, nr = 30;
	double cyl_tol = 0.5 * hypot(2.0 * pi * 0.6 / na, fmax(2.0 * 0.4 / nz, 0.6 / nr)) + 1e-12;
	int bad_box = 0, bad_cyl = 0, inside_box = 0, inside_cyl = 0;
	for (int i = 0; i < 300; ++i) {
		/* half the points inside, some far out */
		vec3 p = i % 2 ? vrand(&r, -1.0, 1.0) : v3_scale(vrand(&r, -1.0, 1.0), i % 3 ? 0.6 : 2.0);
		double sd = shape_signed_distance(&bx, p, NULL, NULL);
		double sampled = box_sampled_distance(e, p, m);
		if (box_contains(e, p) != (sd <= 0.0)) ++bad_box;
		if (fabs(sd) > sampled + 1e-12 || sampled > fabs(sd) + box_tol) ++bad_box;
		inside_box += sd < 0.0;

		sd = shape_signed_distance(&cy, p, NULL, NULL);
		sampled = cylinder_sampled_distance(0.6, 0.4, p, na, nz, nr);
		bool in = hypot(p.x, p.y) <= 0.6 && fabs(p.z) <= 0.4;
		if (in != (sd <= 0.0)) ++bad_cyl;
		if (fabs(sd) > sampled + 1e-12 || sampled > fabs(sd) + cyl_tol) ++bad_cyl;
		inside_cyl += sd < 0.0;
	}
	CHECK(bad_box == 0);
	CHECK(bad_cyl == 0);
	CHECK(inside_box > 50 && inside_cyl > 50);
}

static void test_shapes_closest_point_and_normal(void)
{
	uint64_t r = 32;
	int bad = 0;
	for (int k = SHAPE_PLANE; k <= SHAPE_BOX; ++k) {
		shape s = make_shape((shape_kind)k);
		for (int i = 0; i < 2000; ++i) {
			vec3 p = vrand(&r, -1.5, 1.5);
			vec3 c, n;
			double sd = shape_signed_distance(&s, p, &c, &n);
			if (fabs(v3_len(n) - 1.0) > 1e-14) ++bad;
			/* the closest point is on the surface */
			if (fabs(shape_signed_distance(&s, c, NULL, NULL)) > 1e-14) ++bad;
			/* p = closest + sd normal, inside (nearest face) and outside */
			if (v3_len(v3_sub(p, v3_madd(c, sd, n))) > 1e-14) ++bad;
		}
	}
	CHECK(bad == 0);
}

/* The normal is the unit gradient of the signed distance, away from the places where the
 * distance has a kink (inside: equidistant from two faces; the sphere centre, capsule axis). */
static void test_shapes_normal_is_gradient(void)
{
	uint64_t r = 33;
	const double hstep = 1e-6;
	int bad = 0, tested = 0;
	for (int k = SHAPE_PLANE; k <= SHAPE_BOX; ++k) {
		shape s = make_shape((shape_kind)k);
		for (int i = 0; i < 3000; ++i) {
			vec3 p = vrand(&r, -1.5, 1.5);
			vec3 n;
			double sd = shape_signed_distance(&s, p, NULL, &n);
			if (sd < 0.0) {
				/* the ridge of an inside distance: the runner-up feature is about as near */
				double second = -INFINITY;
				if (k == SHAPE_BOX) {
					double q[3] = {fabs(p.x) - 0.5, fabs(p.y) - 0.3, fabs(p.z) - 0.8};
					for (int a = 0; a < 3; ++a)
						if (q[a] != sd) second = fmax(second, q[a]);
					if (fabs(p.x) < 1e-3 || fabs(p.y) < 1e-3 || fabs(p.z) < 1e-3) continue;
				} else if (k == SHAPE_CYLINDER) {
					double dr = hypot(p.x, p.y) - 0.6, dz = fabs(p.z) - 0.4;
					second = fmin(dr, dz);
					if (fabs(p.z) < 1e-3 || hypot(p.x, p.y) < 1e-3) continue;
				} else if (sd < -0.29) {
					continue; /* near the sphere centre / capsule axis */
				}
				if (second > sd - 1e-3) continue;
			}
			vec3 g;
			double gc[3];
			for (int a = 0; a < 3; ++a) {
				double d[3] = {0.0, 0.0, 0.0};
				d[a] = hstep;
				vec3 dv = v3_load(d);
				gc[a] = (shape_signed_distance(&s, v3_add(p, dv), NULL, NULL) -
					 shape_signed_distance(&s, v3_sub(p, dv), NULL, NULL)) /
					(2.0 * hstep);
			}
			g = v3_load(gc);
			++tested;
			if (v3_len(v3_sub(g, n)) > 1e-6) ++bad;
		}
	}
	CHECK(bad == 0);
	CHECK(tested > 10000);
}

/* Against dense sampling of the path: the reported t is no later than the first sample within
 * thickness, the signed distance there is the thickness (for t > 0), and a miss has no sample
 * within thickness. */
static void check_first_hit(const shape* s, vec3 p0, vec3 p1, double th, int samples, int* bad, int* hits)
{
	double t;
	vec3 n;
	bool hit = shape_segment_first_hit(s, p0, p1, th, &t, &n);
	double first = INFINITY;
	for (int i = 0; i <= samples; ++i) {
		double ti = (double)i / samples;
		if (shape_signed_distance(s, v3_add(p0, v3_scale(v3_sub(p1, p0), ti)), NULL, NULL) <= th) {
			first = ti;
			break;
		}
	}
	if (!hit) {
		if (first != INFINITY) ++*bad;
		return;
	}
	++*hits;
	if (t < 0.0 || t > 1.0 || first < t - 1e-9) ++*bad;
	vec3 pt = v3_add(p0, v3_scale(v3_sub(p1, p0), t)), nn;
	double sd = shape_signed_distance(s, pt, NULL, &nn);
	if (t > 0.0 && fabs(sd - th) > 1e-9) ++*bad;
	if (t == 0.0 && sd > th) ++*bad;
	if (v3_len(v3_sub(n, nn)) > 0.0) ++*bad;
	/* just before t the path is still outside the grown solid (continuity of sd: t is earliest) */
	if (t > 1e-6) {
		vec3 pb = v3_add(p0, v3_scale(v3_sub(p1, p0), t - 1e-6));
		if (shape_signed_distance(s, pb, NULL, NULL) <= th) ++*bad;
	}
}

static void test_shapes_segment_first_hit_vs_sampling(void)
{
	uint64_t r = 34;
	const double thicknesses[4] = {0.0, 0.01, 0.15, -0.05};
	for (int k = SHAPE_PLANE; k <= SHAPE_BOX; ++k) {
		shape s = make_shape((shape_kind)k);
		int bad = 0, hits = 0, total = 0;
		for (int i = 0; i < 600; ++i) {
			double th = thicknesses[i % 4];
			vec3 p0 = vrand(&r, -1.5, 1.5), p1;
			if (i % 3 == 0) {
				/* aimed near a surface point, edges and rims included: push a random surface
				 * point out along its normal by about the thickness */
				vec3 c, n;
				shape_signed_distance(&s, vrand(&r, -1.5, 1.5), &c, &n);
				vec3 target = v3_madd(c, th + urand(&r, -0.02, 0.02), n);
				p1 = v3_add(p0, v3_scale(v3_sub(target, p0), urand(&r, 0.9, 1.3)));
			} else {
				p1 = vrand(&r, -1.5, 1.5);
			}
			check_first_hit(&s, p0, p1, th, 4000, &bad, &hits);
			++total;
		}
		CHECK(bad == 0);
		CHECK(hits > total / 5 && hits < total);
	}
}

/* Paths grazing a cylinder's rim: only the rounded rim (a torus) of the grown cylinder is in
 * reach, the case solved by bracketing and bisection. */
static void test_shapes_cylinder_rim_hits(void)
{
	uint64_t r = 35;
	shape cy = make_shape(SHAPE_CYLINDER);
	const double th = 0.1;
	int bad = 0, hits = 0;
	for (int i = 0; i < 800; ++i) {
		double a = urand(&r, 0.0, 2.0 * pi);
		double zs = i % 2 ? 1.0 : -1.0;
		vec3 u = v3(cos(a), sin(a), 0.0);
		/* a point off the rim, diagonally out, at distance near th */
		vec3 rim = v3(0.6 * u.x, 0.6 * u.y, 0.4 * zs);
		vec3 out = v3_normalize(v3(u.x, u.y, zs));
		vec3 mid = v3_madd(rim, th + urand(&r, -0.01, 0.01), out);
		vec3 tangent = v3_normalize(v3_add(v3_cross(out, v3(-u.y, u.x, 0.0)), v3_scale(vrand(&r, -1.0, 1.0), 0.3)));
		vec3 p0 = v3_madd(mid, -0.3, tangent), p1 = v3_madd(mid, 0.3, tangent);
		check_first_hit(&cy, p0, p1, th, 4000, &bad, &hits);
	}
	CHECK(bad == 0);
	CHECK(hits > 100 && hits < 800);
}

static void test_shapes_segment_start_inside_and_misses(void)
{
	double t = -1.0;
	vec3 n;
	for (int k = SHAPE_PLANE; k <= SHAPE_BOX; ++k) {
		shape s = make_shape((shape_kind)k);
		/* starting within thickness (here: inside) gives t = 0 */
		CHECK(shape_segment_first_hit(&s, v3(0.0, 0.0, -0.1), v3(5.0, 5.0, 5.0), 0.001, &t, &n));
		CHECK(t == 0.0);
		/* a static particle far away misses, one inside hits */
		CHECK(!shape_segment_first_hit(&s, v3(3.0, 3.0, 3.0), v3(3.0, 3.0, 3.0), 0.001, &t, &n));
		CHECK(shape_segment_first_hit(&s, v3(0.0, 0.0, 0.0), v3(0.0, 0.0, 0.0), 0.001, &t, &n) && t == 0.0);
		/* passing by, above the plane / beside the solid */
		CHECK(!shape_segment_first_hit(&s, v3(-3.0, 2.0, 1.5), v3(3.0, 2.0, 1.5), 0.1, &t, &n));
	}
	/* within the thickness band but outside the surface */
	shape pl = make_shape(SHAPE_PLANE);
	CHECK(shape_segment_first_hit(&pl, v3(0.0, 0.0, 0.0005), v3(0.0, 0.0, 1.0), 0.001, &t, &n) && t == 0.0);
	/* an eroded solid that vanishes is never reached */
	shape sp = make_shape(SHAPE_SPHERE);
	CHECK(!shape_segment_first_hit(&sp, v3(-2.0, 0.0, 0.0), v3(2.0, 0.0, 0.0), -1.0, &t, &n));
}

static void test_shapes_fast_particle_caught(void)
{
	/* 20 m/s for 1/30 s: 0.667 m in one step, through a 1 mm thick plane or a 1 mm thin plate. */
	const double th = 0.001, travel = 20.0 / 30.0;
	vec3 p0 = v3(0.1, -0.2, 0.3), p1 = v3(0.1, -0.2, 0.3 - travel);
	shape pl = make_shape(SHAPE_PLANE);
	double t;
	vec3 n;
	CHECK(shape_segment_first_hit(&pl, p0, p1, th, &t, &n));
	CHECK_NEAR(t, (0.3 - th) / travel, 1e-15);
	CHECK(n.z == 1.0);
	shape plate = {SHAPE_BOX, 0.0, 0.0, v3(1.0, 1.0, 0.0005)};
	/* both end points are clear of the plate: a test at step ends alone would miss it */
	CHECK(shape_signed_distance(&plate, p0, NULL, NULL) > th);
	CHECK(shape_signed_distance(&plate, p1, NULL, NULL) > th);
	CHECK(shape_segment_first_hit(&plate, p0, p1, th, &t, &n));
	CHECK_NEAR(t, (0.3 - 0.0005 - th) / travel, 1e-15);
	CHECK(n.z == 1.0);
	/* the same, slanted, through a thin upright cylinder (a pole) and a sphere */
	shape pole = {SHAPE_CYLINDER, 0.0005, 1.0, v3_zero()};
	CHECK(shape_segment_first_hit(&pole, v3(-0.3, 0.0001, 0.2), v3(0.3667, 0.0001, 0.1), th, &t, &n));
	CHECK_NEAR(shape_signed_distance(&pole, v3_add(v3(-0.3, 0.0001, 0.2), v3_scale(v3(0.6667, 0.0, -0.1), t)), NULL, NULL),
		   th, 1e-12);
	CHECK(n.x < 0.0);
}

static void test_shapes_local_bounds(void)
{
	uint64_t r = 36;
	int bad = 0;
	const double margin = 0.05;
	for (int k = SHAPE_PLANE; k <= SHAPE_BOX; ++k) {
		shape s = make_shape((shape_kind)k);
		aabb b = shape_local_bounds(&s, margin);
		CHECK(v3_isfinite(b.lo) && v3_isfinite(b.hi));
		for (int i = 0; i < 5000; ++i) {
			vec3 p = vrand(&r, -1.5, 1.5);
			if (shape_signed_distance(&s, p, NULL, NULL) <= margin && !aabb_contains_point(b, p)) ++bad;
		}
		/* tight: the bounds' top touches the grown solid */
		vec3 c;
		shape_signed_distance(&s, v3(0.0, 0.0, 10.0), &c, NULL);
		CHECK_NEAR(c.z + margin, b.hi.z, 1e-15);
	}
	CHECK(bad == 0);
}

/* ---- transforms ---- */

static xform random_xform(uint64_t* r)
{
	return xform_make(vrand(r, -2.0, 2.0), fixture_rand(r), fixture_rand(r), fixture_rand(r), fixture_rand(r));
}

static double mat_diff(mat3 a, mat3 b)
{
	double m = 0.0;
	for (int i = 0; i < 3; ++i)
		for (int j = 0; j < 3; ++j) m = fmax(m, fabs(a.m[i][j] - b.m[i][j]));
	return m;
}

static void test_xform_apply_inverse(void)
{
	uint64_t r = 40;
	int bad = 0;
	for (int i = 0; i < 1000; ++i) {
		xform x = random_xform(&r);
		vec3 v = vrand(&r, -3.0, 3.0);
		if (v3_len(v3_sub(xform_inv_apply_point(x, xform_apply_point(x, v)), v)) > 1e-14) ++bad;
		if (v3_len(v3_sub(xform_apply_vector(x, xform_inv_apply_vector(x, v)), v)) > 1e-14) ++bad;
		if (v3_len(v3_sub(xform_apply_point(xform_inverse(x), v), xform_inv_apply_point(x, v))) > 1e-14) ++bad;
		/* rotations keep lengths; the matrix agrees with the quaternion */
		if (fabs(v3_len(xform_apply_vector(x, v)) - v3_len(v)) > 1e-14) ++bad;
		if (v3_len(v3_sub(m3_mulv(xform_rotation(x), v), xform_apply_vector(x, v))) > 1e-14) ++bad;
	}
	CHECK(bad == 0);
	vec3 y = xform_apply_vector(xform_from_axis_angle(v3_zero(), v3(0.0, 0.0, 2.0), 0.5 * pi), v3(1.0, 0.0, 0.0));
	CHECK(v3_len(v3_sub(y, v3(0.0, 1.0, 0.0))) < 1e-15);
}

static void test_xform_compose_matches_matrices(void)
{
	uint64_t r = 41;
	int bad = 0;
	for (int i = 0; i < 1000; ++i) {
		xform a = random_xform(&r), b = random_xform(&r);
		xform c = xform_compose(a, b);
		if (mat_diff(xform_rotation(c), m3_mul(xform_rotation(a), xform_rotation(b))) > 1e-14) ++bad;
		if (v3_len(v3_sub(c.p, v3_add(m3_mulv(xform_rotation(a), b.p), a.p))) > 1e-14) ++bad;
		vec3 v = vrand(&r, -3.0, 3.0);
		if (v3_len(v3_sub(xform_apply_point(c, v), xform_apply_point(a, xform_apply_point(b, v)))) > 1e-13) ++bad;
		xform e = xform_compose(xform_inverse(a), a);
		if (mat_diff(xform_rotation(e), m3_identity()) > 1e-14 || v3_len(e.p) > 1e-14) ++bad;
	}
	CHECK(bad == 0);
}

static void test_xform_interpolation(void)
{
	uint64_t r = 42;
	int bad = 0;
	for (int i = 0; i < 200; ++i) {
		xform a = random_xform(&r), b = random_xform(&r);
		xform n0 = xform_nlerp(a, b, 0.0), n1 = xform_nlerp(a, b, 1.0);
		xform s0 = xform_slerp(a, b, 0.0), s1 = xform_slerp(a, b, 1.0);
		if (memcmp(&n0, &a, sizeof a) || memcmp(&n1, &b, sizeof b) || memcmp(&s0, &a, sizeof a) ||
		    memcmp(&s1, &b, sizeof b))
			++bad;
		/* continuous at the ends and unit in between */
		xform m = xform_nlerp(a, b, 1e-9);
		if (mat_diff(xform_rotation(m), xform_rotation(a)) > 1e-8) ++bad;
		xform sm = xform_slerp(a, b, 0.37);
		if (fabs(sm.q[0] * sm.q[0] + sm.q[1] * sm.q[1] + sm.q[2] * sm.q[2] + sm.q[3] * sm.q[3] - 1.0) > 1e-14) ++bad;
	}
	CHECK(bad == 0);
	/* a quarter turn about z: both halfway points are the eighth turn, and the translation is
	 * halfway; q and -q are the same keyframe */
	xform a = xform_from_axis_angle(v3(0.0, 0.0, 0.0), v3(0.0, 0.0, 1.0), 0.0);
	xform b = xform_from_axis_angle(v3(2.0, 0.0, 0.0), v3(0.0, 0.0, 1.0), 0.5 * pi);
	xform bneg = b;
	for (int k = 0; k < 4; ++k) bneg.q[k] = -b.q[k];
	xform want = xform_from_axis_angle(v3(1.0, 0.0, 0.0), v3(0.0, 0.0, 1.0), 0.25 * pi);
	CHECK(mat_diff(xform_rotation(xform_slerp(a, b, 0.5)), xform_rotation(want)) < 1e-15);
	CHECK(mat_diff(xform_rotation(xform_nlerp(a, b, 0.5)), xform_rotation(want)) < 1e-15);
	CHECK(mat_diff(xform_rotation(xform_nlerp(a, bneg, 0.5)), xform_rotation(want)) < 1e-15);
	CHECK(v3_len(v3_sub(xform_slerp(a, b, 0.5).p, want.p)) < 1e-15);
	/* slerp turns at constant rate */
	xform q1 = xform_slerp(a, b, 0.25);
	CHECK_NEAR(2.0 * acos(q1.q[0]), 0.125 * pi, 1e-14);
}

const test_case bvh_tests[] = {
	{"bvh_empty_and_single", test_bvh_empty_and_single},
	{"bvh_pairs_of_tiny_trees", test_bvh_pairs_of_tiny_trees},
	{"bvh_query_matches_brute_force", test_bvh_query_matches_brute_force},
	{"bvh_query_truncates_and_counts", test_bvh_query_truncates_and_counts},
	{"bvh_query_cb_stops", test_bvh_query_cb_stops},
	{"bvh_refit_matches_brute_force", test_bvh_refit_matches_brute_force},
	{"bvh_every_primitive_reachable", test_bvh_every_primitive_reachable},
	{"bvh_depth_logarithmic", test_bvh_depth_logarithmic},
	{"bvh_splits_longest_axis", test_bvh_splits_longest_axis},
	{"bvh_build_deterministic", test_bvh_build_deterministic},
	{"bvh_self_pairs_match_brute_force", test_bvh_self_pairs_match_brute_force},
	{"bvh_self_pairs_split_covers_once", test_bvh_self_pairs_split_covers_once},
	{"bvh_two_tree_pairs_match_brute_force", test_bvh_two_tree_pairs_match_brute_force},
	{"bvh_stack_bound_respected", test_bvh_stack_bound_respected},
	{"shapes_closed_forms", test_shapes_closed_forms},
	{"shapes_box_and_cylinder_vs_sampling", test_shapes_box_and_cylinder_vs_sampling},
	{"shapes_closest_point_and_normal", test_shapes_closest_point_and_normal},
	{"shapes_normal_is_gradient", test_shapes_normal_is_gradient},
	{"shapes_segment_first_hit_vs_sampling", test_shapes_segment_first_hit_vs_sampling},
	{"shapes_cylinder_rim_hits", test_shapes_cylinder_rim_hits},
	{"shapes_segment_start_inside_and_misses", test_shapes_segment_start_inside_and_misses},
	{"shapes_fast_particle_caught", test_shapes_fast_particle_caught},
	{"shapes_local_bounds", test_shapes_local_bounds},
	{"xform_apply_inverse", test_xform_apply_inverse},
	{"xform_compose_matches_matrices", test_xform_compose_matches_matrices},
	{"xform_interpolation", test_xform_interpolation},
	{NULL, NULL},
};
