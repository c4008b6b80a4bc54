/* Rest neighbours of cloth/cloth proximity (docs/collide.md, "Rest neighbours"): pairs closer than
 * the radius on the rest mesh are never contacts, whatever the resolution; pairs brought together
 * by a fold still are. Lists against brute force over the rest (u, v); flat fine sheets with a
 * thickness above the cell size; folded sheets; the sewn panels' seam. */
#include "fixtures.h"
#include "test.h"

#include "collide/cloth_pairs.h"
#include "collide/geometry.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double pi = 3.14159265358979323846;

/* An nu x nv grid of cell `cell` from drape_mesh_make_grid (alternating diagonals), its triangles'
 * rest (u, v) corners, 6 per triangle, and the plain vertex triples. */
typedef struct sheet {
	drape_mesh mesh;
	double* tri_uv;
	int32_t* tri;
} sheet;

static void sheet_from_mesh(sheet* s)
{
	const drape_mesh* m = &s->mesh;
	s->tri_uv = malloc(6 * (size_t)m->triangle_count * sizeof *s->tri_uv);
	s->tri = malloc(3 * (size_t)m->triangle_count * sizeof *s->tri);
	for (int32_t t = 0; t < m->triangle_count; ++t)
		for (int k = 0; k < 3; ++k) {
			s->tri[3 * t + k] = m->triangles[3 * t + k];
			s->tri_uv[6 * t + 2 * k] = m->uvs[2 * m->triangle_uvs[3 * t + k]];
			s->tri_uv[6 * t + 2 * k + 1] = m->uvs[2 * m->triangle_uvs[3 * t + k] + 1];
		}
}

static bool make_grid_sheet(sheet* s, int nu, int nv, double cell)
{
	drape_grid_def g = drape_default_grid_def();
	g.size[0] = cell * (nu - 1);
	g.size[1] = cell * (nv - 1);
	g.resolution[0] = nu;
	g.resolution[1] = nv;
	char err[256];
	if (drape_mesh_make_grid(&g, &s->mesh, err, sizeof err) != DRAPE_OK) return false;
	sheet_from_mesh(s);
	return true;
}

static void sheet_free(sheet* s)
{
	drape_mesh_free(&s->mesh);
	free(s->tri_uv);
	free(s->tri);
}

static vec3 uv3(const sheet* s, int32_t t, int k) { return v3(s->tri_uv[6 * t + 2 * k], s->tri_uv[6 * t + 2 * k + 1], 0.0); }

/* The sheet's positions folded over itself along a line u = const: flat up to u = fold_at, then a
 * half circle of radius gap / 2, then flat again at height gap, going back. Arc length along u is
 * kept, so the fold is an isometry of the rest mesh. */
static void fold_positions(const sheet* s, double fold_at, double gap, vec3* x)
{
	const drape_mesh* m = &s->mesh;
	double r = 0.5 * gap;
	for (int32_t i = 0; i < m->vertex_count; ++i) {
		double u = m->uvs[2 * i], v = m->uvs[2 * i + 1];
		if (u <= fold_at) {
			x[i] = v3(u, v, 0.0);
		} else if (u <= fold_at + pi * r) {
			double th = (u - fold_at) / r;
			x[i] = v3(fold_at + r * sin(th), v, r - r * cos(th));
		} else {
			x[i] = v3(fold_at - (u - fold_at - pi * r), v, gap);
		}
	}
}

/* Brute force: the pairs proximity must report, every vertex/triangle and edge/edge pair closer
 * than h at x, sharing no vertex, whose rest distance (over the single (u, v) chart of a grid, the
 * exact distance on the flat rest sheet) is at least R. */
