/* The renderer's tessellation of solids (src/draw_shapes.c, behind drape_world_draw): every vertex lies on the collision
 * shape (collide/shapes.c), normals are unit and point out, triangle windings agree with them,
 * mesh creases stay sharp while fine curvature is smoothed, planes become patches around the
 * focus, keyframed solids are drawn where the simulation places them, and drape_world_draw hands
 * each callback what the world holds. */
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
	const solid_data* sd = &w->model.solids[0];
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
	CHECK(drape_solid_vertex_count(w, (drape_solid_id){0}) == 2 * N && drape_solid_triangle_count(w, (drape_solid_id){0}) == nt);
	draw_geometry g;
	memset(&g, 0, sizeof g);
	CHECK(geometry_add_solid(&g, &w->model.solids[0], 0.0, v3_zero(), 1.0));
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
	const solid_data* sd = &w->model.solids[0];
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
	CHECK(geometry_add_solid(&g, &w->model.solids[0], 0.25, v3_zero(), 1.0));
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
	solid_draw_bounds(&w->model.solids[0], 0.25, &blo, &bhi);
	CHECK_NEAR(blo.x, 0.15, 1e-12);
	CHECK_NEAR(bhi.z, 0.225, 1e-12);
	geometry_free(&g);
	drape_world_destroy(w);
}

/* What drape_world_draw hands a renderer, recorded. */
typedef struct draw_record {
	int cloths, cloth_vertices, cloth_triangles;
	double cloth_x0[3];
	int solids, planes_flagged, solid_vertices[2];
	int planes;
	double plane_origin[3], plane_rotation[4];
	int solid_points, cloth_points;
} draw_record;

static void record_cloth(drape_cloth_id cloth, const double* x, int32_t nv, const int32_t* tri, int32_t nt, void* context)
{
	draw_record* r = context;
	CHECK(cloth.index == r->cloths && tri != NULL);
	r->cloths++;
	r->cloth_vertices += nv;
	r->cloth_triangles += nt;
	memcpy(r->cloth_x0, x, sizeof r->cloth_x0);
}

static void record_solid(drape_solid_id solid, bool plane, const float* p, const float* n, int32_t nv, const uint32_t* idx,
			 int32_t ni, void* context)
{
	draw_record* r = context;
	CHECK(solid.index == r->solids && p != NULL && n != NULL && idx != NULL && ni % 3 == 0);
	for (int32_t i = 0; i < ni; ++i) CHECK(idx[i] < (uint32_t)nv);
	if (solid.index < 2) r->solid_vertices[solid.index] = nv;
	r->solids++;
	r->planes_flagged += plane;
}

static void record_plane(drape_solid_id solid, const double origin[3], const double rotation[4], void* context)
{
	draw_record* r = context;
	CHECK(solid.index == 1);
	r->planes++;
	memcpy(r->plane_origin, origin, sizeof r->plane_origin);
	memcpy(r->plane_rotation, rotation, sizeof r->plane_rotation);
}

static void record_point(const double p[3], drape_debug_point kind, void* context)
{
	draw_record* r = context;
	CHECK(isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]));
	if (kind == DRAPE_DEBUG_SOLID_CONTACT) r->solid_points++;
	else r->cloth_points++;
}

/* The public debug-draw interface: a sheet lying on a sphere, over a plane. Each callback gets
 * what the world holds (the cloth's own positions, each solid tessellated as draw_shapes.c does,
 * the plane's frame, one point per particle in solid contact), and only the parts asked for. */
static void test_world_draw(void)
{
	drape_world_def wd = drape_default_world_def();
	drape_world* w = drape_world_create(&wd);
	drape_grid_def gd = drape_default_grid_def();
	gd.size[0] = gd.size[1] = 0.4;
	gd.resolution[0] = gd.resolution[1] = 9;
	gd.center[2] = 0.301;
	drape_mesh m;
	CHECK(drape_mesh_make_grid(&gd, &m, NULL, 0) == DRAPE_OK);
	drape_cloth_def cd = drape_default_cloth_def();
	cd.mesh = &m;
	CHECK(drape_cloth_add(w, &cd).index == 0);
	drape_solid_def sphere = drape_default_solid_def();
	sphere.shape = DRAPE_SOLID_SPHERE;
	sphere.radius = 0.3;
	CHECK(drape_solid_add(w, &sphere).index == 0);
	CHECK(drape_solid_vertex_count(w, (drape_solid_id){0}) == 0 && drape_solid_triangle_count(w, (drape_solid_id){0}) == 0);
	drape_solid_def plane = drape_default_solid_def();
	plane.shape = DRAPE_SOLID_PLANE;
	plane.position[2] = -0.5;
	CHECK(drape_solid_add(w, &plane).index == 1);
	CHECK(drape_world_step(w, 1.0 / 30.0) == DRAPE_OK);

	draw_record r;
	memset(&r, 0, sizeof r);
	drape_debug_draw dd = drape_default_debug_draw();
	dd.draw_cloth = record_cloth;
	dd.draw_solid = record_solid;
	dd.draw_plane = record_plane;
	dd.draw_point = record_point;
	dd.context = &r;
	CHECK(drape_world_draw(w, &dd) == DRAPE_OK);
	CHECK(r.cloths == 0 && r.solids == 0 && r.planes == 0 && r.solid_points == 0); /* nothing asked for */
	dd.draw_cloths = dd.draw_solids = dd.draw_planes = dd.draw_contacts = true;
	CHECK(drape_world_draw(w, &dd) == DRAPE_OK);
	CHECK(r.cloths == 1 && r.cloth_vertices == 81 && r.cloth_triangles == drape_cloth_triangle_count(w, (drape_cloth_id){0}));
	double x[3 * 81];
	drape_cloth_get_positions(w, (drape_cloth_id){0}, x);
	CHECK(memcmp(r.cloth_x0, x, sizeof r.cloth_x0) == 0);
	CHECK(r.solids == 2 && r.planes_flagged == 1);
	draw_geometry g;
	memset(&g, 0, sizeof g);
	CHECK(geometry_add_solid(&g, &w->model.solids[0], 0.0, v3_zero(), 1.0));
	CHECK(r.solid_vertices[0] == g.vertex_count && r.solid_vertices[1] == 81);
	geometry_free(&g);
	CHECK(r.planes == 1 && r.plane_origin[2] == -0.5 && r.plane_rotation[0] == 1.0);
	int in_contact = 0;
	for (int32_t i = 0; i < w->model.particle_count; ++i) in_contact += w->state.contacts[i].solid >= 0;
	CHECK(in_contact > 0 && r.solid_points == in_contact);

	/* bounds: the sheet and the sphere, not the infinite plane; gravity as set */
	double lo[3], hi[3], gravity[3];
	drape_world_get_bounds(w, 0.0, lo, hi);
	CHECK_NEAR(lo[2], -0.3, 1e-9);
	CHECK(hi[2] > 0.3 && lo[0] <= -0.3 && hi[0] >= 0.3);
	drape_world_get_gravity(w, gravity);
	CHECK(gravity[2] == wd.gravity[2]);
	CHECK(drape_world_set_gravity(w, (double[3]){1.0, 0.0, 0.0}) == DRAPE_OK);
	drape_world_get_gravity(w, gravity);
	CHECK(gravity[0] == 1.0 && gravity[2] == 0.0);
	drape_mesh_free(&m);
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
	{"draw_world_public_callbacks", test_world_draw},
	{NULL, NULL},
};
