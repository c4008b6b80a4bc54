/* Cloth/solid contact, checked against physics (sec. 5.4, 6, 6.2): Coulomb friction on a tilted
 * plane (sticks below the friction angle, slides at g (sin a - mu cos a) above it), release when a
 * support falls away faster than gravity, no tunnelling at whole-frame steps, a drape over a mesh
 * cylinder, a moving body dragging cloth by friction, and a start inside a solid resolved by
 * position alteration; and cloth/cloth contact: stacked sheets, a sheet folding over a sphere, a
 * fast sheet thrown at another, and the symmetry of the contact couplings. */
#include "fixtures.h"
#include "test.h"

#include "collide/solid.h"
#include "step/implicit.h"
#include "step/step.h"
#include "world.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double G = 9.81;

/* A res x res sheet of side `size` centred at c in the plane spanned by u and v. */
static drape_cloth_id add_sheet(drape_world* w, int res, double size, vec3 c, vec3 u, vec3 v, const drape_material* m)
{
	double cc[3], uu[3], vv[3];
	v3_store(c, cc), v3_store(u, uu), v3_store(v, vv);
	return fixture_add_sheet(w, res, size, cc, uu, vv, m);
}

static vec3 centre_of_mass(const drape_world* w)
{
	vec3 c = v3_zero();
	double m = 0.0;
	for (int32_t i = 0; i < w->model.particle_count; ++i) {
		c = v3_madd(c, w->model.mass[i], w->state.x[i]);
		m += w->model.mass[i];
	}
	return v3_scale(c, 1.0 / m);
}

/* Quaternion (w, x, y, z) of a rotation by `angle` about the x axis. */
static void rotation_x(double angle, double q[4])
{
	q[0] = cos(angle / 2.0);
	q[1] = sin(angle / 2.0);
	q[2] = q[3] = 0.0;
}

/* A sheet starting at rest on a plane tilted by alpha about x (lying at the thickness above it);
 * returns its centre of mass's travel down the slope at the given times. */
static void slope_travel(double alpha, double mu, const double* times, int count, double* travel)
{
	drape_world_def wd = drape_default_world_def();
	wd.max_dt = 1.0 / 60.0;
	drape_world* w = drape_world_create(&wd);
	drape_solid_def sd = drape_default_solid_def();
	sd.shape = DRAPE_SOLID_PLANE;
	rotation_x(alpha, sd.rotation);
	sd.friction = mu;
	sd.thickness = 0.002;
	CHECK(drape_solid_add(w, &sd).index == 0);
	/* the plane's local y axis, rotated: uphill */
	vec3 along = v3(0.0, cos(alpha), sin(alpha)); /* local +y, uphill */
	vec3 normal = v3(0.0, -sin(alpha), cos(alpha));
	drape_material m = drape_default_material();
	m.drag = 0.0;
	add_sheet(w, 9, 0.2, v3_scale(normal, sd.thickness), v3(1.0, 0.0, 0.0), along, &m);
	vec3 c0 = centre_of_mass(w);
	for (int k = 0; k < count; ++k) {
		CHECK(drape_world_step(w, times[k] - drape_world_time(w)) == DRAPE_OK);
		travel[k] = -v3_dot(v3_sub(centre_of_mass(w), c0), along); /* downhill positive */
		/* the sheet stays on the plane: no particle below the surface by more than a hair */
		for (int32_t i = 0; i < w->model.particle_count; ++i) CHECK(v3_dot(w->state.x[i], normal) > 0.5 * sd.thickness);
	}
	drape_world_destroy(w);
}

static void test_friction_sticks_below_friction_angle(void)
{
	const double mu = 0.5, alpha = atan(0.3); /* tan alpha < mu */
	const double times[2] = {0.5, 1.5};
	double travel[2];
	slope_travel(alpha, mu, times, 2, travel);
	CHECK(fabs(travel[1]) < 2e-3);
	CHECK(fabs(travel[1] - travel[0]) < 1e-3); /* not creeping */
}

static void test_friction_slides_above_friction_angle(void)
{
	const double mu = 0.3, alpha = atan(0.8); /* tan alpha > mu */
	const double times[2] = {0.4, 0.8};
	double travel[2];
	slope_travel(alpha, mu, times, 2, travel);
	/* from rest: s(t) = a t^2 / 2 */
	double a_expected = G * (sin(alpha) - mu * cos(alpha));
	double a1 = 2.0 * travel[0] / (times[0] * times[0]);
	double a2 = 2.0 * travel[1] / (times[1] * times[1]);
	CHECK_NEAR(a2, a_expected, 0.1 * a_expected);
	CHECK_NEAR(a1, a_expected, 0.15 * a_expected);
}

/* A sheet lying on a plate; from t = 0.2 s the plate falls with 2 g. The contact force would have
 * to pull the cloth down: the contacts release and the cloth falls at g, leaving the plate. */
static void test_release_from_plate_falling_faster_than_gravity(void)
{
	drape_world_def wd = drape_default_world_def();
	drape_world* w = drape_world_create(&wd);
	drape_pose poses[64];
	int count = 0;
	for (double t = 0.0; t <= 0.8 + 1e-9; t += 1.0 / 60.0) {
		double z = t < 0.2 ? 0.0 : -0.5 * 2.0 * G * (t - 0.2) * (t - 0.2);
		poses[count] = (drape_pose){t, {0.0, 0.0, z}, {1.0, 0.0, 0.0, 0.0}};
		count++;
	}
	drape_solid_def sd = drape_default_solid_def();
	sd.shape = DRAPE_SOLID_BOX;
	sd.half_extents[0] = sd.half_extents[1] = 0.3;
	sd.half_extents[2] = 0.01;
	sd.poses = poses;
	sd.pose_count = count;
	sd.thickness = 0.002;
	CHECK(drape_solid_add(w, &sd).index == 0);
	drape_material m = drape_default_material();
	m.drag = 0.0;
	add_sheet(w, 9, 0.3, v3(0.0, 0.0, 0.012), v3(1, 0, 0), v3(0, 1, 0), &m);
	CHECK(drape_world_step(w, 0.2) == DRAPE_OK);
	double z_rest = centre_of_mass(w).z;
	CHECK_NEAR(z_rest, 0.012, 1e-3); /* resting on the plate */
	CHECK(drape_world_step(w, 0.3) == DRAPE_OK);
	double z = centre_of_mass(w).z;
	/* backward Euler's free fall over 9 steps of 1/30 s: h^2 g n (n + 1) / 2 */
	double h = 1.0 / 30.0, free_fall = z_rest - h * h * G * 9.0 * 10.0 / 2.0;
	double with_plate = z_rest - 0.5 * 2.0 * G * 0.3 * 0.3;
	CHECK_NEAR(z, free_fall, 2e-3);
	CHECK(z > with_plate + 0.3); /* it left the plate */
	drape_world_destroy(w);
}

