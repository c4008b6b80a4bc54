/* Cloth/cloth detection (sec. 2.4, 6): proximity and crossing pairs against O(n^2) brute force on
 * folded, crumpled sheets; hand-built crossings with the orientation of their normals; triangle
 * intersections counted on hand-built meshes; degenerate input; timing of a 51 x 51 sheet. */
#include "fixtures.h"
#include "test.h"

#include "collide/cloth_pairs.h"
#include "collide/geometry.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const double pi = 3.14159265358979323846;

/* ---- helpers ---- */

static double urand(uint64_t* s, double lo, double hi) { return lo + (hi - lo) * 0.5 * (fixture_rand(s) + 1.0); }
static vec3 vrand(uint64_t* s, double a) { return v3(urand(s, -a, a), urand(s, -a, a), urand(s, -a, a)); }
static vec3 lerp3(vec3 a, vec3 b, double t) { return v3_add(v3_scale(a, 1.0 - t), v3_scale(b, t)); }

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

/* n x n vertices (index i + n j), each quad split along its (i, j)-(i+1, j+1) diagonal; vertex
 * indices offset by `base`. Returns the triangle count, 2 (n - 1)^2. */
static int32_t grid_triangles(int n, int32_t base, int32_t* tri)
{
	int32_t m = 0;
	for (int j = 0; j + 1 < n; ++j)
		for (int i = 0; i + 1 < n; ++i) {
			int32_t v00 = base + i + n * j, v10 = v00 + 1, v01 = v00 + n, v11 = v01 + 1;
			int32_t* t = tri + 3 * m;
			t[0] = v00, t[1] = v10, t[2] = v11;
			t[3] = v00, t[4] = v11, t[5] = v01;
			m += 2;
		}
	return m;
}

/* A unit sheet (cell s = 1 / (n - 1)) folded over itself around a half cylinder of radius r
 * along y: the bottom layer at z = 0, the top one at z = 2 r, shifted by `shift` (in x, y) so that
 * its vertices do not sit right above the bottom ones. noise moves every vertex by up to noise
 * in each coordinate. */
static void folded_sheet(int n, double r, vec3 shift, double noise, uint64_t* seed, vec3* x)
{
	double a = 0.5 * (1.0 - pi * r);
	for (int j = 0; j < n; ++j)
		for (int i = 0; i < n; ++i) {
			double u = (double)i / (n - 1), v = (double)j / (n - 1);
			vec3 p;
			if (u <= a) {
				p = v3(u, v, 0.0);
			} else if (u <= a + pi * r) {
				double th = (u - a) / r;
				p = v3(a + r * sin(th), v, r - r * cos(th));
			} else {
				p = v3(a - (u - a - pi * r), v, 2.0 * r);
			}
			if (u > a) p = v3_add(p, v3_scale(shift, fmin(1.0, (u - a) / (pi * r))));
			if (noise > 0.0) p = v3_add(p, vrand(seed, noise));
			x[i + n * j] = p;
		}
}

/* Edges of a triangle list, independently of the detector: (low, high), sorted, unique. */
static int cmp_pair(const void* a, const void* b)
{
	const int32_t *x = a, *y = b;
	if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
	return (x[1] > y[1]) - (x[1] < y[1]);
}
static int32_t edge_list(const int32_t* tri, int32_t nt, int32_t* e)
{
	for (int32_t t = 0; t < nt; ++t)
		for (int k = 0; k < 3; ++k) {
			int32_t a = tri[3 * t + k], b = tri[3 * t + (k + 1) % 3];
			e[2 * (3 * t + k)] = a < b ? a : b;
			e[2 * (3 * t + k) + 1] = a < b ? b : a;
		}
	qsort(e, (size_t)(3 * nt), 2 * sizeof *e, cmp_pair);
	int32_t m = 0;
	for (int32_t i = 0; i < 3 * nt; ++i)
		if (m == 0 || cmp_pair(e + 2 * i, e + 2 * (m - 1)) != 0) {
			e[2 * m] = e[2 * i];
			e[2 * m + 1] = e[2 * i + 1];
			++m;
		}
	return m;
}

static bool in_tri(const int32_t* t, int32_t p) { return t[0] == p || t[1] == p || t[2] == p; }
static bool share(const int32_t* e, const int32_t* f)
{
	return e[0] == f[0] || e[0] == f[1] || e[1] == f[0] || e[1] == f[1];
}
static bool is_unit(vec3 n) { return v3_isfinite(n) && fabs(v3_len(n) - 1.0) < 1e-12; }

/* A mesh with its positions, owning its arrays. */
typedef struct mesh {
	int32_t nv, nt, ne;
	int32_t* tri;
	int32_t* edges;
	vec3* x;
} mesh;

static mesh mesh_alloc(int32_t nv, int32_t nt)
{
	mesh m = {nv, nt, 0, malloc(3 * (size_t)nt * sizeof(int32_t)), malloc(6 * (size_t)nt * sizeof(int32_t)),
		  malloc((size_t)nv * sizeof(vec3))};
	return m;
}
static void mesh_free(mesh* m)
{
	free(m->tri);
	free(m->edges);
	free(m->x);
}

/* A folded sheet, plus (layers > 1) a second flat sheet below it, as a second cloth. */
static mesh folded_mesh(int n, int layers, double noise, uint64_t* seed)
{
	int32_t per = n * n;
	mesh m = mesh_alloc(per * layers, 2 * (n - 1) * (n - 1) * layers);
	double s = 1.0 / (n - 1);
	folded_sheet(n, 0.75 * s, v3(0.3 * s, 0.2 * s, 0.0), noise * s, seed, m.x);
	int32_t nt = grid_triangles(n, 0, m.tri);
	for (int l = 1; l < layers; ++l) {
		for (int32_t i = 0; i < per; ++i)
			m.x[l * per + i] = v3_add(v3((double)(i % n) * s + 0.4 * s, (double)(i / n) * s, -1.4 * s * l),
						  vrand(seed, noise * s));
		nt += grid_triangles(n, l * per, m.tri + 3 * nt);
	}
	m.ne = edge_list(m.tri, m.nt, m.edges);
	return m;
}

/* ---- brute force ---- */

typedef struct bf_result {
	cc_vf* vf;
	int32_t nvf;
	cc_ee* ee;
	int32_t nee;
} bf_result;

/* Every pair, in the detector's canonical order: vertices by index then triangles; edges (low,
 * high), e0 < e1. The same primitive calls with the same arguments, so the same bits. */
