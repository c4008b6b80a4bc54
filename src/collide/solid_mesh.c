/* Queries of a mesh solid's bounding-volume tree shared by contact's queries (solid_query.c) and
 * the outer surface (solid_outer.c): the faces near a box, a face's normal, and whether a point is
 * inside a closed mesh (sec. 6 tests particles against the faces of solids). */
#include "solid_mesh.h"

#include "../world_data.h"

#include <math.h>
#include <stdlib.h>

int32_t solid_mesh_candidates(drape_world* w, const solid_data* s, aabb box)
{
	for (;;) {
		int32_t n = bvh_query(&s->tree, box, w->work.query_hits, w->work.query_capacity, w->work.query_stack, w->work.query_stack_size);
		if (n <= w->work.query_capacity) return n;
		int32_t* grown = realloc(w->work.query_hits, (size_t)n * 2 * sizeof *grown);
		if (!grown) return w->work.query_capacity; /* keep what fits */
		w->work.query_hits = grown;
		w->work.query_capacity = n * 2;
	}
}

vec3 solid_face_normal(const vec3* v, const int32_t* tri)
{
	return v3_normalize(v3_cross(v3_sub(v[tri[1]], v[tri[0]]), v3_sub(v[tri[2]], v[tri[0]])));
}

/* How the vertical ray up from p crosses triangle (a, b, c): +1 leaving the mesh (the face's
 * outward normal points up), -1 entering it, 0 missing it (xy barycentric test; the ray's start is
 * nudged off edges and vertices by the caller). */
static int ray_up_crossing(vec3 p, vec3 a, vec3 b, vec3 c)
{
	double d = (b.y - c.y) * (a.x - c.x) + (c.x - b.x) * (a.y - c.y);
	if (d == 0.0) return 0;
	double l0 = ((b.y - c.y) * (p.x - c.x) + (c.x - b.x) * (p.y - c.y)) / d;
	double l1 = ((c.y - a.y) * (p.x - c.x) + (a.x - c.x) * (p.y - c.y)) / d;
	double l2 = 1.0 - l0 - l1;
	if (l0 < 0.0 || l1 < 0.0 || l2 < 0.0) return 0;
	if (!(l0 * a.z + l1 * b.z + l2 * c.z > p.z)) return 0;
	/* the sign of the face normal's z: d is the xy-projected doubled area, signed by orientation */
	return d > 0.0 ? 1 : -1;
}

int solid_ray_winding(drape_world* w, const solid_data* s, const vec3* v, vec3 x)
{
	vec3 p = v3(x.x + 1.234567e-9, x.y + 2.345678e-9, x.z);
	aabb column = aabb_of_point(p);
	column.hi.z = INFINITY;
	int32_t n = solid_mesh_candidates(w, s, column);
	int winding = 0;
	for (int32_t j = 0; j < n && j < w->work.query_capacity; ++j) {
		const int32_t* t = &s->triangles[3 * w->work.query_hits[j]];
		winding += ray_up_crossing(p, v[t[0]], v[t[1]], v[t[2]]);
	}
	return winding;
}

/* Each crossing changes the winding by one: its parity is the crossings'. */
bool solid_ray_parity(drape_world* w, const solid_data* s, const vec3* v, vec3 x)
{
	return solid_ray_winding(w, s, v, x) % 2 != 0;
}
