/* The outer surface of a closed mesh that overlaps itself (sec. 6's particle/face tests, on a
 * skinned body that is not a valid solid everywhere: docs/collide.md, "Where the body overlaps
 * itself"). What each face is at the step's start (cut, buried, exposed), asked once a step, and
 * the faces one query sets aside. */
#include "solid_outer.h"

#include "../world_data.h"
#include "geometry.h"
#include "solid_mesh.h"

#include <math.h>

/* A hair outside face tri along its normal at the step's start: 1e-4 of its longest edge, above
 * rounding and below any gap between two parts of a body that cloth could be in. */
static vec3 hair(const vec3* v, const int32_t* tri)
{
	vec3 a = v[tri[0]], b = v[tri[1]], c = v[tri[2]];
	double edge = sqrt(fmax(fmax(v3_len2(v3_sub(b, a)), v3_len2(v3_sub(c, b))), v3_len2(v3_sub(a, c))));
	return v3_scale(solid_face_normal(v, tri), 1e-4 * edge);
}

/* Where a closed mesh overlaps itself (a skinned body's wrist bent into its forearm: docs/collide.md,
 * "Where the body overlaps itself"), only the outer surface is one cloth can touch. What each face
 * is, at the step's start, asked once a step: cut by another face of the mesh (part of it may lie
 * inside), else wholly inside the mesh or wholly outside, by its centre. */
static uint8_t face_kind(drape_world* w, const solid_data* s, int32_t f)
{
	if (s->face_kinds[f]) return s->face_kinds[f];
	const int32_t* tri = &s->triangles[3 * f];
	aabb box = aabb_empty();
	for (int c = 0; c < 3; ++c) box = aabb_add_point(box, s->v0[tri[c]]);
	int32_t n = solid_mesh_candidates(w, s, box);
	uint8_t kind = 0;
	for (int32_t j = 0; j < n && j < w->work.query_capacity && !kind; ++j) {
		const int32_t g = w->work.query_hits[j];
		if (g != f && mesh_triangles_intersect(s->v0, tri, &s->triangles[3 * g])) kind = FACE_CUT;
	}
	if (!kind) {
		vec3 centre = v3_scale(v3_add(v3_add(s->v0[tri[0]], s->v0[tri[1]]), s->v0[tri[2]]), 1.0 / 3.0);
		kind = solid_ray_parity(w, s, s->v0, v3_add(centre, hair(s->v0, tri))) ? FACE_BURIED : FACE_EXPOSED;
	}
	s->face_kinds[f] = kind;
	return kind;
}

/* Whether cp, the closest point of face f found by a query on the mesh placed at v, is on the
 * mesh's outer surface: not when f lies inside the mesh, nor when f is cut and cp is on its inner
 * part (a point a hair outside cp is inside the mesh). Uses the query scratch. */
static bool outer_surface_at(drape_world* w, const solid_data* s, const vec3* v, int32_t f, vec3 cp)
{
	if (!s->face_kinds) return true;
	const uint8_t kind = face_kind(w, s, f);
	if (kind != FACE_CUT) return kind == FACE_EXPOSED;
	return !solid_ray_parity(w, s, v, v3_add(cp, hair(v, &s->triangles[3 * f])));
}

bool outer_skipped(const solid_data* s, const outer_skips* k, int32_t f)
{
	if (s->face_kinds && s->face_kinds[f] == FACE_BURIED) return true;
	for (int j = 0; j < k->count; ++j)
		if (k->face[j] == f) return true;
	return false;
}

bool outer_set_aside(drape_world* w, const solid_data* s, const vec3* v, outer_skips* k, int32_t f, vec3 cp)
{
	if (k->count == OUTER_SKIPS || outer_surface_at(w, s, v, f, cp)) return false;
	if (s->face_kinds[f] != FACE_BURIED) k->face[k->count++] = f;
	return true;
}
