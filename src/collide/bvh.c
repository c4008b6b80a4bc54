/* Bounding box tree: median-split build, bottom-up refit and allocation-free box and tree/tree
 * queries (sec. 6: "created by a simple recursive splitting along coordinate axes"). */
#include "bvh.h"

#include <stdlib.h>
#include <string.h>

/* Build-time context: centroids as 3 doubles per primitive, so the split axis is an index. */
typedef struct build_ctx {
	bvh* t;
	double* centroid;
	int32_t next_node;
} build_ctx;

/* A strict total order on primitives along one axis: ties in the centroid go to the lower index,
 * which makes the median (and so the whole tree) a deterministic function of the input boxes and
 * keeps the selection below from degenerating on coincident centroids. */
static inline bool key_less(const double* c, int axis, int32_t a, int32_t b)
{
	double ca = c[3 * a + axis], cb = c[3 * b + axis];
	return ca < cb || (ca == cb && a < b);
}

static inline void swap_i32(int32_t* a, int32_t* b)
{
	int32_t t = *a;
	*a = *b;
	*b = t;
}

/* Rearranges p[lo, hi) so that p[k] holds the element of rank k, with smaller ones before it and
 * larger ones after (Hoare's FIND with a median-of-three pivot; expected linear time). A median
 * split rather than a surface-area heuristic: it bounds the depth by log2 of the count, so a fixed
 * small traversal stack always suffices (bvh.h), and a refit tree over deforming cloth has no
 * reason to prefer the SAH split it was built with. */
static void select_rank(int32_t* p, int32_t lo, int32_t hi, int32_t k, const double* c, int axis)
{
	--hi; /* inclusive from here */
	while (lo < hi) {
		int32_t mid = lo + (hi - lo) / 2;
		if (key_less(c, axis, p[mid], p[lo])) swap_i32(&p[mid], &p[lo]);
		if (key_less(c, axis, p[hi], p[lo])) swap_i32(&p[hi], &p[lo]);
		if (key_less(c, axis, p[hi], p[mid])) swap_i32(&p[hi], &p[mid]);
		int32_t pivot = p[mid];
		int32_t i = lo, j = hi;
		while (i <= j) {
			while (key_less(c, axis, p[i], pivot)) ++i;
			while (key_less(c, axis, pivot, p[j])) --j;
			if (i <= j) {
				swap_i32(&p[i], &p[j]);
				++i;
				--j;
			}
		}
		/* p[lo..j] <= pivot <= p[i..hi], and anything between j and i is the pivot itself. */
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return;
	}
}

static void build_node(build_ctx* b, int32_t node, int32_t begin, int32_t end, int32_t level)
{
	bvh* t = b->t;
	bvh_node* nd = &t->nodes[node];
	if (level > t->depth) t->depth = level;
	if (end - begin <= BVH_LEAF_MAX) {
		nd->first = begin;
		nd->count = end - begin;
		return;
	}
	/* Split along the longest axis of the centroids' bounds (the extent of the boxes themselves
	 * would let one long primitive dictate the axis). */
	aabb cb = aabb_empty();
	for (int32_t k = begin; k < end; ++k) {
		const double* c = &b->centroid[3 * t->prims[k]];
		cb = aabb_add_point(cb, v3(c[0], c[1], c[2]));
	}
	vec3 ext = aabb_extent(cb);
	int axis = 0;
	if (ext.y > ext.x) axis = 1;
	if (ext.z > v3_get(ext, axis)) axis = 2;
	int32_t mid = begin + (end - begin) / 2;
	select_rank(t->prims, begin, end, mid, b->centroid, axis);
	int32_t left = b->next_node;
	b->next_node += 2;
	nd->first = left;
	nd->count = 0;
	build_node(b, left, begin, mid, level + 1);
	build_node(b, left + 1, mid, end, level + 1);
}

bool bvh_build(bvh* t, const aabb* boxes, int32_t count)
{
	memset(t, 0, sizeof *t);
	if (count < 0) return false;
	if (count == 0) return true;
	/* A binary tree with at most count leaves has at most 2 count - 1 nodes. */
	size_t max_nodes = 2 * (size_t)count - 1;
	t->nodes = malloc(max_nodes * sizeof *t->nodes);
	t->prims = malloc((size_t)count * sizeof *t->prims);
	t->prim_boxes = malloc((size_t)count * sizeof *t->prim_boxes);
	double* centroid = malloc(3 * (size_t)count * sizeof *centroid);
	if (!t->nodes || !t->prims || !t->prim_boxes || !centroid) {
		free(centroid);
		bvh_free(t);
		return false;
	}
	for (int32_t i = 0; i < count; ++i) {
		t->prims[i] = i;
		vec3 c = aabb_centre(boxes[i]);
		centroid[3 * i + 0] = c.x;
		centroid[3 * i + 1] = c.y;
		centroid[3 * i + 2] = c.z;
	}
	t->prim_count = count;
	build_ctx b = {t, centroid, 1};
	build_node(&b, 0, 0, count, 1);
	free(centroid);
	t->node_count = b.next_node;
	bvh_node* shrunk = realloc(t->nodes, (size_t)t->node_count * sizeof *t->nodes);
	if (shrunk) t->nodes = shrunk;
	bvh_refit(t, boxes);
	return true;
}