static void brute_counts(const sheet* s, const cloth_pairs* d, const vec3* x, double h, double R, int32_t* vf, int32_t* ee)
{
	const drape_mesh* m = &s->mesh;
	*vf = *ee = 0;
	for (int32_t p = 0; p < m->vertex_count; ++p) {
		vec3 up = v3(m->uvs[2 * p], m->uvs[2 * p + 1], 0.0);
		for (int32_t t = 0; t < m->triangle_count; ++t) {
			const int32_t* tv = s->tri + 3 * t;
			if (tv[0] == p || tv[1] == p || tv[2] == p) continue;
			double w[3];
			if (!(point_triangle_closest(x[p], x[tv[0]], x[tv[1]], x[tv[2]], w) < h * h)) continue;
			if (point_triangle_closest(up, uv3(s, t, 0), uv3(s, t, 1), uv3(s, t, 2), w) < R * R) continue;
			++*vf;
		}
	}
	for (int32_t e = 0; e < d->edge_count; ++e)
		for (int32_t f = e + 1; f < d->edge_count; ++f) {
			const int32_t *ev = d->edges + 2 * e, *fv = d->edges + 2 * f;
			if (ev[0] == fv[0] || ev[0] == fv[1] || ev[1] == fv[0] || ev[1] == fv[1]) continue;
			double a, b;
			if (!(segment_segment_closest(x[ev[0]], x[ev[1]], x[fv[0]], x[fv[1]], &a, &b) < h * h)) continue;
			vec3 u0 = v3(m->uvs[2 * ev[0]], m->uvs[2 * ev[0] + 1], 0.0), u1 = v3(m->uvs[2 * ev[1]], m->uvs[2 * ev[1] + 1], 0.0);
			vec3 u2 = v3(m->uvs[2 * fv[0]], m->uvs[2 * fv[0] + 1], 0.0), u3 = v3(m->uvs[2 * fv[1]], m->uvs[2 * fv[1] + 1], 0.0);
			if (segment_segment_closest(u0, u1, u2, u3, &a, &b) < R * R) continue;
			++*ee;
		}
}

/* Every reported pair is at least R apart on the rest sheet (the grid's single chart). */
static bool reported_rest_far(const sheet* s, const cloth_pairs* d, double R)
{
	const drape_mesh* m = &s->mesh;
	for (int32_t k = 0; k < d->vf_count; ++k) {
		double w[3];
		int32_t p = d->vf[k].p, t = d->vf[k].t;
		vec3 up = v3(m->uvs[2 * p], m->uvs[2 * p + 1], 0.0);
		if (point_triangle_closest(up, uv3(s, t, 0), uv3(s, t, 1), uv3(s, t, 2), w) < R * R) return false;
	}
	return true;
}

static void test_rest_flat_fine_sheet_has_no_contacts(void)
{
	/* 120 x 120 particles, 5 mm cells, thickness 8 mm: the thickness reaches past the
	 * neighbouring triangles (a vertex is 3.5 mm from the diagonal of the next cell). */
	sheet s;
	CHECK(make_grid_sheet(&s, 120, 120, 0.005));
	const drape_mesh* m = &s.mesh;
	vec3* x = malloc((size_t)m->vertex_count * sizeof *x);
	for (int32_t i = 0; i < m->vertex_count; ++i) x[i] = v3_load(&m->positions[3 * i]);
	const double h = 0.008;
	cloth_pairs d;
	CHECK(cloth_pairs_init(&d, s.tri, m->triangle_count, m->vertex_count));
	int32_t without = cloth_pairs_proximity(&d, x, h);
	CHECK(without > 10 * m->vertex_count); /* what the rest test removes */
	CHECK(cloth_pairs_set_rest(&d, s.tri_uv, 1.5 * h));
	CHECK(cloth_pairs_proximity(&d, x, h) == 0);
	/* stretched or compressed in plane by 20 %, still none */
	for (double scale = 0.8; scale <= 1.21; scale += 0.4) {
		vec3* y = malloc((size_t)m->vertex_count * sizeof *y);
		for (int32_t i = 0; i < m->vertex_count; ++i) y[i] = v3(scale * x[i].x, scale * x[i].y, x[i].z);
		CHECK(cloth_pairs_proximity(&d, y, h) == 0);
		free(y);
	}
	cloth_pairs_free(&d);
	free(x);
	sheet_free(&s);
}

static void test_rest_folded_sheet_matches_brute_force(void)
{
	/* A 41 x 13 grid of 1 cm cells folded with the layers 1.2 cm apart, thickness 2 cm (twice the
	 * cell), radius 2.7 cm: the detector must report exactly the brute-force pairs that are
	 * close in space and rest-far, and there must be many (the layers face each other). */
	sheet s;
	CHECK(make_grid_sheet(&s, 41, 13, 0.01));
	const drape_mesh* m = &s.mesh;
	vec3* x = malloc((size_t)m->vertex_count * sizeof *x);
	double u0 = m->uvs[0];
	fold_positions(&s, u0 + 0.15, 0.012, x);
	const double h = 0.02, R = 0.027;
	cloth_pairs d;
	CHECK(cloth_pairs_init(&d, s.tri, m->triangle_count, m->vertex_count));
	CHECK(cloth_pairs_set_rest(&d, s.tri_uv, R));
	CHECK(cloth_pairs_proximity(&d, x, h) > 0);
	int32_t vf, ee;
	brute_counts(&s, &d, x, h, R, &vf, &ee);
	CHECK(d.vf_count == vf);
	CHECK(d.ee_count == ee);
	CHECK(vf > m->vertex_count / 4);
	CHECK(reported_rest_far(&s, &d, R));
	/* the same sheet laid flat: nothing */
	for (int32_t i = 0; i < m->vertex_count; ++i) x[i] = v3_load(&m->positions[3 * i]);
	CHECK(cloth_pairs_proximity(&d, x, h) == 0);
	cloth_pairs_free(&d);
	free(x);
	sheet_free(&s);
}

