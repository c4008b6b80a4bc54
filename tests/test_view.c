/* The viewer's maths without a window (app/view_camera.c, app/view_pick.c, app/view_font.c):
 * projection and cursor rays agree, orbit/pan/zoom keep what they promise, picking finds the
 * particle under the cursor on the front layer, and a drag's spring target follows the cursor in
 * the plane through the grabbed point (sec. 4.4). The live viewer is tested by tests/view_test.sh. */
#include "fixtures.h"
#include "test.h"

#include "view_camera.h"
#include "view_font.h"
#include "view_pick.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double W = 800.0, H = 600.0;

static view_orbit test_orbit(void)
{
	view_orbit o;
	const double eye[3] = {1.5, -2.5, 2.0}, target[3] = {0.1, 0.2, 0.9}, up[3] = {0.0, 0.0, 2.0};
	view_orbit_look(&o, eye, target, up, 40.0);
	return o;
}

static double ray_distance(const double origin[3], const double dir[3], const double p[3])
{
	double d[3] = {p[0] - origin[0], p[1] - origin[1], p[2] - origin[2]};
	double s = d[0] * dir[0] + d[1] * dir[1] + d[2] * dir[2];
	double q[3] = {d[0] - s * dir[0], d[1] - s * dir[1], d[2] - s * dir[2]};
	return sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
}

static void test_look_roundtrip(void)
{
	view_orbit o = test_orbit();
	view_frame f;
	view_orbit_frame(&o, &f);
	CHECK_NEAR(f.eye[0], 1.5, 1e-12);
	CHECK_NEAR(f.eye[1], -2.5, 1e-12);
	CHECK_NEAR(f.eye[2], 2.0, 1e-12);
	/* forward, right, up: unit, orthogonal, right-handed (right x up = -forward) */
	double dots[3] = {f.forward[0] * f.right[0] + f.forward[1] * f.right[1] + f.forward[2] * f.right[2],
			  f.forward[0] * f.up[0] + f.forward[1] * f.up[1] + f.forward[2] * f.up[2],
			  f.right[0] * f.up[0] + f.right[1] * f.up[1] + f.right[2] * f.up[2]};
	for (int i = 0; i < 3; ++i) CHECK_NEAR(dots[i], 0.0, 1e-12);
	double c[3] = {f.right[1] * f.up[2] - f.right[2] * f.up[1], f.right[2] * f.up[0] - f.right[0] * f.up[2],
		       f.right[0] * f.up[1] - f.right[1] * f.up[0]};
	for (int i = 0; i < 3; ++i) CHECK_NEAR(c[i], -f.forward[i], 1e-12);
	/* the camera's up leans towards the world's up */
	CHECK(f.up[2] > 0.5);
}

/* A point projected to a pixel lies on the ray through that pixel, and the target is centred. */
static void test_project_and_ray(void)
{
	view_orbit o = test_orbit();
	uint64_t seed = 7;
	for (int k = 0; k < 50; ++k) {
		double p[3] = {0.5 * fixture_rand(&seed), 0.5 * fixture_rand(&seed), 1.0 + 0.5 * fixture_rand(&seed)};
		double px, py, depth, origin[3], dir[3];
		CHECK(view_project(&o, W, H, p, &px, &py, &depth));
		view_ray(&o, W, H, px, py, origin, dir);
		CHECK_NEAR(ray_distance(origin, dir, p), 0.0, 1e-12);
		CHECK_NEAR(sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]), 1.0, 1e-12);
	}
	double px, py, depth;
	CHECK(view_project(&o, W, H, o.target, &px, &py, &depth));
	CHECK_NEAR(px, 0.5 * W, 1e-9);
	CHECK_NEAR(py, 0.5 * H, 1e-9);
	CHECK_NEAR(depth, o.distance, 1e-12);
	/* a point behind the eye does not project */
	view_frame f;
	view_orbit_frame(&o, &f);
	double behind[3] = {f.eye[0] - f.forward[0], f.eye[1] - f.forward[1], f.eye[2] - f.forward[2]};
	CHECK(!view_project(&o, W, H, behind, &px, &py, &depth));
	/* screen y grows downwards: a point above the target appears higher up (smaller y) */
	double above[3] = {o.target[0], o.target[1], o.target[2] + 0.1};
	CHECK(view_project(&o, W, H, above, &px, &py, &depth) && py < 0.5 * H);
}

/* Panning moves the point at the target's depth exactly with the cursor; rotating and zooming
 * keep the target centred; zooming in shortens the distance; the pitch never reaches the pole. */
