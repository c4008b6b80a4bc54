/* Pairs of cloth features that are close in the rest state (sec. 2.4's thickness measured along
 * the surface): a vertex and a triangle, or two edges, less than a radius apart on the rest mesh
 * unfolded flat. Such pairs are neighbours of the cloth itself, never contacts, whatever the
 * resolution. Built once per topology; docs/collide.md ("Rest neighbours"). */
#ifndef DRAPE_REST_NEIGHBOURS_H
#define DRAPE_REST_NEIGHBOURS_H

#include <stdbool.h>
#include <stdint.h>

/* Compressed rows: vertex p's rest-near triangles are vf_tri[vf_start[p] .. vf_start[p + 1]),
 * sorted; edge e's rest-near edges f > e are ee_edge[ee_start[e] .. ee_start[e + 1]), sorted.
 * Triangles holding p and edges sharing an endpoint with e are left out (the detector skips
 * those already). */
typedef struct rest_neighbours {
	int32_t *vf_start, *vf_tri;
	int32_t *ee_start, *ee_edge;
	int32_t particle_count, edge_count;
	double radius;
} rest_neighbours;

/* Builds the lists for triangles[0 .. 3 triangle_count) (vertex indices < particle_count) with
 * their rest (u, v) corners tri_uv[6 t .. 6 t + 5) (metres; on a seam each triangle has its own),
 * the edge list edges[0 .. 2 edge_count) (lower vertex first) and triangle_edges (3 per triangle:
 * the index of its side from corner k to k + 1). Two features are rest-near
 * when their distance on the rest mesh, unfolded triangle by triangle across shared edges, is
 * below radius. Returns false (r left empty, safe to free) on allocation failure, or when cancel
 * (may be NULL) becomes non-zero: the build takes minutes on a million particles. */
bool rest_neighbours_build(rest_neighbours* r, const int32_t* triangles, const double* tri_uv, int32_t triangle_count,
			   int32_t particle_count, const int32_t* edges, int32_t edge_count, const int32_t* triangle_edges,
			   double radius, const volatile int* cancel);
void rest_neighbours_free(rest_neighbours* r);

static inline bool rest_sorted_has(const int32_t* list, int32_t lo, int32_t hi, int32_t x)
{
	/* the lists are short (a few to a few tens): a linear scan that stops early */
	for (int32_t k = lo; k < hi; ++k)
		if (list[k] >= x) return list[k] == x;
	return false;
}

/* Whether vertex p and triangle t are rest-near (false when r is NULL or empty). */
static inline bool rest_near_vf(const rest_neighbours* r, int32_t p, int32_t t)
{
	return r && r->vf_start && rest_sorted_has(r->vf_tri, r->vf_start[p], r->vf_start[p + 1], t);
}

/* Whether edges e and f (indices into the edge list) are rest-near. */
static inline bool rest_near_ee(const rest_neighbours* r, int32_t e, int32_t f)
{
	if (f < e) {
		int32_t t = e;
		e = f;
		f = t;
	}
	return r && r->ee_start && rest_sorted_has(r->ee_edge, r->ee_start[e], r->ee_start[e + 1], f);
}

#endif
