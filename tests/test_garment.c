/* Garments (docs/garments.md): panel meshing (area, boundary length, uv = pattern coordinates in
 * the grain frame, warp edges along the grain), seams (ease, pairing), sewing a tube around a
 * static capsule into a manifold mesh with momentum-conserving merges, and bad patterns. */
#include "math/scalar.h"
#include "test.h"

#include "character/character.h"
#include "cmu_skeleton.h"
#include "forces/bend_tensor.h"
#include "forces/forces.h"
#include "garment/garment.h"
#include "io/scene.h"
#include "io/sewing.h"
#include "world.h"
#include "collide/cloth_pairs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pattern_panel rect_panel(const char* name, pattern_point pts[4], double w, double h)
{
	static const char* const names[4] = {"a", "b", "c", "d"};
	const double xy[4][2] = {{0, 0}, {w, 0}, {w, h}, {0, h}};
	for (int k = 0; k < 4; ++k) pts[k] = (pattern_point){.at = {xy[k][0], xy[k][1]}, .corner = names[k]};
	pattern_panel p = {.name = name, .points = pts, .point_count = 4, .grain = {1, 0}, .axis = {{0, 0, 0}, {0, 0, 1}},
			   .front = {0, -1, 0}, .radius = 0.2};
	return p;
}