static void test_orbit_pan_zoom(void)
{
	view_orbit o = test_orbit();
	double p[3] = {0.2, 0.1, 1.0}, px, py, depth;
	/* a point in the plane through the target facing the camera */
	view_frame f;
	view_orbit_frame(&o, &f);
	for (int i = 0; i < 3; ++i) p[i] = o.target[i] + 0.2 * f.right[i] - 0.1 * f.up[i];
	CHECK(view_project(&o, W, H, p, &px, &py, &depth));
	view_orbit_pan(&o, 30.0, -20.0, H);
	double qx, qy;
	CHECK(view_project(&o, W, H, p, &qx, &qy, &depth));
	CHECK_NEAR(qx - px, 30.0, 1e-9);
	CHECK_NEAR(qy - py, -20.0, 1e-9);

	double d0 = o.distance;
	view_orbit_zoom(&o, 2.0);
	CHECK(o.distance < d0);
	view_orbit_zoom(&o, -2.0);
	CHECK_NEAR(o.distance, d0, 1e-12);

	view_orbit_rotate(&o, 100.0, 5000.0);
	CHECK(o.pitch < 89.5 * 3.14159265358979 / 180.0);
	CHECK_NEAR(o.distance, d0, 1e-12);
	CHECK(view_project(&o, W, H, o.target, &qx, &qy, &depth));
	CHECK_NEAR(qx, 0.5 * W, 1e-9);
	CHECK_NEAR(qy, 0.5 * H, 1e-9);
	CHECK_NEAR(depth, d0, 1e-12);
}

static void test_ray_plane(void)
{
	const double origin[3] = {0.0, 0.0, 2.0}, dir[3] = {0.6, 0.0, -0.8}, point[3] = {0.0, 0.0, 1.0},
		     normal[3] = {0.0, 0.0, 3.0};
	double hit[3];
	CHECK(view_ray_plane(origin, dir, point, normal, hit));
	CHECK_NEAR(hit[0], 0.75, 1e-12);
	CHECK_NEAR(hit[2], 1.0, 1e-12);
	const double away[3] = {0.6, 0.0, 0.8}, parallel[3] = {1.0, 0.0, 0.0};
	CHECK(!view_ray_plane(origin, away, point, normal, hit));
	CHECK(!view_ray_plane(origin, parallel, point, normal, hit));
}

/* Picking returns the particle whose projection is nearest the cursor, misses outside the radius,
 * and prefers the front layer when two sheets overlap on screen. */
static void test_pick(void)
{
	drape_world_def wd = drape_default_world_def();
	drape_cloth_id c;
	drape_world* w = make_sheet(&wd, NULL, 9, 1.0, true, &c);
	view_orbit o;
	const double eye[3] = {0.3, -0.4, 3.0}, target[3] = {0.0, 0.0, 1.0}, up[3] = {0.0, 1.0, 0.0};
	view_orbit_look(&o, eye, target, up, 45.0);
	int32_t n = drape_cloth_vertex_count(w, c);
	double* x = malloc(3 * sizeof(double) * (size_t)n);
	drape_cloth_get_positions(w, c, x);
	for (int32_t v = 0; v < n; v += 7) {
		double px, py, depth;
		CHECK(view_project(&o, W, H, x + 3 * v, &px, &py, &depth));
		view_pick p;
		CHECK(view_pick_particle(w, &o, W, H, px + 1.5, py - 1.0, 10.0, &p));
		CHECK(p.cloth == c.index && p.vertex == v);
		CHECK_NEAR(p.pixel_distance, hypot(1.5, 1.0), 1e-9);
		CHECK_NEAR(p.position[2], x[3 * v + 2], 0.0);
	}
	view_pick p;
	CHECK(!view_pick_particle(w, &o, W, H, 2.0, 2.0, 10.0, &p)); /* a corner of the window: sky */

	/* A second, smaller sheet 0.3 m nearer the eye, shifted so that its particles fall between
	 * the first sheet's on screen: the cursor on a back particle still picks the front sheet. */
	drape_grid_def g = drape_default_grid_def();
	g.size[0] = g.size[1] = 0.5;
	g.resolution[0] = g.resolution[1] = 5;
	g.center[0] = 0.0625;
	g.center[2] = 1.3;
	drape_mesh m;
	CHECK(drape_mesh_make_grid(&g, &m, NULL, 0) == DRAPE_OK);
	drape_cloth_def cd = drape_default_cloth_def();
	cd.mesh = &m;
	drape_cloth_id front = drape_cloth_add(w, &cd);
	drape_mesh_free(&m);
	CHECK(front.index == 1);
	double px, py, depth;
	CHECK(view_project(&o, W, H, x + 3 * 40, &px, &py, &depth)); /* the back sheet's centre */
	CHECK(view_pick_particle(w, &o, W, H, px, py, 40.0, &p));
	CHECK(p.cloth == front.index);
	free(x);
	drape_world_destroy(w);
}

