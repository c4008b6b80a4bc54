/* Marching tetrahedra over a regular grid (Kuhn triangulation of each cell) and a manifold check:
 * the raw closed surface that remesh.c then evens out. See docs/mannequin.md. */
#include "mesh/isosurface.h"

#include "core.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Grid vertices that lie on one grid edge of the Kuhn triangulation are found through a hash of
 * the edge: (index of its lower corner) * 8 + (its direction as three bits). */
typedef struct edge_map {
	int64_t* keys; /* -1: empty slot */
	int32_t* values;
	int64_t capacity; /* a power of two */
	int64_t count;
} edge_map;

static uint64_t edge_hash(int64_t key)
{
	uint64_t x = (uint64_t)key;
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

static bool edge_map_init(edge_map* m, int64_t capacity)
{
	m->capacity = capacity;
	m->count = 0;
	m->keys = malloc((size_t)capacity * sizeof *m->keys);
	m->values = malloc((size_t)capacity * sizeof *m->values);
	if (!m->keys || !m->values) return false;
	for (int64_t i = 0; i < capacity; ++i) m->keys[i] = -1;
	return true;
}

static void edge_map_free(edge_map* m)
{
	free(m->keys);
	free(m->values);
}

/* The slot of key: where it is, or the empty slot where it belongs. */
static int64_t edge_map_slot(const edge_map* m, int64_t key)
{
	int64_t mask = m->capacity - 1;
	int64_t s = (int64_t)(edge_hash(key) & (uint64_t)mask);
	while (m->keys[s] != -1 && m->keys[s] != key) s = (s + 1) & mask;
	return s;
}

static bool edge_map_grow(edge_map* m)
{
	edge_map bigger;
	if (!edge_map_init(&bigger, 2 * m->capacity)) {
		edge_map_free(&bigger);
		return false;
	}
	for (int64_t i = 0; i < m->capacity; ++i) {
		if (m->keys[i] == -1) continue;
		int64_t s = edge_map_slot(&bigger, m->keys[i]);
		bigger.keys[s] = m->keys[i];
		bigger.values[s] = m->values[i];
	}
	bigger.count = m->count;
	edge_map_free(m);
	*m = bigger;
	return true;
}

typedef struct extractor {
	const double* f; /* samples */
	double lo[3], h;
	int32_t n[3];
	edge_map map;
	iso_mesh* out;
	int32_t vertex_cap, triangle_cap;
	bool oom;
} extractor;

static int64_t grid_index(const extractor* x, int32_t i, int32_t j, int32_t k)
{
	return (int64_t)i + (int64_t)x->n[0] * ((int64_t)j + (int64_t)x->n[1] * (int64_t)k);
}

/* The vertex where the grid edge from corner (base + bits a) to corner (base + bits b) crosses
 * zero; a's bits are a subset of b's (Kuhn edges are monotone). */
static int32_t edge_vertex(extractor* x, const int32_t base[3], int a, int b)
{
	int32_t ia[3], ib[3];
	for (int d = 0; d < 3; ++d) {
		ia[d] = base[d] + ((a >> d) & 1);
		ib[d] = base[d] + ((b >> d) & 1);
	}
	int64_t ga = grid_index(x, ia[0], ia[1], ia[2]);
	int64_t gb = grid_index(x, ib[0], ib[1], ib[2]);
	int64_t key = ga * 8 + (a ^ b);
	int64_t s = edge_map_slot(&x->map, key);
	if (x->map.keys[s] == key) return x->map.values[s];
	if (2 * (x->map.count + 1) > x->map.capacity) {
		if (!edge_map_grow(&x->map)) {
			x->oom = true;
			return -1;
		}
		s = edge_map_slot(&x->map, key);
	}
	iso_mesh* m = x->out;
	if (!core_reserve((void**)&m->positions, &x->vertex_cap, 3 * (m->vertex_count + 1), sizeof(double))) {
		x->oom = true;
		return -1;
	}
	double fa = x->f[ga], fb = x->f[gb];
	double t = fa / (fa - fb); /* fa and fb have opposite signs (0 counts as outside) */
	for (int d = 0; d < 3; ++d) {
		double pa = x->lo[d] + x->h * ia[d], pb = x->lo[d] + x->h * ib[d];
		m->positions[3 * m->vertex_count + d] = pa + t * (pb - pa);
	}
	x->map.keys[s] = key;
	x->map.values[s] = m->vertex_count;
	++x->map.count;
	return m->vertex_count++;
}

static void emit(extractor* x, int32_t a, int32_t b, int32_t c)
{
	if (a < 0 || b < 0 || c < 0) return;
	iso_mesh* m = x->out;
	if (!core_reserve((void**)&m->triangles, &x->triangle_cap, 3 * (m->triangle_count + 1), sizeof(int32_t))) {
		x->oom = true;
		return;
	}
	int32_t* t = m->triangles + 3 * m->triangle_count++;
	t[0] = a;
	t[1] = b;
	t[2] = c;
}

/* One positively oriented tetrahedron (corners as cell bits). With one corner i inside, the
 * triangle on its three edges, listed like the opposite face of the even ordering (i, j, k, l),
 * faces away from i; with three inside, the same from the outside corner, reversed; with two,
 * the quad between them. */
static void march_tet(extractor* x, const int32_t base[3], const int c[4], const bool in[4])
{
	static const int even_from[4][4] = {{0, 1, 2, 3}, {1, 0, 3, 2}, {2, 3, 0, 1}, {3, 2, 1, 0}};
	int count = in[0] + in[1] + in[2] + in[3];
	if (count == 0 || count == 4) return;
	if (count == 1 || count == 3) {
		int lone = 0;
		while (in[lone] != (count == 1)) ++lone;
		const int* o = even_from[lone];
		int32_t a = edge_vertex(x, base, c[o[0]] & c[o[1]], c[o[0]] | c[o[1]]);
		int32_t b = edge_vertex(x, base, c[o[0]] & c[o[2]], c[o[0]] | c[o[2]]);
		int32_t d = edge_vertex(x, base, c[o[0]] & c[o[3]], c[o[0]] | c[o[3]]);
		if (count == 1)
			emit(x, a, b, d);
		else
			emit(x, a, d, b);
		return;
	}
	int o[4], ni = 0, no = 2;
	for (int v = 0; v < 4; ++v) {
		if (in[v])
			o[ni++] = v;
		else
			o[no++] = v;
	}
	int inversions = 0;
	for (int p = 0; p < 4; ++p)
		for (int q = p + 1; q < 4; ++q) inversions += o[p] > o[q];
	if (inversions & 1) {
		int s = o[2];
		o[2] = o[3];
		o[3] = s;
	}
	/* corners are cell bits; an edge's lower corner is the bitwise AND (Kuhn edges are chains) */
#define EV(p, q) edge_vertex(x, base, c[o[p]] & c[o[q]], c[o[p]] | c[o[q]])
	int32_t ik = EV(0, 2), il = EV(0, 3), jl = EV(1, 3), jk = EV(1, 2);
#undef EV
	if (ik < 0 || il < 0 || jl < 0 || jk < 0) return;
	/* the shorter diagonal of the quad (ik, il, jl, jk) */
	const double* p = x->out->positions;
	double d1 = 0.0, d2 = 0.0;
	for (int d = 0; d < 3; ++d) {
		d1 += (p[3 * ik + d] - p[3 * jl + d]) * (p[3 * ik + d] - p[3 * jl + d]);
		d2 += (p[3 * il + d] - p[3 * jk + d]) * (p[3 * il + d] - p[3 * jk + d]);
	}
	if (d1 <= d2) {
		emit(x, ik, il, jl);
		emit(x, ik, jl, jk);
	} else {
		emit(x, ik, il, jk);
		emit(x, il, jl, jk);
	}
}

bool iso_extract(iso_field field, const void* ctx, const double lo[3], double h, const int32_t n[3], iso_mesh* out,
		 char* err, size_t err_size)
{
	memset(out, 0, sizeof *out);
	if (!(h > 0.0) || n[0] < 2 || n[1] < 2 || n[2] < 2)
		return core_fail(err, err_size, "isosurface: bad grid (h %g, %d x %d x %d points)", h, n[0], n[1], n[2]);
	int64_t total = (int64_t)n[0] * n[1] * n[2];
	if (total > 100000000)
		return core_fail(err, err_size, "isosurface: grid of %lld points is too large", (long long)total);
	double* f = malloc((size_t)total * sizeof *f);
	if (!f) return core_fail(err, err_size, "isosurface: out of memory for %lld samples", (long long)total);
	extractor x;
	memset(&x, 0, sizeof x);
	x.f = f;
	x.h = h;
	for (int d = 0; d < 3; ++d) {
		x.lo[d] = lo[d];
		x.n[d] = n[d];
	}
	x.out = out;
	bool boundary_inside = false;
	for (int32_t k = 0; k < n[2]; ++k)
		for (int32_t j = 0; j < n[1]; ++j)
			for (int32_t i = 0; i < n[0]; ++i) {
				double p[3] = {lo[0] + h * i, lo[1] + h * j, lo[2] + h * k};
				double v = field(ctx, p);
				f[grid_index(&x, i, j, k)] = v;
				bool edge = i == 0 || j == 0 || k == 0 || i == n[0] - 1 || j == n[1] - 1 || k == n[2] - 1;
				if (edge && !(v > 0.0)) boundary_inside = true;
			}
	if (boundary_inside) {
		free(f);
		return core_fail(err, err_size, "isosurface: the field is not positive on the grid's boundary");
	}
	if (!edge_map_init(&x.map, 1 << 16)) {
		edge_map_free(&x.map);
		free(f);
		return core_fail(err, err_size, "isosurface: out of memory");
	}
	/* The six Kuhn tetrahedra: corner paths 0 -> e_a -> e_a + e_b -> 7 for the permutations
	 * (a, b, c) of the axes; odd permutations list their last two corners swapped so that every
	 * tetrahedron is positively oriented. */
	static const int perm[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {1, 0, 2}, {2, 1, 0}};
	for (int32_t k = 0; k + 1 < n[2] && !x.oom; ++k)
		for (int32_t j = 0; j + 1 < n[1] && !x.oom; ++j)
			for (int32_t i = 0; i + 1 < n[0] && !x.oom; ++i) {
				bool in8[8];
				int inside = 0;
				for (int c = 0; c < 8; ++c) {
					double v = f[grid_index(&x, i + (c & 1), j + ((c >> 1) & 1), k + ((c >> 2) & 1))];
					in8[c] = v < 0.0;
					inside += in8[c];
				}
				if (inside == 0 || inside == 8) continue;
				int32_t base[3] = {i, j, k};
				for (int t = 0; t < 6; ++t) {
					int c1 = 1 << perm[t][0], c2 = c1 | (1 << perm[t][1]);
					int c[4] = {0, c1, c2, 7};
					if (t >= 3) {
						c[2] = 7;
						c[3] = c2;
					}
					bool in[4] = {in8[c[0]], in8[c[1]], in8[c[2]], in8[c[3]]};
					march_tet(&x, base, c, in);
				}
			}
	edge_map_free(&x.map);
	free(f);
	if (x.oom) {
		iso_mesh_free(out);
		return core_fail(err, err_size, "isosurface: out of memory");
	}
	return true;
}

static int cmp_edge(const void* a, const void* b)
{
	const int64_t* x = a;
	const int64_t* y = b;
	return (x[0] > y[0]) - (x[0] < y[0]);
}

bool iso_check_manifold(const iso_mesh* m, char* err, size_t err_size)
{
	int64_t ne = 3 * (int64_t)m->triangle_count;
	/* directed edges as (from * V + to, triangle) */
	int64_t* e = malloc((size_t)(2 * ne + 1) * sizeof *e);
	if (!e) return core_fail(err, err_size, "manifold check: out of memory");
	int64_t V = m->vertex_count;
	for (int32_t t = 0; t < m->triangle_count; ++t)
		for (int c = 0; c < 3; ++c) {
			int32_t a = m->triangles[3 * t + c], b = m->triangles[3 * t + (c + 1) % 3];
			if (a < 0 || a >= V || b < 0 || b >= V || a == b) {
				free(e);
				return core_fail(err, err_size, "triangle %d has a bad corner", t);
			}
			e[2 * (3 * t + c)] = a * V + b;
			e[2 * (3 * t + c) + 1] = t;
		}
	qsort(e, (size_t)ne, 2 * sizeof *e, cmp_edge);
	bool ok = true;
	for (int64_t i = 0; i < ne && ok; ++i) {
		int64_t key = e[2 * i];
		if (i + 1 < ne && e[2 * (i + 1)] == key) {
			ok = core_fail(err, err_size, "edge %lld-%lld is used twice in the same direction",
				       (long long)(key / V), (long long)(key % V));
			break;
		}
		int64_t rev = (key % V) * V + key / V, lo = 0, hi = ne - 1;
		while (lo < hi) {
			int64_t mid = (lo + hi) / 2;
			if (e[2 * mid] < rev)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (e[2 * lo] != rev)
			ok = core_fail(err, err_size, "edge %lld-%lld (triangle %lld) has no opposite: the surface is open or "
						      "inconsistently oriented",
				       (long long)(key / V), (long long)(key % V), (long long)e[2 * i + 1]);
	}
	free(e);
	if (!ok) return false;
	/* One fan per vertex: around v, each triangle (v, a, b) leads from a to b; walking from one
	 * triangle must come back after visiting all of v's triangles. */
	int32_t* deg = calloc((size_t)V + 1, sizeof *deg);
	if (!deg) {
		return core_fail(err, err_size, "manifold check: out of memory");
	}
	for (int64_t i = 0; i < 3 * (int64_t)m->triangle_count; ++i) ++deg[m->triangles[i]];
	int32_t* start = calloc((size_t)V + 1, sizeof *start);
	int32_t* tri_of = malloc((size_t)(3 * (int64_t)m->triangle_count + 1) * sizeof *tri_of);
	if (!start || !tri_of) {
		free(deg);
		free(start);
		free(tri_of);
		return core_fail(err, err_size, "manifold check: out of memory");
	}
	for (int64_t v = 0; v < V; ++v) start[v + 1] = start[v] + deg[v];
	for (int64_t v = 0; v < V; ++v) deg[v] = 0;
	for (int32_t t = 0; t < m->triangle_count; ++t)
		for (int c = 0; c < 3; ++c) {
			int32_t v = m->triangles[3 * t + c];
			tri_of[start[v] + deg[v]++] = 3 * t + c;
		}
	for (int64_t v = 0; v < V && ok; ++v) {
		int32_t n = deg[v];
		if (n == 0) {
			ok = core_fail(err, err_size, "vertex %lld is in no triangle", (long long)v);
			break;
		}
		if (n < 3) {
			ok = core_fail(err, err_size, "vertex %lld is in only %d triangles", (long long)v, n);
			break;
		}
		const int32_t* ts = tri_of + start[v];
		int32_t corner = ts[0], steps = 0;
		int32_t first_a = m->triangles[3 * (corner / 3) + (corner % 3 + 1) % 3];
		int32_t b = m->triangles[3 * (corner / 3) + (corner % 3 + 2) % 3];
		++steps;
		while (b != first_a && steps <= n) {
			int32_t found = -1;
			for (int32_t q = 0; q < n; ++q) {
				int32_t cq = ts[q];
				if (m->triangles[3 * (cq / 3) + (cq % 3 + 1) % 3] == b) found = cq;
			}
			if (found < 0) break;
			b = m->triangles[3 * (found / 3) + (found % 3 + 2) % 3];
			++steps;
		}
		if (steps != n)
			ok = core_fail(err, err_size, "vertex %lld is pinched: its %d triangles form more than one fan",
				       (long long)v, n);
	}
	free(deg);
	free(start);
	free(tri_of);
	return ok;
}

void iso_mesh_free(iso_mesh* m)
{
	free(m->positions);
	free(m->triangles);
	memset(m, 0, sizeof *m);
}