/* A default world without cloth/cloth contact and the solid sd with friction 0.3. */
static drape_world* world_with_solid(drape_solid_def* sd)
{
	drape_world_def wd = drape_default_world_def();
	wd.self_collision = false;
	drape_world* w = drape_world_create(&wd);
	sd->friction = 0.3;
	CHECK(drape_solid_add(w, sd).index == 0);
	return w;
}

/* A res x res sheet of side 0.3 m lying at rest on a horizontal plane at the plane's
 * thickness; from t = 0.2 s, pinned corners rise at `lift` m/s (0: no pins). Settles for 0.2 s,
 * then steps `steps` whole max_dt steps and returns their stats. */
static drape_stats sheet_on_plane(double lift, int steps)
{
	drape_solid_def sd = drape_default_solid_def();
	sd.shape = DRAPE_SOLID_PLANE;
	sd.thickness = 0.002;
	drape_world* w = world_with_solid(&sd);
	const drape_world_def wd = w->def;
	const int res = 9;
	drape_cloth_id c = add_sheet(w, res, 0.3, v3(0.0, 0.0, sd.thickness), v3(1, 0, 0), v3(0, 1, 0), NULL);
	const int32_t corners[4] = {0, res - 1, res * (res - 1), res * res - 1};
	for (int k = 0; lift > 0.0 && k < 4; ++k) {
		drape_constraint_def d = drape_default_constraint_def();
		d.cloth = c;
		d.vertex = corners[k];
		d.motion = DRAPE_MOTION_VELOCITY;
		d.velocity[2] = lift;
		d.start_time = 0.2;
		d.end_time = 1e9;
		CHECK(drape_constraint_add(w, &d).index >= 0);
	}
	CHECK(drape_world_step(w, 0.2) == DRAPE_OK);
	drape_world_reset_stats(w);
	CHECK(drape_world_step(w, steps * wd.max_dt) == DRAPE_OK);
	drape_stats s = drape_world_get_stats(w);
	drape_world_destroy(w);
	return s;
}

/* Release's noise floor (docs/collide.md, "Release's noise floor"): a sheet resting on a plane
 * keeps every contact over 100 steps, and one whose corners are pinned and lifted at 0.5 m/s is
 * pulled off: its contacts release. */
static void test_resting_sheet_releases_no_contact(void)
{
	drape_stats rest = sheet_on_plane(0.0, 100);
	CHECK(rest.steps >= 100);
	CHECK(rest.contacts_released == 0 && rest.release_solves == 0);
	CHECK(rest.solid_contacts == 81);
	drape_stats lifted = sheet_on_plane(0.5, 30);
	CHECK(lifted.contacts_released > 0);
	CHECK(lifted.solid_contacts < 81);
}

/* A sheet draped over a sphere and come to rest keeps its contacts: none is released and caught
 * again, and every step is solved once. Released on the layer's edge, a particle moving in by a
 * rounding was caught again by the crossing test against the grown surface, 20 contacts every
 * step (docs/collide.md, "Release's noise floor"). */
static void test_sheet_at_rest_on_sphere_does_not_chatter(void)
{
	drape_solid_def sd = drape_default_solid_def();
	sd.shape = DRAPE_SOLID_SPHERE;
	sd.radius = 0.15;
	sd.thickness = 0.004;
	drape_world* w = world_with_solid(&sd);
	const drape_world_def wd = w->def;
	add_sheet(w, 17, 0.5, v3(0.0, 0.0, 0.16), v3(1, 0, 0), v3(0, 1, 0), NULL);
	CHECK(drape_world_step(w, 3.0) == DRAPE_OK);
	CHECK(drape_world_kinetic_energy(w) < 1e-9);
	drape_world_reset_stats(w);
	CHECK(drape_world_step(w, 100 * wd.max_dt) == DRAPE_OK);
	drape_stats s = drape_world_get_stats(w);
	CHECK(s.steps == 100 && s.rejected == 0);
	CHECK(s.solid_contacts > 50);
	CHECK(s.contacts_released == 0);
	CHECK(s.solves == 100);
	drape_world_destroy(w);
}

/* A small sheet flying at 20 m/s at a 1 mm thick plate, one step per frame: it must not pass. */
static void test_no_tunnelling_through_thin_plate(void)
{
	drape_world_def wd = drape_default_world_def();
	wd.gravity[2] = 0.0;
	drape_world* w = drape_world_create(&wd);
	drape_solid_def sd = drape_default_solid_def();
	sd.shape = DRAPE_SOLID_BOX;
	sd.half_extents[0] = sd.half_extents[1] = 1.0;
	sd.half_extents[2] = 0.0005;
	sd.thickness = 0.001;
	CHECK(drape_solid_add(w, &sd).index == 0);
	drape_cloth_id c = add_sheet(w, 5, 0.1, v3(0.0, 0.0, 0.3), v3(1, 0, 0), v3(0, 1, 0), NULL);
	double v[3 * 25];
	for (int i = 0; i < 25; ++i) {
		v[3 * i] = v[3 * i + 1] = 0.0;
		v[3 * i + 2] = -20.0;
	}
	drape_cloth_set_velocities(w, c, v);
	for (int f = 1; f <= 10; ++f) {
		CHECK(drape_world_step(w, f / 30.0 - drape_world_time(w)) == DRAPE_OK);
		for (int32_t i = 0; i < w->model.particle_count; ++i) CHECK(w->state.x[i].z > 0.0005);
	}
	drape_world_destroy(w);
}

/* A sphere at 10 m/s hits a hanging sheet: the sheet is carried along (or, inextensible, slides
 * off), never passed through. */
