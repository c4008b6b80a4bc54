/* Static-topology bounding box tree over primitives given as boxes: the hierarchical bounding box
 * tree of sec. 6 (solid faces), also used over cloth elements for the cloth/cloth culling of sec. 6. */
#ifndef DRAPE_BVH_H
#define DRAPE_BVH_H

#include "aabb.h"

#include <stdbool.h>
#include <stdint.h>

/* Leaves hold 1..BVH_LEAF_MAX primitives. Four keeps the tree (and a refit) about half the size of
 * a one-per-leaf tree while a leaf's primitive boxes, tested one by one, still fit in a cache line
 * or four. */
#define BVH_LEAF_MAX 4

/* Median splits halve the primitive count at every level, so the depth (nodes on the longest
 * root-to-leaf path) is at most 1 + ceil(log2(ceil(count / BVH_LEAF_MAX))) <= 30 for any int32
 * count. These stack sizes (int32 entries) therefore always suffice, and callers can keep the
 * traversal stack on their own stack. */
#define BVH_QUERY_STACK 32
#define BVH_PAIRS_STACK 128

typedef struct bvh_node {
	aabb box;
	/* Leaf: first slot in bvh.prims. Internal: index of the left child; the right child is
	 * first + 1. Children always come after their parent, so a reverse sweep is bottom-up. */
	int32_t first;
	int32_t count; /* leaf: primitives (1..BVH_LEAF_MAX); internal: 0 */
} bvh_node;

typedef struct bvh {
	bvh_node* nodes; /* node 0 is the root */
	int32_t node_count;
	int32_t* prims;   /* primitive indices, leaf by leaf */
	aabb* prim_boxes; /* their boxes in the same order, copied at build and refit */
	int32_t prim_count;
	int32_t depth; /* nodes on the longest root-to-leaf path; 0 for an empty tree */
} bvh;

/* Builds the tree over boxes[0..count). Recursive splitting along coordinate axes (sec. 6): each
 * node splits along the longest axis of its primitives' centroid bounds, at the median (ties
 * broken by primitive index, so the result is a deterministic function of the boxes). Overwrites
 * *t without freeing it. count = 0 gives an empty tree. Returns false (and an empty tree) on
 * allocation failure or count < 0. */
bool bvh_build(bvh* t, const aabb* boxes, int32_t count);

/* Recomputes every node box bottom-up from the primitives' new boxes[0..prim_count) (same indexing
 * as at build), keeping the topology: for deforming solids and cloth. O(count), no allocation. A
 * refit tree stays correct but its quality decays with large motion; rebuild then. */
void bvh_refit(bvh* t, const aabb* boxes);

void bvh_free(bvh* t);

/* Nodes on the longest root-to-leaf path (0 for an empty tree, 1 for a single leaf). */
int32_t bvh_depth(const bvh* t);

/* Stack sizes, in int32 entries, that queries need: bvh_query and bvh_query_cb need
 * bvh_depth(t); bvh_pairs_cb needs 2 * (bvh_depth(a) + bvh_depth(b)) (entries are node pairs).
 * BVH_QUERY_STACK and BVH_PAIRS_STACK bound these for every tree. */
int32_t bvh_query_stack_size(const bvh* t);
int32_t bvh_pairs_stack_size(const bvh* a, const bvh* b);

/* Primitives whose boxes overlap box (closed boxes: touching counts). Writes the first max_out of
 * them to out (in a deterministic order) and returns how many there are in all, so that a caller
 * whose buffer was too small can grow it and retry. Returns -1, having written nothing useful, if
 * stack_size is below bvh_query_stack_size(t). Allocation-free. */
int32_t bvh_query(const bvh* t, aabb box, int32_t* out, int32_t max_out, int32_t* stack, int32_t stack_size);

/* Calls visit for each primitive whose box overlaps box, until visit returns false. Returns false
 * only if stack_size is too small (the traversal then stops early); callers with a large enough
 * stack may ignore the result. */
bool bvh_query_cb(const bvh* t, aabb box, bool (*visit)(void* ctx, int32_t prim), void* ctx, int32_t* stack,
		  int32_t stack_size);

/* Calls visit(ctx, pa, pb) for every primitive pa of a and pb of b whose boxes overlap. When
 * a == b (self-collision), each unordered pair of distinct primitives is reported exactly once,
 * with pa < pb, and (i, i) never; until visit returns false (a caller's work budget). Returns false
 * only if stack_size is too small. */
bool bvh_pairs_cb(const bvh* a, const bvh* b, bool (*visit)(void* ctx, int32_t pa, int32_t pb), void* ctx,
		  int32_t* stack, int32_t stack_size);

/* bvh_pairs_cb starting from the node pair (ia, ib) instead of the roots: the pairs under it
 * only. Same stack requirement. */
bool bvh_pairs_from_cb(const bvh* a, const bvh* b, int32_t ia, int32_t ib,
		       bool (*visit)(void* ctx, int32_t pa, int32_t pb), void* ctx, int32_t* stack, int32_t stack_size);

/* Splits the self traversal bvh_pairs_cb(t, t, ...) into independent node pairs, by expanding the
 * traversal breadth-first until there are at least target of them (or no pair can be expanded, or
 * another round might not fit max_pairs). Writes them to pairs[0 .. 2 count) and returns count:
 * running bvh_pairs_from_cb(t, t, pairs[2 k], pairs[2 k + 1], ...) for every k, in any order and
 * on any threads, reports exactly the primitive pairs bvh_pairs_cb(t, t, ...) reports (in another
 * order). A deterministic function of the tree. Allocation-free. */
int32_t bvh_self_pairs_split(const bvh* t, int32_t target, int32_t* pairs, int32_t max_pairs);

#endif
