/* Layers of cloth (docs/collide.md, "Layers"): two tubes, one worn over the other on a rod that
 * moves; the outer tube's particles stay outside the inner tube's surface at every frame, and
 * tubes that start crossed in a small region are put back in the order of their layers. */
#include "fixtures.h"
#include "test.h"

#include "collide/cloth_pairs.h"
#include "collide/geometry.h"
#include "collide/solid.h"
#include "math/scalar.h"
#include "world.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TUBE_AROUND 32
#define TUBE_ALONG 9
#define TUBE_LENGTH 0.24
#define ROD_RADIUS 0.04

/* A tube of `radius` around the y axis, TUBE_AROUND particles around and TUBE_ALONG along, wound
 * so that its triangles face away from the axis (the outer side, cloth_layers.c). */
static drape_cloth_id add_tube(drape_world* w, double radius, int32_t layer)
{
	const int na = TUBE_AROUND, nl = TUBE_ALONG;
	double pos[3 * TUBE_AROUND * TUBE_ALONG], uv[2 * (TUBE_AROUND + 1) * TUBE_ALONG];
	int32_t tri[6 * TUBE_AROUND * (TUBE_ALONG - 1)], tuv[6 * TUBE_AROUND * (TUBE_ALONG - 1)];
	for (int j = 0; j < nl; ++j) {
		const double y = TUBE_LENGTH * ((double)j / (nl - 1) - 0.5);
		for (int i = 0; i <= na; ++i) {
			const double th = 2.0 * DRAPE_PI * i / na;
			if (i < na) {
				pos[3 * (j * na + i)] = radius * cos(th);
				pos[3 * (j * na + i) + 1] = y;
				pos[3 * (j * na + i) + 2] = radius * sin(th);
			}
			uv[2 * (j * (na + 1) + i)] = radius * th;
			uv[2 * (j * (na + 1) + i) + 1] = y;
		}
	}
	int32_t t = 0;
	for (int j = 0; j + 1 < nl; ++j)
		for (int i = 0; i < na; ++i) {
			const int32_t a = j * na + i, b = (j + 1) * na + i, c = j * na + (i + 1) % na, d = (j + 1) * na + (i + 1) % na;
			const int32_t ua = j * (na + 1) + i, ub = ua + na + 1, uc = ua + 1, ud = ub + 1;
			/* d/dy x d/dtheta points away from the axis */
			const int32_t q[6] = {a, b, c, c, b, d}, qu[6] = {ua, ub, uc, uc, ub, ud};
			for (int k = 0; k < 6; ++k) tri[6 * t + k] = q[k], tuv[6 * t + k] = qu[k];
			++t;
		}
	drape_mesh m = {.vertex_count = na * nl, .positions = pos, .uv_count = (na + 1) * nl, .uvs = uv,
			.triangle_count = 2 * t, .triangles = tri, .triangle_uvs = tuv};
	drape_cloth_def cd = drape_default_cloth_def();
	cd.mesh = &m;
	cd.layer = layer;
	return drape_cloth_add(w, &cd);
}

/* A rod along y (a cylinder of ROD_RADIUS) moved by keyframes: up, sideways and back, turning
 * about its axis, within 1.2 s. */
static void add_rod(drape_world* w)
{
	drape_pose poses[5];
	const double times[5] = {0.0, 0.3, 0.6, 0.9, 1.2};
	const double xz[5][2] = {{0.0, 0.0}, {0.0, 0.06}, {0.06, 0.02}, {-0.04, -0.03}, {0.0, 0.0}};
	for (int k = 0; k < 5; ++k) {
		/* a quarter turn about x puts the cylinder's z axis along y; then a turn of k * 40 degrees
		 * about y */
		const double a = 0.5 * (DRAPE_PI / 2), b = 0.5 * (40.0 * DRAPE_PI / 180.0) * k;
		poses[k].time = times[k];
		poses[k].position[0] = xz[k][0];
		poses[k].position[1] = 0.0;
		poses[k].position[2] = xz[k][1];
		/* q_y(b) q_x(a), (w, x, y, z) */
		poses[k].rotation[0] = cos(b) * cos(a);
		poses[k].rotation[1] = cos(b) * sin(a);
		poses[k].rotation[2] = sin(b) * cos(a);
		poses[k].rotation[3] = -sin(b) * sin(a);
	}
	drape_solid_def sd = drape_default_solid_def();
	sd.shape = DRAPE_SOLID_CYLINDER;
	sd.radius = ROD_RADIUS;
	sd.half_height = 0.2;
	sd.thickness = 0.003;
	sd.friction = 0.5;
	sd.poses = poses;
	sd.pose_count = 5;
	CHECK(drape_solid_add(w, &sd).index >= 0);
}