static bf_result brute_proximity(const mesh* m, double h)
{
	bf_result r = {malloc(sizeof(cc_vf) * (size_t)m->nv * (size_t)m->nt + 1), 0,
		       malloc(sizeof(cc_ee) * (size_t)m->ne * (size_t)m->ne / 2 + 1), 0};
	for (int32_t p = 0; p < m->nv; ++p)
		for (int32_t t = 0; t < m->nt; ++t) {
			const int32_t* tv = m->tri + 3 * t;
			if (in_tri(tv, p)) continue;
			double w[3];
			double d2 = point_triangle_closest(m->x[p], m->x[tv[0]], m->x[tv[1]], m->x[tv[2]], w);
			if (!(d2 < h * h)) continue;
			cc_vf v = {p, t, {w[0], w[1], w[2]}, v3_zero(), sqrt(d2)};
			r.vf[r.nvf++] = v;
		}
	for (int32_t e = 0; e < m->ne; ++e)
		for (int32_t f = e + 1; f < m->ne; ++f) {
			const int32_t *ev = m->edges + 2 * e, *fv = m->edges + 2 * f;
			if (share(ev, fv)) continue;
			double s, u;
			double d2 = segment_segment_closest(m->x[ev[0]], m->x[ev[1]], m->x[fv[0]], m->x[fv[1]], &s, &u);
			if (!(d2 < h * h)) continue;
			cc_ee c = {{ev[0], ev[1]}, {fv[0], fv[1]}, s, u, v3_zero(), sqrt(d2)};
			r.ee[r.nee++] = c;
		}
	return r;
}

static void check_against_brute(const cloth_pairs* d, const mesh* m, double h)
{
	bf_result r = brute_proximity(m, h);
	CHECK(d->vf_count == r.nvf);
	CHECK(d->ee_count == r.nee);
	int bad = 0;
	for (int32_t i = 0; i < d->vf_count && i < r.nvf; ++i) {
		const cc_vf *a = &d->vf[i], *b = &r.vf[i];
		if (a->p != b->p || a->t != b->t || a->distance != b->distance || a->bary[0] != b->bary[0] ||
		    a->bary[1] != b->bary[1] || a->bary[2] != b->bary[2])
			++bad;
		/* toward p, along the face normal (no degenerate triangles here) */
		const int32_t* tv = m->tri + 3 * a->t;
		vec3 fn = v3_normalize(v3_cross(v3_sub(m->x[tv[1]], m->x[tv[0]]), v3_sub(m->x[tv[2]], m->x[tv[0]])));
		if (!is_unit(a->normal) || fabs(fabs(v3_dot(fn, a->normal)) - 1.0) > 1e-12 ||
		    v3_dot(a->normal, v3_sub(m->x[a->p], m->x[tv[0]])) < 0.0)
			++bad;
		if (i > 0 && !(d->vf[i - 1].p < a->p || (d->vf[i - 1].p == a->p && d->vf[i - 1].t < a->t))) ++bad;
		if (in_tri(tv, a->p)) ++bad;
	}
	CHECK(bad == 0);
	bad = 0;
	for (int32_t i = 0; i < d->ee_count && i < r.nee; ++i) {
		const cc_ee *a = &d->ee[i], *b = &r.ee[i];
		if (memcmp(a->e0, b->e0, sizeof a->e0) || memcmp(a->e1, b->e1, sizeof a->e1) || a->distance != b->distance ||
		    a->s != b->s || a->u != b->u)
			++bad;
		vec3 P = lerp3(m->x[a->e0[0]], m->x[a->e0[1]], a->s), Q = lerp3(m->x[a->e1[0]], m->x[a->e1[1]], a->u);
		if (!is_unit(a->normal)) ++bad;
		if (a->distance > 1e-9 && v3_len(v3_sub(v3_scale(a->normal, a->distance), v3_sub(P, Q))) > 1e-12) ++bad;
		if (share(a->e0, a->e1)) ++bad;
		if (i > 0 && cmp_pair(d->ee[i - 1].e0, a->e0) > 0) ++bad;
		if (i > 0 && cmp_pair(d->ee[i - 1].e0, a->e0) == 0 && cmp_pair(d->ee[i - 1].e1, a->e1) >= 0) ++bad;
	}
	CHECK(bad == 0);
	free(r.vf);
	free(r.ee);
}

/* ---- tests ---- */

static void test_cloth_pairs_topology(void)
{
	int n = 6;
	int32_t tri[2 * 25 * 3];
	int32_t nt = grid_triangles(n, 0, tri);
	cloth_pairs d;
	CHECK(cloth_pairs_init(&d, tri, nt, n * n));
	CHECK(d.edge_count == 3 * (n - 1) * (n - 1) + 2 * (n - 1));
	/* every vertex and every edge owned exactly once, by its lowest-numbered triangle */
	int owned_v = 0, owned_e = 0;
	for (int32_t t = 0; t < nt; ++t)
		for (int k = 0; k < 3; ++k) {
			owned_v += (d.owns[t] >> k) & 1;
			owned_e += (d.owns[t] >> (3 + k)) & 1;
		}
	CHECK(owned_v == n * n);
	CHECK(owned_e == d.edge_count);
	CHECK(d.owns[0] == 0x3f);
	for (int32_t e = 1; e < d.edge_count; ++e) CHECK(cmp_pair(d.edges + 2 * (e - 1), d.edges + 2 * e) < 0);
	for (int32_t t = 0; t < nt; ++t)
		for (int k = 0; k < 3; ++k) {
			const int32_t* ev = d.edges + 2 * d.triangle_edges[3 * t + k];
			int32_t a = tri[3 * t + k], b = tri[3 * t + (k + 1) % 3];
			CHECK(ev[0] == (a < b ? a : b) && ev[1] == (a < b ? b : a));
		}
	cloth_pairs_free(&d);

	/* bad input is refused, leaving a freeable object */
	int32_t out_of_range[3] = {0, 1, 7};
	CHECK(!cloth_pairs_init(&d, out_of_range, 1, 7));
	cloth_pairs_free(&d);
	int32_t negative[3] = {0, -1, 2};
	CHECK(!cloth_pairs_init(&d, negative, 1, 3));
	int32_t repeated[3] = {0, 1, 1};
	CHECK(!cloth_pairs_init(&d, repeated, 1, 3));
	cloth_pairs_free(&d);

	/* empty */
	CHECK(cloth_pairs_init(&d, NULL, 0, 0));
	CHECK(cloth_pairs_proximity(&d, NULL, 1.0) == 0);
	CHECK(cloth_pairs_crossings(&d, NULL, NULL, 1e-6) == 0);
	CHECK(cloth_pairs_intersections(&d, NULL, NULL, 0) == 0);
	cloth_pairs_free(&d);
}