static void test_rest_lists_match_brute_force(void)
{
	/* Each vertex's list is exactly the triangles within R of it in (u, v), not holding it;
	 * each edge's list the edges f > e within R, sharing no endpoint. */
	sheet s;
	CHECK(make_grid_sheet(&s, 9, 7, 1.0));
	const drape_mesh* m = &s.mesh;
	cloth_pairs d;
	CHECK(cloth_pairs_init(&d, s.tri, m->triangle_count, m->vertex_count));
	const double R = 1.9;
	CHECK(cloth_pairs_set_rest(&d, s.tri_uv, R));
	bool same = true;
	for (int32_t p = 0; p < m->vertex_count; ++p) {
		vec3 up = v3(m->uvs[2 * p], m->uvs[2 * p + 1], 0.0);
		for (int32_t t = 0; t < m->triangle_count; ++t) {
			const int32_t* tv = s.tri + 3 * t;
			double w[3];
			bool want = tv[0] != p && tv[1] != p && tv[2] != p &&
				    point_triangle_closest(up, uv3(&s, t, 0), uv3(&s, t, 1), uv3(&s, t, 2), w) < R * R;
			same = same && want == rest_near_vf(&d.rest, p, t);
		}
	}
	CHECK(same);
	int64_t listed = 0;
	for (int32_t e = 0; e < d.edge_count; ++e)
		for (int32_t f = 0; f < d.edge_count; ++f) {
			if (f == e) continue;
			const int32_t *ev = d.edges + 2 * e, *fv = d.edges + 2 * f;
			vec3 a0 = v3(m->uvs[2 * ev[0]], m->uvs[2 * ev[0] + 1], 0.0), a1 = v3(m->uvs[2 * ev[1]], m->uvs[2 * ev[1] + 1], 0.0);
			vec3 b0 = v3(m->uvs[2 * fv[0]], m->uvs[2 * fv[0] + 1], 0.0), b1 = v3(m->uvs[2 * fv[1]], m->uvs[2 * fv[1] + 1], 0.0);
			double a, b;
			bool want = ev[0] != fv[0] && ev[0] != fv[1] && ev[1] != fv[0] && ev[1] != fv[1] &&
				    segment_segment_closest(a0, a1, b0, b1, &a, &b) < R * R;
			same = same && want == rest_near_ee(&d.rest, e, f);
			listed += want;
		}
	CHECK(same);
	CHECK(listed > 0);
	cloth_pairs_free(&d);
	sheet_free(&s);
}