/* The least signed distance of the outer cloth's particles to the inner cloth's surface, the
 * sign by the inner triangle's winding normal (its outer side) at the closest point. */
static double least_clearance(const drape_world* w, drape_cloth_id inner, drape_cloth_id outer)
{
	const cloth_data* ci = &w->model.cloths[inner.index];
	const cloth_data* co = &w->model.cloths[outer.index];
	const int32_t t_end = ci->first_triangle + ci->mesh.triangle_count;
	const int32_t o_end = co->first_vertex + co->mesh.vertex_count;
	double least = INFINITY;
	for (int32_t p = co->first_vertex; p < o_end; ++p) {
		double best = INFINITY, signed_best = 0.0;
		for (int32_t t = ci->first_triangle; t < t_end; ++t) {
			const int32_t* v = w->model.triangles[t].v;
			vec3 a = w->state.x[v[0]], b = w->state.x[v[1]], c = w->state.x[v[2]];
			double bary[3];
			double d2 = point_triangle_closest(w->state.x[p], a, b, c, bary);
			if (d2 < best) {
				vec3 q = v3_add(v3_add(v3_scale(a, bary[0]), v3_scale(b, bary[1])), v3_scale(c, bary[2]));
				vec3 n = v3_cross(v3_sub(b, a), v3_sub(c, a));
				best = d2;
				signed_best = v3_dot(v3_sub(w->state.x[p], q), n) >= 0.0 ? sqrt(d2) : -sqrt(d2);
			}
		}
		if (signed_best < least) least = signed_best;
	}
	return least;
}

/* An outer tube (layer 1) over an inner one (layer 0) on the moving rod, with gravity pressing
 * the outer onto the inner over the rod: at every frame no triangle pair crosses and every outer
 * particle is outside the inner tube's surface. 1.5 s, the rod's whole motion and after; under the
 * sanitizers (SHORT, test.h) 0.6 s, its rise and first sideways move: the same code paths. */
static void test_two_tubes_keep_order_on_moving_rod(void)
{
	drape_world_def wd = drape_default_world_def();
	drape_world* w = drape_world_create(&wd);
	add_rod(w);
	drape_cloth_id inner = add_tube(w, ROD_RADIUS + 0.006, 0);
	drape_cloth_id outer = add_tube(w, ROD_RADIUS + 0.016, 1);
	double worst = INFINITY;
	int32_t crossed_frames = 0;
	for (int f = 0; f < SHORT(45, 18); ++f) {
		CHECK(drape_world_step(w, 1.0 / 30.0) == DRAPE_OK);
		crossed_frames += drape_world_get_stats(w).self_intersections > 0;
		worst = fmin(worst, least_clearance(w, inner, outer));
	}
	CHECK(crossed_frames == 0);
	CHECK(worst > 0.0);
	printf("least clearance of the outer tube over the inner: %.2f mm\n", 1e3 * worst);
	drape_world_destroy(w);
}

/* drape_cloth_contact_counts splits the step's contacts by cloth: the solid contacts add up to
 * the world's, and every cloth/cloth pair has a node on one tube or the other, a pair between the
 * tubes on both (the outer tube, lying on the inner one over the rod, touches the rod only
 * through it). */
static void test_contact_counts_per_cloth(void)
{
	drape_world_def wd = drape_default_world_def();
	drape_world* w = drape_world_create(&wd);
	add_rod(w);
	drape_cloth_id inner = add_tube(w, ROD_RADIUS + 0.006, 0);
	drape_cloth_id outer = add_tube(w, ROD_RADIUS + 0.016, 1);
	for (int f = 0; f < 10; ++f) CHECK(drape_world_step(w, 1.0 / 30.0) == DRAPE_OK);
	const drape_stats st = drape_world_get_stats(w);
	int32_t si, ci, so, co;
	drape_cloth_contact_counts(w, inner, &si, &ci);
	drape_cloth_contact_counts(w, outer, &so, &co);
	printf("solid contacts %d + %d of %d; cloth/cloth pairs %d and %d of %d\n", (int)si, (int)so, (int)st.solid_contacts,
	       (int)ci, (int)co, (int)st.cloth_contacts);
	CHECK(si + so == st.solid_contacts);
	CHECK(si > 0 && so == 0);
	CHECK(st.cloth_contacts > 0);
	CHECK(ci <= st.cloth_contacts && co <= st.cloth_contacts && ci + co >= st.cloth_contacts);
	/* the outer tube's pairs are all with the inner one (a tube does not touch itself here) */
	CHECK(co > 0 && co <= ci);
	drape_world_destroy(w);
}

