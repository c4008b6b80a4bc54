/* Thin and open mesh solids (sec. 6; docs/collide.md, "Open meshes: both sides"): a one-quad
 * solid holds cloth on either side whatever its winding, cloth slides off its boundary edge
 * without passing through it, and a sheet thrown at a one-triangle-thick wall at 10 m/s stops on
 * the side it came from; and a strip hangs over the skinned arm of assimp-testmodels'
 * simple_skin.gltf as it bends. Every frame is checked: nothing penetrating, and no particle on
 * the other side than the one it came from. */
#include "fixtures.h"
#include "test.h"

#include "collide/geometry.h"
#include "collide/solid.h"
#include "world.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A rectangle with centre o, unit axes ex, ey and half sizes a, b, as a two-triangle mesh whose
 * normal is ex x ey (flipped: -(ex x ey)). */
typedef struct quad {
	vec3 o, ex, ey;
	double a, b;
} quad;

static vec3 quad_normal(const quad* q) { return v3_cross(q->ex, q->ey); }

/* The quad, moved by keyframed poses (its vertices in the pose frame) if pose_count > 0. */
static drape_solid_id add_quad_posed(drape_world* w, const quad* q, bool flipped, double thickness, double friction,
				     const drape_pose* poses, int32_t pose_count)
{
	double pos[12];
	const double s[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
	for (int k = 0; k < 4; ++k)
		v3_store(v3_add(q->o, v3_add(v3_scale(q->ex, s[k][0] * q->a), v3_scale(q->ey, s[k][1] * q->b))), &pos[3 * k]);
	int32_t up[6] = {0, 1, 2, 0, 2, 3}, down[6] = {0, 2, 1, 0, 3, 2};
	drape_mesh m = {0};
	m.vertex_count = 4;
	m.positions = pos;
	m.triangle_count = 2;
	m.triangles = flipped ? down : up;
	drape_solid_def sd = drape_default_solid_def();
	sd.shape = DRAPE_SOLID_MESH;
	sd.mesh = &m;
	sd.thickness = thickness;
	sd.friction = friction;
	sd.poses = poses;
	sd.pose_count = pose_count;
	return drape_solid_add(w, &sd);
}

static drape_solid_id add_quad(drape_world* w, const quad* q, bool flipped, double thickness, double friction)
{
	return add_quad_posed(w, q, flipped, thickness, friction, NULL, 0);
}

/* A res x res sheet of side `size` centred at c in the plane spanned by u and v. */
static drape_cloth_id add_sheet(drape_world* w, int res, double size, vec3 c, vec3 u, vec3 v)
{
	double cc[3], uu[3], vv[3];
	v3_store(c, cc), v3_store(u, uu), v3_store(v, vv);
	return fixture_add_sheet(w, res, size, cc, uu, vv, NULL);
}

/* The side of the quad's plane each particle is on: set at the start, kept while the particle is
 * over the quad, free to change beyond its edges (going round an edge is allowed, through the quad
 * is not). Returns how many particles over the quad are on the other side than they came from;
 * *closest gets the smallest distance from the quad's plane of a particle over it. */
static int32_t wrong_side(const drape_world* w, const quad* q, signed char* side, double* closest)
{
	int32_t wrong = 0;
	const vec3 n = quad_normal(q);
	for (int32_t i = 0; i < w->model.particle_count; ++i) {
		vec3 d = v3_sub(w->state.x[i], q->o);
		double lz = v3_dot(d, n);
		signed char s = lz < 0.0 ? -1 : 1;
		bool over = fabs(v3_dot(d, q->ex)) < q->a && fabs(v3_dot(d, q->ey)) < q->b;
		if (!over || side[i] == 0) {
			side[i] = s;
			continue;
		}
		if (s != side[i]) wrong++;
		if (closest) *closest = fmin(*closest, fabs(lz));
	}
	return wrong;
}

/* Steps frames of 1/30 s, checking every frame: no particle on the wrong side of the quad, none
 * penetrating, no self-intersection. Returns the smallest distance of a particle over the quad
 * from its plane. */
static double run_checked(drape_world* w, const quad* q, int frames)
{
	signed char* side = calloc((size_t)w->model.particle_count, 1);
	wrong_side(w, q, side, NULL);
	double closest = INFINITY;
	int32_t worst = 0;
	for (int f = 1; f <= frames; ++f) {
		CHECK(drape_world_step(w, f / 30.0 - drape_world_time(w)) == DRAPE_OK);
		drape_stats st = drape_world_get_stats(w);
		CHECK(st.penetrating == 0);
		CHECK(st.self_intersections == 0);
		int32_t wrong = wrong_side(w, q, side, &closest);
		if (wrong > worst) worst = wrong;
	}
	CHECK(worst == 0);
	free(side);
	return closest;
}

static double mean_along(const drape_world* w, const quad* q, vec3 axis)
{
	double s = 0.0;
	for (int32_t i = 0; i < w->model.particle_count; ++i) s += v3_dot(v3_sub(w->state.x[i], q->o), axis);
	return s / w->model.particle_count;
}

/* A sheet dropped on a horizontal 1 m quad comes to rest on it, a thickness above, with either
 * winding; with gravity reversed, one rising from below rests under it. */
static void sheet_on_quad(bool flipped, double up)
{
	drape_world_def wd = drape_default_world_def();
	wd.gravity[2] = -9.81 * up;
	drape_world* w = drape_world_create(&wd);
	quad q = {v3(0, 0, 0), v3(1, 0, 0), v3(0, 1, 0), 0.5, 0.5};
	const double th = 0.005;
	CHECK(add_quad(w, &q, flipped, th, 0.3).index == 0);
	add_sheet(w, 13, 0.6, v3(0.0, 0.0, 0.1 * up), v3(1, 0, 0), v3(0, 1, 0));
	double closest = run_checked(w, &q, 45);
	CHECK(closest > 0.5 * th);
	/* at rest on the quad's side it started on, a thickness from it */
	const double z = up * mean_along(w, &q, v3(0, 0, 1));
	CHECK(z > 0.5 * th && z < 2.0 * th);
	CHECK(drape_world_kinetic_energy(w) < 1e-4);
	drape_world_destroy(w);
}

static void test_sheet_rests_on_single_quad(void)
{
	sheet_on_quad(false, 1.0);
	sheet_on_quad(true, 1.0);
}

static void test_sheet_rests_under_single_quad(void)
{
	sheet_on_quad(false, -1.0);
	sheet_on_quad(true, -1.0);
}

/* Which side comes from history, not from where a step ended: a sheet resting on the quad is
 * moved 2 mm through it (as a step that ended past the surface would leave it), and its contacts
 * put it back on top, not a thickness below. */
static void test_sheet_pushed_through_returns_to_its_side(void)
{
	drape_world_def wd = drape_default_world_def();
	drape_world* w = drape_world_create(&wd);
	quad q = {v3(0, 0, 0), v3(1, 0, 0), v3(0, 1, 0), 0.5, 0.5};
	CHECK(add_quad(w, &q, false, 0.005, 0.3).index == 0);
	add_sheet(w, 13, 0.6, v3(0.0, 0.0, 0.02), v3(1, 0, 0), v3(0, 1, 0));
	for (int f = 1; f <= 20; ++f) CHECK(drape_world_step(w, f / 30.0 - drape_world_time(w)) == DRAPE_OK);
	CHECK(drape_world_get_stats(w).solid_contacts == w->model.particle_count);
	for (int32_t i = 0; i < w->model.particle_count; ++i) w->state.x[i].z = -0.002;
	for (int f = 21; f <= 30; ++f) CHECK(drape_world_step(w, f / 30.0 - drape_world_time(w)) == DRAPE_OK);
	for (int32_t i = 0; i < w->model.particle_count; ++i) CHECK(w->state.x[i].z > 0.0025);
	drape_world_destroy(w);
}

/* A quad rising at 3 m/s from 0.3 m below a sheet lying in the air catches it and carries it up
 * (continuous detection against the moving faces), with either winding; it stops at t = 0.5 s and
 * the sheet flies on. */
static void rising_quad(bool flipped)
{
	drape_world_def wd = drape_default_world_def();
	drape_world* w = drape_world_create(&wd);
	quad q = {v3(0, 0, 0), v3(1, 0, 0), v3(0, 1, 0), 0.5, 0.5};
	const drape_pose poses[2] = {{0.0, {0, 0, -0.3}, {1, 0, 0, 0}}, {0.5, {0, 0, 1.2}, {1, 0, 0, 0}}};
	CHECK(add_quad_posed(w, &q, flipped, 0.005, 0.3, poses, 2).index == 0);
	add_sheet(w, 13, 0.6, v3(0, 0, 0), v3(1, 0, 0), v3(0, 1, 0));
	signed char* side = calloc((size_t)w->model.particle_count, 1);
	q.o.z = -0.3;
	wrong_side(w, &q, side, NULL);
	int32_t worst = 0;
	double lowest = INFINITY;
	for (int f = 1; f <= 15; ++f) {
		CHECK(drape_world_step(w, f / 30.0 - drape_world_time(w)) == DRAPE_OK);
		CHECK(drape_world_get_stats(w).self_intersections == 0);
		q.o.z = -0.3 + 3.0 * fmin(drape_world_time(w), 0.5);
		int32_t wrong = wrong_side(w, &q, side, NULL);
		if (wrong > worst) worst = wrong;
		if (f == 12) /* t = 0.4: carried at the quad's speed, on top of it */
			for (int32_t i = 0; i < w->model.particle_count; ++i) lowest = fmin(lowest, w->state.x[i].z - q.o.z);
	}
	CHECK(worst == 0);
	CHECK(lowest > 0.0025);
	free(side);
	drape_world_destroy(w);
}

static void test_rising_quad_carries_sheet(void)
{
	rising_quad(false);
	rising_quad(true);
}

/* A sheet on a quad tilted by 30 degrees (friction 0.1, below the slope's tan 30 = 0.58) slides
 * down, over the lower edge and off. */
static void sheet_slides_off(bool flipped)
{
	drape_world_def wd = drape_default_world_def();
	drape_world* w = drape_world_create(&wd);
	const double a = 30.0 * 3.14159265358979323846 / 180.0;
	quad q = {v3(0, 0, 0), v3(cos(a), 0, -sin(a)), v3(0, 1, 0), 0.5, 0.5};
	const double th = 0.005;
	CHECK(add_quad(w, &q, flipped, th, 0.1).index == 0);
	vec3 n = quad_normal(&q);
	add_sheet(w, 11, 0.4, v3_add(v3_scale(q.ex, -0.2), v3_scale(n, 0.01)), q.ex, q.ey);
	run_checked(w, &q, 45);
	/* off the quad: beyond its lower edge and below it */
	CHECK(mean_along(w, &q, q.ex) > 0.5);
	CHECK(mean_along(w, &q, v3(0, 0, 1)) < -0.3);
	drape_world_destroy(w);
}

static void test_sheet_slides_off_quad_edge(void)
{
	sheet_slides_off(false);
	sheet_slides_off(true);
}

/* A sheet thrown at 10 m/s at a wall of one quad (two triangles, no volume): one frame carries
 * it 0.33 m, more than its distance from the wall, and it must stop on its side, a thickness
 * from the wall (the contact takes the normal velocity: no bounce). Off-centre by `offset`, part
 * of it passes the wall's edge (continuous detection against the edge grown by the thickness). */
static void sheet_at_wall(bool flipped, double offset)
{
	drape_world_def wd = drape_default_world_def();
	wd.gravity[2] = 0.0;
	drape_world* w = drape_world_create(&wd);
	quad q = {v3(0, 0, 0), v3(0, 1, 0), v3(0, 0, 1), 0.5, 0.5}; /* the plane x = 0 */
	CHECK(add_quad(w, &q, flipped, 0.005, 0.3).index == 0);
	drape_cloth_id c = add_sheet(w, 9, 0.3, v3(0.3, offset, 0.0), v3(0, 1, 0), v3(0, 0, 1));
	double* v = calloc(3 * 81, sizeof *v);
	for (int i = 0; i < 81; ++i) v[3 * i] = -10.0;
	drape_cloth_set_velocities(w, c, v);
	free(v);
	run_checked(w, &q, 15);
	/* Head-on, it lies against the wall; off-centre, the part past the edge drags the rest round
	 * it, which run_checked allows (round the edge, never through the wall). */
	for (int32_t i = 0; offset == 0.0 && i < w->model.particle_count; ++i) CHECK(w->state.x[i].x > 0.0 && w->state.x[i].x < 0.01);
	drape_world_destroy(w);
}

static void test_sheet_thrown_at_thin_wall(void)
{
	sheet_at_wall(false, 0.0);
	sheet_at_wall(true, 0.0);
}

static void test_sheet_thrown_past_thin_wall_edge(void)
{
	sheet_at_wall(false, 0.45);
	sheet_at_wall(true, 0.45);
}

/* The queries themselves, on the wall x = 0 (|y|, |z| <= 0.5, thickness 5 mm): a point just
 * behind the wall that is known to have come from the front is measured from the front (negative
 * distance, normal +x), whichever way the faces are wound; beyond the rim the side is free and
 * the normal points away from the edge; a path passing 2 mm from the edge without crossing the
 * wall is caught on the edge's thickness, one passing 6 mm away is not. */
static void queries_on_wall(bool flipped)
{
	drape_world_def wd = drape_default_world_def();
	drape_world* w = drape_world_create(&wd);
	quad q = {v3(0, 0, 0), v3(0, 1, 0), v3(0, 0, 1), 0.5, 0.5};
	CHECK(add_quad(w, &q, flipped, 0.005, 0.3).index == 0);
	CHECK(w->model.solids[0].two_sided);
	solids_begin_step(w, 0.0, 0.01);
	solid_point p;
	const int front = flipped ? -1 : 1; /* sides are counted along the face's normal */
	CHECK(solid_closest(w, 0, v3(-0.001, 0.1, 0.1), 0.005, front, &p));
	CHECK_NEAR(p.distance, -0.001, 1e-12);
	CHECK_NEAR(p.normal.x, 1.0, 1e-12);
	CHECK(p.side == front && !p.free_side);
	CHECK(solid_closest(w, 0, v3(-0.001, 0.1, 0.1), 0.005, 0, &p));
	CHECK_NEAR(p.distance, 0.001, 1e-12);
	CHECK_NEAR(p.normal.x, -1.0, 1e-12);
	/* beyond the edge y = 0.5, below the wall's plane: free, and the normal from the edge */
	CHECK(solid_closest(w, 0, v3(-0.003, 0.504, 0.0), 0.01, front, &p));
	CHECK(p.free_side && p.distance > 0.0);
	CHECK_NEAR(p.normal.x, -0.6, 1e-9);
	CHECK_NEAR(p.normal.y, 0.8, 1e-9);
	/* crossing the wall: from the side the path starts on */
	CHECK(solid_path_hit(w, 0, v3(0.2, 0.0, 0.0), v3(-0.2, 0.0, 0.0), 0, &p));
	CHECK_NEAR(p.normal.x, 1.0, 1e-12);
	CHECK(solid_path_hit(w, 0, v3(-0.2, 0.0, 0.0), v3(0.2, 0.0, 0.0), 0, &p));
	CHECK_NEAR(p.normal.x, -1.0, 1e-12);
	/* past the edge at 2 mm: caught on the edge's thickness, where the path is 5 mm from it */
	CHECK(solid_path_hit(w, 0, v3(0.2, 0.502, 0.0), v3(-0.2, 0.502, 0.0), 0, &p));
	CHECK(p.free_side);
	CHECK_NEAR(p.normal.x, sqrt(0.005 * 0.005 - 0.002 * 0.002) / 0.005, 1e-6);
	CHECK_NEAR(p.point.y, 0.5, 1e-12);
	CHECK(!solid_path_hit(w, 0, v3(0.2, 0.506, 0.0), v3(-0.2, 0.506, 0.0), 0, &p));
	drape_world_destroy(w);
}

static void test_queries_on_both_sides(void)
{
	queries_on_wall(false);
	queries_on_wall(true);
}

/* A closed mesh is one-sided unless asked for both sides, an open one two-sided; analytic
 * shapes refuse "both", and an unknown value is refused. */
static void test_sides_choice(void)
{
	drape_world_def wd = drape_default_world_def();
	drape_world* w = drape_world_create(&wd);
	quad q = {v3(0, 0, 0), v3(1, 0, 0), v3(0, 1, 0), 0.5, 0.5};
	double pos[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
	int32_t tris[12] = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3}; /* a closed tetrahedron */
	drape_mesh m = {.vertex_count = 4, .positions = pos, .triangle_count = 4, .triangles = tris};
	drape_solid_def sd = drape_default_solid_def();
	sd.shape = DRAPE_SOLID_MESH;
	sd.mesh = &m;
	CHECK(drape_solid_add(w, &sd).index == 0);
	CHECK(!w->model.solids[0].two_sided);
	sd.sides = DRAPE_SIDES_BOTH;
	CHECK(drape_solid_add(w, &sd).index == 1);
	CHECK(w->model.solids[1].two_sided);
	CHECK(add_quad(w, &q, false, 0.005, 0.3).index == 2);
	CHECK(w->model.solids[2].two_sided);
	sd = drape_default_solid_def();
	sd.shape = DRAPE_SOLID_SPHERE;
	sd.sides = DRAPE_SIDES_BOTH;
	CHECK(drape_solid_add(w, &sd).index < 0);
	CHECK(strstr(drape_world_error(w), "both sides") != NULL);
	sd.sides = (drape_solid_sides)7;
	sd.shape = DRAPE_SOLID_MESH;
	CHECK(drape_solid_add(w, &sd).index < 0);
	drape_world_destroy(w);
}

/* Particles whose straight motion over the last frame, x0 -> x, went through a triangle of mesh
 * solid k as placed both at the frame's start (t0) and at its end: through the sheet, where it
 * was all along; a particle going round a moving rim can meet the sheet in one placement only. */
static int32_t crossings(drape_world* w, int32_t k, const vec3* x0, double t0)
{
	const solid_data* s = &w->model.solids[k];
	vec3* v0 = malloc((size_t)s->vertex_count * sizeof *v0);
	vec3* v1 = malloc((size_t)s->vertex_count * sizeof *v1);
	solid_mesh_vertices_at(s, t0, v0);
	solid_mesh_vertices_at(s, drape_world_time(w), v1);
	int32_t n = 0;
	for (int32_t i = 0; i < w->model.particle_count; ++i)
		for (int32_t f = 0; f < s->triangle_count; ++f) {
			const int32_t* t = &s->triangles[3 * f];
			if (segment_triangle_intersect(x0[i], w->state.x[i], v0[t[0]], v0[t[1]], v0[t[2]], NULL) &&
			    segment_triangle_intersect(x0[i], w->state.x[i], v1[t[0]], v1[t[1]], v1[t[2]], NULL)) {
				n++;
				break;
			}
		}
	free(v0);
	free(v1);
	return n;
}

/* The skinned strip of simple_skin.gltf (1 m wide, 2 m tall in the plane y = 0, open: ten
 * vertices, eight triangles) holds still for 1 s, then bends its upper half through 90 degrees
 * and back within its plane. A 0.2 m x 0.8 m strip of cloth dropped across its top edge folds
 * over it and hangs on both sides while it holds (one-sided, as before, it falls through the
 * edge); as the arm bends away under it, it slides off, never through. */
static void test_strip_hangs_over_skinned_arm(void)
{
	const char* path = "/usr/share/assimp/models/glTF2/simple_skin/simple_skin.gltf";
	FILE* probe = fopen(path, "rb");
	if (!probe) {
		printf("  (skipped: %s missing; install assimp-testmodels)\n", path);
		return;
	}
	fclose(probe);
	drape_character_def cd = drape_default_character_def();
	cd.file = path;
	cd.hold = 1.0;
	char err[512];
	drape_character* ch = drape_character_load(&cd, err, sizeof err);
	CHECK(ch != NULL);
	if (!ch) return;
	drape_world_def wd = drape_default_world_def();
	drape_world* w = drape_world_create(&wd);
	drape_solid_def sd = drape_default_solid_def();
	sd.shape = DRAPE_SOLID_MESH;
	sd.character = ch;
	sd.thickness = 0.005;
	sd.friction = 0.5;
	CHECK(drape_solid_add(w, &sd).index == 0);
	drape_character_destroy(ch);
	CHECK(w->model.solids[0].two_sided);
	drape_grid_def g = drape_default_grid_def();
	g.size[0] = 0.2, g.size[1] = 0.8;
	g.resolution[0] = 6, g.resolution[1] = 21;
	g.center[0] = g.center[1] = 0.0, g.center[2] = 2.05;
	drape_mesh mesh;
	CHECK(drape_mesh_make_grid(&g, &mesh, err, sizeof err) == DRAPE_OK);
	drape_cloth_def cl = drape_default_cloth_def();
	cl.mesh = &mesh;
	CHECK(drape_cloth_add(w, &cl).index == 0);
	drape_mesh_free(&mesh);
	vec3* x0 = malloc((size_t)w->model.particle_count * sizeof *x0);
	int32_t crossed = 0, contacts_held = 0;
	for (int f = 1; f <= 60; ++f) {
		memcpy(x0, w->state.x, (size_t)w->model.particle_count * sizeof *x0);
		CHECK(drape_world_step(w, f / 30.0 - drape_world_time(w)) == DRAPE_OK);
		drape_stats st = drape_world_get_stats(w);
		CHECK(st.penetrating == 0 && st.self_intersections == 0);
		crossed += crossings(w, 0, x0, (f - 1) / 30.0);
		if (f == 10) {
			/* settled on the top edge during the hold: folded over it (z = 2), a thickness above
			 * it, hanging on both sides. Balanced over an edge it is in unstable equilibrium: when
			 * it tips off (sliding down one face, never through) depends on the step sequence, so
			 * it is looked at once it has settled, not at the hold's end. */
			double zmax = -INFINITY;
			int32_t front = 0;
			for (int32_t i = 0; i < w->model.particle_count; ++i) {
				zmax = fmax(zmax, w->state.x[i].z);
				front += w->state.x[i].y > 0.0;
			}
			CHECK(zmax > 2.0025 && zmax < 2.0075);
			CHECK(front > 40 && w->model.particle_count - front > 40);
			contacts_held = st.solid_contacts;
		}
	}
	CHECK(crossed == 0);
	CHECK(contacts_held > 0);
	free(x0);
	drape_world_destroy(w);
}

const test_case thin_tests[] = {
	{"queries_on_both_sides", test_queries_on_both_sides},
	{"sides_choice", test_sides_choice},
	{"sheet_rests_on_single_quad", test_sheet_rests_on_single_quad},
	{"sheet_rests_under_single_quad", test_sheet_rests_under_single_quad},
	{"sheet_pushed_through_returns_to_its_side", test_sheet_pushed_through_returns_to_its_side},
	{"rising_quad_carries_sheet", test_rising_quad_carries_sheet},
	{"sheet_slides_off_quad_edge", test_sheet_slides_off_quad_edge},
	{"sheet_thrown_at_thin_wall", test_sheet_thrown_at_thin_wall},
	{"sheet_thrown_past_thin_wall_edge", test_sheet_thrown_past_thin_wall_edge},
	{"strip_hangs_over_skinned_arm", test_strip_hangs_over_skinned_arm},
	{NULL, NULL},
};
