/* Evening out a marching-tetrahedra surface (isosurface.c) into well-shaped triangles: short-edge
 * collapses under the link condition, Delaunay edge flips and tangential relaxation projected back
 * onto the implicit surface. Every operation keeps a closed manifold closed and manifold. See
 * docs/mannequin.md for the measured quality. */
#include "mesh/isosurface.h"

#include "core.h"
#include "math/scalar.h"
#include "math/vec3.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Corners (3 t + c) of each vertex, compressed rows. */
typedef struct adjacency {
	int32_t* start; /* vertex_count + 1 */
	int32_t* corners;
} adjacency;

static void adjacency_free(adjacency* a)
{
	free(a->start);
	free(a->corners);
	memset(a, 0, sizeof *a);
}

static bool adjacency_build(const iso_mesh* m, adjacency* a)
{
	a->start = calloc((size_t)m->vertex_count + 1, sizeof *a->start);
	a->corners = malloc((size_t)(3 * (int64_t)m->triangle_count + 1) * sizeof *a->corners);
	if (!a->start || !a->corners) {
		adjacency_free(a);
		return false;
	}
	for (int64_t i = 0; i < 3 * (int64_t)m->triangle_count; ++i) ++a->start[m->triangles[i] + 1];
	for (int32_t v = 0; v < m->vertex_count; ++v) a->start[v + 1] += a->start[v];
	int32_t* fill = malloc((size_t)m->vertex_count * sizeof *fill + 1);
	if (!fill) {
		adjacency_free(a);
		return false;
	}
	memcpy(fill, a->start, (size_t)m->vertex_count * sizeof *fill);
	for (int32_t i = 0; i < 3 * m->triangle_count; ++i) a->corners[fill[m->triangles[i]]++] = i;
	free(fill);
	return true;
}

static vec3 vertex(const iso_mesh* m, int32_t v) { return v3_load(m->positions + 3 * v); }

/* The vertex after corner c in its triangle, and the one before. */
static int32_t corner_next(const iso_mesh* m, int32_t c) { return m->triangles[3 * (c / 3) + (c % 3 + 1) % 3]; }
static int32_t corner_prev(const iso_mesh* m, int32_t c) { return m->triangles[3 * (c / 3) + (c % 3 + 2) % 3]; }

static vec3 tri_normal(vec3 a, vec3 b, vec3 c) { return v3_cross(v3_sub(b, a), v3_sub(c, a)); }

typedef struct short_edge {
	double len2;
	int32_t a, b;
} short_edge;

static int cmp_short_edge(const void* x, const void* y)
{
	const short_edge* p = x;
	const short_edge* q = y;
	if (p->len2 != q->len2) return p->len2 < q->len2 ? -1 : 1;
	if (p->a != q->a) return p->a < q->a ? -1 : 1;
	return (p->b > q->b) - (p->b < q->b);
}

/* Drops dead triangles (marked by a negative first corner) and unused vertices. */
static void compact(iso_mesh* m, int32_t* remap)
{
	int32_t nt = 0;
	for (int32_t t = 0; t < m->triangle_count; ++t) {
		if (m->triangles[3 * t] < 0) continue;
		memmove(m->triangles + 3 * nt, m->triangles + 3 * t, 3 * sizeof(int32_t));
		++nt;
	}
	m->triangle_count = nt;
	for (int32_t v = 0; v < m->vertex_count; ++v) remap[v] = -1;
	for (int32_t i = 0; i < 3 * nt; ++i) remap[m->triangles[i]] = 0;
	int32_t nv = 0;
	for (int32_t v = 0; v < m->vertex_count; ++v) {
		if (remap[v] < 0) continue;
		remap[v] = nv;
		memmove(m->positions + 3 * nv, m->positions + 3 * v, 3 * sizeof(double));
		++nv;
	}
	m->vertex_count = nv;
	for (int32_t i = 0; i < 3 * nt; ++i) m->triangles[i] = remap[m->triangles[i]];
}

/* One round of collapses of edges shorter than lmin, shortest first, each on vertices untouched so
 * far in the round (so the adjacency stays valid for the rest). Returns the number done, -1 when
 * out of memory. */
