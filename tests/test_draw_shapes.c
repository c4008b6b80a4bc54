/* The renderer's tessellation of solids (src/draw_shapes.c, behind drape_world_draw): every vertex lies on the collision
 * shape (collide/shapes.c), normals are unit and point out, triangle windings agree with them,
 * mesh creases stay sharp while fine curvature is smoothed, planes become patches around the
 * focus, and keyframed solids are drawn where the simulation places them. */
#include "test.h"

#include "draw_shapes.h"
#include "world.h"

#include <string.h>

static drape_world* world_with(const drape_solid_def* d)
{
	drape_world_def wd = drape_default_world_def();
	drape_world* w = drape_world_create(&wd);
	drape_solid_id id = drape_solid_add(w, d);
	CHECK(id.index == 0);
	return w;
}

static vec3 vertex_at(const draw_geometry* g, int32_t i) { return v3(g->positions[3 * i], g->positions[3 * i + 1], g->positions[3 * i + 2]); }
static vec3 normal_at(const draw_geometry* g, int32_t i) { return v3(g->normals[3 * i], g->normals[3 * i + 1], g->normals[3 * i + 2]); }

/* A posed analytic solid: vertices on its surface, unit outward normals, windings that agree. */
static void check_analytic(drape_solid_shape kind)
{
	drape_solid_def d = drape_default_solid_def();
	d.shape = kind;
	d.radius = 0.3;
	d.half_height = 0.4;
	d.half_extents[0] = 0.1, d.half_extents[1] = 0.2, d.half_extents[2] = 0.3;
	d.position[0] = 0.5, d.position[1] = -0.2, d.position[2] = 1.0;
	/* 40 degrees about (1, 2, 3) */
	double s = sin(0.5 * 40.0 * DRAW_PI / 180.0) / sqrt(14.0);
	d.rotation[0] = cos(0.5 * 40.0 * DRAW_PI / 180.0), d.rotation[1] = s, d.rotation[2] = 2.0 * s, d.rotation[3] = 3.0 * s;
	drape_world* w = world_with(&d);
	const solid_data* sd = &w->solids[0];
	draw_geometry g;
	memset(&g, 0, sizeof g);
	CHECK(geometry_add_solid(&g, sd, 0.0, v3_zero(), 1.0));
	CHECK(g.vertex_count > 20 && g.index_count > 30);
	xform x = solid_pose_at(sd, 0.0);
	int on_surface = 0, outward = 0, unit = 0;
	for (int32_t i = 0; i < g.vertex_count; ++i) {
		vec3 p = xform_inv_apply_point(x, vertex_at(&g, i));
		vec3 n = xform_inv_apply_vector(x, normal_at(&g, i));
		double dist = shape_signed_distance(&sd->shape, p, NULL, NULL);
		on_surface += fabs(dist) < 1e-6;
		unit += fabs(v3_len(n) - 1.0) < 1e-6;
		/* a step out along the normal leaves the solid at the rate of the step */
		outward += shape_signed_distance(&sd->shape, v3_madd(p, 1e-4, n), NULL, NULL) > dist + 0.9e-4;
	}
	CHECK(on_surface == g.vertex_count);
	CHECK(unit == g.vertex_count);
	CHECK(outward == g.vertex_count);
	int agree = 0, faces = 0;
	for (int32_t t = 0; t < g.index_count; t += 3) {
		vec3 a = vertex_at(&g, (int32_t)g.indices[t]), b = vertex_at(&g, (int32_t)g.indices[t + 1]),
		     c = vertex_at(&g, (int32_t)g.indices[t + 2]);
		vec3 f = v3_cross(v3_sub(b, a), v3_sub(c, a));
		if (v3_len(f) < 1e-10) continue; /* the sphere's poles give slivers of zero area */
		++faces;
		for (int k = 0; k < 3; ++k) agree += v3_dot(f, normal_at(&g, (int32_t)g.indices[t + k])) > 0.0;
	}
	CHECK(faces > g.index_count / 3 * 9 / 10);
	CHECK(agree == 3 * faces);
	geometry_free(&g);
	drape_world_destroy(w);
}

