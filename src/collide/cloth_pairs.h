/* Cloth/cloth collision detection (sec. 2.4, 6): particle/triangle and edge/edge pairs in close
 * proximity, crossings over a postulated linear motion, and triangle/triangle intersections, over
 * one triangle set (all cloths of a world), culled by a refitted bounding box tree. docs/collide.md. */
#ifndef DRAPE_CLOTH_PAIRS_H
#define DRAPE_CLOTH_PAIRS_H

#include "bvh.h"
#include "rest_neighbours.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Vertex p near triangle t (its vertices are triangles[3 t .. 3 t + 2]). bary: the closest point
 * of t to p in barycentric coordinates of t's vertices in that order. normal: unit, from the
 * triangle toward p's side. distance >= 0. */
/* The most triangle pairs per triangle a query may examine. A cloth in contact with itself, folded
 * or piled, gives 7-12 (shipped scenes and garments); a proposal that crushed or flung the cloth
 * gives hundreds to thousands, and its pass would compare nearly all pairs. */
#define CLOTH_PAIRS_BUDGET 100

typedef struct cc_vf {
	int32_t p;
	int32_t t;
	double bary[3];
	vec3 normal;
	double distance;
} cc_vf;

/* Edge e0 (e0[0] -> e0[1]) at parameter s near edge e1 at parameter u: the closest points are
 * (1 - s) x[e0[0]] + s x[e0[1]] and (1 - u) x[e1[0]] + u x[e1[1]]. normal: unit, from e1 toward
 * e0. Each edge lists its lower vertex first, and e0 is the lower edge: (e0[0], e0[1]) <
 * (e1[0], e1[1]) lexicographically. */
typedef struct cc_ee {
	int32_t e0[2];
	int32_t e1[2];
	double s, u;
	vec3 normal;
	double distance;
} cc_ee;

/* A crossing over the motion x0 -> x1 (positions (1 - toi) x0 + toi x1 at impact): the fields of
 * cc_vf / cc_ee at the time of impact toi in [0, 1] (distance <= eps there), except that the
 * normal, the unit normal of the triangle (or the edges' common normal) at impact, is oriented by
 * the start state: toward the side p was on at x0 (from e1 toward the side e0 was on). That is
 * the side a repulsion must restore (sec. 2.4: "pull the particle back to the correct side"). */
typedef struct cc_xvf {
	int32_t p;
	int32_t t;
	double bary[3];
	vec3 normal;
	double distance;
	double toi;
} cc_xvf;

typedef struct cc_xee {
	int32_t e0[2];
	int32_t e1[2];
	double s, u;
	vec3 normal;
	double distance;
	double toi;
} cc_xee;

/* One worker thread's result arrays (cloth_pairs_set_threads), by kind: vf, ee, xvf, xee. */
typedef struct cloth_pairs_part {
	void* arr[4];
	uint64_t* keys[4];
	int32_t count[4], capacity[4];
} cloth_pairs_part;