static void test_cloth_pairs_proximity_matches_brute_force(void)
{
	uint64_t seed = 11;
	const int sizes[] = {9, 15, 15, 12};
	const int layers[] = {1, 1, 2, 2};
	const double noise[] = {0.15, 0.1, 0.3, 0.45};
	int32_t total_vf = 0, total_ee = 0;
	for (int c = 0; c < 4; ++c) {
		mesh m = folded_mesh(sizes[c], layers[c], noise[c], &seed);
		double s = 1.0 / (sizes[c] - 1);
		cloth_pairs d;
		CHECK(cloth_pairs_init(&d, m.tri, m.nt, m.nv));
		CHECK(d.edge_count == m.ne);
		const double thick[] = {0.5 * s, 1.0 * s, 1.7 * s};
		for (int k = 0; k < 3; ++k) {
			int32_t n = cloth_pairs_proximity(&d, m.x, thick[k]);
			CHECK(n == d.vf_count + d.ee_count);
			check_against_brute(&d, &m, thick[k]);
			total_vf += d.vf_count;
			total_ee += d.ee_count;
		}
		/* zero thickness: only touching pairs, none in a legal sheet */
		CHECK(cloth_pairs_proximity(&d, m.x, 0.0) == 0);
		cloth_pairs_free(&d);
		mesh_free(&m);
	}
	/* the configurations do produce pairs of both kinds */
	CHECK(total_vf > 1000);
	CHECK(total_ee > 1000);
}

/* Results are sorted, hence independent of the positions the tree was built at, and the arrays
 * are reused without reallocation once large enough. */
static void test_cloth_pairs_history_independent(void)
{
	uint64_t seed = 5;
	int n = 15;
	mesh m = folded_mesh(n, 1, 0.3, &seed);
	vec3* flat = malloc((size_t)m.nv * sizeof *flat);
	for (int32_t i = 0; i < m.nv; ++i) flat[i] = v3((double)(i % n) / (n - 1), (double)(i / n) / (n - 1), 0.0);
	double h = 1.2 / (n - 1);

	cloth_pairs a, b;
	CHECK(cloth_pairs_init(&a, m.tri, m.nt, m.nv));
	CHECK(cloth_pairs_init(&b, m.tri, m.nt, m.nv));
	cloth_pairs_proximity(&a, flat, h); /* a's tree is built on the flat sheet */
	cloth_pairs_proximity(&a, m.x, h);
	cloth_pairs_proximity(&b, m.x, h); /* b's on the folded one */
	CHECK(a.vf_count == b.vf_count && a.ee_count == b.ee_count);
	CHECK(a.vf_count > 0 && a.ee_count > 0);
	CHECK(memcmp(a.vf, b.vf, sizeof *a.vf * (size_t)a.vf_count) == 0);
	CHECK(memcmp(a.ee, b.ee, sizeof *a.ee * (size_t)a.ee_count) == 0);

	cc_vf* vf = a.vf;
	cc_ee* ee = a.ee;
	int32_t cv = a.vf_capacity, ce = a.ee_capacity;
	for (int rep = 0; rep < 3; ++rep) cloth_pairs_proximity(&a, m.x, h);
	CHECK(a.vf == vf && a.ee == ee && a.vf_capacity == cv && a.ee_capacity == ce);
	cloth_pairs_proximity(&a, m.x, 0.1 * h); /* fewer results: capacity kept */
	CHECK(a.vf_capacity == cv && a.ee_capacity == ce);

	/* after a forced rebuild, the same results again */
	cloth_pairs_rebuild_tree(&a);
	cloth_pairs_proximity(&a, m.x, h);
	CHECK(a.vf_count == b.vf_count && memcmp(a.vf, b.vf, sizeof *a.vf * (size_t)a.vf_count) == 0);
	cloth_pairs_free(&a);
	cloth_pairs_free(&b);
	free(flat);
	mesh_free(&m);
}

/* Proximity and crossings on 2, 3, 4 and 7 threads give the bytes they give on one (the split
 * traversal tests the same pairs, merged and sorted), also when called again with grown worker
 * arrays and after switching kinds. */
static void test_cloth_pairs_threads_bit_identical(void)
{
	uint64_t seed = 77;
	int n = 21;
	mesh m = folded_mesh(n, 2, 0.2, &seed);
	double s = 1.0 / (n - 1);
	vec3* x1 = malloc((size_t)m.nv * sizeof *x1);
	for (int32_t i = 0; i < m.nv; ++i) x1[i] = v3_add(m.x[i], v3_add(vrand(&seed, 1.2 * s), v3(0.1, 0, 0.05)));
	const double h = 1.1 * s, eps = 1e-3 * s;
	cloth_pairs one, many;
	CHECK(cloth_pairs_init(&one, m.tri, m.nt, m.nv));
	CHECK(cloth_pairs_init(&many, m.tri, m.nt, m.nv));
	CHECK(one.threads == 1);
	CHECK(cloth_pairs_proximity(&one, m.x, h) > 0);
	CHECK(one.vf_count > 100 && one.ee_count > 100);
	const int64_t cand = one.candidate_pairs;
	CHECK(cloth_pairs_crossings(&one, m.x, x1, eps) > 0);
	CHECK(one.xvf_count > 0 && one.xee_count > 0);
	const int64_t xcand = one.candidate_pairs;
	const int counts[] = {2, 3, 4, 7, 1, 2};
	for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
		cloth_pairs_set_threads(&many, counts[c]);
		for (int rep = 0; rep < 2; ++rep) {
			CHECK(cloth_pairs_proximity(&many, m.x, h) == one.vf_count + one.ee_count);
			CHECK(many.candidate_pairs == cand);
			CHECK(many.vf_count == one.vf_count && many.ee_count == one.ee_count);
			CHECK(memcmp(many.vf, one.vf, sizeof *one.vf * (size_t)one.vf_count) == 0);
			CHECK(memcmp(many.ee, one.ee, sizeof *one.ee * (size_t)one.ee_count) == 0);
			CHECK(cloth_pairs_crossings(&many, m.x, x1, eps) == one.xvf_count + one.xee_count);
			CHECK(many.candidate_pairs == xcand);
			CHECK(many.xvf_count == one.xvf_count && many.xee_count == one.xee_count);
			CHECK(memcmp(many.xvf, one.xvf, sizeof *one.xvf * (size_t)one.xvf_count) == 0);
			CHECK(memcmp(many.xee, one.xee, sizeof *one.xee * (size_t)one.xee_count) == 0);
		}
	}
	cloth_pairs_free(&one);
	cloth_pairs_free(&many);
	free(x1);
	mesh_free(&m);
}