static void test_sphere(void) { check_analytic(DRAPE_SOLID_SPHERE); }
static void test_capsule(void) { check_analytic(DRAPE_SOLID_CAPSULE); }
static void test_cylinder(void) { check_analytic(DRAPE_SOLID_CYLINDER); }
static void test_box(void) { check_analytic(DRAPE_SOLID_BOX); }

/* A 32-sided prism mesh: across the 11.25 degree side edges normals are averaged (nearly radial
 * at the vertices), across the 90 degree rims they are not (the caps stay flat). */
static void test_mesh_creases(void)
{
	enum { N = 32 };
	double pos[3 * 2 * N];
	int32_t tri[3 * (2 * N + 2 * (N - 2))];
	int32_t nt = 0;
	for (int i = 0; i < N; ++i)
		for (int k = 0; k < 2; ++k) {
			double a = 2.0 * DRAW_PI * i / N;
			pos[3 * (2 * i + k)] = cos(a), pos[3 * (2 * i + k) + 1] = sin(a), pos[3 * (2 * i + k) + 2] = k ? 1.0 : -1.0;
		}
	for (int i = 0; i < N; ++i) { /* sides, outward: bottom i, bottom i+1, top i+1 / top i */
		int32_t b0 = 2 * i, t0 = 2 * i + 1, b1 = 2 * ((i + 1) % N), t1 = b1 + 1;
		int32_t q[6] = {b0, b1, t1, b0, t1, t0};
		memcpy(&tri[3 * nt], q, sizeof q);
		nt += 2;
	}
	for (int i = 1; i + 1 < N; ++i) { /* caps as fans: top counter-clockwise from above, bottom reversed */
		int32_t top[3] = {1, 2 * i + 1, 2 * (i + 1) + 1}, bottom[3] = {0, 2 * (i + 1), 2 * i};
		memcpy(&tri[3 * nt++], top, sizeof top);
		memcpy(&tri[3 * nt++], bottom, sizeof bottom);
	}
	drape_mesh m = {.vertex_count = 2 * N, .positions = pos, .triangle_count = nt, .triangles = tri};
	drape_solid_def d = drape_default_solid_def();
	d.shape = DRAPE_SOLID_MESH;
	d.mesh = &m;
	drape_world* w = world_with(&d);
	draw_geometry g;
	memset(&g, 0, sizeof g);
	CHECK(geometry_add_solid(&g, &w->solids[0], 0.0, v3_zero(), 1.0));
	CHECK(g.vertex_count == 3 * nt);
	int side_radial = 0, cap_flat = 0, sides = 0, caps = 0;
	for (int32_t t = 0; t < nt; ++t) {
		bool side = t < 2 * N;
		for (int k = 0; k < 3; ++k) {
			vec3 p = vertex_at(&g, 3 * t + k), n = normal_at(&g, 3 * t + k);
			if (side) {
				++sides;
				/* each face normal is 5.6 degrees off the vertex's radial direction (dot 0.9952);
				 * the area-weighted mean of the faces around it, within 2.6 */
				side_radial += v3_dot(n, v3_normalize(v3(p.x, p.y, 0.0))) > 0.999;
			} else {
				++caps;
				cap_flat += fabs(n.z) > 0.9999 && n.z * p.z > 0.0;
			}
		}
	}
	CHECK(side_radial == sides);
	CHECK(cap_flat == caps);
	geometry_free(&g);
	drape_world_destroy(w);
}

/* An infinite plane becomes a square of the asked half size on the plane, centred on the point
 * of the plane nearest the focus. */
