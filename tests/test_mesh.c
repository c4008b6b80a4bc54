/* Mesh tests: hinges from the topology (sec. 4.3), element colouring, particle masses and the
 * per-element coefficients derived from the SI material (sec. 2.2, docs/model.md). */
#include "fixtures.h"
#include "test.h"

#include "mesh/colouring.h"
#include "mesh/topology.h"
#include "world.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void test_hinges_of_a_quad_strip(void)
{
	/* Three triangles in a strip: two interior edges. */
	int32_t tris[9] = {0, 1, 2, 2, 1, 3, 2, 3, 4};
	hinge_ref* h;
	int32_t count;
	char err[128];
	CHECK(topology_hinges(tris, 3, &h, &count, err, sizeof err));
	CHECK(count == 2);
	for (int32_t k = 0; k < count; ++k) {
		/* The hinge's opposite vertices are the ones off its edge, one from each triangle. */
		const int32_t* t0 = &tris[3 * h[k].tri[0]];
		const int32_t* t1 = &tris[3 * h[k].tri[1]];
		CHECK(h[k].v[2] != h[k].v[0] && h[k].v[2] != h[k].v[1]);
		CHECK(h[k].v[3] != h[k].v[0] && h[k].v[3] != h[k].v[1]);
		CHECK(h[k].v[2] != h[k].v[3]);
		/* v0 -> v1 follows the first triangle's winding */
		bool found = false;
		for (int e = 0; e < 3; ++e) found = found || (t0[e] == h[k].v[0] && t0[(e + 1) % 3] == h[k].v[1]);
		CHECK(found);
		(void)t1;
	}
	free(h);
}

static void test_hinge_count_of_grid(void)
{
	drape_grid_def g = drape_default_grid_def();
	g.resolution[0] = 7;
	g.resolution[1] = 5;
	drape_mesh m;
	char err[128];
	CHECK(drape_mesh_make_grid(&g, &m, err, sizeof err) == DRAPE_OK);
	hinge_ref* h;
	int32_t count;
	CHECK(topology_hinges(m.triangles, m.triangle_count, &h, &count, err, sizeof err));
	/* interior edges of a 6 x 4 cell grid: 5*4 vertical + 6*3 horizontal + 24 diagonals */
	CHECK(count == 5 * 4 + 6 * 3 + 24);
	free(h);
	drape_mesh_free(&m);
}

static void test_duplicate_triangle_refused(void)
{
	int32_t tris[6] = {0, 1, 2, 2, 1, 0};
	hinge_ref* h;
	int32_t count;
	char err[256];
	CHECK(!topology_hinges(tris, 2, &h, &count, err, sizeof err));
	CHECK(strstr(err, "triangles 0 and 1 use the same three vertices") != NULL);
}

/* Tiles of one colour share no particle (elements within a tile may), every element is in
 * exactly one tile, and a tile holds neighbouring elements: those of a grid sorted by their
 * lowest particle, so a tile spans few grid rows. */
static void test_colouring_separates_shared_particles(void)
{
	drape_grid_def g = drape_default_grid_def();
	g.resolution[0] = g.resolution[1] = 41;
	drape_mesh m;
	char err[128];
	CHECK(drape_mesh_make_grid(&g, &m, err, sizeof err) == DRAPE_OK);
	colouring c;
	CHECK(colouring_build(&c, m.triangles, m.triangle_count, 3, 3 * sizeof(int32_t), m.vertex_count));
	CHECK(c.count > 1 && c.count < 8);
	CHECK(c.start[c.count] == c.tile_count);
	CHECK(c.tile[c.tile_count] == m.triangle_count);
	CHECK(c.tile_count == (m.triangle_count + colouring_tile_size(m.triangle_count) - 1) / colouring_tile_size(m.triangle_count));
	int* seen = calloc((size_t)m.triangle_count, sizeof *seen);
	int* owner = malloc((size_t)m.vertex_count * sizeof *owner);
	for (int32_t k = 0; k < c.count; ++k) {
		for (int32_t i = 0; i < m.vertex_count; ++i) owner[i] = -1;
		for (int32_t t = c.start[k]; t < c.start[k + 1]; ++t) {
			int32_t lowest = m.vertex_count, highest = -1;
			for (int32_t j = c.tile[t]; j < c.tile[t + 1]; ++j) {
				int32_t e = c.order[j];
				seen[e]++;
				for (int a = 0; a < 3; ++a) {
					int32_t p = m.triangles[3 * e + a];
					CHECK(owner[p] == -1 || owner[p] == t); /* no particle in two tiles of a colour */
					owner[p] = t;
					lowest = p < lowest ? p : lowest;
					highest = p > highest ? p : highest;
				}
			}
			CHECK(highest - lowest <= 3 * 41); /* 128 triangles of a 41-wide grid: <= 3 rows */
		}
	}
	for (int32_t t = 0; t < m.triangle_count; ++t) CHECK(seen[t] == 1);
	free(seen);
	free(owner);
	colouring_free(&c);
	drape_mesh_free(&m);
}

/* A fan of 10,000 triangles around one vertex: 79 tiles of 128 all share it, so 64 colours of one
 * tile each and the overflow colour with the other 15, still a complete partition. */
static void test_colouring_overflow(void)
{
	int32_t n = 10000;
	int32_t* tris = malloc(3 * (size_t)n * sizeof *tris);
	for (int32_t t = 0; t < n; ++t) {
		tris[3 * t] = 0;
		tris[3 * t + 1] = 1 + t;
		tris[3 * t + 2] = 1 + (t + 1) % n;
	}
	colouring c;
	CHECK(colouring_build(&c, tris, n, 3, 3 * sizeof(int32_t), n + 1));
	CHECK(colouring_tile_size(n) == 128);
	CHECK(c.count == COLOURING_SERIAL + 1);
	CHECK(c.tile_count == 79);
	CHECK(c.tile[c.tile_count] == n);
	CHECK(c.start[COLOURING_SERIAL + 1] - c.start[COLOURING_SERIAL] == 79 - 64);
	colouring_free(&c);
	free(tris);
}