static int32_t collapse_round(iso_mesh* m, double lmin, int32_t* stamp, int32_t* tags, int32_t* remap)
{
	adjacency adj = {0};
	if (!adjacency_build(m, &adj)) return -1;
	short_edge* cand = malloc((size_t)(3 * (int64_t)m->triangle_count + 1) * sizeof *cand);
	uint8_t* locked = calloc((size_t)m->vertex_count + 1, 1);
	if (!cand || !locked) {
		free(cand);
		free(locked);
		adjacency_free(&adj);
		return -1;
	}
	int32_t nc = 0;
	for (int32_t i = 0; i < 3 * m->triangle_count; ++i) {
		int32_t a = m->triangles[i], b = corner_next(m, i);
		if (a > b) continue;
		double l2 = v3_len2(v3_sub(vertex(m, a), vertex(m, b)));
		if (l2 < lmin * lmin) cand[nc++] = (short_edge){l2, a, b};
	}
	qsort(cand, (size_t)nc, sizeof *cand, cmp_short_edge);
	int32_t done = 0;
	for (int32_t e = 0; e < nc; ++e) {
		int32_t a = cand[e].a, b = cand[e].b;
		if (locked[a] || locked[b]) continue;
		/* link condition: exactly the two opposite vertices are common neighbours */
		int32_t tag = ++*tags;
		for (int32_t k = adj.start[a]; k < adj.start[a + 1]; ++k) stamp[corner_next(m, adj.corners[k])] = tag;
		int common = 0;
		for (int32_t k = adj.start[b]; k < adj.start[b + 1]; ++k) common += stamp[corner_next(m, adj.corners[k])] == tag;
		if (common != 2) continue;
		int32_t valence = (adj.start[a + 1] - adj.start[a]) + (adj.start[b + 1] - adj.start[b]) - 4;
		if (valence > 10) continue;
		vec3 mid = v3_scale(v3_add(vertex(m, a), vertex(m, b)), 0.5);
		bool ok = true;
		for (int side = 0; side < 2 && ok; ++side) {
			int32_t v = side ? b : a, other = side ? a : b;
			for (int32_t k = adj.start[v]; k < adj.start[v + 1] && ok; ++k) {
				int32_t c = adj.corners[k], p = corner_next(m, c), q = corner_prev(m, c);
				if (p == other || q == other) continue;
				vec3 n0 = tri_normal(vertex(m, v), vertex(m, p), vertex(m, q));
				vec3 n1 = tri_normal(mid, vertex(m, p), vertex(m, q));
				/* no flip and no sliver: the moved triangle keeps facing the same way */
				if (v3_dot(n0, n1) <= 0.5 * sqrt(v3_len2(n0) * v3_len2(n1))) ok = false;
			}
		}
		if (!ok) continue;
		v3_store(mid, m->positions + 3 * a);
		for (int32_t k = adj.start[b]; k < adj.start[b + 1]; ++k) {
			int32_t c = adj.corners[k];
			int32_t* t = m->triangles + 3 * (c / 3);
			if (corner_next(m, c) == a || corner_prev(m, c) == a)
				t[0] = -1; /* dead: the two triangles on the edge */
			else
				t[c % 3] = a;
		}
		for (int side = 0; side < 2; ++side) {
			int32_t v = side ? b : a;
			locked[v] = 1;
			for (int32_t k = adj.start[v]; k < adj.start[v + 1]; ++k) {
				int32_t c = adj.corners[k];
				if (m->triangles[3 * (c / 3)] < 0) continue;
				locked[corner_next(m, c)] = 1;
				locked[corner_prev(m, c)] = 1;
			}
		}
		/* the dead triangles' third corners are neighbours of a and b: locked above through the
		 * live triangles that also hold them */
		++done;
	}
	free(cand);
	free(locked);
	adjacency_free(&adj);
	if (done) compact(m, remap);
	return done;
}

static double angle_at(vec3 p, vec3 a, vec3 b)
{
	vec3 u = v3_sub(a, p), w = v3_sub(b, p);
	return atan2(v3_len(v3_cross(u, w)), v3_dot(u, w));
}

/* One round of Delaunay flips on vertices untouched so far in the round. */
static int32_t flip_round(iso_mesh* m, int32_t* stamp, int32_t* tags)
{
	adjacency adj = {0};
	if (!adjacency_build(m, &adj)) return -1;
	uint8_t* locked = calloc((size_t)m->vertex_count + 1, 1);
	if (!locked) {
		adjacency_free(&adj);
		return -1;
	}
	const double pi = DRAPE_PI;
	int32_t done = 0;
	for (int32_t i = 0; i < 3 * m->triangle_count; ++i) {
		int32_t a = m->triangles[i], b = corner_next(m, i), c = corner_prev(m, i);
		if (a > b || locked[a] || locked[b] || locked[c]) continue;
		int32_t j = -1;
		for (int32_t k = adj.start[b]; k < adj.start[b + 1]; ++k)
			if (corner_next(m, adj.corners[k]) == a) j = adj.corners[k];
		if (j < 0) continue;
		int32_t d = corner_prev(m, j);
		if (locked[d] || c == d) continue;
		if (adj.start[a + 1] - adj.start[a] <= 3 || adj.start[b + 1] - adj.start[b] <= 3) continue;
		int32_t tag = ++*tags;
		bool exists = false;
		for (int32_t k = adj.start[c]; k < adj.start[c + 1]; ++k) stamp[corner_next(m, adj.corners[k])] = tag;
		exists = stamp[d] == tag;
		if (exists) continue;
		vec3 pa = vertex(m, a), pb = vertex(m, b), pc = vertex(m, c), pd = vertex(m, d);
		if (angle_at(pc, pa, pb) + angle_at(pd, pa, pb) <= pi + 1e-6) continue;
		/* only where the surface is nearly flat across the edge, and the new pair faces the same way */
		vec3 n1 = v3_normalize(tri_normal(pa, pb, pc)), n2 = v3_normalize(tri_normal(pb, pa, pd));
		if (v3_dot(n1, n2) < 0.9) continue;
		vec3 n = v3_add(n1, n2);
		vec3 m1 = tri_normal(pc, pa, pd), m2 = tri_normal(pd, pb, pc);
		if (v3_dot(m1, n) <= 0.5 * v3_len(m1) * v3_len(n) || v3_dot(m2, n) <= 0.5 * v3_len(m2) * v3_len(n)) continue;
		int32_t* t1 = m->triangles + 3 * (i / 3);
		int32_t* t2 = m->triangles + 3 * (j / 3);
		t1[0] = c;
		t1[1] = a;
		t1[2] = d;
		t2[0] = d;
		t2[1] = b;
		t2[2] = c;
		locked[a] = locked[b] = locked[c] = locked[d] = 1;
		++done;
	}
	free(locked);
	adjacency_free(&adj);
	return done;
}