static void fast_sphere_hits_sheet(double strain_limit)
{
	drape_world_def wd = drape_default_world_def();
	wd.strain_limit = strain_limit;
	drape_world* w = drape_world_create(&wd);
	drape_pose poses[2] = {{0.0, {0.0, -0.5, 0.5}, {1, 0, 0, 0}}, {0.2, {0.0, 1.5, 0.5}, {1, 0, 0, 0}}};
	drape_solid_def sd = drape_default_solid_def();
	sd.shape = DRAPE_SOLID_SPHERE;
	sd.radius = 0.08;
	sd.poses = poses;
	sd.pose_count = 2;
	sd.thickness = 0.003;
	sd.friction = 0.0;
	CHECK(drape_solid_add(w, &sd).index == 0);
	/* a vertical sheet in the plane y = 0, hanging from its top edge */
	drape_cloth_id c = add_sheet(w, 15, 0.6, v3(0.0, 0.0, 0.6), v3(1, 0, 0), v3(0, 0, 1), NULL);
	for (int k = 0; k < 15; ++k) {
		drape_constraint_def d = drape_default_constraint_def();
		d.cloth = c;
		d.vertex = 14 * 15 + k;
		drape_constraint_add(w, &d);
	}
	for (int f = 1; f <= 6; ++f) { /* the sphere crosses y = 0 at t = 0.05 */
		CHECK(drape_world_step(w, f / 30.0 - drape_world_time(w)) == DRAPE_OK);
		double t = drape_world_time(w);
		vec3 centre = v3(0.0, -0.5 + 10.0 * fmin(t, 0.2), 0.5);
		for (int32_t i = 0; i < w->model.particle_count; ++i) {
			CHECK(v3_len(v3_sub(w->state.x[i], centre)) > sd.radius - 1e-3);
			/* nothing got behind the sphere: the particles near its path are ahead of it. Not the
			 * free bottom edge (particles 0-14), which starts 12 cm below the sphere's path,
			 * swings under the sphere and can whip up behind it into the path (at frame 3 with
			 * the stopping rule of issue 27). With strain limiting the sheet cannot stretch over
			 * the 1.5 m the sphere pushes it, and slides off the (frictionless) sphere instead:
			 * there only the first check holds. */
			if (strain_limit == 0.0 && i >= 15 && fabs(w->state.x[i].x) < 0.03 && fabs(w->state.x[i].z - 0.5) < 0.03)
				CHECK(w->state.x[i].y > centre.y);
		}
	}
	drape_world_destroy(w);
}

static void test_fast_sphere_does_not_pass_through_sheet(void)
{
	fast_sphere_hits_sheet(0.0);
	fast_sphere_hits_sheet(drape_default_world_def().strain_limit);
}

/* A mesh cylinder (radius r, axis along x) made of n segments around and closed by caps. */
static void cylinder_mesh(double r, double half_length, int n, drape_mesh* m)
{
	m->vertex_count = 2 * n + 2;
	m->positions = malloc(3 * (size_t)m->vertex_count * sizeof(double));
	m->triangle_count = 4 * n;
	m->triangles = malloc(3 * (size_t)m->triangle_count * sizeof(int32_t));
	m->uv_count = 0;
	m->uvs = NULL;
	m->triangle_uvs = NULL;
	for (int k = 0; k < n; ++k) {
		double a = 2.0 * 3.14159265358979323846 * k / n;
		for (int e = 0; e < 2; ++e) {
			double* p = &m->positions[3 * (2 * k + e)];
			p[0] = e ? half_length : -half_length;
			p[1] = r * cos(a);
			p[2] = r * sin(a);
		}
	}
	int32_t c0 = 2 * n, c1 = 2 * n + 1;
	m->positions[3 * c0] = -half_length;
	m->positions[3 * c1] = half_length;
	m->positions[3 * c0 + 1] = m->positions[3 * c0 + 2] = m->positions[3 * c1 + 1] = m->positions[3 * c1 + 2] = 0.0;
	int32_t* t = m->triangles;
	for (int k = 0; k < n; ++k) {
		int32_t a0 = 2 * k, a1 = 2 * k + 1, b0 = 2 * ((k + 1) % n), b1 = b0 + 1;
		/* outward normals: counter-clockwise seen from outside */
		int32_t q[12] = {a0, b0, a1, a1, b0, b1, c0, b0, a0, c1, a1, b1};
		memcpy(t + 12 * k, q, sizeof q);
	}
}

/* Adds mesh m as solid 0 of w with the given thickness and friction. */
static void add_mesh_solid(drape_world* w, const drape_mesh* m, double thickness, double friction)
{
	drape_solid_def sd = drape_default_solid_def();
	sd.shape = DRAPE_SOLID_MESH;
	sd.mesh = m;
	sd.thickness = thickness;
	sd.friction = friction;
	CHECK(drape_solid_add(w, &sd).index == 0);
}

static void test_drape_over_mesh_cylinder(void)
{
	drape_world_def wd = drape_default_world_def();
	drape_world* w = drape_world_create(&wd);
	drape_mesh cyl;
	const double r = 0.15;
	cylinder_mesh(r, 0.5, 40, &cyl);
	add_mesh_solid(w, &cyl, 0.004, 0.4);
	free(cyl.positions);
	free(cyl.triangles);
	add_sheet(w, 15, 0.5, v3(0.0, 0.0, r + 0.05), v3(1, 0, 0), v3(0, 1, 0), NULL);
	double ke_peak = 0.0;
	for (int f = 1; f <= 60; ++f) {
		CHECK(drape_world_step(w, f / 30.0 - drape_world_time(w)) == DRAPE_OK);
		ke_peak = fmax(ke_peak, drape_world_kinetic_energy(w));
		CHECK(drape_world_get_stats(w).self_intersections == 0);
		/* no particle inside the (faceted) cylinder: the facets' inscribed radius is r cos(pi/n) */
		for (int32_t i = 0; i < w->model.particle_count; ++i) {
			double d = hypot(w->state.x[i].y, w->state.x[i].z);
			if (fabs(w->state.x[i].x) < 0.5) CHECK(d > r * cos(3.14159265358979323846 / 40) - 1e-3);
		}
	}
	CHECK(drape_world_kinetic_energy(w) < 0.05 * ke_peak); /* coming to rest */
	CHECK(centre_of_mass(w).z < r);                         /* it draped over, hanging down */
	drape_world_destroy(w);
}

/* A box carrying a sheet moves sideways at 0.5 m/s: friction makes the sheet go along. */
static void test_moving_box_drags_cloth_by_friction(void)
{
	drape_world_def wd = drape_default_world_def();
	drape_world* w = drape_world_create(&wd);
	drape_pose poses[3] = {{0.0, {0, 0, 0}, {1, 0, 0, 0}}, {0.3, {0, 0, 0}, {1, 0, 0, 0}}, {1.3, {0.5, 0, 0}, {1, 0, 0, 0}}};
	drape_solid_def sd = drape_default_solid_def();
	sd.shape = DRAPE_SOLID_BOX;
	sd.half_extents[0] = sd.half_extents[1] = 0.4;
	sd.half_extents[2] = 0.05;
	sd.poses = poses;
	sd.pose_count = 3;
	sd.friction = 0.8;
	sd.thickness = 0.002;
	CHECK(drape_solid_add(w, &sd).index == 0);
	add_sheet(w, 9, 0.3, v3(0.0, 0.0, 0.052), v3(1, 0, 0), v3(0, 1, 0), NULL);
	CHECK(drape_world_step(w, 0.3) == DRAPE_OK);
	double x0 = centre_of_mass(w).x;
	CHECK(drape_world_step(w, 1.0) == DRAPE_OK);
	CHECK_NEAR(centre_of_mass(w).x - x0, 0.5, 0.03);
	drape_world_destroy(w);
}