static void test_masses_and_coefficients(void)
{
	drape_world_def wd = drape_default_world_def();
	drape_material mat = drape_default_material();
	mat.density = 0.2;
	mat.stretch = 300.0;
	mat.shear = 7.0;
	mat.bend_u = 1e-4;
	mat.bend_v = 3e-4;
	drape_cloth_id c;
	drape_world* w = make_sheet_bent(&wd, &mat, 9, 0.8, false, &c, DRAPE_BEND_DIHEDRAL); /* its hinges */
	double total = 0.0;
	for (int32_t i = 0; i < w->model.particle_count; ++i) total += w->model.mass[i];
	CHECK_NEAR(total, 0.2 * 0.64, 1e-12);
	double corner_share[81];
	drape_cloth_get_masses(w, c, corner_share);
	/* a corner of the alternating grid touches one or two triangles: 1/3 of each */
	double cell = 0.1 * 0.1;
	CHECK(fabs(corner_share[0] - 0.2 * cell / 6.0) < 1e-15 || fabs(corner_share[0] - 0.2 * cell / 3.0) < 1e-15);
	for (int32_t t = 0; t < w->model.triangle_count; ++t) {
		const triangle_elem* e = &w->model.triangles[t];
		CHECK_NEAR(e->rest.area, cell / 2.0, 1e-15);
		CHECK_NEAR(e->k_stretch * e->rest.area, 300.0, 1e-9);
		CHECK_NEAR(e->k_shear * e->rest.area, 7.0, 1e-10);
	}
	/* Hinges across an edge along u get bend_u, along v bend_v, diagonals the blend
	 * (k_u du^2 + k_v dv^2) / (du^2 + dv^2) = (1e-4 + 3e-4) / 2; all times |e|^2 / (A1 + A2). */
	int along_u = 0, along_v = 0, diagonal = 0;
	for (int32_t k = 0; k < w->model.hinge_count; ++k) {
		const hinge_elem* h = &w->model.hinges[k];
		vec3 e = v3_sub(w->state.x[h->v[1]], w->state.x[h->v[0]]);
		double shape = v3_len2(e) / cell;
		if (fabs(e.y) < 1e-12) {
			CHECK_NEAR(h->k, 1e-4 * shape, 1e-18);
			along_u++;
		} else if (fabs(e.x) < 1e-12) {
			CHECK_NEAR(h->k, 3e-4 * shape, 1e-18);
			along_v++;
		} else {
			CHECK_NEAR(h->k, 2e-4 * shape, 1e-18);
			diagonal++;
		}
	}
	CHECK(along_u == 8 * 7 && along_v == 8 * 7 && diagonal == 64);
	drape_world_destroy(w);
}

/* Refining the grid leaves total mass, the stiffness per area and the bending energy of a
 * cylinder unchanged: the per-element coefficients scale as docs/model.md derives. */
static double cylinder_bend_energy(int res)
{
	drape_world_def wd = drape_default_world_def();
	drape_material mat = drape_default_material();
	mat.bend_u = mat.bend_v = 1e-3;
	drape_world* w = make_sheet_bent(&wd, &mat, res, 0.5, false, NULL, DRAPE_BEND_DIHEDRAL); /* its hinges */
	/* roll the sheet (lying in z = 1) around an axis along u with radius R */
	const double R = 0.4;
	for (int32_t i = 0; i < w->model.particle_count; ++i) {
		double v = w->state.x[i].y, phi = v / R;
		w->state.x[i] = v3(w->state.x[i].x, R * sin(phi), 1.0 - R + R * cos(phi));
	}
	double e = 0.0;
	for (int32_t k = 0; k < w->model.hinge_count; ++k) {
		const hinge_elem* h = &w->model.hinges[k];
		vec3 x[4] = {w->state.x[h->v[0]], w->state.x[h->v[1]], w->state.x[h->v[2]], w->state.x[h->v[3]]};
		double th = bend_angle(x);
		e += 0.5 * h->k * th * th;
	}
	drape_world_destroy(w);
	return e;
}

static void test_bend_energy_resolution_independent(void)
{
	/* Continuum: B/2 kappa^2 per area, B = 1e-3 N m, kappa = 1/0.4, area 0.25 m^2. The discrete
	 * sheet bends only across its N - 1 interior rows of u-edges (each by exactly s/R, the
	 * diagonals stay flat), so it stores exactly (N - 1)/N of that: converging as the grid is
	 * refined, with the same B at every resolution. */
	double want = 0.5 * 1e-3 / (0.4 * 0.4) * 0.25;
	const int res[3] = {9, 17, 33};
	for (int k = 0; k < 3; ++k) {
		double cells = res[k] - 1;
		CHECK_REL(cylinder_bend_energy(res[k]), want * (cells - 1.0) / cells, 1e-9, 0.0);
	}
}

const test_case mesh_tests[] = {
	{"hinges_of_a_quad_strip", test_hinges_of_a_quad_strip},
	{"hinge_count_of_grid", test_hinge_count_of_grid},
	{"duplicate_triangle_refused", test_duplicate_triangle_refused},
	{"colouring_separates_shared_particles", test_colouring_separates_shared_particles},
	{"colouring_overflow", test_colouring_overflow},
	{"masses_and_coefficients", test_masses_and_coefficients},
	{"bend_energy_resolution_independent", test_bend_energy_resolution_independent},
	{NULL, NULL},
};
