/* Hinge extraction (sec. 4.3: bend acts between pairs of adjacent triangles). Edges are keyed by
 * their sorted vertex pair and sorted, so the result is deterministic and O(t log t). */
#include "topology.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct edge_key {
	uint64_t key;
	int32_t tri;
	int32_t edge;
} edge_key;

static int compare_edges(const void* a, const void* b)
{
	const edge_key* x = a;
	const edge_key* y = b;
	if (x->key != y->key) return x->key < y->key ? -1 : 1;
	return x->tri < y->tri ? -1 : (x->tri > y->tri ? 1 : 0);
}

static int32_t opposite(const int32_t* t, int edge) { return t[(edge + 2) % 3]; }

bool topology_hinges(const int32_t* triangles, int32_t triangle_count, hinge_ref** out, int32_t* hinge_count,
		     char* err, size_t err_size)
{
	*out = NULL;
	*hinge_count = 0;
	int64_t m = 3 * (int64_t)triangle_count;
	edge_key* keys = malloc((size_t)(m > 0 ? m : 1) * sizeof *keys);
	hinge_ref* hinges = malloc((size_t)(m / 2 + 1) * sizeof *hinges);
	if (!keys || !hinges) {
		snprintf(err, err_size, "out of memory building hinges");
		goto fail;
	}
	for (int32_t t = 0; t < triangle_count; ++t)
		for (int k = 0; k < 3; ++k) {
			uint32_t a = (uint32_t)triangles[3 * t + k], b = (uint32_t)triangles[3 * t + (k + 1) % 3];
			uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
			keys[3 * t + k] = (edge_key){((uint64_t)lo << 32) | hi, t, k};
		}
	qsort(keys, (size_t)m, sizeof *keys, compare_edges);
	int32_t count = 0;
	for (int64_t i = 0; i < m;) {
		int64_t j = i + 1;
		while (j < m && keys[j].key == keys[i].key) ++j;
		uint32_t lo = (uint32_t)(keys[i].key >> 32), hi = (uint32_t)keys[i].key;
		if (j - i > 2) {
			snprintf(err, err_size,
				 "edge between vertices %u and %u is shared by %d triangles (%d, %d, %d%s); "
				 "drape needs a manifold mesh (at most two triangles per edge)",
				 lo, hi, (int)(j - i), keys[i].tri, keys[i + 1].tri, keys[i + 2].tri, j - i > 3 ? ", ..." : "");
			goto fail;
		}
		if (j - i == 2) {
			const int32_t* t0 = &triangles[3 * keys[i].tri];
			const int32_t* t1 = &triangles[3 * keys[i + 1].tri];
			int32_t o0 = opposite(t0, keys[i].edge), o1 = opposite(t1, keys[i + 1].edge);
			if (o0 == o1) {
				snprintf(err, err_size, "triangles %d and %d use the same three vertices (%u, %u, %d)",
					 keys[i].tri, keys[i + 1].tri, lo, hi, o0);
				goto fail;
			}
			hinge_ref* h = &hinges[count++];
			h->v[0] = t0[keys[i].edge];
			h->v[1] = t0[(keys[i].edge + 1) % 3];
			h->v[2] = o0;
			h->v[3] = o1;
			h->tri[0] = keys[i].tri;
			h->tri[1] = keys[i + 1].tri;
			h->edge[0] = (int8_t)keys[i].edge;
			h->edge[1] = (int8_t)keys[i + 1].edge;
		}
		i = j;
	}
	free(keys);
	*out = hinges;
	*hinge_count = count;
	return true;
fail:
	free(keys);
	free(hinges);
	return false;
}