typedef struct cloth_pairs {
	/* Topology, fixed at init. */
	int32_t* triangles; /* copy, 3 per triangle */
	int32_t triangle_count;
	int32_t particle_count;
	int32_t* edges; /* 2 per edge, lower vertex first, sorted lexicographically */
	int32_t edge_count;
	int32_t* triangle_edges; /* 3 per triangle: edge k joins corners k and (k + 1) % 3 */
	/* Per triangle, bit k (k < 3): it owns its corner k; bit 3 + k: it owns its edge k. A vertex
	 * or edge is owned by the lowest-numbered triangle that holds it. */
	uint8_t* owns;
	/* Pairs close in the rest state, never reported by proximity (empty unless
	 * cloth_pairs_set_rest was called). */
	rest_neighbours rest;
	/* Per particle, the lowest particle sewn to it by an open seam (itself when none), or NULL
	 * when no seam is open: particles of one class, and the triangles and edges holding them,
	 * are about to become one particle and are never contacts, crossings or intersections
	 * (docs/garments.md, "Sewing"). */
	int32_t* sewn;

	/* The tree over the triangles: built at the first query, refitted at every later one (the
	 * coherence between steps of sec. 6). */
	bvh tree;
	bool tree_built;
	aabb* boxes; /* triangle_count, scratch for refits */
	aabb* edge_boxes; /* edge_count: each edge's box in the current query (its culling) */

	/* Results of the last call of each kind; arrays keep their capacity. */
	cc_vf* vf;
	int32_t vf_count, vf_capacity;
	cc_ee* ee;
	int32_t ee_count, ee_capacity;
	cc_xvf* xvf;
	int32_t xvf_count, xvf_capacity;
	cc_xee* xee;
	int32_t xee_count, xee_capacity;

	/* Sort keys of the results (private), and the sort's buffers. */
	uint64_t *vf_keys, *ee_keys, *xvf_keys, *xee_keys;
	void* scratch;
	size_t scratch_bytes;

	/* The candidate list (cloth_pairs_list.c; docs/collide.md, "Candidate list"): the triangle
	 * pairs whose boxes at list_ref, grown by list_grow, overlap. While no particle has moved
	 * (up to a common translation) by more than list_grow less a query's own growth, it holds
	 * every pair the tree would report, and a query filters it instead of traversing. skin: how
	 * much more than the query's growth the list's boxes get; 0 turns the list off. */
	double skin;
	vec3* list_ref;   /* particle_count */
	aabb* list_boxes; /* triangle_count: at list_ref, grown by list_grow */
	aabb* list_edge_boxes; /* edge_count: at list_ref */
	double list_grow;
	int32_t* list;      /* 2 per pair, lower triangle first */
	uint32_t* list_live; /* per pair: the feature tests its topology leaves (pair_live) */
	int64_t list_count, list_capacity;
	bool list_valid;
	int32_t list_wait; /* queries left before a build is tried again after one failed */
	int64_t list_builds, list_queries; /* statistics: builds, and queries the list answered */

	/* Triangle pairs the tree reported in the last call (culling statistics). */
	int64_t candidate_pairs;
	/* Set by a call that stopped because the tree reported more than CLOTH_PAIRS_BUDGET triangle
	 * pairs per triangle (the call then returns -1 with no results): cloth collapsed onto itself
	 * or flung through itself, where every box overlaps most others (docs/reliability.md). */
	bool overloaded;

	/* Threads of proximity and crossing queries (1 after init), and the result arrays of threads
	 * 1 .. threads - 1 (thread 0 uses the arrays above), kept between calls. */
	int threads;
	/* Looked at while building the rest neighbours (minutes on a million particles) and during
	 * every query: non-zero stops it, which then fails (drape_world_set_cancel). */
	const volatile int* cancel;
	cloth_pairs_part* parts;
	int32_t part_count;
} cloth_pairs;

/* Sets up detection over triangles[0 .. 3 triangle_count), vertex indices into a particle array
 * of particle_count: the edge list, owners, the result arrays (small; they grow on demand).
 * Returns false, leaving *d empty (safe to free), on allocation failure, an index outside
 * [0, particle_count), or a triangle that repeats a vertex. */
bool cloth_pairs_init(cloth_pairs* d, const int32_t* triangles, int32_t triangle_count, int32_t particle_count);
void cloth_pairs_free(cloth_pairs* d);

/* The next query builds the tree anew from its own boxes instead of refitting (one allocation):
 * for when positions were replaced wholesale and the old tree no longer fits them. */
void cloth_pairs_rebuild_tree(cloth_pairs* d);

/* Proximity skips the pairs closer than radius on the rest mesh (rest_neighbours.h), given
 * each triangle's rest (u, v) corners, tri_uv[6 t .. 6 t + 5). Once per topology; replaces an
 * earlier set. Returns false on allocation failure (then nothing is skipped). In
 * rest_neighbours.c. */
bool cloth_pairs_set_rest(cloth_pairs* d, const double* tri_uv, double radius);
/* The open seams' particle pairs (pairs[2 k], pairs[2 k + 1], particle indices): classes for
 * d->sewn (NULL again when pair_count is 0). Returns false on allocation failure (then nothing is
 * skipped). */
bool cloth_pairs_set_sewn(cloth_pairs* d, const int32_t* pairs, int32_t pair_count);

/* Whether p is sewn (cloth_pairs.sewn) to a corner of triangle tv, or an end of edge e to an end
 * of edge f: features about to be merged, skipped like those sharing a vertex. */