void bvh_refit(bvh* t, const aabb* boxes)
{
	for (int32_t k = 0; k < t->prim_count; ++k) t->prim_boxes[k] = boxes[t->prims[k]];
	/* Children have larger indices than their parent: one reverse sweep is bottom-up. */
	for (int32_t i = t->node_count - 1; i >= 0; --i) {
		bvh_node* nd = &t->nodes[i];
		aabb box = aabb_empty();
		if (nd->count) {
			for (int32_t k = nd->first; k < nd->first + nd->count; ++k)
				box = aabb_union(box, t->prim_boxes[k]);
		} else {
			box = aabb_union(t->nodes[nd->first].box, t->nodes[nd->first + 1].box);
		}
		nd->box = box;
	}
}

void bvh_free(bvh* t)
{
	free(t->nodes);
	free(t->prims);
	free(t->prim_boxes);
	memset(t, 0, sizeof *t);
}

int32_t bvh_depth(const bvh* t) { return t->depth; }

/* Depth-first with the left child on top: a node at level d is popped with at most one pending
 * sibling per ancestor below the root (d - 1 entries), and an internal node (d <= depth - 1)
 * pushes two, so depth entries suffice. */
int32_t bvh_query_stack_size(const bvh* t) { return t->depth; }

/* Node pairs, two int32 each. Two trees: a pair popped at depth sum k has at most k - 2 pending
 * pairs (one per descent) and pushes two, at most depth(a) + depth(b) in all. One tree: a self
 * pair (A, A) leaves (L, R) and (R, R) pending while (L, L) is explored, two per level, and pushes
 * three; at most 2 depth - 1 pairs. Both fit 2 (depth(a) + depth(b)) int32. */
int32_t bvh_pairs_stack_size(const bvh* a, const bvh* b) { return 2 * (a->depth + b->depth); }

bool bvh_query_cb(const bvh* t, aabb box, bool (*visit)(void* ctx, int32_t prim), void* ctx, int32_t* stack,
		  int32_t stack_size)
{
	if (t->node_count == 0) return true;
	if (stack_size < bvh_query_stack_size(t)) return false;
	int32_t top = 0;
	stack[top++] = 0;
	while (top > 0) {
		const bvh_node* nd = &t->nodes[stack[--top]];
		if (!aabb_overlap(nd->box, box)) continue;
		if (nd->count) {
			for (int32_t k = nd->first; k < nd->first + nd->count; ++k)
				if (aabb_overlap(t->prim_boxes[k], box) && !visit(ctx, t->prims[k])) return true;
		} else {
			stack[top++] = nd->first + 1;
			stack[top++] = nd->first;
		}
	}
	return true;
}

typedef struct collect_ctx {
	int32_t* out;
	int32_t max_out, count;
} collect_ctx;

static bool collect(void* ctx, int32_t prim)
{
	collect_ctx* c = ctx;
	if (c->count < c->max_out) c->out[c->count] = prim;
	++c->count;
	return true;
}

int32_t bvh_query(const bvh* t, aabb box, int32_t* out, int32_t max_out, int32_t* stack, int32_t stack_size)
{
	collect_ctx c = {out, max_out, 0};
	if (!bvh_query_cb(t, box, collect, &c, stack, stack_size)) return -1;
	return c.count;
}

/* Reports pa, pb; within one tree as the ordered pair (min, max). */
static inline bool report(bool self, int32_t pa, int32_t pb, bool (*visit)(void*, int32_t, int32_t), void* ctx)
{
	return self && pb < pa ? visit(ctx, pb, pa) : visit(ctx, pa, pb);
}

bool bvh_pairs_cb(const bvh* a, const bvh* b, bool (*visit)(void* ctx, int32_t pa, int32_t pb), void* ctx,
		  int32_t* stack, int32_t stack_size)
{
	return bvh_pairs_from_cb(a, b, 0, 0, visit, ctx, stack, stack_size);
}

/* One step of the self traversal below, applied to the node pair (ia, ib) of t: the pairs it
 * would push (in push order reversed, i.e. the order they are popped), or the pair itself when it
 * is a leaf pair the traversal tests directly. Returns how many it wrote to out (0 to 3). */
static int32_t expand_self_pair(const bvh* t, int32_t ia, int32_t ib, int32_t* out)
{
	const bvh_node* na = &t->nodes[ia];
	const bvh_node* nb = &t->nodes[ib];
	if (ia == ib) {
		if (na->count) {
			out[0] = ia;
			out[1] = ib;
			return 1;
		}
		int32_t l = na->first, r = na->first + 1, k = 0;
		out[2 * k] = l, out[2 * k + 1] = l, ++k;
		out[2 * k] = r, out[2 * k + 1] = r, ++k;
		if (aabb_overlap(t->nodes[l].box, t->nodes[r].box)) out[2 * k] = l, out[2 * k + 1] = r, ++k;
		return k;
	}
	if (!aabb_overlap(na->box, nb->box)) return 0;
	if (na->count && nb->count) {
		out[0] = ia;
		out[1] = ib;
		return 1;
	}
	bool down_a = nb->count || (!na->count && aabb_surface_area(na->box) >= aabb_surface_area(nb->box));
	if (down_a) {
		out[0] = na->first, out[1] = ib, out[2] = na->first + 1, out[3] = ib;
	} else {
		out[0] = ia, out[1] = nb->first, out[2] = ia, out[3] = nb->first + 1;
	}
	return 2;
}