/* Part of the sheet starts 2 cm inside a box: position alteration lifts it out within a few
 * frames, without an explosion. */
static void test_start_inside_solid_resolved(void)
{
	drape_world_def wd = drape_default_world_def();
	wd.gravity[2] = 0.0;
	drape_world* w = drape_world_create(&wd);
	drape_solid_def sd = drape_default_solid_def();
	sd.shape = DRAPE_SOLID_BOX;
	sd.half_extents[0] = sd.half_extents[1] = 0.1;
	sd.half_extents[2] = 0.1;
	sd.thickness = 0.002;
	CHECK(drape_solid_add(w, &sd).index == 0);
	/* a sheet at z = 0.08: its middle is inside the box (top at z = 0.1) */
	add_sheet(w, 17, 0.4, v3(0.0, 0.0, 0.08), v3(1, 0, 0), v3(0, 1, 0), NULL);
	for (int f = 1; f <= 10; ++f) CHECK(drape_world_step(w, f / 30.0 - drape_world_time(w)) == DRAPE_OK);
	for (int32_t i = 0; i < w->model.particle_count; ++i) {
		bool over_box = fabs(w->state.x[i].x) < 0.1 && fabs(w->state.x[i].y) < 0.1;
		if (over_box) CHECK(w->state.x[i].z > 0.1);
	}
	CHECK(drape_world_kinetic_energy(w) < 0.01);
	drape_world_destroy(w);
}

/* Box [lo, hi] as 8 vertices and 12 outward triangles appended to pos/tri from vertex `base`. */
static void box_into(const double lo[3], const double hi[3], int32_t base, double* pos, int32_t* tri)
{
	for (int k = 0; k < 8; ++k) {
		pos[3 * k] = (k & 1) ? hi[0] : lo[0];
		pos[3 * k + 1] = (k & 2) ? hi[1] : lo[1];
		pos[3 * k + 2] = (k & 4) ? hi[2] : lo[2];
	}
	/* each face counter-clockwise seen from outside */
	const int32_t f[36] = {0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4,
			       2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5};
	for (int k = 0; k < 36; ++k) tri[k] = base + f[k];
}

/* One closed mesh of two boxes, a [a_lo, a_hi] and b [b_lo, b_hi] (they may overlap: the mesh then
 * overlaps itself), its vertices and triangles in the caller's pos[48] and tri[72]. */
static drape_mesh two_boxes(const double a_lo[3], const double a_hi[3], const double b_lo[3], const double b_hi[3],
			    double* pos, int32_t* tri)
{
	box_into(a_lo, a_hi, 0, pos, tri);
	box_into(b_lo, b_hi, 8, pos + 24, tri + 36);
	drape_mesh m = {0};
	m.vertex_count = 16;
	m.positions = pos;
	m.triangle_count = 24;
	m.triangles = tri;
	return m;
}

/* Where a closed mesh overlaps itself (docs/collide.md, "Where the body overlaps itself"): one mesh
 * of two boxes, a large one (top at z = 0) and a small one [-0.05, 0.05]^2 x [-0.05, small_top]. A 5 x 5 sheet (thickness 3 mm, no gravity) starts at
 * z0 = -5.3 mm, centred at (cx, 0), inside the large box; the particle at `probe` of it is 1.2 mm
 * from the small box, whose face there lies inside the large box: its closest surface is the large
 * box's top (asked directly), and the whole sheet is pushed out through it. Held 3 mm off the
 * small box, as it was before the inner parts were set aside, the probe stayed 3.5 mm inside the
 * body, nearer the small box than the top. */
static void outer_surface_case(double small_top, double cx, vec3 probe)
{
	double pos[48];
	int32_t tri[72];
	const double big_lo[3] = {-0.2, -0.2, -0.1}, big_hi[3] = {0.2, 0.2, 0.0};
	const double small_lo[3] = {-0.05, -0.05, -0.05}, small_hi[3] = {0.05, 0.05, small_top};
	drape_mesh m = two_boxes(big_lo, big_hi, small_lo, small_hi, pos, tri);
	drape_world_def wd = drape_default_world_def();
	wd.gravity[2] = 0.0;
	wd.self_collision = false;
	drape_world* w = drape_world_create(&wd);
	const double thickness = 0.003;
	add_mesh_solid(w, &m, thickness, 0.3);
	CHECK(w->model.solids[0].face_kinds != NULL); /* closed and one-sided */
	const double z0 = -0.0053;
	add_sheet(w, 5, 0.08, v3(cx, 0.0, z0), v3(1, 0, 0), v3(0, 1, 0), NULL);
	CHECK(drape_world_step(w, wd.max_dt) == DRAPE_OK);
	solid_point p;
	solids_begin_step(w, drape_world_time(w), wd.max_dt);
	CHECK(solid_closest(w, 0, probe, 0.003, 0, &p));
	CHECK_NEAR(p.point.z, 0.0, 1e-12);
	CHECK_NEAR(p.distance, probe.z, 1e-12);
	CHECK_NEAR(p.normal.z, 1.0, 1e-12);
	for (int f = 1; f <= 10; ++f) CHECK(drape_world_step(w, f / 30.0 - drape_world_time(w)) == DRAPE_OK);
	for (int32_t i = 0; i < w->model.particle_count; ++i) {
		CHECK(w->state.x[i].z > 0.5 * thickness);
		CHECK(!solid_inside_end(w, 0, w->state.x[i], 0.0));
	}
	CHECK(drape_world_get_stats(w).penetrating == 0);
	drape_world_destroy(w);
}

/* The small box wholly inside the large one, its top 6.5 mm under the large one's and 1.2 mm under
 * the sheet: a buried face. */
static void test_contact_takes_the_outer_surface_over_a_buried_face(void)
{
	outer_surface_case(-0.0065, 0.0, v3(0.01, 0.02, -0.0053));
}

/* The small box standing out of the large one's top, the sheet beside it, 1.2 mm off its side:
 * faces cut by the other box, whose inner part is set aside. */
static void test_contact_takes_the_outer_surface_over_a_cut_face(void)
{
	outer_surface_case(0.05, 0.0912, v3(0.0512, 0.02, -0.0053));
}

/* Contacts end outside (docs/collide.md): one closed mesh, a floor (a box, top at z = 0) and a wall
 * standing out of it (a box over x in [0.02, 0.12], 5 cm high). A 5 x 5 sheet starts in contact
 * with the floor (1.2 mm up), its front edge 1 cm before the wall, sliding at `speed` towards it
 * with no friction. Its particles are held on the floor's plane; before contacts were checked
 * after the solve, a step carried them past the wall's face into the wall (at 2 m/s, 5 mm and
 * 15 mm in at the first check: they had no path test, being in contact). Checked every max_dt / 8:
 * no particle inside the mesh, none beyond the wall's face. */