/* Crossings against every pair tested with the same continuous tests. */
static void test_cloth_pairs_crossings_match_brute_force(void)
{
	uint64_t seed = 23;
	int32_t total = 0;
	for (int c = 0; c < 3; ++c) {
		int n = 11;
		mesh m = folded_mesh(n, c == 2 ? 2 : 1, 0.1, &seed);
		double s = 1.0 / (n - 1);
		vec3* x1 = malloc((size_t)m.nv * sizeof *x1);
		/* large random motions: the layers pass through each other here and there */
		for (int32_t i = 0; i < m.nv; ++i) x1[i] = v3_add(m.x[i], v3_add(vrand(&seed, 1.2 * s), v3(0.1, 0, 0.05)));
		const double eps = 1e-3 * s;
		cloth_pairs d;
		CHECK(cloth_pairs_init(&d, m.tri, m.nt, m.nv));
		int32_t got = cloth_pairs_crossings(&d, m.x, x1, eps);
		CHECK(got == d.xvf_count + d.xee_count);
		int32_t nvf = 0, nee = 0, bad = 0;
		for (int32_t p = 0; p < m.nv; ++p)
			for (int32_t t = 0; t < m.nt; ++t) {
				const int32_t* tv = m.tri + 3 * t;
				double toi, w[3];
				if (in_tri(tv, p) || !ccd_point_triangle(m.x[p], x1[p], m.x[tv[0]], x1[tv[0]], m.x[tv[1]], x1[tv[1]],
									 m.x[tv[2]], x1[tv[2]], eps, &toi, w))
					continue;
				if (nvf < d.xvf_count) {
					const cc_xvf* r = &d.xvf[nvf];
					if (r->p != p || r->t != t || r->toi != toi || r->bary[0] != w[0]) ++bad;
					if (!is_unit(r->normal) || !(r->distance <= eps * 1.01)) ++bad;
				}
				++nvf;
			}
		for (int32_t e = 0; e < m.ne; ++e)
			for (int32_t f = e + 1; f < m.ne; ++f) {
				const int32_t *ev = m.edges + 2 * e, *fv = m.edges + 2 * f;
				double toi, sp, up;
				if (share(ev, fv) || !ccd_edge_edge(m.x[ev[0]], x1[ev[0]], m.x[ev[1]], x1[ev[1]], m.x[fv[0]], x1[fv[0]],
								     m.x[fv[1]], x1[fv[1]], eps, &toi, &sp, &up))
					continue;
				if (nee < d.xee_count) {
					const cc_xee* r = &d.xee[nee];
					if (cmp_pair(r->e0, ev) || cmp_pair(r->e1, fv) || r->toi != toi || r->s != sp || r->u != up) ++bad;
					if (!is_unit(r->normal) || !(r->distance <= eps * 1.01)) ++bad;
				}
				++nee;
			}
		CHECK(nvf == d.xvf_count);
		CHECK(nee == d.xee_count);
		CHECK(bad == 0);
		total += got;
		cloth_pairs_free(&d);
		free(x1);
		mesh_free(&m);
	}
	CHECK(total > 50);
}

/* A folded sheet, one vertex of the top layer pushed down through the bottom layer. */
static void test_cloth_pairs_vertex_through_folded_layer(void)
{
	int n = 13;
	double s = 1.0 / (n - 1), r = 0.75 * s;
	mesh m = mesh_alloc(n * n, 2 * (n - 1) * (n - 1));
	folded_sheet(n, r, v3(0.3 * s, 0.2 * s, 0.0), 0.0, NULL, m.x);
	grid_triangles(n, 0, m.tri);
	m.ne = edge_list(m.tri, m.nt, m.edges);
	/* the top-layer vertex at u = 10 / 12, v = 6 / 12 */
	int32_t pv = 10 + n * 6;
	CHECK(fabs(m.x[pv].z - 2.0 * r) < 1e-15);
	vec3* x1 = malloc((size_t)m.nv * sizeof *x1);
	memcpy(x1, m.x, (size_t)m.nv * sizeof *x1);
	x1[pv].z = -2.0 * r;

	cloth_pairs d;
	CHECK(cloth_pairs_init(&d, m.tri, m.nt, m.nv));
	CHECK(cloth_pairs_crossings(&d, m.x, m.x, 1e-6) == 0); /* no motion, legal state */
	CHECK(cloth_pairs_crossings(&d, m.x, x1, 1e-6) > 0);

	/* the bottom triangle under pv (its projection strictly inside) */
	int32_t under = -1;
	for (int32_t t = 0; t < m.nt; ++t) {
		const int32_t* tv = m.tri + 3 * t;
		if (fabs(m.x[tv[0]].z) + fabs(m.x[tv[1]].z) + fabs(m.x[tv[2]].z) != 0.0) continue;
		vec3 q = v3(m.x[pv].x, m.x[pv].y, 0.0);
		double w[3];
		if (point_triangle_closest(q, m.x[tv[0]], m.x[tv[1]], m.x[tv[2]], w) == 0.0 && w[0] > 0.01 && w[1] > 0.01 &&
		    w[2] > 0.01)
			under = t;
	}
	CHECK(under >= 0);
	int hits_pv = 0, bad = 0;
	for (int32_t i = 0; i < d.xvf_count; ++i) {
		const cc_xvf* c = &d.xvf[i];
		if (c->p == pv) {
			++hits_pv;
			CHECK(c->t == under);
			CHECK_NEAR(c->toi, 0.5, 1e-12);
			CHECK_NEAR(c->normal.z, 1.0, 1e-12); /* p started above the bottom layer */
			CHECK(c->distance < 1e-12);
		} else {
			/* bottom vertices hit by the descending top triangles: they were below them */
			CHECK(m.x[c->p].z == 0.0);
			if (!(c->normal.z < 0.0)) ++bad;
		}
	}
	CHECK(hits_pv == 1);
	/* edges around pv pass through bottom edges: the normal points from e1 toward the side e0
	 * started on */
	int ee_hits = 0;
	for (int32_t i = 0; i < d.xee_count; ++i) {
		const cc_xee* c = &d.xee[i];
		bool e0_top = m.x[c->e0[0]].z > r, e1_top = m.x[c->e1[0]].z > r;
		CHECK(e0_top != e1_top);
		if (e0_top ? !(c->normal.z > 0.0) : !(c->normal.z < 0.0)) ++bad;
		/* the edge from pv to a static neighbour reaches the bottom plane at toi >= 1/2 */
		if (!is_unit(c->normal) || c->toi < 0.5 - 1e-12 || c->toi > 1.0) ++bad;
		++ee_hits;
	}
	CHECK(ee_hits > 0);
	CHECK(bad == 0);

	/* the end state intersects itself, the start state does not */
	CHECK(cloth_pairs_intersections(&d, m.x, NULL, 0) == 0);
	int32_t first[8];
	int32_t count = cloth_pairs_intersections(&d, x1, first, 4);
	CHECK(count > 0);
	/* Brute force over every pair agrees, and since only pv moved from a legal state, every
	 * intersection involves a triangle around pv (none in the fold's tilted flat strips). */
	int32_t brute = 0, away = 0;
	for (int32_t a = 0; a < m.nt; ++a)
		for (int32_t b = a + 1; b < m.nt; ++b) {
			const int32_t *ta = m.tri + 3 * a, *tb = m.tri + 3 * b;
			int sh = in_tri(tb, ta[0]) + in_tri(tb, ta[1]) + in_tri(tb, ta[2]);
			if (sh < 2 && mesh_triangles_intersect(x1, ta, tb)) {
				if (brute < 4) CHECK(first[2 * brute] == a && first[2 * brute + 1] == b);
				++brute;
				if (!in_tri(ta, pv) && !in_tri(tb, pv)) ++away;
			}
		}
	CHECK(count == brute);
	CHECK(away == 0);
	/* every triangle around pv passes through the bottom layer, each through at least one
	 * bottom triangle */
	CHECK(count >= 6);

	cloth_pairs_free(&d);
	free(x1);
	mesh_free(&m);
}