/* The tubes start crossed: a patch of the outer tube's top (5 x 3 particles) pressed 1 cm in,
 * through the inner tube. Between layers the repulsion pushes the patch back out; with both
 * tubes in one layer it would hold the crossing where it found it. 1 s; under the sanitizers
 * 1/3 s (the layered tubes are clean from the first frame on, the flat ones still crossed). */
static int32_t crossed_tubes(int32_t outer_layer, double* clearance, int* first_clean, int* crossed_again)
{
	drape_world_def wd = drape_default_world_def();
	drape_world* w = drape_world_create(&wd);
	add_rod(w);
	drape_cloth_id inner = add_tube(w, ROD_RADIUS + 0.006, 0);
	drape_cloth_id outer = add_tube(w, ROD_RADIUS + 0.012, outer_layer);
	/* one step first: the crossing is then not one a topology change made, which the step would
	 * smooth out before anything else (cloth_untangle.c) */
	CHECK(drape_world_step(w, 1.0 / 30.0) == DRAPE_OK);
	double x[3 * TUBE_AROUND * TUBE_ALONG];
	drape_cloth_get_positions(w, outer, x);
	for (int j = 3; j <= 5; ++j)
		for (int i = TUBE_AROUND / 4 - 2; i <= TUBE_AROUND / 4 + 2; ++i) {
			double* p = &x[3 * (j * TUBE_AROUND + i)];
			const double r = hypot(p[0], p[2]), to = r - 0.010;
			p[0] *= to / r;
			p[2] *= to / r;
		}
	CHECK(drape_cloth_set_positions(w, outer, x) == DRAPE_OK);
	/* the world's count of intersecting pairs, which setting positions leaves as it was */
	w->state.intersections = cloth_pairs_intersections(&w->work.pairs, w->state.x, NULL, 0);
	CHECK(w->state.intersections > 0);
	printf("crossed start: %d intersecting triangle pairs\n", (int)w->state.intersections);
	*first_clean = -1;
	*crossed_again = 0;
	for (int f = 1; f <= SHORT(30, 10); ++f) {
		CHECK(drape_world_step(w, 1.0 / 30.0) == DRAPE_OK);
		const int32_t crossing = drape_world_get_stats(w).self_intersections;
		if (crossing == 0 && *first_clean < 0) *first_clean = f;
		if (crossing > 0 && *first_clean >= 0) ++*crossed_again;
	}
	int32_t left = drape_world_get_stats(w).self_intersections;
	*clearance = least_clearance(w, inner, outer);
	drape_world_destroy(w);
	return left;
}

static void test_crossed_tubes_untangled_by_layers(void)
{
	double layered, flat;
	int clean, again, clean_flat, again_flat;
	int32_t left_layered = crossed_tubes(1, &layered, &clean, &again);
	int32_t left_flat = crossed_tubes(0, &flat, &clean_flat, &again_flat);
	printf("after %d frames: %d crossing pairs with layers (none from frame %d on, clearance %.2f mm), %d in one "
	       "layer (%.2f mm)\n", SHORT(30, 10), (int)left_layered, clean, 1e3 * layered, (int)left_flat, 1e3 * flat);
	CHECK(left_layered == 0);
	CHECK(clean > 0 && again == 0);
	CHECK(layered > 0.0);
	CHECK(left_flat > 0);
}

/* A flat sheet of res x res particles and side `size` centred at height z, wound so that its
 * triangles face up (+z, its outer side), in `layer`. */