static void test_rest_seam_no_false_contacts(void)
{
	/* The sewn panels: two panels at 90 degrees sharing a seam, 5 cm cells, laid side by side
	 * with a 10 cm gap in (u, v), so (u, v) distance across the seam means nothing. With a
	 * thickness of 6 cm (above the cell), the panels' cells near the seam are within the
	 * thickness in space; on the rest mesh, unfolded across the seam, they are a + b apart
	 * where space has sqrt(a^2 + b^2) <= (a + b) / sqrt 2, so a radius of 1.5 thicknesses
	 * excludes them all. */
	sheet s;
	char err[256];
	CHECK(drape_mesh_load_obj(DRAPE_SOURCE_DIR "/scenes/sewn_panels.obj", 0.01, &s.mesh, err, sizeof err) == DRAPE_OK);
	sheet_from_mesh(&s);
	const drape_mesh* m = &s.mesh;
	vec3* x = malloc((size_t)m->vertex_count * sizeof *x);
	for (int32_t i = 0; i < m->vertex_count; ++i) x[i] = v3_load(&m->positions[3 * i]);
	const double h = 0.06;
	cloth_pairs d;
	CHECK(cloth_pairs_init(&d, s.tri, m->triangle_count, m->vertex_count));
	int32_t without = cloth_pairs_proximity(&d, x, h);
	CHECK(without > 0);
	/* what would be reported across the seam: vertices off the seam (x != 0 and y != 0 at once
	 * never holds on the panels; the seam is x = y = 0) against triangles of the other panel */
	int32_t across = 0;
	for (int32_t k = 0; k < d.vf_count; ++k) {
		vec3 p = x[d.vf[k].p];
		const int32_t* tv = s.tri + 3 * d.vf[k].t;
		vec3 c = v3_scale(v3_add(v3_add(x[tv[0]], x[tv[1]]), x[tv[2]]), 1.0 / 3.0);
		bool p_on_a = fabs(p.y) < 1e-9 && fabs(p.x) > 1e-9, p_on_b = fabs(p.x) < 1e-9 && fabs(p.y) > 1e-9;
		if ((p_on_a && fabs(c.x) < 1e-9) || (p_on_b && fabs(c.y) < 1e-9)) ++across;
	}
	CHECK(across > 0);
	CHECK(cloth_pairs_set_rest(&d, s.tri_uv, 1.5 * h));
	CHECK(cloth_pairs_proximity(&d, x, h) == 0);
	/* The exclusion crosses the seam by unfolding, and only as far as the radius: a vertex of
	 * panel A one cell (5 cm) from the seam lists triangles of panel B along the seam (5 cm away
	 * on the rest mesh, 15 cm in (u, v)), and none whose nearest corner is a cell or more into B
	 * (10 cm or more, beyond 1.5 h = 9 cm). */
	int32_t checked = 0, crossing = 0;
	bool far_ok = true;
	for (int32_t p = 0; p < m->vertex_count; ++p) {
		if (!(fabs(x[p].y) < 1e-9 && fabs(x[p].x + 0.05) < 1e-6)) continue;
		++checked;
		for (int32_t k = d.rest.vf_start[p]; k < d.rest.vf_start[p + 1]; ++k) {
			const int32_t* tv = s.tri + 3 * d.rest.vf_tri[k];
			double lo = fmin(x[tv[0]].y, fmin(x[tv[1]].y, x[tv[2]].y));
			double hi = fmax(x[tv[0]].y, fmax(x[tv[1]].y, x[tv[2]].y));
			crossing += hi > 1e-6;
			far_ok = far_ok && lo < 0.05 - 1e-6;
		}
	}
	CHECK(checked == 13);
	CHECK(crossing > 0);
	CHECK(far_ok);
	cloth_pairs_free(&d);
	free(x);
	sheet_free(&s);
}

/* World level: a 100 x 100 sheet of 5 mm cells with the cloth thickness at 8 mm starts and
 * falls with no cloth contact; the same sheet folded with its layers 5 mm apart has contacts. */
static drape_world* world_with(const drape_mesh* mesh, double thickness)
{
	drape_world_def wd = drape_default_world_def();
	wd.cloth_thickness = thickness;
	wd.threads = 1;
	drape_world* w = drape_world_create(&wd);
	drape_cloth_def cd = drape_default_cloth_def();
	cd.mesh = mesh;
	cd.name = "sheet";
	CHECK(drape_cloth_add(w, &cd).index == 0);
	return w;
}

static void test_rest_world_flat_and_folded(void)
{
	sheet s;
	CHECK(make_grid_sheet(&s, SHORT(100, 50), SHORT(100, 50), 0.005)); /* 5 mm cells either way */
	drape_world* w = world_with(&s.mesh, 0.008);
	CHECK(drape_world_step(w, 1.0 / 30.0) == DRAPE_OK);
	drape_stats st = drape_world_get_stats(w);
	CHECK(st.cloth_contacts == 0);
	CHECK(st.self_intersections == 0);
	drape_world_destroy(w);

	sheet f;
	CHECK(make_grid_sheet(&f, 60, 20, 0.005));
	vec3* x = malloc((size_t)f.mesh.vertex_count * sizeof *x);
	fold_positions(&f, f.mesh.uvs[0] + 0.12, 0.005, x);
	for (int32_t i = 0; i < f.mesh.vertex_count; ++i) v3_store(v3_add(x[i], v3(0.0, 0.0, 1.0)), &f.mesh.positions[3 * i]);
	w = world_with(&f.mesh, 0.008);
	CHECK(drape_world_step(w, 1.0 / 30.0) == DRAPE_OK);
	st = drape_world_get_stats(w);
	CHECK(st.cloth_contacts > f.mesh.vertex_count / 4);
	drape_world_destroy(w);
	free(x);
	sheet_free(&f);
	sheet_free(&s);
}

const test_case rest_tests[] = {
	{"rest_flat_fine_sheet_has_no_contacts", test_rest_flat_fine_sheet_has_no_contacts},
	{"rest_folded_sheet_matches_brute_force", test_rest_folded_sheet_matches_brute_force},
	{"rest_lists_match_brute_force", test_rest_lists_match_brute_force},
	{"rest_seam_no_false_contacts", test_rest_seam_no_false_contacts},
	{"rest_world_flat_and_folded", test_rest_world_flat_and_folded},
	{NULL, NULL},
};