int32_t bvh_self_pairs_split(const bvh* t, int32_t target, int32_t* pairs, int32_t max_pairs)
{
	if (t->node_count == 0 || max_pairs < 1) return 0;
	pairs[0] = 0;
	pairs[1] = 0;
	int32_t count = 1;
	/* Rounds expand every pair in place, front to back; each pair becomes at most three, so a
	 * round runs only while the result is sure to fit. A pair that expands to itself (a leaf
	 * pair) is final; a round that changes nothing ends the splitting. */
	while (count < target && 3 * count <= max_pairs) {
		int32_t tmp[6];
		bool changed = false;
		/* In place, back to front: pair k's results go below where pair k + 1's went, at
		 * indices >= 3 k, so they never overwrite a pair not yet read. */
		int32_t write = 3 * count; /* in pairs */
		for (int32_t k = count - 1; k >= 0; --k) {
			int32_t m = expand_self_pair(t, pairs[2 * k], pairs[2 * k + 1], tmp);
			if (m != 1 || tmp[0] != pairs[2 * k] || tmp[1] != pairs[2 * k + 1]) changed = true;
			for (int32_t j = m - 1; j >= 0; --j) {
				--write;
				pairs[2 * write] = tmp[2 * j];
				pairs[2 * write + 1] = tmp[2 * j + 1];
			}
		}
		count = 3 * count - write;
		memmove(pairs, pairs + 2 * write, 2 * (size_t)count * sizeof *pairs);
		if (!changed) break;
	}
	return count;
}

bool bvh_pairs_from_cb(const bvh* a, const bvh* b, int32_t ia0, int32_t ib0,
		       bool (*visit)(void* ctx, int32_t pa, int32_t pb), void* ctx, int32_t* stack, int32_t stack_size)
{
	if (a->node_count == 0 || b->node_count == 0) return true;
	int32_t cap = stack_size / 2; /* in pairs */
	if (stack_size < bvh_pairs_stack_size(a, b)) return false;
	const bool self = a == b;
	stack[0] = ia0;
	stack[1] = ib0;
	int32_t top = 1;
	while (top > 0) {
		--top;
		int32_t ia = stack[2 * top], ib = stack[2 * top + 1];
		const bvh_node* na = &a->nodes[ia];
		const bvh_node* nb = &b->nodes[ib];
		if (self && ia == ib) {
			/* A node against itself: pairs inside it, each unordered pair from exactly one of
			 * (L, L), (R, R), (L, R). */
			if (na->count) {
				for (int32_t i = na->first; i < na->first + na->count; ++i)
					for (int32_t j = i + 1; j < na->first + na->count; ++j)
						if (aabb_overlap(a->prim_boxes[i], a->prim_boxes[j]))
							if (!report(true, a->prims[i], a->prims[j], visit, ctx)) return true;
				continue;
			}
			int32_t l = na->first, r = na->first + 1;
			if (top + 3 > cap) return false; /* cannot happen with the documented size */
			if (aabb_overlap(a->nodes[l].box, a->nodes[r].box)) {
				stack[2 * top] = l;
				stack[2 * top + 1] = r;
				++top;
			}
			stack[2 * top] = r;
			stack[2 * top + 1] = r;
			++top;
			stack[2 * top] = l;
			stack[2 * top + 1] = l;
			++top;
			continue;
		}
		if (!aabb_overlap(na->box, nb->box)) continue;
		if (na->count && nb->count) {
			for (int32_t i = na->first; i < na->first + na->count; ++i)
				for (int32_t j = nb->first; j < nb->first + nb->count; ++j)
					if (aabb_overlap(a->prim_boxes[i], b->prim_boxes[j]))
						if (!report(self, a->prims[i], b->prims[j], visit, ctx)) return true;
			continue;
		}
		/* Descend the larger node (the leaf never), so that both sides shrink together. */
		bool down_a = nb->count || (!na->count && aabb_surface_area(na->box) >= aabb_surface_area(nb->box));
		if (top + 2 > cap) return false;
		if (down_a) {
			stack[2 * top] = na->first + 1;
			stack[2 * top + 1] = ib;
			stack[2 * top + 2] = na->first;
			stack[2 * top + 3] = ib;
		} else {
			stack[2 * top] = ia;
			stack[2 * top + 1] = nb->first + 1;
			stack[2 * top + 2] = ia;
			stack[2 * top + 3] = nb->first;
		}
		top += 2;
	}
	return true;
}