static drape_cloth_id add_flat_sheet(drape_world* w, int res, double size, double z, int32_t layer)
{
	drape_grid_def g = drape_default_grid_def();
	g.size[0] = g.size[1] = size;
	g.resolution[0] = g.resolution[1] = res;
	g.center[2] = z;
	drape_mesh mesh;
	char err[128];
	CHECK(drape_mesh_make_grid(&g, &mesh, err, sizeof err) == DRAPE_OK);
	/* the grid's winding: flip every triangle if its first one faces down */
	const double* x = mesh.positions;
	const int32_t* t = mesh.triangles;
	const double ax = x[3 * t[1]] - x[3 * t[0]], ay = x[3 * t[1] + 1] - x[3 * t[0] + 1];
	const double bx = x[3 * t[2]] - x[3 * t[0]], by = x[3 * t[2] + 1] - x[3 * t[0] + 1];
	if (ax * by - ay * bx < 0.0)
		for (int32_t k = 0; k < mesh.triangle_count; ++k) {
			int32_t* v = &mesh.triangles[3 * k];
			int32_t* u = &mesh.triangle_uvs[3 * k];
			int32_t tmp = v[1];
			v[1] = v[2], v[2] = tmp;
			tmp = u[1];
			u[1] = u[2], u[2] = tmp;
		}
	drape_cloth_def cd = drape_default_cloth_def();
	cd.mesh = &mesh;
	cd.layer = layer;
	drape_cloth_id id = drape_cloth_add(w, &cd);
	drape_mesh_free(&mesh);
	return id;
}

/* The corners of a box, (x_i, y_j, z_k) at index i + 2 j + 4 k, and its faces wound outward. */
static void box_corners(double* p, double x0, double x1, double y0, double y1, double z0, double z1)
{
	for (int k = 0; k < 8; ++k) {
		p[3 * k] = k & 1 ? x1 : x0;
		p[3 * k + 1] = k & 2 ? y1 : y0;
		p[3 * k + 2] = k & 4 ? z1 : z0;
	}
}

static const int32_t box_faces[36] = {0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4,
				      2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5};

/* Jaws: one deforming mesh solid of two boxes, a slab whose top is z = 0 and a smaller block
 * over it that comes down at 0.9 m/s at t = 0.2 s to leave `gap` between them, then slides 3 cm
 * along x (an arm closing on the hip, then swinging against it). One solid, as a character's body
 * is: a particle's contact takes the nearest face of either box. */
static void add_jaws(drape_world* w, double gap)
{
	enum { FRAMES = 5 };
	static const double times[FRAMES] = {0.0, 0.2, 0.247, 0.4, 0.6};
	double frames[FRAMES][48];
	const double* frame_ptr[FRAMES];
	for (int f = 0; f < FRAMES; ++f) {
		const double bottom = f < 2 ? 0.045 : gap, shift = f == 4 ? 0.03 : 0.0;
		box_corners(frames[f], -0.2, 0.2, -0.2, 0.2, -0.05, 0.0);
		box_corners(frames[f] + 24, -0.05 + shift, 0.05 + shift, -0.05, 0.05, bottom, bottom + 0.05);
		frame_ptr[f] = frames[f];
	}
	int32_t tri[72];
	for (int k = 0; k < 36; ++k) tri[k] = box_faces[k], tri[36 + k] = box_faces[k] + 8;
	drape_mesh m = {.vertex_count = 16, .positions = frames[0], .triangle_count = 24, .triangles = tri};
	drape_solid_def sd = drape_default_solid_def();
	sd.shape = DRAPE_SOLID_MESH;
	sd.mesh = &m;
	sd.mesh_frames = frame_ptr;
	sd.frame_times = times;
	sd.frame_count = FRAMES;
	sd.thickness = 0.005;
	sd.friction = 0.6;
	CHECK(drape_solid_add(w, &sd).index >= 0);
}

/* How many cloth particles lie inside either box of the jaws (add_jaws) as placed now: within
 * the slab, or within the block (its corners are the solid's vertices 8-15). */
static int32_t inside_jaws(const drape_world* w)
{
	const solid_data* s = &w->model.solids[0];
	vec3 lo = s->v1[8], hi = s->v1[8];
	for (int k = 9; k < 16; ++k) {
		lo = v3(fmin(lo.x, s->v1[k].x), fmin(lo.y, s->v1[k].y), fmin(lo.z, s->v1[k].z));
		hi = v3(fmax(hi.x, s->v1[k].x), fmax(hi.y, s->v1[k].y), fmax(hi.z, s->v1[k].z));
	}
	int32_t inside = 0;
	for (int32_t i = 0; i < w->model.particle_count; ++i) {
		const vec3 x = w->state.x[i];
		const bool slab = fabs(x.x) < 0.2 && fabs(x.y) < 0.2 && x.z < 0.0 && x.z > -0.05;
		const bool block = x.x > lo.x && x.x < hi.x && x.y > lo.y && x.y < hi.y && x.z > lo.z && x.z < hi.z;
		inside += slab || block;
	}
	return inside;
}