/* Two triangles, edge over edge crossing at right angles: edge (a, b) of the first moves down
 * through edge (c, d) of the second. `upper_first`: the moving triangle has the lower indices. */
static void edge_through_edge(bool upper_first)
{
	vec3 up[3] = {v3(-1, 0, 0.1), v3(1, 0, 0.1), v3(0, 0, 1)};
	vec3 lo[3] = {v3(0, -1, 0), v3(0, 1, 0), v3(0, 0, -1)};
	int32_t tri[6] = {0, 1, 2, 3, 4, 5};
	vec3 x0[6], x1[6];
	for (int i = 0; i < 3; ++i) {
		int iu = upper_first ? i : 3 + i, il = upper_first ? 3 + i : i;
		x0[iu] = up[i];
		x1[iu] = v3_add(up[i], v3(0, 0, -0.2));
		x0[il] = x1[il] = lo[i];
	}
	cloth_pairs d;
	CHECK(cloth_pairs_init(&d, tri, 2, 6));
	CHECK(cloth_pairs_crossings(&d, x0, x1, 1e-9) == 1);
	CHECK(d.xvf_count == 0);
	CHECK(d.xee_count == 1);
	if (d.xee_count == 1) {
		const cc_xee* c = &d.xee[0];
		CHECK(c->e0[0] == 0 && c->e0[1] == 1 && c->e1[0] == 3 && c->e1[1] == 4);
		CHECK_NEAR(c->toi, 0.5, 1e-12);
		CHECK_NEAR(c->s, 0.5, 1e-12);
		CHECK_NEAR(c->u, 0.5, 1e-12);
		/* from e1 toward the side e0 started on: up when e0 is the moving (upper) edge */
		CHECK_NEAR(c->normal.z, upper_first ? 1.0 : -1.0, 1e-12);
		CHECK(c->distance < 1e-12);
	}
	/* the reverse motion: the side is taken from its own start */
	CHECK(cloth_pairs_crossings(&d, x1, x0, 1e-9) == 1);
	if (d.xee_count == 1) CHECK_NEAR(d.xee[0].normal.z, upper_first ? -1.0 : 1.0, 1e-12);
	/* proximity of the start: 0.1 apart */
	CHECK(cloth_pairs_proximity(&d, x0, 0.2) == 1);
	if (d.ee_count == 1) {
		CHECK_NEAR(d.ee[0].distance, 0.1, 1e-15);
		CHECK_NEAR(d.ee[0].normal.z, upper_first ? 1.0 : -1.0, 1e-15);
	}
	cloth_pairs_free(&d);
}

static void test_cloth_pairs_edge_through_edge(void)
{
	edge_through_edge(true);
	edge_through_edge(false);
}

/* Motions that keep the cloth apart, however fast as a whole: no crossing. */
static void test_cloth_pairs_no_false_crossings(void)
{
	uint64_t seed = 77;
	int n = 21;
	double s = 1.0 / (n - 1);
	for (int c = 0; c < 3; ++c) {
		mesh m = folded_mesh(n, c == 2 ? 2 : 1, 0.1, &seed);
		vec3* x1 = malloc((size_t)m.nv * sizeof *x1);
		vec3 drift = v3(0.7, -0.4, 1.3 * c);
		for (int32_t i = 0; i < m.nv; ++i) x1[i] = v3_add(v3_add(m.x[i], drift), vrand(&seed, 0.05 * s));
		cloth_pairs d;
		CHECK(cloth_pairs_init(&d, m.tri, m.nt, m.nv));
		CHECK(cloth_pairs_crossings(&d, m.x, x1, 1e-3 * s) == 0);
		/* the tree did report neighbours, but not everything: the common drift, larger than
		 * the sheet, is taken out of the culling */
		CHECK(d.candidate_pairs > m.nt);
		CHECK(d.candidate_pairs < 10 * (int64_t)m.nt);
		CHECK(cloth_pairs_intersections(&d, m.x, NULL, 0) == 0);
		CHECK(cloth_pairs_intersections(&d, x1, NULL, 0) == 0);
		cloth_pairs_free(&d);
		free(x1);
		mesh_free(&m);
	}
}