static void slide_into_wall(double speed)
{
	double pos[48];
	int32_t tri[72];
	const double floor_lo[3] = {-0.3, -0.3, -0.1}, floor_hi[3] = {0.3, 0.3, 0.0};
	const double wall_lo[3] = {0.02, -0.3, -0.05}, wall_hi[3] = {0.12, 0.3, 0.05};
	drape_mesh m = two_boxes(floor_lo, floor_hi, wall_lo, wall_hi, pos, tri);
	drape_world_def wd = drape_default_world_def();
	wd.self_collision = false;
	drape_world* w = drape_world_create(&wd);
	const double thickness = 0.003;
	add_mesh_solid(w, &m, thickness, 0.0);
	add_sheet(w, 5, 0.04, v3(-0.01, 0.0, 0.4 * thickness), v3(1, 0, 0), v3(0, 1, 0), NULL);
	for (int32_t i = 0; i < w->model.particle_count; ++i) w->state.v[i] = v3(speed, 0.0, 0.0);
	int held = 0;
	for (int f = 1; f <= 48; ++f) {
		CHECK(drape_world_step(w, wd.max_dt / 8) == DRAPE_OK);
		for (int32_t i = 0; i < w->model.particle_count; ++i) {
			held += w->state.contacts[i].solid == 0;
			CHECK(!solid_inside_end(w, 0, w->state.x[i], 0.0));
			CHECK(w->state.x[i].x < wall_lo[0]);
		}
	}
	CHECK(held > 0);
	CHECK(drape_world_get_stats(w).penetrating == 0);
	drape_world_destroy(w);
}

static void test_contact_sliding_into_a_wall_ends_outside(void)
{
	slide_into_wall(2.0);
	slide_into_wall(6.0);
}

/* ---------------------------------------------------------------------------------------------
 * Cloth/cloth contact (sec. 6). */

static drape_solid_id add_floor(drape_world* w, double friction)
{
	drape_solid_def sd = drape_default_solid_def();
	sd.shape = DRAPE_SOLID_PLANE;
	sd.friction = friction;
	sd.thickness = 0.002;
	return drape_solid_add(w, &sd);
}

static double mean_z(const drape_world* w, drape_cloth_id c)
{
	int32_t n = drape_cloth_vertex_count(w, c);
	double* x = malloc(3 * (size_t)n * sizeof *x);
	drape_cloth_get_positions(w, c, x);
	double z = 0.0;
	for (int32_t i = 0; i < n; ++i) z += x[3 * i + 2];
	free(x);
	return z / n;
}

/* Two sheets, one above the other, fall on a floor: the upper one comes to rest on the lower one,
 * a cloth thickness above it, and at no frame does any triangle of one pass through the other. */
static void test_two_sheets_stack_on_floor(void)
{
	drape_world_def wd = drape_default_world_def();
	drape_world* w = drape_world_create(&wd);
	add_floor(w, 0.5);
	drape_cloth_id lower = add_sheet(w, 11, 0.4, v3(0.0, 0.0, 0.05), v3(1, 0, 0), v3(0, 1, 0), NULL);
	drape_cloth_id upper = add_sheet(w, 11, 0.3, v3(0.02, 0.01, 0.15), v3(1, 0, 0), v3(0, 1, 0), NULL);
	for (int f = 1; f <= 45; ++f) {
		CHECK(drape_world_step(w, f / 30.0 - drape_world_time(w)) == DRAPE_OK);
		CHECK(drape_world_get_stats(w).self_intersections == 0);
	}
	CHECK(drape_world_get_stats(w).cloth_contacts > 0);
	double gap = mean_z(w, upper) - mean_z(w, lower);
	CHECK(gap > 0.5 * wd.cloth_thickness);
	CHECK(gap < 3.0 * wd.cloth_thickness);
	drape_world_destroy(w);
}

/* The self-contact test: a sheet falling onto a sphere resting on a floor drapes over it
 * and folds onto itself on the floor, and ends with zero self-intersections. */
static void test_sheet_folds_over_sphere_without_self_intersection(void)
{
	drape_world_def wd = drape_default_world_def();
	drape_world* w = drape_world_create(&wd);
	add_floor(w, 0.5);
	drape_solid_def sd = drape_default_solid_def();
	sd.shape = DRAPE_SOLID_SPHERE;
	sd.radius = 0.2;
	sd.position[2] = 0.2;
	sd.thickness = 0.004;
	CHECK(drape_solid_add(w, &sd).index == 1);
	add_sheet(w, 25, 1.0, v3(0.0, 0.0, 0.45), v3(1, 0, 0), v3(0, 1, 0), NULL);
	int worst = 0, most_contacts = 0;
	for (int f = 1; f <= 60; ++f) {
		CHECK(drape_world_step(w, f / 30.0 - drape_world_time(w)) == DRAPE_OK);
		drape_stats st = drape_world_get_stats(w);
		worst = st.self_intersections > worst ? st.self_intersections : worst;
		most_contacts = st.cloth_contacts > most_contacts ? st.cloth_contacts : most_contacts;
	}
	CHECK(worst == 0);
	CHECK(most_contacts > 20); /* it did fold onto itself */
	drape_world_destroy(w);
}

/* A small sheet thrown at 8 m/s at a pinned sheet, one step per frame at most: it does not pass. */
static void test_fast_sheet_does_not_pass_through_sheet(void)
{
	drape_world_def wd = drape_default_world_def();
	wd.gravity[2] = 0.0;
	drape_world* w = drape_world_create(&wd);
	drape_cloth_id target = add_sheet(w, 11, 0.4, v3(0.0, 0.0, 0.0), v3(1, 0, 0), v3(0, 1, 0), NULL);
	for (int k = 0; k < 121; k += 10) {
		drape_constraint_def d = drape_default_constraint_def();
		d.cloth = target;
		d.vertex = k;
		drape_constraint_add(w, &d);
	}
	drape_cloth_id bullet = add_sheet(w, 5, 0.1, v3(0.0, 0.0, 0.2), v3(1, 0, 0), v3(0, 1, 0), NULL);
	double v[3 * 25] = {0};
	for (int i = 0; i < 25; ++i) v[3 * i + 2] = -8.0;
	drape_cloth_set_velocities(w, bullet, v);
	for (int f = 1; f <= 15; ++f) {
		CHECK(drape_world_step(w, f / 30.0 - drape_world_time(w)) == DRAPE_OK);
		CHECK(drape_world_get_stats(w).self_intersections == 0);
	}
	CHECK(mean_z(w, bullet) > mean_z(w, target)); /* still on its own side */
	drape_world_destroy(w);
}