/* Two layers pinched between two surfaces of one solid, as an arm swinging against the hip presses
 * a shirt onto the pants (docs/collide.md, "Pinched layers", "Squeezed cloth"): the inner sheet
 * (layer 0) lies on the slab, the outer (layer 1) over it, and the block comes down to leave
 * `gap`, less than the two surfaces' thicknesses (5 mm each) and the cloth's (4 mm), then slides
 * (from frame 12 to 18; under the sanitizers to frame 15, the same code paths as the whole slide).
 * Returns the frames with crossing pairs; *clearance is the least signed distance of an outer
 * particle to the inner sheet's surface over all frames, *most the most crossing pairs in a frame,
 * *inside the most particles inside either box in a frame. */
static int pinched_sheets(double gap, double* clearance, int32_t* most, int32_t* inside)
{
	drape_world_def wd = drape_default_world_def();
	drape_world* w = drape_world_create(&wd);
	add_jaws(w, gap);
	drape_cloth_id inner = add_flat_sheet(w, 11, 0.2, 0.005, 0);
	drape_cloth_id outer = add_flat_sheet(w, 9, 0.16, 0.005 + wd.cloth_thickness + 0.002, 1);
	int crossed = 0;
	*most = *inside = 0;
	*clearance = INFINITY;
	for (int f = 1; f <= SHORT(24, 15); ++f) {
		CHECK(drape_world_step(w, f / 30.0 - drape_world_time(w)) == DRAPE_OK);
		const drape_stats st = drape_world_get_stats(w);
		crossed += st.self_intersections > 0;
		if (st.self_intersections > *most) *most = st.self_intersections;
		CHECK(st.penetrating == 0);
		const int32_t in = inside_jaws(w);
		if (in > *inside) *inside = in;
		*clearance = fmin(*clearance, least_clearance(w, inner, outer));
	}
	drape_world_destroy(w);
	return crossed;
}

static void test_layers_pinched_between_two_surfaces(void)
{
	/* 3 mm, as the walk's arm at its hip (frame 88), and 1.5 mm: each layer has less room than
	 * its surface's thickness, and the outer one less than the cloth's thickness to the inner */
	const double gaps[2] = {0.003, 0.0015};
	for (int g = 0; g < 2; ++g) {
		double clearance;
		int32_t most, inside;
		const int crossed = pinched_sheets(gaps[g], &clearance, &most, &inside);
		printf("pinched to %.1f mm: %d frames with crossings (at most %d pairs), least clearance %.2f mm, at most %d "
		       "particles inside the boxes\n", 1e3 * gaps[g], crossed, (int)most, 1e3 * clearance, (int)inside);
		CHECK(crossed == 0);
		CHECK(clearance > 0.0);
		CHECK(inside == 0);
	}
}

/* A negative layer is refused, naming the cloth; the world is left without it. */
static void test_negative_layer_refused(void)
{
	drape_world_def wd = drape_default_world_def();
	drape_world* w = drape_world_create(&wd);
	drape_grid_def g = drape_default_grid_def();
	drape_mesh mesh;
	char err[128];
	CHECK(drape_mesh_make_grid(&g, &mesh, err, sizeof err) == DRAPE_OK);
	drape_cloth_def cd = drape_default_cloth_def();
	cd.mesh = &mesh;
	cd.name = "coat";
	cd.layer = -1;
	CHECK(drape_cloth_add(w, &cd).index < 0);
	CHECK(strstr(drape_world_error(w), "cloth 'coat': layer -1 is negative") != NULL);
	CHECK(drape_cloth_count(w) == 0);
	drape_mesh_free(&mesh);
	drape_world_destroy(w);
}

const test_case layers_tests[] = {
	{"negative_layer_refused", test_negative_layer_refused},
	{"two_tubes_keep_order_on_moving_rod", test_two_tubes_keep_order_on_moving_rod},
	{"crossed_tubes_untangled_by_layers", test_crossed_tubes_untangled_by_layers},
	{"contact_counts_per_cloth", test_contact_counts_per_cloth},
	{"layers_pinched_between_two_surfaces", test_layers_pinched_between_two_surfaces},
	{NULL, NULL},
};