static void test_cloth_pairs_intersections_hand_built(void)
{
	/* A flat grid: nothing, though every pair of neighbours was examined. */
	{
		int n = 8;
		int32_t tri[2 * 49 * 3];
		vec3 x[64];
		int32_t nt = grid_triangles(n, 0, tri);
		for (int i = 0; i < n * n; ++i) x[i] = v3(i % n, i / n, 0.0);
		cloth_pairs d;
		CHECK(cloth_pairs_init(&d, tri, nt, n * n));
		CHECK(cloth_pairs_intersections(&d, x, NULL, 0) == 0);
		CHECK(d.candidate_pairs >= nt);
		cloth_pairs_free(&d);
	}
	/* Two squares of two triangles, the vertical one piercing the horizontal one's first
	 * triangle: two intersecting pairs, (0, 2) and (0, 3). */
	{
		vec3 x[8] = {v3(-1, -1, 0),	   v3(1, -1, 0),	v3(1, 1, 0),	   v3(-1, 1, 0),
			     v3(0.2, -0.5, -0.5), v3(0.6, -0.5, -0.5), v3(0.6, -0.5, 0.5), v3(0.2, -0.5, 0.5)};
		int32_t tri[12] = {0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7};
		cloth_pairs d;
		CHECK(cloth_pairs_init(&d, tri, 4, 8));
		int32_t first[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
		CHECK(cloth_pairs_intersections(&d, x, first, 4) == 2);
		CHECK(first[0] == 0 && first[1] == 2 && first[2] == 0 && first[3] == 3);
		CHECK(first[4] == -1); /* nothing past the count */
		int32_t one[2];
		CHECK(cloth_pairs_intersections(&d, x, one, 1) == 2);
		CHECK(one[0] == 0 && one[1] == 2);
		/* tallied by cloth: the squares as two cloths, both pairs between them; as one cloth,
		 * both through itself */
		int32_t cloth_of[4] = {0, 0, 1, 1}, tally[4] = {-1, -1, -1, -1};
		CHECK(cloth_pairs_intersections_by_group(&d, x, cloth_of, 2, tally) == 2);
		CHECK(tally[0] == 0 && tally[1] == 2 && tally[2] == 0 && tally[3] == 0);
		int32_t one_cloth[4] = {0, 0, 0, 0}, self[1] = {-1};
		CHECK(cloth_pairs_intersections_by_group(&d, x, one_cloth, 1, self) == 2 && self[0] == 2);
		/* lifted clear: none */
		for (int i = 4; i < 8; ++i) x[i].z += 1.01;
		CHECK(cloth_pairs_intersections(&d, x, first, 4) == 0);
		cloth_pairs_free(&d);
	}
	/* Triangles sharing one vertex: one folded through the other is an intersection, one
	 * folded above it is not (the shared vertex itself never counts). */
	{
		vec3 x[5] = {v3(0, 0, 0), v3(1, 0, 0), v3(0, 1, 0), v3(0.3, 0.3, -0.5), v3(0.3, 0.3, 0.5)};
		int32_t tri[6] = {0, 1, 2, 0, 3, 4};
		cloth_pairs d;
		CHECK(cloth_pairs_init(&d, tri, 2, 5));
		CHECK(cloth_pairs_intersections(&d, x, NULL, 0) == 1);
		x[3] = v3(0.3, 0.3, 0.5);
		x[4] = v3(0.6, 0.3, 0.5);
		CHECK(cloth_pairs_intersections(&d, x, NULL, 0) == 0);
		/* and a fold flat onto the neighbour across an edge is not counted (shares an edge) */
		int32_t tri2[6] = {0, 1, 2, 1, 2, 3};
		cloth_pairs e;
		CHECK(cloth_pairs_init(&e, tri2, 2, 5));
		x[3] = v3(0.2, 0.2, 0.0);
		CHECK(cloth_pairs_intersections(&e, x, NULL, 0) == 0);
		cloth_pairs_free(&e);
		cloth_pairs_free(&d);
	}
}

/* A flat sheet in a tilted plane: every pair of its triangles is coplanar up to rounding, where
 * the signs of the intersection predicate's determinants are noise, and the predicate has to
 * decide in 2D (geometry.c). None intersect, in the count and by brute force. */
static void test_cloth_pairs_intersections_tilted_flat(void)
{
	int n = 21;
	int32_t nt = 2 * (n - 1) * (n - 1);
	int32_t* tri = malloc(3 * (size_t)nt * sizeof *tri);
	vec3* x = malloc((size_t)(n * n) * sizeof *x);
	grid_triangles(n, 0, tri);
	vec3 e1 = v3_normalize(v3(1.0, 0.3, -0.7)), e2 = v3_normalize(v3_cross(v3(0.2, 1.0, 0.5), e1));
	uint64_t seed = 3;
	for (int i = 0; i < n * n; ++i) {
		/* in-plane jitter keeps it flat and legal */
		double u = (i % n + 0.2 * urand(&seed, -1, 1)) * 0.05, v = (i / n + 0.2 * urand(&seed, -1, 1)) * 0.05;
		x[i] = v3_add(v3(0.3, -1.7, 2.1), v3_add(v3_scale(e1, u), v3_scale(e2, v)));
	}
	cloth_pairs d;
	CHECK(cloth_pairs_init(&d, tri, nt, n * n));
	CHECK(cloth_pairs_intersections(&d, x, NULL, 0) == 0);
	int32_t raw = 0;
	for (int32_t a = 0; a < nt; ++a)
		for (int32_t b = a + 1; b < nt; ++b) {
			const int32_t *ta = tri + 3 * a, *tb = tri + 3 * b;
			int sh = in_tri(tb, ta[0]) + in_tri(tb, ta[1]) + in_tri(tb, ta[2]);
			if (sh < 2 && mesh_triangles_intersect(x, ta, tb)) ++raw;
		}
	CHECK(raw == 0);
	cloth_pairs_free(&d);
	free(tri);
	free(x);
}

/* Zero-area triangles, coincident vertices and two layers lying exactly on each other: no NaN,
 * unit normals, and the coincident layers found. */
static void test_cloth_pairs_degenerate(void)
{
	int n = 6;
	int32_t per = n * n;
	mesh m = mesh_alloc(2 * per, 4 * (n - 1) * (n - 1));
	int32_t nt = grid_triangles(n, 0, m.tri);
	nt += grid_triangles(n, per, m.tri + 3 * nt);
	for (int32_t i = 0; i < per; ++i) m.x[i] = m.x[per + i] = v3(i % n, i / n, 0.0);
	/* collapse: vertex 8 onto 7 (zero-area triangles), row 3 squashed onto a line in row 2 */
	m.x[8] = m.x[7];
	for (int i = 0; i < n; ++i) m.x[3 * n + i] = m.x[2 * n + i];
	m.x[per + 14] = v3(2.0, 2.0, 0.0); /* onto the first layer's vertex 14 */
	cloth_pairs d;
	CHECK(cloth_pairs_init(&d, m.tri, nt, 2 * per));
	CHECK(cloth_pairs_proximity(&d, m.x, 0.25) > 0);
	int bad = 0, across = 0;
	for (int32_t i = 0; i < d.vf_count; ++i) {
		const cc_vf* c = &d.vf[i];
		if (!is_unit(c->normal) || !isfinite(c->distance) || !isfinite(c->bary[0] + c->bary[1] + c->bary[2])) ++bad;
		if ((c->p < per) != (c->t < nt / 2)) ++across;
	}
	for (int32_t i = 0; i < d.ee_count; ++i) {
		const cc_ee* c = &d.ee[i];
		if (!is_unit(c->normal) || !isfinite(c->distance) || !isfinite(c->s + c->u)) ++bad;
	}
	CHECK(bad == 0);
	CHECK(across > per); /* the two layers touch everywhere */

	vec3* x1 = malloc((size_t)m.nv * sizeof *x1);
	for (int32_t i = 0; i < m.nv; ++i) x1[i] = v3_add(m.x[i], v3(0.0, 0.0, i < per ? 0.3 : -0.3));
	x1[9] = x1[10]; /* a coincidence at the end too */
	CHECK(cloth_pairs_crossings(&d, m.x, x1, 1e-6) > 0);
	for (int32_t i = 0; i < d.xvf_count; ++i)
		if (!is_unit(d.xvf[i].normal) || !isfinite(d.xvf[i].toi) || !isfinite(d.xvf[i].distance)) ++bad;
	for (int32_t i = 0; i < d.xee_count; ++i)
		if (!is_unit(d.xee[i].normal) || !isfinite(d.xee[i].toi) || !isfinite(d.xee[i].s + d.xee[i].u)) ++bad;
	CHECK(bad == 0);
	CHECK(cloth_pairs_intersections(&d, m.x, NULL, 0) >= 0);
	free(x1);
	cloth_pairs_free(&d);
	mesh_free(&m);
}

/* A 51 x 51 sheet (5000 triangles) folded and crumpled: the three queries timed (printed, not
 * asserted), and a second call allocates nothing. */
static void test_cloth_pairs_timing_51(void)
{
	uint64_t seed = 99;
	int n = 51;
	double s = 1.0 / (n - 1);
	mesh m = folded_mesh(n, 1, 0.3, &seed);
	CHECK(m.nt == 5000);
	vec3* x1 = malloc((size_t)m.nv * sizeof *x1);
	for (int32_t i = 0; i < m.nv; ++i) x1[i] = v3_add(m.x[i], vrand(&seed, 0.3 * s));
	cloth_pairs d;
	CHECK(cloth_pairs_init(&d, m.tri, m.nt, m.nv));
	cloth_pairs_proximity(&d, m.x, s); /* first call: builds the tree, grows the arrays */
	cloth_pairs_crossings(&d, m.x, x1, 1e-3 * s);
	cc_vf* vf = d.vf;
	cc_xvf* xvf = d.xvf;
	const int reps = 5;
	double tq = now_ms();
	int32_t nq = 0;
	for (int r = 0; r < reps; ++r) nq = cloth_pairs_proximity(&d, m.x, 0.25 * s);
	double t0 = now_ms();
	int64_t cand_q = d.candidate_pairs;
	int32_t np = 0;
	for (int r = 0; r < reps; ++r) np = cloth_pairs_proximity(&d, m.x, s);
	double t1 = now_ms();
	int64_t cand = d.candidate_pairs;
	int32_t nc = 0;
	for (int r = 0; r < reps; ++r) nc = cloth_pairs_crossings(&d, m.x, x1, 1e-3 * s);
	double t2 = now_ms();
	int32_t ni = 0;
	for (int r = 0; r < reps; ++r) ni = cloth_pairs_intersections(&d, x1, NULL, 0);
	double t3 = now_ms();
	CHECK(d.vf == vf && d.xvf == xvf);
	CHECK(np > 0 && nc > 0 && ni >= 0);
	printf("         51x51 (5000 triangles), ms per call: proximity, thickness = cell / 4: %.2f (%d pairs, %lld "
	       "triangle pairs from the tree); thickness = cell: %.2f (%d, %lld); crossings %.2f (%d); "
	       "intersections %.2f (%d)\n",
	       (t0 - tq) / reps, nq, (long long)cand_q, (t1 - t0) / reps, np, (long long)cand, (t2 - t1) / reps, nc,
	       (t3 - t2) / reps, ni);
	free(x1);
	cloth_pairs_free(&d);
	mesh_free(&m);
}

/* The work budget (CLOTH_PAIRS_BUDGET pairs per triangle): a folded two-layer sheet stays well
 * under it on every query; the same sheet crushed into a ball a tenth of its thickness across,
 * where every box overlaps every other, stops each query (proximity, crossings, intersections)
 * with -1 and `overloaded`, on one thread and on two; an interrupt stops a query too, without
 * `overloaded`. */
static void test_cloth_pairs_budget(void)
{
	uint64_t seed = 31;
	mesh m = folded_mesh(21, 2, 0.05, &seed);
	const double h = 0.75 / 20.0;
	cloth_pairs d;
	CHECK(cloth_pairs_init(&d, m.tri, m.nt, m.nv));
	CHECK(cloth_pairs_proximity(&d, m.x, h) >= 0 && !d.overloaded);
	CHECK(d.candidate_pairs < 20 * (int64_t)m.nt); /* far from the budget */
	CHECK(cloth_pairs_crossings(&d, m.x, m.x, 1e-9) >= 0 && !d.overloaded);
	CHECK(cloth_pairs_intersections(&d, m.x, NULL, 0) >= 0 && !d.overloaded);
	vec3* ball = malloc((size_t)m.nv * sizeof *ball);
	for (int32_t i = 0; i < m.nv; ++i) ball[i] = vrand(&seed, 0.05 * h);
	for (int threads = 1; threads <= 2; ++threads) {
		cloth_pairs_set_threads(&d, threads);
		CHECK(cloth_pairs_proximity(&d, ball, h) == -1 && d.overloaded && d.vf_count == 0 && d.ee_count == 0);
		CHECK(cloth_pairs_crossings(&d, m.x, ball, 1e-9) == -1 && d.overloaded);
		CHECK(cloth_pairs_intersections(&d, ball, NULL, 0) == -1 && d.overloaded);
	}
	volatile int cancel = 1;
	d.cancel = &cancel;
	CHECK(cloth_pairs_proximity(&d, m.x, h) == -1 && !d.overloaded);
	d.cancel = NULL;
	CHECK(cloth_pairs_proximity(&d, m.x, h) >= 0 && !d.overloaded);
	free(ball);
	cloth_pairs_free(&d);
	mesh_free(&m);
}

/* The candidate list (cloth_pairs_set_skin) gives the bytes the tree gives: proximity (with rest
 * neighbours) and crossings along a drifting, wobbling folded sheet (each step a 0.3 m common
 * translation, which the list ignores, plus a random deformation of up to 8 % of a cell, which it
 * tracks against a skin of 16 %) report the same pairs, the same candidate counts and the same
 * budget verdicts as a detector without the list, on one thread and on three. The list answers
 * most queries and is built again every few steps as the deformation adds up, and after a turn of
 * the sheet (a list that missed the deformation, checking half of it, fails the comparison). */
static void test_cloth_pairs_list_matches_traversal(void)
{
	uint64_t seed = 41;
	int n = 15;
	mesh m = folded_mesh(n, 2, 0.1, &seed);
	const double s = 1.0 / (n - 1), h = 1.6 * s, eps = 1e-3 * s; /* h: the fold's layers are 1.5 s apart */
	cloth_pairs plain, listed;
	CHECK(cloth_pairs_init(&plain, m.tri, m.nt, m.nv));
	CHECK(cloth_pairs_init(&listed, m.tri, m.nt, m.nv));
	cloth_pairs_set_skin(&listed, 0.1 * h);
	/* rest neighbours within a cell and a half on the unfolded grids (each layer's own) */
	double* uv = malloc(6 * (size_t)m.nt * sizeof *uv);
	for (int32_t t = 0; t < m.nt; ++t)
		for (int k = 0; k < 3; ++k) {
			int32_t local = m.tri[3 * t + k] % (n * n);
			uv[6 * t + 2 * k] = (double)(local % n) * s;
			uv[6 * t + 2 * k + 1] = (double)(local / n) * s;
		}
	CHECK(cloth_pairs_set_rest(&plain, uv, 1.5 * s) && cloth_pairs_set_rest(&listed, uv, 1.5 * s));
	free(uv);
	vec3* x0 = malloc((size_t)m.nv * sizeof *x0);
	vec3* x1 = malloc((size_t)m.nv * sizeof *x1);
	memcpy(x0, m.x, (size_t)m.nv * sizeof *x0);
	int queries = 0, mismatches = 0, found = 0;
	for (int step = 0; step < 24; ++step) {
		cloth_pairs_set_threads(&listed, step % 3 == 2 ? 3 : 1);
		for (int32_t i = 0; i < m.nv; ++i) {
			x1[i] = v3_add(x0[i], v3_add(vrand(&seed, 0.08 * s), v3(0.3, -0.1, 0.2)));
			/* step 12 also turns the sheet by 0.3 rad about z: far beyond the skin */
			if (step == 12) x1[i] = v3(cos(0.3) * x1[i].x - sin(0.3) * x1[i].y, sin(0.3) * x1[i].x + cos(0.3) * x1[i].y, x1[i].z);
		}
		int32_t a = cloth_pairs_proximity(&plain, x0, h), b = cloth_pairs_proximity(&listed, x0, h);
		mismatches += a != b || plain.candidate_pairs != listed.candidate_pairs || plain.vf_count != listed.vf_count ||
			      plain.ee_count != listed.ee_count ||
			      memcmp(plain.vf, listed.vf, sizeof *plain.vf * (size_t)plain.vf_count) != 0 ||
			      memcmp(plain.ee, listed.ee, sizeof *plain.ee * (size_t)plain.ee_count) != 0;
		a = cloth_pairs_crossings(&plain, x0, x1, eps);
		b = cloth_pairs_crossings(&listed, x0, x1, eps);
		mismatches += a != b || plain.candidate_pairs != listed.candidate_pairs || plain.xvf_count != listed.xvf_count ||
			      plain.xee_count != listed.xee_count ||
			      memcmp(plain.xvf, listed.xvf, sizeof *plain.xvf * (size_t)plain.xvf_count) != 0 ||
			      memcmp(plain.xee, listed.xee, sizeof *plain.xee * (size_t)plain.xee_count) != 0;
		found += a + plain.vf_count + plain.ee_count;
		queries += 2;
		memcpy(x0, x1, (size_t)m.nv * sizeof *x0);
	}
	CHECK(mismatches == 0);
	CHECK(found > 100); /* the folded layers are in contact: the results are not empty */
	/* answered from the list but around the turn (its crossing query overflows the budget with
	 * the turn in its boxes, and the next LIST_RETRY_AFTER queries traverse) */
	CHECK(listed.list_builds >= 3 && listed.list_builds <= queries / 4 && listed.list_queries >= queries / 2);
	/* a crushed state: both over the budget, then both back */
	vec3* ball = malloc((size_t)m.nv * sizeof *ball);
	for (int32_t i = 0; i < m.nv; ++i) ball[i] = vrand(&seed, 0.05 * h);
	CHECK(cloth_pairs_proximity(&plain, ball, h) == -1 && plain.overloaded);
	CHECK(cloth_pairs_proximity(&listed, ball, h) == -1 && listed.overloaded);
	CHECK(cloth_pairs_proximity(&plain, m.x, h) == cloth_pairs_proximity(&listed, m.x, h) && !listed.overloaded);
	CHECK(memcmp(plain.vf, listed.vf, sizeof *plain.vf * (size_t)plain.vf_count) == 0);
	free(ball);
	free(x0);
	free(x1);
	cloth_pairs_free(&plain);
	cloth_pairs_free(&listed);
	mesh_free(&m);
}

const test_case cloth_pairs_tests[] = {
	{"cloth_pairs_budget", test_cloth_pairs_budget},
	{"cloth_pairs_topology", test_cloth_pairs_topology},
	{"cloth_pairs_proximity_matches_brute_force", test_cloth_pairs_proximity_matches_brute_force},
	{"cloth_pairs_history_independent", test_cloth_pairs_history_independent},
	{"cloth_pairs_list_matches_traversal", test_cloth_pairs_list_matches_traversal},
	{"cloth_pairs_threads_bit_identical", test_cloth_pairs_threads_bit_identical},
	{"cloth_pairs_crossings_match_brute_force", test_cloth_pairs_crossings_match_brute_force},
	{"cloth_pairs_vertex_through_folded_layer", test_cloth_pairs_vertex_through_folded_layer},
	{"cloth_pairs_edge_through_edge", test_cloth_pairs_edge_through_edge},
	{"cloth_pairs_no_false_crossings", test_cloth_pairs_no_false_crossings},
	{"cloth_pairs_intersections_hand_built", test_cloth_pairs_intersections_hand_built},
	{"cloth_pairs_intersections_tilted_flat", test_cloth_pairs_intersections_tilted_flat},
	{"cloth_pairs_degenerate", test_cloth_pairs_degenerate},
	{"cloth_pairs_timing_51", test_cloth_pairs_timing_51},
	{NULL, NULL},
};