/* Height of particle i of cloth `upper` over the particle of cloth `lower` nearest to it in x, y. */
static double height_over(const drape_world* w, drape_cloth_id upper, int32_t i, drape_cloth_id lower)
{
	int32_t nu = drape_cloth_vertex_count(w, upper), nl = drape_cloth_vertex_count(w, lower);
	double* xu = malloc(3 * (size_t)nu * sizeof *xu);
	double* xl = malloc(3 * (size_t)nl * sizeof *xl);
	drape_cloth_get_positions(w, upper, xu);
	drape_cloth_get_positions(w, lower, xl);
	int32_t best = 0;
	double d_best = INFINITY;
	for (int32_t j = 0; j < nl; ++j) {
		double dx = xu[3 * i] - xl[3 * j], dy = xu[3 * i + 1] - xl[3 * j + 1];
		if (dx * dx + dy * dy < d_best) {
			d_best = dx * dx + dy * dy;
			best = j;
		}
	}
	double height = xu[3 * i + 2] - xl[3 * best + 2];
	free(xu);
	free(xl);
	return height;
}

/* Height of particle p above the surface of the cloth made of particles [0, lower_count) (the
 * first cloth added), at p's (x, y): the triangle under it, interpolated. */
static double gap_over_surface(const drape_world* w, int32_t p, int32_t lower_count)
{
	const vec3 q = w->state.x[p];
	for (int32_t t = 0; t < w->model.triangle_count; ++t) {
		const int32_t* v = w->model.triangles[t].v;
		if (v[0] >= lower_count || v[1] >= lower_count || v[2] >= lower_count) continue;
		const vec3 a = w->state.x[v[0]], b = w->state.x[v[1]], c = w->state.x[v[2]];
		double det = (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y);
		if (det == 0.0) continue;
		double l1 = ((q.x - a.x) * (c.y - a.y) - (c.x - a.x) * (q.y - a.y)) / det;
		double l2 = ((b.x - a.x) * (q.y - a.y) - (q.x - a.x) * (b.y - a.y)) / det;
		if (l1 < 0.0 || l2 < 0.0 || l1 + l2 > 1.0) continue;
		return q.z - (a.z + l1 * (b.z - a.z) + l2 * (c.z - a.z));
	}
	return NAN;
}

/* Two sheets between a floor and a box that comes down to leave 8 mm: less than the two solids'
 * thicknesses (5 mm each), so the contacts alone would hold the upper sheet 2 mm below the lower
 * one. The contacts of particles caught crossing there, held from both sides, give up their
 * thickness (pinched, sliding on the bare surface), so the sheets stay apart: no intersection at
 * any frame, no particle deeper in a solid than its thickness, the layers in order at the end.
 * (The armpit of garment_shirt.json, docs/garments.md; docs/collide.md, "Pinched contacts".) */
static void test_sheets_pinched_between_closing_solids(void)
{
	drape_world_def wd = drape_default_world_def();
	drape_world* w = drape_world_create(&wd);
	drape_solid_def fd = drape_default_solid_def();
	fd.shape = DRAPE_SOLID_PLANE;
	fd.friction = 0.6;
	fd.thickness = 0.005;
	CHECK(drape_solid_add(w, &fd).index == 0);
	const double half = 0.05, gap = 0.008;
	drape_pose poses[3] = {{0.0, {0, 0, half + 0.06}, {1, 0, 0, 0}}, {0.2, {0, 0, half + 0.06}, {1, 0, 0, 0}},
			       {0.6, {0, 0, half + gap}, {1, 0, 0, 0}}};
	drape_solid_def sd = drape_default_solid_def();
	sd.shape = DRAPE_SOLID_BOX;
	sd.half_extents[0] = sd.half_extents[1] = 0.3;
	sd.half_extents[2] = half;
	sd.poses = poses;
	sd.pose_count = 3;
	sd.friction = 0.6;
	sd.thickness = 0.005;
	CHECK(drape_solid_add(w, &sd).index == 1);
	drape_cloth_id lower = add_sheet(w, 11, 0.3, v3(0.0, 0.0, 0.01), v3(1, 0, 0), v3(0, 1, 0), NULL);
	drape_cloth_id upper = add_sheet(w, 9, 0.2, v3(0.01, 0.02, 0.025), v3(1, 0, 0), v3(0, 1, 0), NULL);
	const int frames = SHORT(27, 21);
	int worst = 0, deepest = 0;
	/* Pinched contacts hold their particles a hair (PINCH_MARGIN, 1 % of the 5 mm) outside the
	 * floor's bare surface, never on it: the lowest particle of any frame is that far above z = 0
	 * (with the target on the surface, the lowest ended a rounding error below it). */
	double floor_gap = INFINITY;
	const int32_t all = drape_cloth_vertex_count(w, lower) + drape_cloth_vertex_count(w, upper);
	for (int f = 1; f <= frames; ++f) {
		CHECK(drape_world_step(w, f / 30.0 - drape_world_time(w)) == DRAPE_OK);
		drape_stats st = drape_world_get_stats(w);
		worst = st.self_intersections > worst ? st.self_intersections : worst;
		deepest = st.penetrating > deepest ? st.penetrating : deepest;
		for (int32_t q = 0; q < all; ++q) floor_gap = fmin(floor_gap, w->state.x[q].z);
	}
	CHECK(worst == 0);
	CHECK(deepest == 0);
	CHECK(floor_gap > 0.5 * 0.01 * fd.thickness);
	/* The layers keep their order: every particle of the upper sheet over the lower sheet's
	 * surface, the middle (9 x 9: particle 40) by at least half the cloth thickness. */
	const int32_t nl = drape_cloth_vertex_count(w, lower);
	double lowest = INFINITY;
	for (int32_t q = 0; q < drape_cloth_vertex_count(w, upper); ++q) lowest = fmin(lowest, gap_over_surface(w, nl + q, nl));
	CHECK(lowest > 0.0);
	CHECK(gap_over_surface(w, nl + 40, nl) > 0.5 * wd.cloth_thickness);
	drape_world_destroy(w);
}

/* The contact passes a step may take (step/step.c, passes_over). A sheet pinned at every particle
 * and driven at 20 m/s (10.4 mm in a step of max_dt / 64) through a pinned sheet below it: nothing
 * can separate them, so every pass catches cloth crossing cloth. Tilted by 30 degrees, the upper
 * sheet ends the step piercing the lower one: a step at the judge's floor, which the judge accepts
 * with whatever the passes leave, then gets FLOOR_CONTACT_PASSES (16) solves, as the sleeve folded
 * in the boxer's elbow needed (docs/garments.md). Flat, it ends wholly below the lower sheet with
 * no pair intersecting, and the step ends after CONTACT_PASSES (4), as on the walking outfit's
 * pinched hip, where more passes did harm. */