/* A drag adds a spring at the particle (no jump), moves its target onto the cursor ray in the
 * plane through the grabbed point facing the camera, pulls the particle there, and ends cleanly. */
static void test_drag(void)
{
	drape_world_def wd = drape_default_world_def();
	drape_cloth_id c;
	drape_world* w = make_sheet(&wd, NULL, 9, 1.0, true, &c);
	view_orbit o;
	const double eye[3] = {0.0, -0.5, 3.0}, target[3] = {0.0, 0.0, 1.0}, up[3] = {0.0, 0.0, 1.0};
	view_orbit_look(&o, eye, target, up, 45.0);
	const int32_t v = 4; /* the middle of the free edge */
	int32_t n = drape_cloth_vertex_count(w, c);
	double* x = malloc(3 * sizeof(double) * (size_t)n);
	drape_cloth_get_positions(w, c, x);
	double px, py, depth;
	CHECK(view_project(&o, W, H, x + 3 * v, &px, &py, &depth));
	const double g[3] = {0.0, 0.0, -9.81};
	view_drag d;
	CHECK(view_drag_begin(&d, w, &o, W, H, px, py, 0.0, 0.02, g));
	CHECK(d.active && d.grabbed.vertex == v);
	for (int i = 0; i < 3; ++i) CHECK_NEAR(d.target[i], x[3 * v + i], 0.0);
	/* the default stiffness: the cloth's weight at 5 cm (0.1 kg/m^2 by default over 1 m^2) */
	double masses[81], mass = 0.0;
	drape_cloth_get_masses(w, c, masses);
	for (int i = 0; i < n; ++i) mass += masses[i];
	CHECK_NEAR(view_drag_default_stiffness(w, c, g), mass * 9.81 / 0.05, 1e-9);

	view_drag_move(&d, w, &o, W, H, px + 120.0, py - 60.0);
	double origin[3], dir[3];
	view_ray(&o, W, H, px + 120.0, py - 60.0, origin, dir);
	CHECK_NEAR(ray_distance(origin, dir, d.target), 0.0, 1e-12);
	double off = 0.0;
	for (int i = 0; i < 3; ++i) off += (d.target[i] - x[3 * v + i]) * d.plane_normal[i];
	CHECK_NEAR(off, 0.0, 1e-12);

	/* One second of pulling brings the particle most of the way to the target. */
	double start_gap = 0.0;
	for (int i = 0; i < 3; ++i) start_gap += (d.target[i] - x[3 * v + i]) * (d.target[i] - x[3 * v + i]);
	for (int f = 1; f <= 30; ++f) CHECK(drape_world_step(w, f / 30.0 - drape_world_time(w)) == DRAPE_OK);
	drape_cloth_get_positions(w, c, x);
	double gap = 0.0;
	for (int i = 0; i < 3; ++i) gap += (d.target[i] - x[3 * v + i]) * (d.target[i] - x[3 * v + i]);
	CHECK(sqrt(gap) < 0.25 * sqrt(start_gap));
	view_drag_end(&d, w);
	CHECK(!d.active);
	free(x);
	drape_world_destroy(w);
}

static void test_font(void)
{
	const char* all = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ.,:-/=()%+|'_!?<>[]*#";
	for (const char* p = all; *p; ++p) {
		uint8_t rows[VIEW_GLYPH_H];
		CHECK(view_font_glyph(*p, rows));
		int lit = 0;
		for (int r = 0; r < VIEW_GLYPH_H; ++r) {
			CHECK(rows[r] < 32);
			for (int k = 0; k < 5; ++k) lit += rows[r] >> k & 1;
		}
		CHECK(lit > 0);
	}
	uint8_t a[VIEW_GLYPH_H], b[VIEW_GLYPH_H];
	CHECK(view_font_glyph('q', a) && view_font_glyph('Q', b) && memcmp(a, b, sizeof a) == 0);
	CHECK(!view_font_glyph('~', a));
	CHECK(view_font_glyph('8', a) && view_font_glyph('B', b) && memcmp(a, b, sizeof a) != 0);
	CHECK(view_text_width("", 2) == 0);
	CHECK(view_text_width("AB", 2) == 22);
}

const test_case view_tests[] = {
	{"look_roundtrip", test_look_roundtrip},
	{"project_and_ray", test_project_and_ray},
	{"orbit_pan_zoom", test_orbit_pan_zoom},
	{"ray_plane", test_ray_plane},
	{"pick", test_pick},
	{"drag", test_drag},
	{"font", test_font},
	{NULL, NULL},
};
