/* Cloth/cloth collision detection (sec. 2.4, 6), setting up: the cloth's topology (edges, sewn
 * pairs), its rest neighbours, and the one bounding box tree over all cloth triangles, built once
 * and refitted at every call (the "coherency-based bounding-box approach" of sec. 6). The queries
 * run in cloth_pairs_query.c and the tests in cloth_pairs_proximity/crossing/count.c;
 * docs/collide.md. */
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
	free(d->list_ref);
	free(d->list_boxes);
	free(d->list_edge_boxes);
	free(d->list);
	free(d->list_live);
	if (d->tree_built) bvh_free(&d->tree);
	memset(d, 0, sizeof *d);
}


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
	d->list_valid = false;
}

/* The tree's topology comes from the positions it was built at (the first query: the only
 * allocation of a query besides results outgrowing their arrays); later queries refit it. Cloth
 * hardly stretches, so neighbours on the mesh stay neighbours in space and a refitted tree stays
 * tight as the cloth drapes and folds: the coherence between steps that sec. 6 exploits. */
bool cloth_pairs_fit_tree(cloth_pairs* d, const aabb* boxes)
{
	if (d->tree_built) {
		bvh_refit(&d->tree, boxes);
		return true;
	}
	if (!bvh_build(&d->tree, boxes, d->triangle_count)) return false;
	d->tree_built = true;
	return true;
}

void cloth_pairs_set_threads(cloth_pairs* d, int threads) { d->threads = threads > 1 ? threads : 1; }