static drape_stats driven_through(double tilt)
{
	drape_world_def wd = drape_default_world_def();
	wd.gravity[2] = 0.0;
	drape_world* w = drape_world_create(&wd);
	drape_cloth_id lower = add_sheet(w, 9, 0.2, v3(0.0, 0.0, 0.0), v3(1, 0, 0), v3(0, 1, 0), NULL);
	drape_cloth_id upper = add_sheet(w, 5, 0.1, v3(0.003, 0.004, 0.001 + 0.05 * sin(tilt)), v3(1, 0, 0),
					 v3(0, cos(tilt), sin(tilt)), NULL);
	for (int s = 0; s < 2; ++s) {
		drape_cloth_id cloth = s == 0 ? lower : upper;
		for (int32_t q = 0; q < drape_cloth_vertex_count(w, cloth); ++q) {
			drape_constraint_def c = drape_default_constraint_def();
			c.cloth = cloth;
			c.vertex = q;
			c.motion = DRAPE_MOTION_VELOCITY;
			c.velocity[2] = s == 0 ? 0.0 : -20.0;
			CHECK(drape_constraint_add(w, &c).index >= 0);
		}
	}
	CHECK(drape_world_step(w, wd.max_dt / 64.0) == DRAPE_OK);
	drape_stats st = drape_world_get_stats(w);
	drape_world_destroy(w);
	return st;
}

static void test_more_contact_passes_at_the_floor(void)
{
	drape_stats st = driven_through(0.5235987755982988) /* 30 degrees */;
	CHECK(st.steps == 1 && st.rejected == 0);
	CHECK(st.solves == 16);
	CHECK(st.self_intersections > 0);
	st = driven_through(0.0);
	CHECK(st.steps == 1 && st.rejected == 0);
	CHECK(st.solves == 4);
	CHECK(st.self_intersections == 0);
}

/* A sheet with its middle particle pushed through the sheet under it (as a seam merge can snap a
 * knot in, docs/garments.md): the step unfolds the knot first (collide/cloth_untangle.c), so the
 * intersections are gone after the frame and the particle is back above the lower sheet. */
static void test_knot_through_sheet_untangled(void)
{
	drape_world_def wd = drape_default_world_def();
	wd.gravity[2] = 0.0;
	drape_world* w = drape_world_create(&wd);
	drape_cloth_id lower = add_sheet(w, 11, 0.2, v3(0.0, 0.0, 0.0), v3(1, 0, 0), v3(0, 1, 0), NULL);
	drape_cloth_id upper = add_sheet(w, 9, 0.1, v3(0.0, 0.0, 0.02), v3(1, 0, 0), v3(0, 1, 0), NULL);
	double x[3 * 81];
	drape_cloth_get_positions(w, upper, x);
	x[3 * 40 + 2] = -0.01; /* the middle particle 1 cm below the lower sheet */
	CHECK(drape_cloth_set_positions(w, upper, x) == DRAPE_OK);
	CHECK(drape_world_step(w, 1.0 / 30.0) == DRAPE_OK);
	CHECK(drape_world_get_stats(w).self_intersections == 0);
	CHECK(height_over(w, upper, 40, lower) > 0.0);
	drape_world_destroy(w);
}

/* The repulsions' couplings (the matrix's extra elements) keep A symmetric. */
static void test_cloth_contact_matrix_symmetric(void)
{
	drape_world_def wd = drape_default_world_def();
	drape_world* w = drape_world_create(&wd);
	add_sheet(w, 7, 0.3, v3(0.0, 0.0, 0.0), v3(1, 0, 0), v3(0, 1, 0), NULL);
	add_sheet(w, 7, 0.3, v3(0.01, 0.02, 0.002), v3(1, 0, 0), v3(0, 1, 0), NULL);
	uint64_t seed = 3;
	workspace_prepare(w);
	for (int32_t i = 0; i < w->model.particle_count; ++i) w->state.v[i] = v3(fixture_rand(&seed), fixture_rand(&seed), fixture_rand(&seed));
	/* the step's stages up to its first assembly (step/step.h) */
	step_context c;
	step_context_init(&c, w, 1.0 / 30.0);
	step_prepare(&c);
	CHECK(step_begin(&c) == DRAPE_OK);
	step_pose_solids(&c);
	CHECK(step_detect_contacts(&c));
	step_assemble(&c);
	CHECK(w->state.repulsion_count > 0);
	CHECK(w->work.A.extra_count > 0);
	/* dense copy of A */
	int32_t n = w->model.particle_count, m = 3 * n;
	double* a = calloc((size_t)m * (size_t)m, sizeof *a);
	for (int32_t i = 0; i < n; ++i)
		for (int32_t k = w->work.A.row_start[i]; k < w->work.A.row_start[i + 1]; ++k)
			for (int r2 = 0; r2 < 3; ++r2)
				for (int c2 = 0; c2 < 3; ++c2) a[(size_t)(3 * i + r2) * m + 3 * w->work.A.cols[k] + c2] += w->work.A.blocks[k].m[r2][c2];
	/* the scalar part (bsr.h): the tensor bending's second ring, s I */
	for (int32_t i = 0; i < n; ++i)
		for (int32_t k = bsr_iso_begin(&w->work.A, i); k < bsr_iso_end(&w->work.A, i); ++k)
			for (int r2 = 0; r2 < 3; ++r2) a[(size_t)(3 * i + r2) * m + 3 * w->work.A.iso_cols[k] + r2] += w->work.A.iso_vals[k];
	for (int32_t e = 0; e < w->work.A.extra_count; ++e)
		for (int p = 0; p < 4; ++p)
			for (int q = 0; q < 4; ++q) {
				if (p == q) continue;
				int32_t i = w->work.A.extra_nodes[4 * e + p], j = w->work.A.extra_nodes[4 * e + q];
				for (int r2 = 0; r2 < 3; ++r2)
					for (int c2 = 0; c2 < 3; ++c2)
						a[(size_t)(3 * i + r2) * m + 3 * j + c2] += w->work.A.extra_blocks[16 * (size_t)e + 4 * p + q].m[r2][c2];
			}
	double worst = 0.0, scale = 0.0;
	for (int32_t i = 0; i < m; ++i)
		for (int32_t j = 0; j < m; ++j) {
			worst = fmax(worst, fabs(a[(size_t)i * m + j] - a[(size_t)j * m + i]));
			scale = fmax(scale, fabs(a[(size_t)i * m + j]));
		}
	CHECK(worst <= 1e-12 * scale);
	/* and the product with the extras equals the dense product */
	vec3* x = malloc((size_t)n * sizeof *x);
	vec3* y = malloc((size_t)n * sizeof *y);
	for (int32_t i = 0; i < n; ++i) x[i] = v3(fixture_rand(&seed), fixture_rand(&seed), fixture_rand(&seed));
	bsr_mul(&w->work.A, x, y, 1);
	for (int32_t i = 0; i < m; ++i) {
		double s = 0.0;
		for (int32_t j = 0; j < m; ++j) s += a[(size_t)i * m + j] * v3_get(x[j / 3], j % 3);
		CHECK_NEAR(v3_get(y[i / 3], i % 3), s, 1e-9 * scale);
	}
	free(x);
	free(y);
	free(a);
	drape_world_destroy(w);
}