/* Steps towards the zero set along the field's gradient, estimated once by forward differences
 * (the point starts within a fraction of an edge of the surface, where the gradient hardly
 * changes): four to seven evaluations of the field per vertex. */
static vec3 project(iso_field field, const void* ctx, vec3 p, double step, double tol)
{
	double q[3] = {p.x, p.y, p.z};
	double f = field(ctx, q);
	if (fabs(f) < tol) return p;
	double g[3];
	for (int d = 0; d < 3; ++d) {
		double save = q[d];
		q[d] = save + step;
		g[d] = (field(ctx, q) - f) / step;
		q[d] = save;
	}
	vec3 gv = v3(g[0], g[1], g[2]);
	double g2 = v3_len2(gv);
	if (!(g2 > 1e-12)) return p;
	for (int it = 0; it < 4; ++it) {
		p = v3_madd(p, -f / g2, gv);
		v3_store(p, q);
		f = field(ctx, q);
		if (fabs(f) < tol) break;
	}
	return p;
}

/* Jacobi tangential smoothing: each vertex moves half-way to its neighbours' centroid within its
 * tangent plane, then back onto the surface. */
static bool relax_round(iso_mesh* m, iso_field field, const void* ctx, double step, double tol)
{
	adjacency adj = {0};
	if (!adjacency_build(m, &adj)) return false;
	double* next = malloc((size_t)m->vertex_count * 3 * sizeof *next + 1);
	if (!next) {
		adjacency_free(&adj);
		return false;
	}
	for (int32_t v = 0; v < m->vertex_count; ++v) {
		vec3 p = vertex(m, v), sum = v3_zero(), n = v3_zero();
		double wsum = 0.0;
		for (int32_t k = adj.start[v]; k < adj.start[v + 1]; ++k) {
			int32_t c = adj.corners[k];
			vec3 a = vertex(m, corner_next(m, c)), b = vertex(m, corner_prev(m, c));
			vec3 tn = tri_normal(p, a, b);
			double area = v3_len(tn);
			n = v3_add(n, tn);
			/* area-weighted centroids of the surrounding triangles even out sizes as well as shapes */
			sum = v3_madd(sum, area, v3_scale(v3_add(v3_add(p, a), b), 1.0 / 3.0));
			wsum += area;
		}
		vec3 q = p;
		if (wsum > 0.0) {
			n = v3_normalize(n);
			vec3 d = v3_sub(v3_scale(sum, 1.0 / wsum), p);
			d = v3_madd(d, -v3_dot(d, n), n);
			q = project(field, ctx, v3_madd(p, 1.0, d), step, tol);
		}
		v3_store(q, next + 3 * v);
	}
	memcpy(m->positions, next, (size_t)m->vertex_count * 3 * sizeof *next);
	free(next);
	adjacency_free(&adj);
	return true;
}

bool iso_remesh(iso_mesh* m, iso_field field, const void* ctx, double target, int passes, char* err,
		size_t err_size)
{
	int32_t* stamp = malloc((size_t)m->vertex_count * sizeof *stamp + 1);
	int32_t* remap = malloc((size_t)m->vertex_count * sizeof *remap + 1);
	bool ok = stamp && remap;
	if (ok)
		for (int32_t v = 0; v < m->vertex_count; ++v) stamp[v] = 0;
	double step = 0.01 * target;
	int32_t tags = 0; /* stamp values: each neighbourhood test gets a fresh one */
	for (int pass = 0; pass < passes && ok; ++pass) {
		for (int r = 0; r < 4 && ok; ++r) {
			int32_t n = collapse_round(m, 0.45 * target, stamp, &tags, remap);
			ok = n >= 0;
			if (n <= 0) break;
		}
		for (int r = 0; r < 3 && ok; ++r) {
			int32_t n = flip_round(m, stamp, &tags);
			ok = n >= 0;
			if (n <= 0) break;
		}
		for (int r = 0; r < 2 && ok; ++r) ok = relax_round(m, field, ctx, step, 1e-4 * target);
	}
	for (int r = 0; r < 3 && ok; ++r) ok = flip_round(m, stamp, &tags) >= 0;
	free(stamp);
	free(remap);
	if (!ok) return core_fail(err, err_size, "remesh: out of memory");
	return true;
}