/* Mesh area in uv, and the length of edges used by one triangle (the boundary). */
static void mesh_measures(const drape_mesh* m, int32_t t0, int32_t t1, double* area, double* boundary)
{
	*area = 0.0;
	*boundary = 0.0;
	for (int32_t t = t0; t < t1; ++t) {
		const double* a = &m->uvs[2 * m->triangle_uvs[3 * t]];
		const double* b = &m->uvs[2 * m->triangle_uvs[3 * t + 1]];
		const double* c = &m->uvs[2 * m->triangle_uvs[3 * t + 2]];
		*area += 0.5 * ((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
		for (int k = 0; k < 3; ++k) {
			int32_t i = m->triangles[3 * t + k], j = m->triangles[3 * t + (k + 1) % 3];
			int uses = 0;
			for (int32_t s = t0; s < t1; ++s)
				for (int e = 0; e < 3; ++e) {
					int32_t p = m->triangles[3 * s + e], q = m->triangles[3 * s + (e + 1) % 3];
					uses += (p == i && q == j) || (p == j && q == i);
				}
			if (uses == 1) {
				const double* pi = &m->uvs[2 * m->triangle_uvs[3 * t + k]];
				const double* pj = &m->uvs[2 * m->triangle_uvs[3 * t + (k + 1) % 3]];
				*boundary += hypot(pi[0] - pj[0], pi[1] - pj[1]);
			}
		}
	}
}

static void test_rectangle_mesh(void)
{
	pattern_point pts[4];
	pattern_panel p = rect_panel("front", pts, 0.3, 0.2);
	garment_def d = {.panels = &p, .panel_count = 1, .triangle_size = 0.02};
	garment g;
	char err[512];
	CHECK(garment_build(&d, &g, err, sizeof err));
	double area, boundary;
	mesh_measures(&g.mesh, 0, g.mesh.triangle_count, &area, &boundary);
	CHECK_REL(area, 0.06, 1e-12, 0.0);
	CHECK_REL(boundary, 1.0, 1e-12, 0.0);
	/* uv = pattern coordinates (grain along x): every uv inside the rectangle, every triangle
	 * counter-clockwise, and interior edges warp or weft for the most part */
	int32_t bad = 0, axis_edges = 0, edges = 0;
	double min_angle = 180.0;
	for (int32_t i = 0; i < g.mesh.uv_count; ++i) {
		double u = g.mesh.uvs[2 * i], v = g.mesh.uvs[2 * i + 1];
		bad += u < -1e-12 || u > 0.3 + 1e-12 || v < -1e-12 || v > 0.2 + 1e-12;
	}
	for (int32_t t = 0; t < g.mesh.triangle_count; ++t)
		for (int k = 0; k < 3; ++k) {
			const double* a = &g.mesh.uvs[2 * g.mesh.triangle_uvs[3 * t + k]];
			const double* b = &g.mesh.uvs[2 * g.mesh.triangle_uvs[3 * t + (k + 1) % 3]];
			const double* c = &g.mesh.uvs[2 * g.mesh.triangle_uvs[3 * t + (k + 2) % 3]];
			axis_edges += a[0] == b[0] || a[1] == b[1];
			++edges;
			double ang = acos(((b[0] - a[0]) * (c[0] - a[0]) + (b[1] - a[1]) * (c[1] - a[1])) /
					  (hypot(b[0] - a[0], b[1] - a[1]) * hypot(c[0] - a[0], c[1] - a[1])));
			min_angle = fmin(min_angle, ang * 180.0 / 3.14159265358979323846);
		}
	CHECK(bad == 0);
	CHECK(axis_edges > 0.6 * edges);
	CHECK(min_angle > 25.0);
	garment_free(&g);
}

static void test_curved_mesh(void)
{
	/* a half disc of radius 0.15: a straight diameter closed by a semicircular arc (bulge 1) */
	pattern_point tri[3] = {{.at = {0.3, 0}}, {.at = {0.15, 0}}, {.at = {0, 0}, .curve = CURVE_ARC, .bulge = 1.0}};
	pattern_panel p = {.name = "half", .points = tri, .point_count = 3, .grain = {1, 0}, .axis = {{0, 0, 0}, {0, 0, 1}},
			   .front = {0, -1, 0}, .radius = 0.2};
	garment_def d = {.panels = &p, .panel_count = 1, .triangle_size = 0.01};
	garment g;
	char err[512];
	CHECK(garment_build(&d, &g, err, sizeof err));
	double area, boundary;
	mesh_measures(&g.mesh, 0, g.mesh.triangle_count, &area, &boundary);
	const double pi = 3.14159265358979323846;
	/* the arc from (0, 0) back to (0.3, 0) bulges below the chord: area pi r^2 / 2 */
	CHECK_REL(fabs(area), 0.5 * pi * 0.15 * 0.15, 0.01, 0.0);
	CHECK_REL(boundary, 0.3 + pi * 0.15, 0.01, 0.0);
	garment_free(&g);
}

static void test_grain_rotation(void)
{
	pattern_point pts[4];
	pattern_panel p = rect_panel("bias", pts, 0.3, 0.3);
	p.grain[0] = 1.0, p.grain[1] = 1.0; /* cut on the bias */
	garment_def d = {.panels = &p, .panel_count = 1, .triangle_size = 0.02};
	garment g;
	char err[512];
	CHECK(garment_build(&d, &g, err, sizeof err));
	/* uv is the pattern in the grain frame: u = (x + y)/sqrt2, v = (y - x)/sqrt2. A warp edge
	 * (v equal at both ends) therefore runs along the grain in the pattern. Boundary vertices, back
	 * in pattern coordinates, lie on the square's outline. */
	const double s = sqrt(0.5);
	int32_t warp = 0, weft = 0, off = 0;
	for (int32_t i = 0; i < g.mesh.uv_count; ++i) {
		double u = g.mesh.uvs[2 * i], v = g.mesh.uvs[2 * i + 1];
		double x = s * (u - v), y = s * (u + v);
		off += x < -1e-9 || x > 0.3 + 1e-9 || y < -1e-9 || y > 0.3 + 1e-9;
	}
	for (int32_t t = 0; t < g.mesh.triangle_count; ++t)
		for (int k = 0; k < 3; ++k) {
			const double* a = &g.mesh.uvs[2 * g.mesh.triangle_uvs[3 * t + k]];
			const double* b = &g.mesh.uvs[2 * g.mesh.triangle_uvs[3 * t + (k + 1) % 3]];
			warp += a[1] == b[1] && fabs(a[0] - b[0]) > 0.019;
			weft += a[0] == b[0] && fabs(a[1] - b[1]) > 0.019;
		}
	CHECK(off == 0);
	/* a 0.3 m square at 45 degrees holds roughly (0.3 / 0.02)^2 grid cells, 2 warp edges each
	 * counted from both triangles: hundreds */
	CHECK(warp > 200);
	CHECK(weft > 200);
	garment_free(&g);
}

static void test_ease(void)
{
	pattern_point pa[4], pb[4];
	pattern_panel p[2] = {rect_panel("short", pa, 0.2, 0.30), rect_panel("long", pb, 0.2, 0.33)};
	pattern_seam sm = {.name = "side", .side = {{"short", "b", "c", false}, {"long", "a", "d", true}}, .ease = 0.04};
	garment_def d = {.panels = p, .panel_count = 2, .seams = &sm, .seam_count = 1, .triangle_size = 0.02};
	garment g;
	char err[512];
	CHECK(garment_build(&d, &g, err, sizeof err));
	const int32_t n = g.seam_pair_count[0];
	CHECK(n == 18); /* round(0.33 / 0.02) + 1 */
	/* each side evenly divided: the ease spreads over the whole seam */
	for (int32_t k = 0; k + 1 < n; ++k) {
		const double* a0 = &g.mesh.uvs[2 * g.seam_pairs[0][2 * k]];
		const double* a1 = &g.mesh.uvs[2 * g.seam_pairs[0][2 * k + 2]];
		const double* b0 = &g.mesh.uvs[2 * g.seam_pairs[0][2 * k + 1]];
		const double* b1 = &g.mesh.uvs[2 * g.seam_pairs[0][2 * k + 3]];
		CHECK_NEAR(hypot(a1[0] - a0[0], a1[1] - a0[1]), 0.30 / (n - 1), 1e-12);
		CHECK_NEAR(hypot(b1[0] - b0[0], b1[1] - b0[1]), 0.33 / (n - 1), 1e-12);
		CHECK_NEAR(a0[0], 0.2, 1e-12); /* short's right edge b -> c */
		CHECK_NEAR(b0[0], 0.0, 1e-12); /* long's left edge a -> d */
	}
	garment_free(&g);
	/* without ease the same seam is refused, naming it */
	sm.ease = 0.0;
	CHECK(!garment_build(&d, &g, err, sizeof err));
	CHECK(strstr(err, "seam 'side'") && strstr(err, "ease"));
}

static void test_bad_patterns(void)
{
	char err[512];
	garment g;
	/* a bow tie crosses itself */
	pattern_point bow[4] = {{.at = {0, 0}}, {.at = {0.3, 0.3}}, {.at = {0.3, 0}}, {.at = {0, 0.3}}};
	pattern_panel p = {.name = "bow", .points = bow, .point_count = 4, .grain = {1, 0}, .axis = {{0, 0, 0}, {0, 0, 1}},
			   .front = {0, -1, 0}, .radius = 0.2};
	garment_def d = {.panels = &p, .panel_count = 1, .triangle_size = 0.02};
	CHECK(!garment_build(&d, &g, err, sizeof err));
	CHECK(strstr(err, "panel 'bow'") && strstr(err, "crosses itself"));
	/* too small for the triangle size */
	pattern_point pts[4];
	p = rect_panel("tiny", pts, 0.03, 0.03);
	d.triangle_size = 0.02;
	CHECK(!garment_build(&d, &g, err, sizeof err));
	CHECK(strstr(err, "panel 'tiny'") && strstr(err, "too small"));
	/* seams naming a missing panel or corner */
	pattern_point pa[4], pb[4];
	pattern_panel two[2] = {rect_panel("front", pa, 0.3, 0.3), rect_panel("back", pb, 0.3, 0.3)};
	pattern_seam sm = {.name = "s1", .side = {{"front", "b", "c", false}, {"sleeve", "a", "d", true}}};
	d = (garment_def){.panels = two, .panel_count = 2, .seams = &sm, .seam_count = 1, .triangle_size = 0.02};
	CHECK(!garment_build(&d, &g, err, sizeof err));
	CHECK(strstr(err, "seam 's1'") && strstr(err, "'sleeve'"));
	sm.side[1].panel = "back";
	sm.side[1].to = "z";
	CHECK(!garment_build(&d, &g, err, sizeof err));
	CHECK(strstr(err, "seam 's1'") && strstr(err, "corner named 'z'"));
	/* and through the scene loader: file, path and panel named (drape run exits 2 on it) */
	const char* text = "{\"cloths\": [{\"name\": \"c\", \"garment\": {\"triangle_size\": 0.02, \"panels\": [{\"name\": "
			   "\"bow\", \"outline\": [{\"at\": [0, 0]}, {\"at\": [0.3, 0.3]}, {\"at\": [0.3, 0]}, {\"at\": [0, "
			   "0.3]}], \"around\": {\"axis\": [[0, 0, 0], [0, 0, 1]], \"radius\": 0.2}}]}}]}";
	scene s;
	CHECK(!scene_load_text(text, "bow.json", &s, err, sizeof err));
	CHECK(strstr(err, "bow.json") && strstr(err, "cloths[0].garment") && strstr(err, "panel 'bow'"));
}

/* The two sides of an open seam are not contacts (cloth_pairs.sewn): a triangle 2 mm from its
 * sewn twin, or crossing it, gives no repulsion pair and no intersection, while the same
 * triangle unsewn, and an unsewn neighbour, still do. */
static void test_seam_sides_not_contacts(void)
{
	const int32_t tris[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
	vec3 x[9] = {{0, 0, 0}, {0.1, 0, 0}, {0, 0.1, 0},            /* side A */
		     {0, 0, 0.002}, {0.1, 0, 0.002}, {0, 0.1, 0.002}, /* side B, sewn to A vertex by vertex */
		     {0.2, 0, 0}, {0.3, 0, 0}, {0.2, 0.1, 0}};        /* unsewn, far */
	cloth_pairs d;
	CHECK(cloth_pairs_init(&d, tris, 3, 9));
	if (test_failures) return;
	const int32_t pairs[6] = {0, 3, 1, 4, 2, 5};
	const int32_t before = cloth_pairs_proximity(&d, x, 0.004);
	CHECK(before > 0);
	CHECK(cloth_pairs_set_sewn(&d, pairs, 3));
	CHECK(cloth_pairs_proximity(&d, x, 0.004) == 0);
	/* B tilted through A: an intersection unsewn, none sewn */
	x[4].z = -0.01;
	CHECK(cloth_pairs_intersections(&d, x, NULL, 0) == 0);
	/* the unsewn triangle moved onto A is a contact and an intersection whatever the seams */
	x[6] = (vec3){0.02, 0.02, 0.001}, x[7] = (vec3){0.05, 0.02, -0.001}, x[8] = (vec3){0.02, 0.05, 0.001};
	CHECK(cloth_pairs_proximity(&d, x, 0.004) > 0);
	CHECK(cloth_pairs_intersections(&d, x, NULL, 0) > 0);
	CHECK(cloth_pairs_set_sewn(&d, NULL, 0) && d.sewn == NULL);
	x[6] = (vec3){0.2, 0, 0}, x[7] = (vec3){0.3, 0, 0}, x[8] = (vec3){0.2, 0.1, 0};
	CHECK(cloth_pairs_intersections(&d, x, NULL, 0) > 0);
	cloth_pairs_free(&d);
}

/* The seam spring is a rest-length-0 spring: force -k (x_b - x_a) on b and its x-Jacobian exactly
 * -k I (no geometric-stiffness clipping), checked against the closed form and central differences. */
static void test_seam_spring_terms(void)
{
	const double k = 37.0;
	const vec3 x[2] = {v3(0.1, -0.2, 0.3), v3(0.13, -0.15, 0.31)};
	const vec3 v[2] = {v3_zero(), v3_zero()};
	element_terms t;
	element_terms_clear(&t, 2);
	ms_spring_terms(x, v, 0.0, k, 0.0, &t);
	const vec3 d = v3_sub(x[1], x[0]);
	for (int c = 0; c < 3; ++c) {
		CHECK_NEAR(v3_get(t.f[1], c), -k * v3_get(d, c), 1e-12);
		CHECK_NEAR(v3_get(t.f[0], c), k * v3_get(d, c), 1e-12);
	}
	for (int a = 0; a < 2; ++a)
		for (int b = 0; b < 2; ++b)
			for (int r = 0; r < 3; ++r)
				for (int c = 0; c < 3; ++c) {
					const double want = (a == b ? -k : k) * (r == c);
					CHECK_NEAR(t.dfdx[a][b].m[r][c], want, 1e-9);
					/* central difference of f_a along x_b[c] */
					const vec3 e = v3(c == 0 ? 1e-6 : 0.0, c == 1 ? 1e-6 : 0.0, c == 2 ? 1e-6 : 0.0);
					vec3 xp[2] = {x[0], x[1]}, xm[2] = {x[0], x[1]};
					xp[b] = v3_add(xp[b], e);
					xm[b] = v3_sub(xm[b], e);
					element_terms tp, tm;
					element_terms_clear(&tp, 2);
					element_terms_clear(&tm, 2);
					ms_spring_terms(xp, v, 0.0, k, 0.0, &tp);
					ms_spring_terms(xm, v, 0.0, k, 0.0, &tm);
					CHECK_NEAR((v3_get(tp.f[a], r) - v3_get(tm.f[a], r)) / 2e-6, want, 1e-6);
				}
}

static void momentum(const drape_world* w, double p[3])
{
	p[0] = p[1] = p[2] = 0.0;
	for (int32_t c = 0; c < drape_cloth_count(w); ++c) {
		drape_cloth_id id = {c};
		int32_t n = drape_cloth_vertex_count(w, id);
		double* v = malloc(3 * (size_t)n * sizeof *v);
		double* m = malloc((size_t)n * sizeof *m);
		drape_cloth_get_velocities(w, id, v);
		drape_cloth_get_masses(w, id, m);
		for (int32_t i = 0; i < n; ++i)
			for (int k = 0; k < 3; ++k) p[k] += m[i] * v[3 * i + k];
		free(v);
		free(m);
	}
}

/* The shipped garment tube with `sets` applied, on one thread; NULL (and s freed) on failure. */
static drape_world* build_tube(const char* const* sets, int32_t set_count, scene* s)
{
	char err[1024];
	CHECK(scene_load_file_set(DRAPE_SOURCE_DIR "/scenes/garment_tube.json", sets, set_count, s, err, sizeof err));
	if (test_failures) return NULL;
	s->world.threads = 1;
	drape_world* w = scene_build_world(s, err, sizeof err);
	CHECK(w != NULL);
	if (!w) scene_free(s);
	return w;
}

static void test_tube_sewing(void)
{
	scene s;
	drape_world* w = build_tube(NULL, 0, &s);
	if (!w) return;
	const drape_cloth_id cloth = {0};
	const int32_t before = drape_cloth_vertex_count(w, cloth);
	int32_t pairs = 0;
	for (int32_t k = 0; k < s.seam_count; ++k) pairs += s.seams[k].pair_count;
	CHECK(drape_seam_count(w) == 2);
	CHECK(drape_seam_gap(w, (drape_seam_id){0}) > 0.03); /* placed with a gap */
	double t_closed = -1.0;
	for (int f = 1; f <= 45 && t_closed < 0.0; ++f) {
		CHECK(drape_world_step(w, f / 30.0 - drape_world_time(w)) == DRAPE_OK);
		double p0[3], p1[3];
		momentum(w, p0);
		int32_t closed = 0;
		CHECK(drape_world_close_seams(w, &closed) == DRAPE_OK);
		momentum(w, p1);
		for (int k = 0; k < 3; ++k) CHECK_NEAR(p1[k], p0[k], 1e-15);
		if (drape_seam_merged(w, (drape_seam_id){0}) && drape_seam_merged(w, (drape_seam_id){1})) t_closed = drape_world_time(w);
	}
	/* both seams close well within sewing.time_limit */
	CHECK(t_closed > 0.0 && t_closed <= s.sew_time_limit);
	/* every pair became one particle (the two corner pairs at each end of a seam too) */
	const drape_mesh* m = drape_cloth_mesh(w, cloth);
	CHECK(m->vertex_count == before - pairs);
	CHECK(m->uv_count == before); /* the seam particles keep both panels' uv */
	/* manifold: every edge in 1 or 2 triangles; the boundary edges form exactly 2 loops */
	const int32_t nv = m->vertex_count, tc = m->triangle_count;
	int32_t* deg = calloc((size_t)nv, sizeof *deg);
	int32_t* next = malloc((size_t)nv * sizeof *next);
	int32_t worst = 0, boundary_edges = 0;
	for (int32_t i = 0; i < nv; ++i) next[i] = -1;
	for (int32_t t = 0; t < tc; ++t)
		for (int k = 0; k < 3; ++k) {
			int32_t a = m->triangles[3 * t + k], b = m->triangles[3 * t + (k + 1) % 3];
			int32_t uses = 0;
			for (int32_t u = 0; u < tc; ++u)
				for (int e = 0; e < 3; ++e) {
					int32_t p = m->triangles[3 * u + e], q = m->triangles[3 * u + (e + 1) % 3];
					uses += (p == a && q == b) || (p == b && q == a);
				}
			if (uses > worst) worst = uses;
			if (uses == 1) {
				++boundary_edges;
				deg[a]++;
				next[a] = b;
			}
		}
	CHECK(worst == 2);
	int32_t loops = 0, visited = 0, bad_degree = 0;
	for (int32_t i = 0; i < nv; ++i) bad_degree += deg[i] > 1;
	CHECK(bad_degree == 0);
	int8_t* seen = calloc((size_t)nv, 1);
	for (int32_t i = 0; i < nv && bad_degree == 0; ++i) {
		if (next[i] < 0 || seen[i]) continue;
		++loops;
		for (int32_t j = i; !seen[j] && next[j] >= 0; j = next[j]) seen[j] = 1, ++visited;
	}
	CHECK(loops == 2);
	CHECK(visited == boundary_edges);
	free(seen);
	free(deg);
	free(next);
	/* and it keeps running, sewn, on the capsule */
	CHECK(drape_world_step(w, 0.2) == DRAPE_OK);
	drape_stats st = drape_world_get_stats(w);
	CHECK(st.seam_gap == 0.0);
	CHECK(st.self_intersections == 0);
	drape_world_destroy(w);
	scene_free(&s);
}

/* A garment OBJ whose uv is its pattern (two charts sharing a 13-vertex seam) is split, wrapped
 * around an axis and sewn back: the result has the OBJ's own vertex count again. */
static void test_obj_garment(void)
{
	const char* text =
		"{\"gravity\": [0, 0, 0], \"cloths\": [{\"name\": \"book\", \"garment\": {\"mesh\": {\"file\": \"sewn_panels.obj\", "
		"\"uv_scale\": 0.01}, \"sewing\": {\"tolerance\": 0.006, \"damping\": 1}, \"panels\": ["
		"{\"name\": \"A\", \"around\": {\"axis\": [[0, 0, 0], [0, 0, 1]], \"radius\": 0.2, \"angle\": 0}},"
		"{\"name\": \"B\", \"around\": {\"axis\": [[0, 0, 0], [0, 0, 1]], \"radius\": 0.2, \"angle\": 153}}]}}]}";
	scene s;
	char err[1024];
	CHECK(scene_load_text(text, DRAPE_SOURCE_DIR "/scenes/obj_garment.json", &s, err, sizeof err));
	if (test_failures) {
		fprintf(stderr, "%s\n", err);
		return;
	}
	CHECK(s.seam_count == 1);
	CHECK(s.seam_count == 1 && s.seams[0].pair_count == 13 && strcmp(s.seams[0].name, "A+B") == 0);
	CHECK(s.cloths[0].mesh.vertex_count == 273 + 13);
	s.world.threads = 1;
	drape_world* w = scene_build_world(&s, err, sizeof err);
	CHECK(w != NULL);
	if (!w) {
		scene_free(&s);
		return;
	}
	const drape_seam_id seam = {0};
	const double gap0 = drape_seam_gap(w, seam);
	CHECK(gap0 > 0.02);
	for (int f = 1; f <= 30 && !drape_seam_merged(w, seam); ++f) {
		CHECK(drape_world_step(w, f / 30.0 - drape_world_time(w)) == DRAPE_OK);
		CHECK(drape_world_close_seams(w, NULL) == DRAPE_OK);
	}
	CHECK(drape_seam_merged(w, seam));
	const drape_mesh* m = drape_cloth_mesh(w, (drape_cloth_id){0});
	CHECK(m->vertex_count == 273);
	CHECK(m->uv_count == 286);
	drape_world_destroy(w);
	scene_free(&s);
}

/* Tensor bending (docs/bending.md) on a garment: when the tube's seams merge, its elements are
 * rebuilt on the sewn mesh (until 2026-11-27 they kept the panels' particle numbers, and the
 * first solve after the merge indexed past the particles; the merge also gave the cloth the
 * hinges of the dihedral model). They must be exactly the elements of a cloth made from the sewn
 * mesh from the start, reaching across the seam, with no hinges. */
static void test_tube_sewing_tensor(void)
{
	static const char* const sets[] = {"cloths.0.bend_model=tensor"};
	scene s;
	drape_world* w = build_tube(sets, 1, &s);
	if (!w) return;
	CHECK(w->model.hinge_count == 0 && w->model.btens_count == w->model.triangle_count);
	for (int f = 1; f <= 45 && !(drape_seam_merged(w, (drape_seam_id){0}) && drape_seam_merged(w, (drape_seam_id){1})); ++f) {
		CHECK(drape_world_step(w, f / 30.0 - drape_world_time(w)) == DRAPE_OK);
		CHECK(drape_world_close_seams(w, NULL) == DRAPE_OK);
	}
	CHECK(drape_seam_merged(w, (drape_seam_id){0}) && drape_seam_merged(w, (drape_seam_id){1}));
	CHECK(w->model.hinge_count == 0 && w->model.btens_count == w->model.triangle_count);
	/* steps on from the sewn topology (the solver's pattern is rebuilt from the elements) */
	CHECK(drape_world_step(w, 2.0 / 30.0) == DRAPE_OK);
	const drape_mesh* m = drape_cloth_mesh(w, (drape_cloth_id){0});
	drape_world_def wd = drape_default_world_def();
	wd.threads = 1;
	drape_world* fresh = drape_world_create(&wd);
	drape_cloth_def cd = drape_default_cloth_def();
	cd.mesh = m;
	cd.material = s.cloths[0].material;
	cd.bend_model = DRAPE_BEND_TENSOR;
	CHECK(drape_cloth_add(fresh, &cd).index >= 0);
	CHECK(fresh->model.btens_count == w->model.btens_count && fresh->model.hinge_count == 0);
	int32_t differ = 0;
	for (int32_t k = 0; k < w->model.btens_count && k < fresh->model.btens_count; ++k) {
		const bend_tensor_elem *a = &w->model.btens[k], *b = &fresh->model.btens[k];
		differ += memcmp(a->v, b->v, sizeof a->v) != 0 || memcmp(a->alpha, b->alpha, sizeof a->alpha) != 0 ||
			  a->area != b->area;
		for (int j = 0; j < BEND_TENSOR_NODES; ++j) CHECK(a->v[j] >= 0 && a->v[j] < w->model.particle_count);
	}
	CHECK(differ == 0);
	drape_world_destroy(fresh);
	drape_world_destroy(w);
	scene_free(&s);

	/* With a fold guard (docs/bending.md, "Fold guard") the cloth also has hinges, rebuilt across
	 * the closed seams like the elements: the same as a fresh cloth's, every one guarded. */
	static const char* const guarded[] = {"cloths.0.bend_model=tensor", "cloths.0.fold_guard_degrees=60"};
	w = build_tube(guarded, 2, &s);
	if (!w) return;
	CHECK(w->model.hinge_count > 0 && w->model.btens_count == w->model.triangle_count);
	for (int f = 1; f <= 45 && !(drape_seam_merged(w, (drape_seam_id){0}) && drape_seam_merged(w, (drape_seam_id){1})); ++f) {
		CHECK(drape_world_step(w, f / 30.0 - drape_world_time(w)) == DRAPE_OK);
		CHECK(drape_world_close_seams(w, NULL) == DRAPE_OK);
	}
	CHECK(drape_seam_merged(w, (drape_seam_id){0}) && drape_seam_merged(w, (drape_seam_id){1}));
	CHECK(drape_world_step(w, 2.0 / 30.0) == DRAPE_OK);
	fresh = drape_world_create(&wd);
	cd.mesh = drape_cloth_mesh(w, (drape_cloth_id){0});
	cd.material = s.cloths[0].material;
	cd.fold_guard = DRAPE_PI / 3.0;
	CHECK(drape_cloth_add(fresh, &cd).index >= 0);
	CHECK(fresh->model.hinge_count > 0 && fresh->model.hinge_count == w->model.hinge_count && fresh->model.btens_count == w->model.btens_count);
	differ = 0;
	for (int32_t k = 0; k < w->model.hinge_count && k < fresh->model.hinge_count; ++k) {
		const hinge_elem *a = &w->model.hinges[k], *b = &fresh->model.hinges[k];
		differ += memcmp(a->v, b->v, sizeof a->v) != 0 || a->k != b->k || a->guard != b->guard;
		CHECK(a->guard == DRAPE_PI / 3.0);
	}
	CHECK(differ == 0);
	drape_world_destroy(fresh);
	drape_world_destroy(w);
	scene_free(&s);
}

/* A flat panel (docs/garments.md, "Placing"): every vertex in the plane, distances kept (3D edge
 * lengths equal the uv ones), the bounding-box centre on `center`, pattern y along the up vector
 * made perpendicular to the normal, and a counter-clockwise outline facing along the normal. */
static void test_flat_placement(void)
{
	pattern_point pts[4];
	pattern_panel p = rect_panel("flat", pts, 0.4, 0.3);
	p.flat = true;
	const double c[3] = {0.1, -0.2, 1.0}, n[3] = {0.6, -0.8, 0.0}; /* unit */
	memcpy(p.plane_center, c, sizeof c);
	memcpy(p.plane_normal, n, sizeof n);
	p.plane_up[0] = 0.3, p.plane_up[1] = 0.0, p.plane_up[2] = 1.0; /* not perpendicular: orthogonalised */
	garment_def d = {.panels = &p, .panel_count = 1, .triangle_size = 0.05};
	garment g;
	char err[512];
	CHECK(garment_build(&d, &g, err, sizeof err));
	if (test_failures) return;
	const drape_mesh* m = &g.mesh;
	/* the frame expected: up made perpendicular to n, right = up x n */
	double up[3], un = 0.3 * n[0], ul = 0.0;
	for (int k = 0; k < 3; ++k) up[k] = p.plane_up[k] - un * n[k], ul += up[k] * up[k];
	for (int k = 0; k < 3; ++k) up[k] /= sqrt(ul);
	const double right[3] = {up[1] * n[2] - up[2] * n[1], up[2] * n[0] - up[0] * n[2], up[0] * n[1] - up[1] * n[0]};
	double lo[2] = {1e9, 1e9}, hi[2] = {-1e9, -1e9}, off_plane = 0.0, stretch = 0.0, facing = 1.0;
	for (int32_t i = 0; i < m->vertex_count; ++i) {
		const double* x = &m->positions[3 * i];
		double dn = 0.0, dr = 0.0, du = 0.0;
		for (int k = 0; k < 3; ++k) dn += (x[k] - c[k]) * n[k], dr += (x[k] - c[k]) * right[k], du += (x[k] - c[k]) * up[k];
		off_plane = fmax(off_plane, fabs(dn));
		lo[0] = fmin(lo[0], dr), hi[0] = fmax(hi[0], dr), lo[1] = fmin(lo[1], du), hi[1] = fmax(hi[1], du);
	}
	for (int32_t t = 0; t < m->triangle_count; ++t) {
		const int32_t* v = &m->triangles[3 * t];
		const double *a = &m->positions[3 * v[0]], *b = &m->positions[3 * v[1]], *q = &m->positions[3 * v[2]];
		for (int k = 0; k < 3; ++k) {
			const double* x0 = &m->positions[3 * v[k]];
			const double* x1 = &m->positions[3 * v[(k + 1) % 3]];
			const double* u0 = &m->uvs[2 * m->triangle_uvs[3 * t + k]];
			const double* u1 = &m->uvs[2 * m->triangle_uvs[3 * t + (k + 1) % 3]];
			double l3 = sqrt((x1[0] - x0[0]) * (x1[0] - x0[0]) + (x1[1] - x0[1]) * (x1[1] - x0[1]) +
					 (x1[2] - x0[2]) * (x1[2] - x0[2]));
			stretch = fmax(stretch, fabs(l3 - hypot(u1[0] - u0[0], u1[1] - u0[1])));
		}
		double e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, e2[3] = {q[0] - a[0], q[1] - a[1], q[2] - a[2]};
		double nn[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
		facing = fmin(facing, nn[0] * n[0] + nn[1] * n[1] + nn[2] * n[2]);
	}
	CHECK(off_plane < 1e-12);
	CHECK(stretch < 1e-12);
	CHECK(facing > 0.0);
	/* pattern x (0.4 m) along right, pattern y (0.3 m) along up, centred on `center` */
	CHECK_NEAR(lo[0], -0.2, 1e-12);
	CHECK_NEAR(hi[0], 0.2, 1e-12);
	CHECK_NEAR(lo[1], -0.15, 1e-12);
	CHECK_NEAR(hi[1], 0.15, 1e-12);
	garment_free(&g);
	/* an up vector along the normal leaves no plane frame: refused with the panel named */
	memcpy(p.plane_up, n, sizeof n);
	CHECK(!garment_build(&d, &g, err, sizeof err));
	CHECK(strstr(err, "panel 'flat'") && strstr(err, "flat.up"));
}

/* sewing.gravity scales gravity while a seam is open (the run restores it once all have merged);
 * the widest pair of a seam is where its gap is; drape_world_set_gravity refuses non-finite values. */
static void test_sewing_gravity_and_widest_pair(void)
{
	scene s;
	char err[1024];
	CHECK(scene_load_file(DRAPE_SOURCE_DIR "/tests/scenes/tube_staggered.json", &s, err, sizeof err));
	if (test_failures) return;
	CHECK(s.sew_gravity == 0.0);
	s.world.threads = 1;
	drape_world* w = scene_build_world(&s, err, sizeof err);
	CHECK(w != NULL);
	if (!w) {
		scene_free(&s);
		return;
	}
	const drape_seam_id id = {0};
	double a[3], b[3];
	int32_t pair = -2;
	const double gap = drape_seam_widest_pair(w, id, &pair, a, b);
	CHECK(gap == drape_seam_gap(w, id) && gap > 0.03);
	CHECK(pair >= 0 && pair < s.seams[0].pair_count);
	CHECK_NEAR(sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2])), gap, 1e-15);
	sewing_state sew;
	CHECK(sewing_begin(&sew, w));
	sewing_set_gravity(&sew, w, &s);
	CHECK(w->def.gravity[2] == 0.0);
	for (int f = 1; f <= 30 && sew.open > 0; ++f) {
		sewing_set_gravity(&sew, w, &s);
		CHECK(drape_world_step(w, f / 30.0 - drape_world_time(w)) == DRAPE_OK);
		CHECK(sewing_after_frame(&sew, w, &s, err, sizeof err) == DRAPE_OK);
	}
	CHECK(sew.open == 0);
	/* the two seams merged at different frames, the first in scene order last (the staggered tube) */
	CHECK(sew.merged_frame[1] > 0 && sew.merged_frame[0] > sew.merged_frame[1]);
	sewing_set_gravity(&sew, w, &s);
	CHECK(w->def.gravity[2] == s.world.gravity[2] && w->def.gravity[2] < 0.0);
	CHECK(drape_seam_widest_pair(w, id, &pair, NULL, NULL) == 0.0 && pair == -1);
	sewing_end(&sew);
	const double bad[3] = {0.0, NAN, 0.0};
	CHECK(drape_world_set_gravity(w, bad) == DRAPE_ERROR_INVALID);
	CHECK(w->def.gravity[1] == 0.0);
	drape_world_destroy(w);
	scene_free(&s);
	/* a negative scale is refused by name */
	scene bad_scene;
	CHECK(!scene_load_text("{\"cloths\": [{\"name\": \"c\", \"garment\": {\"triangle_size\": 0.05, \"sewing\": {\"gravity\": -1}, "
				 "\"panels\": [{\"name\": \"p\", \"outline\": [{\"at\": [0, 0]}, {\"at\": [0.2, 0]}, {\"at\": [0.2, 0.2]}], "
				 "\"flat\": {\"center\": [0, 0, 1], \"normal\": [0, -1, 0]}}]}}]}",
				 "inline.json", &bad_scene, err, sizeof err));
	CHECK(strstr(err, "sewing.gravity") != NULL);
}

/* Sewing at a bounded speed (docs/garments.md): two flat panels 5 m apart, one seam between
 * them, no gravity. Its pairs start beyond sewing.free_gap, so their pull is capped: no pair
 * closes faster than sewing.max_speed (2 m/s) at any frame, and the seam merges after about
 * 5 m / 2 m/s = 2.5 s, in one step per frame (the plain spring drags the panels together within
 * the first frame, in 127 steps down to 130 us, through each other, and the seam never closes:
 * 930 self-intersections). With sewing.time_limit under the 2.5 s, the seam that cannot close
 * still says so. Steps are counted, not timed. */
static void far_panels(const char* const* sets, int32_t set_count, double* sewn_at, int64_t* steps, double* fastest,
		       char* err, size_t err_size)
{
	scene s;
	CHECK(scene_load_file_set(DRAPE_SOURCE_DIR "/tests/scenes/sew_far_panels.json", sets, set_count, &s, err, err_size));
	if (test_failures) return;
	s.world.threads = 1;
	drape_world* w = scene_build_world(&s, err, err_size);
	CHECK(w != NULL);
	if (!w) {
		scene_free(&s);
		return;
	}
	CHECK(drape_seam_gap(w, (drape_seam_id){0}) > 4.99);
	const int32_t pairs = s.seams[0].pair_count, *pair = s.seams[0].pairs; /* one cloth: world indices */
	sewing_state sew;
	CHECK(sewing_begin(&sew, w));
	*fastest = 0.0;
	err[0] = '\0';
	drape_status status = DRAPE_OK;
	for (int f = 1; f <= s.frames && sew.open > 0 && status == DRAPE_OK; ++f) {
		CHECK(drape_world_step(w, f / 30.0 - drape_world_time(w)) == DRAPE_OK);
		for (int32_t k = 0; k < pairs && !drape_seam_merged(w, (drape_seam_id){0}); ++k) {
			vec3 d = v3_sub(w->state.x[pair[2 * k + 1]], w->state.x[pair[2 * k]]);
			double len = v3_len(d);
			if (len > 0.0) *fastest = fmax(*fastest, -v3_dot(d, v3_sub(w->state.v[pair[2 * k + 1]], w->state.v[pair[2 * k]])) / len);
		}
		status = sewing_after_frame(&sew, w, &s, err, err_size);
	}
	*sewn_at = sew.sewn_at;
	*steps = drape_world_get_stats(w).steps;
	CHECK(drape_world_get_stats(w).self_intersections == 0);
	sewing_end(&sew);
	drape_world_destroy(w);
	scene_free(&s);
}

static void test_far_panels_sew_at_bounded_speed(void)
{
	char err[1024];
	double sewn_at, fastest;
	int64_t steps;
	far_panels(NULL, 0, &sewn_at, &steps, &fastest, err, sizeof err);
	CHECK(sewn_at > 2.4 && sewn_at < 3.0);
	CHECK(steps <= 100); /* 81 frames to the merge, measured 81 steps */
	CHECK(fastest <= 2.0 * (1.0 + 1e-9) && fastest > 1.8);
	/* too little time to cover 5 m at 2 m/s: the run stops, naming the seam */
	static const char* const short_time[] = {"cloths.0.garment.sewing.time_limit=1"};
	far_panels(short_time, 1, &sewn_at, &steps, &fastest, err, sizeof err);
	CHECK(sewn_at < 0.0 && strstr(err, "seam 'join' did not close within sewing.time_limit = 1 s") != NULL);
	/* a higher cap closes it sooner */
	static const char* const faster[] = {"cloths.0.garment.sewing.max_speed=4"};
	far_panels(faster, 1, &sewn_at, &steps, &fastest, err, sizeof err);
	CHECK(sewn_at > 1.2 && sewn_at < 1.6 && fastest <= 4.0 * (1.0 + 1e-9));
	/* bad values are refused by name */
	static const char* const bad[] = {"cloths.0.garment.sewing.max_speed=0", "cloths.0.garment.sewing.free_gap=-1"};
	for (int k = 0; k < 2; ++k) {
		scene sc;
		CHECK(!scene_load_file_set(DRAPE_SOURCE_DIR "/tests/scenes/sew_far_panels.json", &bad[k], 1, &sc, err, sizeof err));
		CHECK(strstr(err, k ? "sewing.free_gap: must be > 0" : "sewing.max_speed: must be > 0") != NULL);
	}
}

/* ---- around.bone (docs/garments.md, "Placing on a bone") ---- */

/* The CMU test skeleton (tests/cmu_skeleton.c, rest pose = the pose at time 0, z up, world =
 * file) with hand-placed vertices at known distances from its bones: rings of 16 around the axis
 * from joint lb to joint sp at s (m from its midpoint along it) of radius r, skinned to joint `to`. */
static void ring(const mannequin_joint* k, int lb, int sp, double s, double r, int to, double* x, int32_t* j, double* w,
		 int* n)
{
	double a[3], mid[3], u[3] = {1, 0, 0}, l = 0.0;
	for (int d = 0; d < 3; ++d) a[d] = k[sp].pos[d] - k[lb].pos[d], l += a[d] * a[d], mid[d] = 0.5 * (k[sp].pos[d] + k[lb].pos[d]);
	l = sqrt(l);
	for (int d = 0; d < 3; ++d) a[d] /= l;
	const double ua = a[0];
	double ul = 0.0;
	for (int d = 0; d < 3; ++d) u[d] -= ua * a[d], ul += u[d] * u[d];
	for (int d = 0; d < 3; ++d) u[d] /= sqrt(ul);
	const double v[3] = {a[1] * u[2] - a[2] * u[1], a[2] * u[0] - a[0] * u[2], a[0] * u[1] - a[1] * u[0]};
	for (int q = 0; q < 16; ++q, ++*n) {
		const double th = 2.0 * DRAPE_PI * q / 16;
		for (int d = 0; d < 3; ++d) x[3 * *n + d] = mid[d] + s * a[d] + r * (cos(th) * u[d] + sin(th) * v[d]);
		j[4 * *n] = to;
		w[4 * *n] = 1.0;
	}
}

static int cmu_index(const mannequin_joint* k, const char* name)
{
	for (int i = 0; i < CMU_JOINT_COUNT; ++i)
		if (strcmp(k[i].name, name) == 0) return i;
	return -1;
}

static void test_bone_placement(void)
{
	mannequin_joint k[CMU_JOINT_COUNT];
	cmu_skeleton(CMU_TEST_SCALE, 1.0, k);
	const int lb = cmu_index(k, "LowerBack"), sp = cmu_index(k, "Spine"), hips = cmu_index(k, "Hips");
	const int lul = cmu_index(k, "LeftUpLeg"), rul = cmu_index(k, "RightUpLeg"), ll = cmu_index(k, "LeftLeg");
	const int hand = cmu_index(k, "LeftHand");
	CHECK(lb == 11 && sp == 12 && hips == 0 && lul == 2 && ll == 3 && rul == 7 && hand == 20);
	enum { N = 7 * 16 };
	double x[3 * N] = {0}, w[4 * N] = {0};
	int32_t j[4 * N] = {0};
	int n = 0;
	/* A 0.4 m x 0.3 m panel at offset 0 spans s in [-0.15, 0.15], 20 slices of 1.5 cm: the hem's
	 * cross-section is a leg's (counted for a trunk bone), the waist's the spine's, the hips bulge
	 * in between; a hand in the span (an arm: not counted) and a ring past the span are ignored. */
	ring(k, lb, sp, -0.149, 0.20, lul, x, j, w, &n);
	ring(k, lb, sp, 0.005, 0.19, hips, x, j, w, &n);
	ring(k, lb, sp, 0.149, 0.12, sp, x, j, w, &n);
	ring(k, lb, sp, 0.0, 0.50, hand, x, j, w, &n);
	ring(k, lb, sp, 0.3, 1.00, sp, x, j, w, &n);
	/* around the left thigh, 0.1 m below its midpoint: the leg (0.07 m), and the other leg's
	 * vertices there (0.09 m; not the bone's limb) */
	ring(k, ll, lul, -0.1, 0.07, ll, x, j, w, &n);
	ring(k, ll, lul, -0.1, 0.09, rul, x, j, w, &n);
	CHECK(n == N);
	drape_character* c = calloc(1, sizeof *c);
	c->joint_count = CMU_JOINT_COUNT;
	c->joints = calloc(CMU_JOINT_COUNT, sizeof *c->joints);
	for (int i = 0; i < CMU_JOINT_COUNT; ++i) {
		character_joint* cj = &c->joints[i];
		cj->name = strdup(k[i].name);
		cj->parent = k[i].parent;
		for (int d = 0; d < 3; ++d) cj->rest.t[d] = k[i].pos[d] - (k[i].parent >= 0 ? k[k[i].parent].pos[d] : 0.0);
		cj->rest.q[0] = cj->dress_q[0] = 1.0;
		cj->rest.s[0] = cj->rest.s[1] = cj->rest.s[2] = 1.0;
	}
	c->root = -1;
	c->vertex_count = N;
	c->rest = malloc(sizeof x);
	c->skin_joint = malloc(sizeof j);
	c->skin_weight = malloc(sizeof w);
	memcpy(c->rest, x, sizeof x);
	memcpy(c->skin_joint, j, sizeof j);
	memcpy(c->skin_weight, w, sizeof w);
	c->to_world = affine_identity();
	c->up[2] = 1.0;
	c->time_scale = 1.0;
	character_bind_rest(c);

	pattern_point pts[4];
	pattern_panel p = rect_panel("skirt", pts, 0.4, 0.3);
	bone_fit fit = {0.03, 0.01, false, false, BONE_UP, 0.0};
	char err[512];
	CHECK(garment_place_on_bone(&p, c, "LowerBack", &fit, err, sizeof err));
	/* the axis: the bone's head (its joint, at the hips) to its tail (its child Spine), pointing up */
	for (int d = 0; d < 3; ++d) {
		CHECK_NEAR(p.axis[0][d], k[lb].pos[d], 1e-12);
		CHECK_NEAR(p.axis[1][d], k[sp].pos[d], 1e-12);
	}
	/* the front: right hip to left hip turned a quarter clockwise seen from above (-y for CMU) */
	const double lx = k[lul].pos[0] - k[rul].pos[0], ly = k[lul].pos[1] - k[rul].pos[1], ln = hypot(lx, ly);
	CHECK_NEAR(p.front[0], ly / ln, 1e-12);
	CHECK_NEAR(p.front[1], -lx / ln, 1e-12);
	CHECK_NEAR(p.front[2], 0.0, 0.0);
	CHECK(p.front[1] < -0.99);
	/* radii: hem 0.20 + 0.03, waist 0.12 + 0.01; the cone is 0.23 - 0.1 * 0.55 = 0.175 at the top of
	 * the hips' slice (s from 0 to 0.015), where the hips need 0.19 + min(clearances) = 0.2: both
	 * raised by 0.025 */
	CHECK_NEAR(p.radius, 0.255, 1e-9);
	CHECK_NEAR(p.top_radius, 0.155, 1e-9);
	/* the wrapped panel: its bottom-centre on the front at radius 0.255, its top at 0.155 */
	const double center[2] = {0.2, 0.15}, size[2] = {0.4, 0.3}, q0[2] = {0.2, 0.0}, q1[2] = {0.2, 0.3};
	double b[3], t[3];
	garment_wrap(&p, center, size, q0, b);
	garment_wrap(&p, center, size, q1, t);
	double a[3], mid[3], al = 0.0;
	for (int d = 0; d < 3; ++d) a[d] = k[sp].pos[d] - k[lb].pos[d], al += a[d] * a[d], mid[d] = 0.5 * (k[sp].pos[d] + k[lb].pos[d]);
	al = sqrt(al);
	double sb = 0.0, st = 0.0, rb2 = 0.0, rt2 = 0.0;
	for (int d = 0; d < 3; ++d) sb += (b[d] - mid[d]) * a[d] / al, st += (t[d] - mid[d]) * a[d] / al;
	for (int d = 0; d < 3; ++d) {
		const double eb = b[d] - mid[d] - sb * a[d] / al, et = t[d] - mid[d] - st * a[d] / al;
		rb2 += eb * eb, rt2 += et * et;
	}
	CHECK_NEAR(sb, -0.15, 1e-12);
	CHECK_NEAR(st, 0.15, 1e-12);
	CHECK_NEAR(sqrt(rb2), 0.255, 1e-9);
	CHECK_NEAR(sqrt(rt2), 0.155, 1e-9);
	CHECK(b[1] < mid[1] - 0.2); /* in front of the body */

	/* a leg bone points down: the axis runs up it, from its tail (the knee) to its head (the hip);
	 * only the leg's own vertices count (the hem ring is skinned to LeftUpLeg) */
	p = rect_panel("leg", pts, 0.3, 0.2);
	p.offset = -0.1; /* below the hem ring: the leg's rings only */
	CHECK(garment_place_on_bone(&p, c, "LeftUpLeg", &fit, err, sizeof err) || (printf("  %s\n", err), 0));
	for (int d = 0; d < 3; ++d) {
		CHECK_NEAR(p.axis[0][d], k[ll].pos[d], 1e-12);
		CHECK_NEAR(p.axis[1][d], k[lul].pos[d], 1e-12);
	}
	CHECK_NEAR(p.radius, 0.07 + 0.03, 1e-9);
	CHECK_NEAR(p.top_radius, 0.07 + 0.01, 1e-9);
	/* head_to_tail keeps the bone's own sense (a sleeve drawn with its cap at y = 0): hip to knee */
	fit.direction = BONE_HEAD_TO_TAIL;
	p = rect_panel("leg", pts, 0.3, 0.2);
	p.offset = 0.1; /* the same span: offsets run along the axis, now down the thigh */
	CHECK(garment_place_on_bone(&p, c, "LeftUpLeg", &fit, err, sizeof err));
	for (int d = 0; d < 3; ++d) {
		CHECK_NEAR(p.axis[0][d], k[lul].pos[d], 1e-12);
		CHECK_NEAR(p.axis[1][d], k[ll].pos[d], 1e-12);
	}
	/* tail_to_head on a bone that points up: LowerBack from Spine down to the hips */
	fit.direction = BONE_TAIL_TO_HEAD;
	p = rect_panel("x", pts, 0.4, 0.3);
	CHECK(garment_place_on_bone(&p, c, "LowerBack", &fit, err, sizeof err));
	for (int d = 0; d < 3; ++d) {
		CHECK_NEAR(p.axis[0][d], k[sp].pos[d], 1e-12);
		CHECK_NEAR(p.axis[1][d], k[lb].pos[d], 1e-12);
	}
	/* vertical: the vertical through the joint, even of a bone of no length (CMU's Hips), whose
	 * midpoint is the joint (offset from there), moved `forward` along the body's front; the radii
	 * are the body's distances from that line: the hem ring (0.20 around the LowerBack axis, which
	 * leans 5.4 deg from the vertical) measured around the vertical through Hips */
	fit.direction = BONE_UP;
	fit.vertical = true;
	fit.forward = 0.02;
	p = rect_panel("skirt", pts, 0.4, 0.3);
	CHECK(garment_place_on_bone(&p, c, "Hips", &fit, err, sizeof err) || (printf("  %s\n", err), 0));
	for (int d = 0; d < 3; ++d) {
		const double f = d == 0 ? ly / ln : d == 1 ? -lx / ln : 0.0;
		CHECK_NEAR(0.5 * (p.axis[0][d] + p.axis[1][d]), k[hips].pos[d] + 0.02 * f, 1e-12);
		CHECK_NEAR(p.axis[1][d] - p.axis[0][d], d == 2 ? 1.0 : 0.0, 1e-12);
	}
	{
		/* every vertex in the span but the hand's (an arm) lies inside the cone by at least the
		 * smaller clearance, measured here from the vertical line; the hem ring (skinned to the
		 * thigh) is among them */
		const double cx = p.axis[0][0], cy = p.axis[0][1], zc = k[hips].pos[2];
		double worst = 1.0;
		int in_span = 0;
		for (int v = 0; v < N; ++v) {
			const double z = x[3 * v + 2];
			if (z < zc - 0.15 || z > zc + 0.15 || j[4 * v] == hand) continue;
			const double cone = p.radius + (z - (zc - 0.15)) / 0.3 * (p.top_radius - p.radius);
			worst = fmin(worst, cone - 0.01 - hypot(x[3 * v] - cx, x[3 * v + 1] - cy));
			in_span += j[4 * v] == lul && hypot(x[3 * v] - cx, x[3 * v + 1] - cy) > 0.15;
		}
		CHECK(in_span == 16);
		printf("  vertical cone: radii %.4f, %.4f; the nearest vertex %.4f m further in than the clearance\n", p.radius,
		       p.top_radius, worst);
		CHECK(worst > -1e-12 && worst < 0.005);
	}
	fit.vertical = false;
	fit.forward = 0.0;
	/* flat on a bone: the plane facing front (or back) a clearance beyond the body's foremost vertex
	 * within the panel's footprint (the 0.4 m x 0.3 m panel centred on the vertical through Hips,
	 * 0.05 m above the joint; the hand, an arm, does not count), found here by brute force */
	for (int side = 0; side < 2; ++side) {
		const double nx = (side ? -1.0 : 1.0) * ly / ln, ny = (side ? -1.0 : 1.0) * -lx / ln;
		double ext = -1e300;
		for (int v = 0; v < N; ++v) {
			const double d[3] = {x[3 * v] - k[hips].pos[0], x[3 * v + 1] - k[hips].pos[1], x[3 * v + 2] - k[hips].pos[2]};
			if (j[4 * v] == hand || fabs(d[2] - 0.05) > 0.15 || fabs(-ny * d[0] + nx * d[1]) > 0.2) continue;
			ext = fmax(ext, nx * d[0] + ny * d[1]);
		}
		p = rect_panel("torso", pts, 0.4, 0.3);
		p.offset = 0.05;
		CHECK(garment_place_flat_on_bone(&p, c, "Hips", &fit, side ? DRAPE_PI : 0.0, err, sizeof err));
		CHECK(p.flat && ext > 0.1);
		CHECK_NEAR(p.plane_center[0], k[hips].pos[0] + (ext + 0.03) * nx, 1e-12);
		CHECK_NEAR(p.plane_center[1], k[hips].pos[1] + (ext + 0.03) * ny, 1e-12);
		CHECK_NEAR(p.plane_center[2], k[hips].pos[2] + 0.05, 1e-12);
		CHECK_NEAR(p.plane_normal[0], nx, 1e-12);
		CHECK_NEAR(p.plane_normal[1], ny, 1e-12);
		CHECK_NEAR(p.plane_up[2], 1.0, 0.0);
	}
	/* bad bones: unknown, of no length (Hips' first child LHipJoint is at its head), no body */
	p = rect_panel("x", pts, 0.3, 0.2);
	CHECK(!garment_place_on_bone(&p, c, "LowerBak", &fit, err, sizeof err) && strstr(err, "no bone 'LowerBak'"));
	CHECK(!garment_place_on_bone(&p, c, "Hips", &fit, err, sizeof err) && strstr(err, "no length"));
	p.offset = 2.0;
	CHECK(!garment_place_on_bone(&p, c, "LowerBack", &fit, err, sizeof err) && strstr(err, "no part of the body"));
	drape_character_destroy(c);
}

const test_case garment_tests[] = {
	{"far_panels_sew_at_bounded_speed", test_far_panels_sew_at_bounded_speed},
	{"rectangle_mesh_area_boundary_uv", test_rectangle_mesh},
	{"seam_spring_force_and_jacobian", test_seam_spring_terms},
	{"curved_outline_mesh", test_curved_mesh},
	{"grain_rotation_warp_edges", test_grain_rotation},
	{"seam_ease_distributes_length", test_ease},
	{"bad_patterns_named", test_bad_patterns},
	{"tube_sews_closed_manifold", test_tube_sewing},
	{"tube_sews_tensor_bending_across_seams", test_tube_sewing_tensor},
	{"obj_garment_dressed_and_sewn_back", test_obj_garment},
	{"flat_panel_placement", test_flat_placement},
	{"seam_sides_not_contacts", test_seam_sides_not_contacts},
	{"sewing_gravity_and_widest_pair", test_sewing_gravity_and_widest_pair},
	{"bone_placement_axis_front_radii", test_bone_placement},
	{NULL, NULL},
};