static void test_plane_patch(void)
{
	drape_solid_def d = drape_default_solid_def();
	d.shape = DRAPE_SOLID_PLANE;
	d.position[2] = 0.2;
	double a = 30.0 * DRAW_PI / 180.0;
	d.rotation[0] = cos(0.5 * a), d.rotation[1] = sin(0.5 * a); /* 30 degrees about x */
	drape_world* w = world_with(&d);
	const solid_data* sd = &w->solids[0];
	draw_geometry g;
	memset(&g, 0, sizeof g);
	vec3 focus = v3(0.3, 0.4, 2.0);
	CHECK(geometry_add_solid(&g, sd, 0.0, focus, 0.75));
	xform x = solid_pose_at(sd, 0.0);
	vec3 f = xform_inv_apply_point(x, focus), mean = v3_zero();
	double reach = 0.0;
	for (int32_t i = 0; i < g.vertex_count; ++i) {
		vec3 p = xform_inv_apply_point(x, vertex_at(&g, i));
		CHECK_NEAR(p.z, 0.0, 1e-6);
		mean = v3_add(mean, p);
		reach = fmax(reach, fmax(fabs(p.x - f.x), fabs(p.y - f.y)));
	}
	mean = v3_scale(mean, 1.0 / g.vertex_count);
	CHECK_NEAR(mean.x, f.x, 1e-6);
	CHECK_NEAR(mean.y, f.y, 1e-6);
	CHECK_NEAR(reach, 0.75, 1e-6);
	vec3 bounds_lo = v3(1, 1, 1), bounds_hi = v3(-1, -1, -1);
	solid_draw_bounds(sd, 0.0, &bounds_lo, &bounds_hi); /* planes add nothing to the bounds */
	CHECK(bounds_lo.x == 1 && bounds_hi.x == -1);
	geometry_free(&g);
	drape_world_destroy(w);
}

/* A keyframed sphere is drawn where the simulation puts it at the drawn time. */
static void test_keyframed(void)
{
	drape_pose poses[2] = {{.time = 0.0, .rotation = {1, 0, 0, 0}}, {.time = 1.0, .position = {1.0, 0.0, 0.5}, .rotation = {1, 0, 0, 0}}};
	drape_solid_def d = drape_default_solid_def();
	d.shape = DRAPE_SOLID_SPHERE;
	d.radius = 0.1;
	d.poses = poses;
	d.pose_count = 2;
	drape_world* w = world_with(&d);
	draw_geometry g;
	memset(&g, 0, sizeof g);
	CHECK(geometry_add_solid(&g, &w->solids[0], 0.25, v3_zero(), 1.0));
	vec3 lo = v3(INFINITY, INFINITY, INFINITY), hi = v3_neg(lo);
	for (int32_t i = 0; i < g.vertex_count; ++i) {
		vec3 p = vertex_at(&g, i);
		lo = v3(fmin(lo.x, p.x), fmin(lo.y, p.y), fmin(lo.z, p.z));
		hi = v3(fmax(hi.x, p.x), fmax(hi.y, p.y), fmax(hi.z, p.z));
	}
	CHECK_NEAR(0.5 * (lo.x + hi.x), 0.25, 1e-6);
	CHECK_NEAR(0.5 * (lo.z + hi.z), 0.125, 1e-6);
	CHECK_NEAR(hi.z - lo.z, 0.2, 1e-6);
	vec3 blo = v3(INFINITY, INFINITY, INFINITY), bhi = v3_neg(blo);
	solid_draw_bounds(&w->solids[0], 0.25, &blo, &bhi);
	CHECK_NEAR(blo.x, 0.15, 1e-12);
	CHECK_NEAR(bhi.z, 0.225, 1e-12);
	geometry_free(&g);
	drape_world_destroy(w);
}

const test_case draw_tests[] = {
	{"draw_sphere_on_surface_outward", test_sphere},
	{"draw_capsule_on_surface_outward", test_capsule},
	{"draw_cylinder_on_surface_outward", test_cylinder},
	{"draw_box_on_surface_outward", test_box},
	{"draw_mesh_creases_sharp_curves_smooth", test_mesh_creases},
	{"draw_plane_patch_around_focus", test_plane_patch},
	{"draw_keyframed_solid_at_time", test_keyframed},
	{NULL, NULL},
};
