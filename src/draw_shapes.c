/* Tessellation of the solids (collide/shapes.h: plane, sphere, capsule, cylinder, box; triangle
 * meshes, possibly keyframed or deforming) into triangles with normals, posed at a time. */
#include "draw_shapes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { SLICES = 48, STACKS = 24 };

void geometry_clear(draw_geometry* g)
{
	g->vertex_count = 0;
	g->index_count = 0;
}

void geometry_free(draw_geometry* g)
{
	free(g->positions);
	free(g->normals);
	free(g->indices);
	free(g->scratch);
	free(g->points);
	memset(g, 0, sizeof *g);
}

/* Room for nv more vertices and ni more indices. */
static bool reserve(draw_geometry* g, int64_t nv, int64_t ni)
{
	int64_t want_v = g->vertex_count + nv, want_i = g->index_count + ni;
	if (want_v > INT32_MAX / 4 || want_i > INT32_MAX / 4) return false;
	if (want_v > g->vertex_capacity) {
		int32_t cap = (int32_t)(want_v > 2 * (int64_t)g->vertex_capacity ? want_v : 2 * (int64_t)g->vertex_capacity);
		float* p = realloc(g->positions, 3 * (size_t)cap * sizeof *p);
		if (!p) return false;
		g->positions = p;
		float* n = realloc(g->normals, 3 * (size_t)cap * sizeof *n);
		if (!n) return false;
		g->normals = n;
		g->vertex_capacity = cap;
	}
	if (want_i > g->index_capacity) {
		int32_t cap = (int32_t)(want_i > 2 * (int64_t)g->index_capacity ? want_i : 2 * (int64_t)g->index_capacity);
		uint32_t* p = realloc(g->indices, (size_t)cap * sizeof *p);
		if (!p) return false;
		g->indices = p;
		g->index_capacity = cap;
	}
	return true;
}

/* A vertex given in the solid's frame, placed in the world by x. */
static uint32_t vertex(draw_geometry* g, xform x, vec3 p, vec3 n)
{
	vec3 wp = xform_apply_point(x, p), wn = v3_normalize(xform_apply_vector(x, n));
	float* dp = &g->positions[3 * (size_t)g->vertex_count];
	float* dn = &g->normals[3 * (size_t)g->vertex_count];
	dp[0] = (float)wp.x, dp[1] = (float)wp.y, dp[2] = (float)wp.z;
	dn[0] = (float)wn.x, dn[1] = (float)wn.y, dn[2] = (float)wn.z;
	return (uint32_t)g->vertex_count++;
}

static void triangle(draw_geometry* g, uint32_t a, uint32_t b, uint32_t c)
{
	uint32_t* i = &g->indices[g->index_count];
	i[0] = a, i[1] = b, i[2] = c;
	g->index_count += 3;
}

/* Quads between consecutive rings of `cols` vertices starting at first (rings counter-clockwise
 * seen from outside when going down the rows). */
static void ring_strip(draw_geometry* g, uint32_t first, int rows, int cols)
{
	for (int r = 0; r + 1 < rows; ++r)
		for (int c = 0; c < cols - 1; ++c) {
			uint32_t a = first + (uint32_t)(r * cols + c), b = a + 1;
			uint32_t d = a + (uint32_t)cols, e = d + 1;
			triangle(g, a, d, b);
			triangle(g, b, d, e);
		}
}

/* Sphere or capsule: latitude rings from the top pole down; the capsule's upper hemisphere is
 * lifted by half_height and the lower one dropped, the equator ring appearing once for each so
 * that the quads between them form the cylindrical side. */
static void round_shape(draw_geometry* g, xform x, double r, double hh)
{
	int rings = hh > 0.0 ? STACKS + 2 : STACKS + 1;
	uint32_t first = (uint32_t)g->vertex_count;
	for (int i = 0; i < rings; ++i) {
		int k = hh > 0.0 && i > STACKS / 2 ? i - 1 : i; /* latitude index */
		double th = DRAW_PI * k / STACKS;
		double lift = hh > 0.0 ? (i <= STACKS / 2 ? hh : -hh) : 0.0;
		for (int j = 0; j <= SLICES; ++j) {
			double ph = 2.0 * DRAW_PI * j / SLICES;
			vec3 n = v3(sin(th) * cos(ph), sin(th) * sin(ph), cos(th));
			vertex(g, x, v3(r * n.x, r * n.y, r * n.z + lift), n);
		}
	}
	ring_strip(g, first, rings, SLICES + 1);
}