/* Re-solve passes (new contacts within a step) reuse the first pass's element terms
 * (step/implicit.c): a sheet draping over a sphere, folding onto itself, moves bit-identically
 * with and without that reuse, on one thread and two. */
static void drape_on_sphere_with(bool reuse, int threads, bool warm, double tolerance, double strain_limit, int frames,
				 double* out, int64_t* reused)
{
	drape_world_def wd = drape_default_world_def();
	wd.strain_limit = strain_limit;
	wd.threads = threads;
	wd.warm_start = warm;
	wd.cg_tolerance = tolerance;
	wd.self_collision = true;
	drape_world* w = drape_world_create(&wd);
	w->work.reuse_disabled = !reuse;
	drape_solid_def sd = drape_default_solid_def();
	sd.shape = DRAPE_SOLID_SPHERE;
	sd.radius = 0.1;
	CHECK(drape_solid_add(w, &sd).index == 0);
	drape_cloth_id c = add_sheet(w, 17, 0.5, v3(0.02, 0.01, 0.13), v3(1, 0, 0), v3(0, 1, 0), NULL);
	for (int f = 1; f <= frames; ++f) CHECK(drape_world_step(w, f / 30.0 - drape_world_time(w)) == DRAPE_OK);
	int n = drape_cloth_vertex_count(w, c);
	drape_cloth_get_positions(w, c, out);
	drape_cloth_get_velocities(w, c, out + 3 * n);
	*reused = w->work.reuse_passes;
	drape_world_destroy(w);
}

static void drape_on_sphere(bool reuse, int threads, double* out, int64_t* reused)
{
	drape_world_def wd = drape_default_world_def();
	drape_on_sphere_with(reuse, threads, wd.warm_start, wd.cg_tolerance, wd.strain_limit, 24, out, reused);
}

static void test_resolve_passes_reuse_bit_identical(void)
{
	enum { N = 17 * 17 };
	static double full[6 * N], reuse1[6 * N], reuse2[6 * N];
	int64_t r0, r1, r2;
	drape_on_sphere(false, 1, full, &r0);
	drape_on_sphere(true, 1, reuse1, &r1);
	drape_on_sphere(true, 2, reuse2, &r2);
	CHECK(r0 == 0);
	CHECK(r1 > 5); /* passes were solved again, reusing terms */
	CHECK(r2 == r1);
	CHECK(memcmp(full, reuse1, sizeof full) == 0);
	CHECK(memcmp(full, reuse2, sizeof full) == 0);
}

/* A re-solve pass starts CG from the previous pass's answer, in place (guess == dv): it changes
 * where the solve starts, not what it solves. At a tight tolerance the sheet on the sphere moves
 * the same with the warm start and without it (the paper's start, dv = z), over the first 6
 * frames, to 4e-8 m (longer, a contact decided differently at a rounding-level distance makes the
 * runs part: at frame 7 one run re-solves 18 passes, the other 16).
 * Without strain limiting: its projection stops at a tolerance of its own (1 % of the limit) and
 * picks its active set by thresholds, so it parts runs that differ at 1e-9 sooner. */
static void test_resolve_passes_warm_start_same_motion(void)
{
	enum { N = 17 * 17 };
	static double cold[6 * N], warm[6 * N];
	int64_t rc, rw;
	drape_on_sphere_with(true, 1, false, 1e-9, 0.0, 6, cold, &rc);
	drape_on_sphere_with(true, 1, true, 1e-9, 0.0, 6, warm, &rw);
	CHECK(rc > 5 && rw == rc); /* steps were solved again, on the same contact events */
	double worst = 0.0;
	for (int i = 0; i < 3 * N; ++i) worst = fmax(worst, fabs(cold[i] - warm[i]));
	CHECK(worst < 1e-6);
}

const test_case contact_tests[] = {
	{"resolve_passes_warm_start_same_motion", test_resolve_passes_warm_start_same_motion},
	{"resolve_passes_reuse_bit_identical", test_resolve_passes_reuse_bit_identical},
	{"friction_sticks_below_friction_angle", test_friction_sticks_below_friction_angle},
	{"friction_slides_above_friction_angle", test_friction_slides_above_friction_angle},
	{"release_from_plate_falling_faster_than_gravity", test_release_from_plate_falling_faster_than_gravity},
	{"resting_sheet_releases_no_contact", test_resting_sheet_releases_no_contact},
	{"sheet_at_rest_on_sphere_does_not_chatter", test_sheet_at_rest_on_sphere_does_not_chatter},
	{"no_tunnelling_through_thin_plate", test_no_tunnelling_through_thin_plate},
	{"fast_sphere_does_not_pass_through_sheet", test_fast_sphere_does_not_pass_through_sheet},
	{"drape_over_mesh_cylinder", test_drape_over_mesh_cylinder},
	{"moving_box_drags_cloth_by_friction", test_moving_box_drags_cloth_by_friction},
	{"start_inside_solid_resolved", test_start_inside_solid_resolved},
	{"two_sheets_stack_on_floor", test_two_sheets_stack_on_floor},
	{"sheet_folds_over_sphere_without_self_intersection", test_sheet_folds_over_sphere_without_self_intersection},
	{"fast_sheet_does_not_pass_through_sheet", test_fast_sheet_does_not_pass_through_sheet},
	{"sheets_pinched_between_closing_solids", test_sheets_pinched_between_closing_solids},
	{"more_contact_passes_at_the_floor", test_more_contact_passes_at_the_floor},
	{"contact_takes_the_outer_surface_over_a_buried_face", test_contact_takes_the_outer_surface_over_a_buried_face},
	{"contact_takes_the_outer_surface_over_a_cut_face", test_contact_takes_the_outer_surface_over_a_cut_face},
	{"contact_sliding_into_a_wall_ends_outside", test_contact_sliding_into_a_wall_ends_outside},
	{"knot_through_sheet_untangled", test_knot_through_sheet_untangled},
	{"cloth_contact_matrix_symmetric", test_cloth_contact_matrix_symmetric},
	{NULL, NULL},
};