static inline bool sewn_to_triangle(const int32_t* sewn, int32_t p, const int32_t* tv)
{
	return sewn && (sewn[p] == sewn[tv[0]] || sewn[p] == sewn[tv[1]] || sewn[p] == sewn[tv[2]]);
}

static inline bool sewn_to_edge(const int32_t* sewn, const int32_t* e, const int32_t* f)
{
	return sewn && (sewn[e[0]] == sewn[f[0]] || sewn[e[0]] == sewn[f[1]] || sewn[e[1]] == sewn[f[0]] || sewn[e[1]] == sewn[f[1]]);
}

/* Lets proximity and crossing queries filter a list of candidate triangle pairs built with boxes
 * grown by skin more than theirs, rebuilt when the cloth has deformed by more than the slack
 * (0, the default after init, traverses the tree at every query). The results are the same
 * either way: the list holds every pair the tree would report, and the filter keeps exactly those
 * (cloth_pairs_list.c). */
void cloth_pairs_set_skin(cloth_pairs* d, double skin);

/* Threads for the proximity and crossing queries (values below 1 mean 1). Results are
 * bit-identical for any thread count. */
void cloth_pairs_set_threads(cloth_pairs* d, int threads);

/* Internal (cloth_pairs_setup.c, cloth_pairs_count.c, cloth_pairs_list.c): fits the tree to
 * boxes[0 .. triangle_count), building it at the first call and refitting it after. Returns false
 * on allocation failure. */
bool cloth_pairs_fit_tree(cloth_pairs* d, const aabb* boxes);

/* The queries. Each pair is reported once (de-duplicated by ownership, see owns), in sorted
 * order, so the output depends on the input alone, not on the tree's history. They allocate only
 * when a result array overflows (and at the first query, for the tree, and the first on more
 * threads, for the workers' result lists). Proximity and crossings run on d->threads threads;
 * intersections on one.
 * Positions must be finite. */

/* All vertex/triangle and edge/edge pairs closer than thickness (distance < thickness) at
 * positions x, except pairs sharing a vertex and rest neighbours (cloth_pairs_set_rest). Results in d->vf[0 .. vf_count) sorted by (p, t)
 * and d->ee[0 .. ee_count) sorted by (e0, e1). Pairs that cannot be oriented (p touching a
 * zero-area triangle, coincident parallel edges) are skipped. Returns vf_count + ee_count, or -1
 * (counts 0) on allocation failure, over the budget (d->overloaded) or when interrupted. */
int32_t cloth_pairs_proximity(cloth_pairs* d, const vec3* x, double thickness);

/* Pairs (not sharing a vertex) whose straight-line motion from x0 to x1 brings them coplanar and
 * within eps (ccd_point_triangle, ccd_edge_edge; eps > 0), at their earliest such time. Results in
 * d->xvf (sorted by (p, t)) and d->xee (sorted by (e0, e1)). Returns xvf_count + xee_count, or -1
 * on allocation failure, over the budget (d->overloaded) or when interrupted. */
int32_t cloth_pairs_crossings(cloth_pairs* d, const vec3* x0, const vec3* x1, double eps);

/* Pairs of triangles not sharing an edge that intersect at x (touching included; triangles
 * sharing one vertex are tested for contact away from it): mesh_triangles_intersect behind a
 * separating-axis guard against its false positives on (nearly) coplanar pairs. Writes the k
 * lexicographically smallest pairs (ta < tb) to first_pairs[0 .. 2 min(k, count)) (may be NULL).
 * Returns the count, or -1 on allocation failure, over the budget (d->overloaded) or when
 * interrupted. */
int32_t cloth_pairs_intersections(cloth_pairs* d, const vec3* x, int32_t* first_pairs, int32_t k);

/* The same count, each intersecting pair also tallied by the groups of its triangles (group[t] in
 * [0, groups): triangle t's cloth) in tally[ga * groups + gb], ga <= gb, so that a report can
 * name the cloths that cross (docs/reliability.md, "Crossings are reported"). tally holds groups^2
 * entries, zeroed here. */
int32_t cloth_pairs_intersections_by_group(cloth_pairs* d, const vec3* x, const int32_t* group, int32_t groups,
					   int32_t* tally);

#endif