static void disc(draw_geometry* g, xform x, double r, double z, double nz)
{
	uint32_t centre = vertex(g, x, v3(0.0, 0.0, z), v3(0.0, 0.0, nz));
	for (int j = 0; j <= SLICES; ++j) {
		double ph = 2.0 * DRAW_PI * j / SLICES;
		vertex(g, x, v3(r * cos(ph), r * sin(ph), z), v3(0.0, 0.0, nz));
	}
	for (int j = 0; j < SLICES; ++j) {
		uint32_t a = centre + 1 + (uint32_t)j;
		if (nz > 0.0) triangle(g, centre, a, a + 1);
		else triangle(g, centre, a + 1, a);
	}
}

static void cylinder(draw_geometry* g, xform x, double r, double hh)
{
	uint32_t first = (uint32_t)g->vertex_count;
	for (int i = 0; i < 2; ++i)
		for (int j = 0; j <= SLICES; ++j) {
			double ph = 2.0 * DRAW_PI * j / SLICES;
			vertex(g, x, v3(r * cos(ph), r * sin(ph), i == 0 ? hh : -hh), v3(cos(ph), sin(ph), 0.0));
		}
	ring_strip(g, first, 2, SLICES + 1);
	disc(g, x, r, hh, 1.0);
	disc(g, x, r, -hh, -1.0);
}

static void box(draw_geometry* g, xform x, vec3 h)
{
	for (int axis = 0; axis < 3; ++axis)
		for (int sign = -1; sign <= 1; sign += 2) {
			/* u, v span the face so that u x v points out along sign * axis */
			int a = (axis + 1) % 3, b = (axis + 2) % 3;
			double n[3] = {0, 0, 0}, u[3] = {0, 0, 0}, v[3] = {0, 0, 0};
			n[axis] = sign;
			u[a] = v3_get(h, a);
			v[b] = sign * v3_get(h, b);
			vec3 c = v3_scale(v3(n[0], n[1], n[2]), v3_get(h, axis));
			vec3 nu = v3(u[0], u[1], u[2]), nv = v3(v[0], v[1], v[2]), nn = v3(n[0], n[1], n[2]);
			uint32_t first = (uint32_t)g->vertex_count;
			vertex(g, x, v3_sub(v3_sub(c, nu), nv), nn);
			vertex(g, x, v3_sub(v3_add(c, nu), nv), nn);
			vertex(g, x, v3_add(v3_add(c, nu), nv), nn);
			vertex(g, x, v3_add(v3_sub(c, nu), nv), nn);
			triangle(g, first, first + 1, first + 2);
			triangle(g, first, first + 2, first + 3);
		}
}

/* The plane z = 0 of the solid's frame as a square around the point nearest focus, split into a
 * grid of quads so that per-vertex lighting varies smoothly across it. */
static void plane_patch(draw_geometry* g, xform x, vec3 focus, double half)
{
	enum { N = 8 };
	vec3 f = xform_inv_apply_point(x, focus);
	uint32_t first = (uint32_t)g->vertex_count;
	for (int i = 0; i <= N; ++i)
		for (int j = 0; j <= N; ++j) {
			double px = f.x + half * (2.0 * j / N - 1.0), py = f.y - half * (2.0 * i / N - 1.0);
			vertex(g, x, v3(px, py, 0.0), v3(0.0, 0.0, 1.0));
		}
	/* rows run towards -y: the same orientation as ring_strip's rings (outside = +z) */
	for (int i = 0; i < N; ++i)
		for (int j = 0; j < N; ++j) {
			uint32_t a = first + (uint32_t)(i * (N + 1) + j), b = a + 1, d = a + N + 1, e = d + 1;
			triangle(g, a, d, b);
			triangle(g, b, d, e);
		}
}

/* Per-corner normals: the area-weighted mean of the normals of the vertex's triangles that are
 * within 40 degrees of the corner's own triangle, so edges of a box-like mesh stay sharp while a
 * finely tessellated curved surface looks smooth. Each triangle gets its own three vertices. */
