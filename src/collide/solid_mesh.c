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

/* Whether the vertical ray up from p crosses triangle (a, b, c) (xy barycentric test; the ray's
 * start is nudged off edges and vertices by the caller). */
static bool ray_up_crosses(vec3 p, vec3 a, vec3 b, vec3 c)
{
	double d = (b.y - c.y) * (a.x - c.x) + (c.x - b.x) * (a.y - c.y);
	if (d == 0.0) return false;
	double l0 = ((b.y - c.y) * (p.x - c.x) + (c.x - b.x) * (p.y - c.y)) / d;
	double l1 = ((c.y - a.y) * (p.x - c.x) + (a.x - c.x) * (p.y - c.y)) / d;
	double l2 = 1.0 - l0 - l1;
	if (l0 < 0.0 || l1 < 0.0 || l2 < 0.0) return false;
	return l0 * a.z + l1 * b.z + l2 * c.z > p.z;
}

/* Whether x lies inside the closed mesh s placed at `v`: an odd number of crossings of a vertical
 * ray. The ray starts a hair off x so it does not run exactly through a vertex or edge of a
 * regular mesh. Uses the query scratch. */
bool solid_ray_parity(drape_world* w, const solid_data* s, const vec3* v, vec3 x)
{
	vec3 p = v3(x.x + 1.234567e-9, x.y + 2.345678e-9, x.z);
	aabb column = aabb_of_point(p);
	column.hi.z = INFINITY;
	int32_t n = solid_mesh_candidates(w, s, column);
	int crossings = 0;
	for (int32_t j = 0; j < n && j < w->work.query_capacity; ++j) {
		const int32_t* t = &s->triangles[3 * w->work.query_hits[j]];
		crossings += ray_up_crosses(p, v[t[0]], v[t[1]], v[t[2]]);
	}
	return crossings % 2 == 1;
}