static bool mesh_solid(draw_geometry* g, const solid_data* s, double t)
{
	int32_t nv = s->vertex_count, nt = s->triangle_count;
	if (!reserve(g, 3 * (int64_t)nt, 3 * (int64_t)nt)) return false;
	/* scratch: offsets (nv + 1), then adjacency (3 nt) */
	int64_t need = (int64_t)nv + 1 + 3 * (int64_t)nt;
	if (need > g->scratch_capacity) {
		int32_t* p = realloc(g->scratch, (size_t)need * sizeof *p);
		if (!p) return false;
		g->scratch = p;
		g->scratch_capacity = (int32_t)need;
	}
	if ((int64_t)nv + nt > g->point_capacity) {
		vec3* p = realloc(g->points, ((size_t)nv + (size_t)nt) * sizeof *p);
		if (!p) return false;
		g->points = p;
		g->point_capacity = nv + nt;
	}
	vec3* world = g->points;
	vec3* face = world + nv; /* area-weighted (unnormalised) face normals */
	solid_mesh_vertices_at(s, t, world);
	int32_t* offset = g->scratch;
	int32_t* adjacent = g->scratch + nv + 1;
	memset(offset, 0, ((size_t)nv + 1) * sizeof *offset);
	for (int32_t f = 0; f < nt; ++f) {
		const int32_t* tri = &s->triangles[3 * f];
		face[f] = v3_cross(v3_sub(world[tri[1]], world[tri[0]]), v3_sub(world[tri[2]], world[tri[0]]));
		for (int c = 0; c < 3; ++c) offset[tri[c] + 1]++;
	}
	for (int32_t v = 0; v < nv; ++v) offset[v + 1] += offset[v];
	for (int32_t f = 0; f < nt; ++f)
		for (int c = 0; c < 3; ++c) adjacent[offset[s->triangles[3 * f + c]]++] = f;
	for (int32_t v = nv; v > 0; --v) offset[v] = offset[v - 1];
	offset[0] = 0;
	const double crease = cos(40.0 * DRAW_PI / 180.0);
	xform id = xform_identity();
	for (int32_t f = 0; f < nt; ++f) {
		const int32_t* tri = &s->triangles[3 * f];
		vec3 own = v3_normalize(face[f]);
		uint32_t corner[3];
		for (int c = 0; c < 3; ++c) {
			vec3 n = v3_zero();
			for (int32_t k = offset[tri[c]]; k < offset[tri[c] + 1]; ++k) {
				vec3 other = face[adjacent[k]];
				if (v3_dot(v3_normalize(other), own) >= crease) n = v3_add(n, other);
			}
			n = v3_len2(n) > 0.0 ? v3_normalize(n) : own;
			corner[c] = vertex(g, id, world[tri[c]], n);
		}
		triangle(g, corner[0], corner[1], corner[2]);
	}
	return true;
}

bool geometry_add_solid(draw_geometry* g, const solid_data* s, double t, vec3 focus, double plane_half)
{
	if (s->kind == DRAPE_SOLID_MESH) return mesh_solid(g, s, t);
	xform x = solid_pose_at(s, t);
	const shape* sh = &s->shape;
	int64_t ring = SLICES + 1;
	switch (sh->kind) {
	case SHAPE_PLANE:
		if (!reserve(g, 81, 6 * 64)) return false;
		plane_patch(g, x, focus, plane_half);
		break;
	case SHAPE_SPHERE:
	case SHAPE_CAPSULE: {
		double hh = sh->kind == SHAPE_CAPSULE ? sh->half_height : 0.0;
		if (!reserve(g, (STACKS + 2) * ring, 6 * (STACKS + 1) * ring)) return false;
		round_shape(g, x, sh->radius, hh);
		break;
	}
	case SHAPE_CYLINDER:
		if (!reserve(g, 2 * ring + 2 * (ring + 1), 6 * ring + 6 * ring)) return false;
		cylinder(g, x, sh->radius, sh->half_height);
		break;
	case SHAPE_BOX:
		if (!reserve(g, 24, 36)) return false;
		box(g, x, sh->half_extents);
		break;
	}
	return true;
}

void solid_draw_bounds(const solid_data* s, double t, vec3* lo, vec3* hi)
{
	if (s->kind == DRAPE_SOLID_MESH) {
		vec3* all = malloc((size_t)s->vertex_count * sizeof *all);
		if (!all) return;
		solid_mesh_vertices_at(s, t, all);
		for (int32_t v = 0; v < s->vertex_count; ++v) {
			vec3 p = all[v];
			*lo = v3(fmin(lo->x, p.x), fmin(lo->y, p.y), fmin(lo->z, p.z));
			*hi = v3(fmax(hi->x, p.x), fmax(hi->y, p.y), fmax(hi->z, p.z));
		}
		free(all);
		return;
	}
	if (s->shape.kind == SHAPE_PLANE) return;
	/* The eight corners of the local bounds, placed: a box around the placed shape. */
	aabb b = shape_local_bounds(&s->shape, 0.0);
	xform x = solid_pose_at(s, t);
	for (int c = 0; c < 8; ++c) {
		vec3 p = v3(c & 1 ? b.hi.x : b.lo.x, c & 2 ? b.hi.y : b.lo.y, c & 4 ? b.hi.z : b.lo.z);
		p = xform_apply_point(x, p);
		*lo = v3(fmin(lo->x, p.x), fmin(lo->y, p.y), fmin(lo->z, p.z));
		*hi = v3(fmax(hi->x, p.x), fmax(hi->y, p.y), fmax(hi->z, p.z));
	}
}
