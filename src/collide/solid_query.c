/* Solid queries (sec. 2.1, 6): placement at the start and end of each step, and the two queries contact
 * detection needs: the closest surface point to a particle, and the first crossing of a
 * particle's straight-line path with the surface grown by the thickness (continuous detection,
 * as sec. 2.1 suggests for high relative velocities). */
#include "solid.h"

#include "../world_data.h"
#include "character/character.h"
#include "geometry.h"
#include "solid_mesh.h"
#include "solid_outer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static xform pose_at(const solid_data* s, double t)
{
	if (s->pose_count == 0) return s->pose;
	const drape_pose* p = s->poses;
	int32_t n = s->pose_count;
	int32_t j = 0;
	if (t <= p[0].time) j = 0;
	else if (t >= p[n - 1].time) j = n - 1;
	else {
		while (j + 1 < n && p[j + 1].time <= t) ++j;
		xform a = xform_make(v3_load(p[j].position), p[j].rotation[0], p[j].rotation[1], p[j].rotation[2], p[j].rotation[3]);
		xform b = xform_make(v3_load(p[j + 1].position), p[j + 1].rotation[0], p[j + 1].rotation[1], p[j + 1].rotation[2], p[j + 1].rotation[3]);
		return xform_nlerp(a, b, (t - p[j].time) / (p[j + 1].time - p[j].time));
	}
	return xform_make(v3_load(p[j].position), p[j].rotation[0], p[j].rotation[1], p[j].rotation[2], p[j].rotation[3]);
}

/* Vertex v of a mesh solid in its own frame at time t (deforming meshes interpolate frames). */
static vec3 mesh_local(const solid_data* s, int32_t v, double t)
{
	if (s->frame_count == 0) return v3_load(&s->rest[3 * v]);
	const double* ft = s->frame_times;
	int32_t n = s->frame_count;
	size_t stride = 3 * (size_t)s->vertex_count;
	if (t <= ft[0]) return v3_load(&s->frames[3 * (size_t)v]);
	if (t >= ft[n - 1]) return v3_load(&s->frames[(size_t)(n - 1) * stride + 3 * (size_t)v]);
	int32_t j = 0;
	while (j + 1 < n && ft[j + 1] <= t) ++j;
	double a = (t - ft[j]) / (ft[j + 1] - ft[j]);
	vec3 p = v3_load(&s->frames[(size_t)j * stride + 3 * (size_t)v]);
	vec3 q = v3_load(&s->frames[(size_t)(j + 1) * stride + 3 * (size_t)v]);
	return v3_add(p, v3_scale(v3_sub(q, p), a));
}

/* The buffer already holding the character's skinned vertices at t, if any. */
static const double* skinned_at(solid_data* s, double t)
{
	if (s->posed0 == t) return s->pose0;
	if (s->posed1 == t) return s->pose1;
	return NULL;
}

static void skin_step(solid_data* s, double t, double h)
{
	/* The end of an accepted step is the start of the next: keep it, skin only the new end. */
	if (!skinned_at(s, t)) {
		character_pose(s->character, t, s->pose0);
		s->posed0 = t;
	} else if (s->posed1 == t) {
		double* p = s->pose0;
		s->pose0 = s->pose1;
		s->pose1 = p;
		s->posed0 = t;
		s->posed1 = NAN;
	}
	if (s->posed1 != t + h) {
		character_pose(s->character, t + h, s->pose1);
		s->posed1 = t + h;
	}
}

/* The tree is built once, from the mesh's placement at time 0 whatever step first needs it, and
 * refitted at every step after (sec. 6 builds the tree by recursive splitting along coordinate
 * axes). Its shape decides the order queries list faces in, which breaks exact ties between faces
 * sharing a vertex or edge; a resumed run (docs/reliability.md, "Resume") must get the same shape
 * as the run it continues, so the shape cannot depend on the pose when the tree is first needed. */
static void build_tree(drape_world* w, solid_data* s)
{
	double* at0 = malloc(3 * (size_t)(s->vertex_count > 0 ? s->vertex_count : 1) * sizeof *at0);
	if (!at0) return;
	if (s->character) {
		character_pose(s->character, 0.0, at0);
	} else {
		const xform x = pose_at(s, 0.0);
		for (int32_t v = 0; v < s->vertex_count; ++v) v3_store(xform_apply_point(x, mesh_local(s, v, 0.0)), &at0[3 * v]);
	}
	for (int32_t f = 0; f < s->triangle_count; ++f) {
		aabb b = aabb_empty();
		for (int c = 0; c < 3; ++c) b = aabb_add_point(b, v3_load(&at0[3 * s->triangles[3 * f + c]]));
		s->boxes[f] = aabb_grow(b, s->thickness);
	}
	free(at0);
	s->tree_built = bvh_build(&s->tree, s->boxes, s->triangle_count);
	int32_t need = s->tree_built ? bvh_query_stack_size(&s->tree) : 0;
	if (need > w->work.query_stack_size) {
		int32_t* stack = realloc(w->work.query_stack, (size_t)need * sizeof *stack);
		if (stack) {
			w->work.query_stack = stack;
			w->work.query_stack_size = need;
		} else {
			bvh_free(&s->tree);
			s->tree_built = false;
		}
	}
}

void solids_begin_step(drape_world* w, double t, double h)
{
	for (int32_t k = 0; k < w->model.solid_count; ++k) {
		solid_data* s = &w->model.solids[k];
		s->t0 = t;
		s->t1 = t + h;
		s->x0 = pose_at(s, t);
		s->x1 = pose_at(s, t + h);
		if (s->kind != DRAPE_SOLID_MESH) continue;
		if (s->character) {
			skin_step(s, t, h);
			for (int32_t v = 0; v < s->vertex_count; ++v) {
				s->v0[v] = v3_load(&s->pose0[3 * v]);
				s->v1[v] = v3_load(&s->pose1[3 * v]);
			}
		} else {
			for (int32_t v = 0; v < s->vertex_count; ++v) {
				s->v0[v] = xform_apply_point(s->x0, mesh_local(s, v, t));
				s->v1[v] = xform_apply_point(s->x1, mesh_local(s, v, t + h));
			}
		}
		if (!s->tree_built) build_tree(w, s);
		/* a rigid placement cannot change which faces lie inside the mesh; a deforming mesh can */
		if (s->face_kinds && (s->character || s->frame_count > 0)) memset(s->face_kinds, 0, (size_t)s->triangle_count);
		for (int32_t f = 0; f < s->triangle_count; ++f) {
			aabb b = aabb_empty();
			for (int c = 0; c < 3; ++c) {
				b = aabb_add_point(b, s->v0[s->triangles[3 * f + c]]);
				b = aabb_add_point(b, s->v1[s->triangles[3 * f + c]]);
			}
			s->boxes[f] = aabb_grow(b, s->thickness);
		}
		if (s->tree_built) bvh_refit(&s->tree, s->boxes);
	}
}

static vec3 blend(const vec3* v, const int32_t* tri, const double bary[3])
{
	return v3_add(v3_add(v3_scale(v[tri[0]], bary[0]), v3_scale(v[tri[1]], bary[1])), v3_scale(v[tri[2]], bary[2]));
}

/* How much further than its reach a query looks for outer surface from a point inside the mesh. */
#define INSIDE_REACH 4.0

/* Whether the closest point, at `bary` on face f, lies on an open edge or a corner on one: then a
 * particle there is beyond the surface's rim, not over one of its sides. */
static bool on_rim(const solid_data* s, int32_t f, const double bary[3])
{
	const uint8_t open = s->open_edges[f];
	for (int k = 0; k < 3; ++k) {
		/* edge k runs from corner k to k + 1, and the point is on it when the third corner's
		 * coordinate is zero (point_triangle_closest sets it exactly) */
		if (bary[(k + 2) % 3] == 0.0 && (open & (1u << k))) return true;
		/* a corner: the other two coordinates are zero */
		if (bary[(k + 1) % 3] == 0.0 && bary[(k + 2) % 3] == 0.0 && (open & (8u << k))) return true;
	}
	return false;
}

/* A two-sided solid's point: x relative to the closest point cp on face `tri` at `bary`. Over a
 * side, the side is the one the particle is known to be on (`side`, else the one x is on), the
 * distance negative if x is on the other, and the normal the face's towards that side. Beyond
 * the rim, where the sides meet, the side is the one x is on and the normal the direction from
 * cp to x (the distance's gradient), carried to the step's end with the face's normal. */
static void two_sided_point(const solid_data* s, const int32_t* tri, bool rim, vec3 x, vec3 cp, double d, int side,
			    solid_point* out)
{
	vec3 n0 = solid_face_normal(s->v0, tri), n1 = solid_face_normal(s->v1, tri);
	vec3 off = v3_sub(x, cp);
	double across = v3_dot(off, n0);
	int here = across < 0.0 ? -1 : 1;
	out->free_side = rim && d > 0.0;
	if (out->free_side) {
		vec3 along = v3_madd(off, -across, n0); /* in the face's plane: kept as it is */
		out->side = (signed char)here;
		out->normal = v3_normalize(v3_madd(along, across, n1));
		out->distance = d;
		return;
	}
	out->side = (signed char)(side ? side : here);
	out->normal = v3_scale(n1, out->side);
	out->distance = here == out->side ? d : -d;
}

/* The closest point of solid k to x within reach, among the faces whose outward normal at the
 * step's start has a positive component along *facing when facing is given (solid_closest_facing).
 * x at the step's start, or with `at_end` at its end and measured from the surface there
 * (solid_closest_end). */
static bool closest(drape_world* w, int32_t k, vec3 x, double reach, int side, const vec3* facing, bool at_end,
		    solid_point* out)
{
	const solid_data* s = &w->model.solids[k];
	/* the placement x is measured against */
	const vec3* at = at_end ? s->v1 : s->v0;
	if (s->kind != DRAPE_SOLID_MESH) {
		const xform place = at_end ? s->x1 : s->x0;
		vec3 local = xform_inv_apply_point(place, x), cl, nl;
		double d = shape_signed_distance(&s->shape, local, &cl, &nl);
		if (d > reach) return false;
		out->distance = d;
		out->point = xform_apply_point(s->x0, cl);
		out->point_end = xform_apply_point(s->x1, cl);
		out->normal = xform_apply_vector(s->x1, nl);
		out->side = 1;
		out->free_side = false;
		return !facing || v3_dot(xform_apply_vector(place, nl), *facing) > 0.0;
	}
	if (!s->tree_built) return false;
	aabb box = aabb_grow(aabb_of_point(x), reach);
	double best, bary[3], best_bary[3] = {1.0, 0.0, 0.0};
	int32_t face;
	outer_skips aside = {.count = 0};
	bool overlap = false, inside = false;
	for (;;) {
		int32_t n = solid_mesh_candidates(w, s, box);
		best = INFINITY;
		face = -1;
		for (int32_t j = 0; j < n && j < w->work.query_capacity; ++j) {
			if (outer_skipped(s, &aside, w->work.query_hits[j])) {
				overlap = true;
				continue;
			}
			const int32_t* tri = &s->triangles[3 * w->work.query_hits[j]];
			if (facing && v3_dot(solid_face_normal(at, tri), *facing) <= 0.0) continue;
			double d2 = point_triangle_closest(x, at[tri[0]], at[tri[1]], at[tri[2]], bary);
			if (d2 < best) {
				best = d2;
				face = w->work.query_hits[j];
				memcpy(best_bary, bary, sizeof bary);
			}
		}
		if (face >= 0 && outer_set_aside(w, s, at, &aside, face, blend(at, &s->triangles[3 * face], best_bary))) {
			overlap = true;
			continue;
		}
		/* Only inner surface within reach, and x inside the mesh: cloth caught in a fold of the body
		 * closing on itself. It is held to the nearest outer surface further off, to be pushed out
		 * there (docs/collide.md, "Where the body overlaps itself"). */
		if (face < 0 && overlap && !inside && solid_ray_parity(w, s, at, x)) {
			inside = true;
			box = aabb_grow(aabb_of_point(x), INSIDE_REACH * fmax(reach, s->thickness));
			continue;
		}
		break;
	}
	if (face < 0) return false;
	const int32_t* tri = &s->triangles[3 * face];
	vec3 cp = blend(at, tri, best_bary);
	double d = sqrt(best);
	out->point = blend(s->v0, tri, best_bary);
	out->point_end = blend(s->v1, tri, best_bary);
	if (s->two_sided) {
		two_sided_point(s, tri, on_rim(s, face, best_bary), x, cp, d, side, out);
		return out->distance <= reach;
	}
	out->side = 1;
	out->free_side = false;
	/* Set aside inner surface: x may be inside the mesh on the outer side of the face found (in a
	 * fold's crease). There the way out is straight to the closest point. */
	if (overlap && (inside || solid_ray_parity(w, s, at, x))) {
		out->distance = -d;
		out->normal = d > 0.0 ? v3_scale(v3_sub(cp, x), 1.0 / d) : solid_face_normal(s->v1, tri);
		return true;
	}
	vec3 n0 = solid_face_normal(at, tri);
	if (v3_dot(v3_sub(x, cp), n0) < 0.0) d = -d;
	if (d > reach) return false;
	out->distance = d;
	out->normal = solid_face_normal(s->v1, tri);
	return true;
}

bool solid_closest(drape_world* w, int32_t k, vec3 x, double reach, int side, solid_point* out)
{
	return closest(w, k, x, reach, side, NULL, false, out);
}

bool solid_closest_facing(drape_world* w, int32_t k, vec3 x, double reach, vec3 facing, solid_point* out)
{
	if (w->model.solids[k].two_sided) return false;
	return closest(w, k, x, reach, 0, &facing, false, out);
}

bool solid_closest_end(drape_world* w, int32_t k, vec3 x, double reach, solid_point* out)
{
	if (w->model.solids[k].two_sided) return false;
	return closest(w, k, x, reach, 0, NULL, true, out);
}

bool solid_inside_end(drape_world* w, int32_t k, vec3 x, double depth)
{
	const solid_data* s = &w->model.solids[k];
	if (s->two_sided) return false; /* a shell has no inside; which side is contact's business */
	if (s->kind != DRAPE_SOLID_MESH) {
		if (s->shape.kind == SHAPE_PLANE) return false; /* a plane's "inside" is a half-space: contact's business */
		return shape_signed_distance(&s->shape, xform_inv_apply_point(s->x1, x), NULL, NULL) < -depth;
	}
	if (!s->tree_built) return false;
	/* by the winding number, so that where two parts of a body overlap is inside too */
	if (solid_ray_winding(w, s, s->v1, x) == 0) return false;
	/* Inside: deeper than `depth` unless some face lies within depth of x. */
	int32_t n = solid_mesh_candidates(w, s, aabb_grow(aabb_of_point(x), depth));
	double bary[3];
	for (int32_t j = 0; j < n && j < w->work.query_capacity; ++j) {
		const int32_t* t = &s->triangles[3 * w->work.query_hits[j]];
		if (point_triangle_closest(x, s->v1[t[0]], s->v1[t[1]], s->v1[t[2]], bary) <= depth * depth) return false;
	}
	return true;
}

/* The first t at which the particle's path a -> b comes within `radius` of the segment p -> q,
 * in the frame moving with the segment's midpoint from m0 to m1 (a rim edge; its turn over one
 * step is neglected). False if it never does, or starts within it (proximity's business). The
 * grown segment is a capsule of zero radius grown by `radius`: shapes.c's exact first hit, in a
 * frame with z along the edge. *dir gets the unit direction from the edge to the path there. */
static bool rim_hit(vec3 a, vec3 b, vec3 p, vec3 q, vec3 m1, double radius, double* t, vec3* dir)
{
	vec3 m0 = v3_scale(v3_add(p, q), 0.5), axis = v3_sub(q, p);
	double len = v3_len(axis);
	if (!(len > 0.0)) return false;
	vec3 ez = v3_scale(axis, 1.0 / len);
	vec3 ex = v3_normalize(v3_cross(ez, fabs(ez.x) < 0.6 ? v3(1.0, 0.0, 0.0) : v3(0.0, 1.0, 0.0)));
	vec3 ey = v3_cross(ez, ex);
	vec3 ra = v3_sub(a, m0), rb = v3_sub(b, m1);
	vec3 la = v3(v3_dot(ra, ex), v3_dot(ra, ey), v3_dot(ra, ez));
	vec3 lb = v3(v3_dot(rb, ex), v3_dot(rb, ey), v3_dot(rb, ez));
	shape cap = {.kind = SHAPE_CAPSULE, .radius = 0.0, .half_height = 0.5 * len};
	if (shape_signed_distance(&cap, la, NULL, NULL) <= radius) return false;
	vec3 nl;
	if (!shape_segment_first_hit(&cap, la, lb, radius, t, &nl)) return false;
	*dir = v3_add(v3_add(v3_scale(ex, nl.x), v3_scale(ey, nl.y)), v3_scale(ez, nl.z));
	return true;
}

bool solid_path_hit(drape_world* w, int32_t k, vec3 a, vec3 b, int side, solid_point* out)
{
	const solid_data* s = &w->model.solids[k];
	if (s->kind != DRAPE_SOLID_MESH) {
		vec3 la = xform_inv_apply_point(s->x0, a), lb = xform_inv_apply_point(s->x1, b), nl, cl;
		double d0 = shape_signed_distance(&s->shape, la, &cl, &nl);
		if (d0 <= s->thickness) {
			/* Starting within the layer is proximity's business; the path only matters if it
			 * ends inside the solid itself, and then the surface under the start is the plane. */
			if (shape_signed_distance(&s->shape, lb, NULL, NULL) >= 0.0) return false;
		} else {
			double t;
			if (!shape_segment_first_hit(&s->shape, la, lb, s->thickness, &t, &nl)) return false;
			/* A path that ends in the layer's outer half without touching the surface is the
			 * proximity test's at the next step: a particle released on the layer's edge and
			 * moving in by a rounding would otherwise be caught again at once (docs/collide.md,
			 * "Release's noise floor"). */
			double t0;
			vec3 n0;
			if (shape_signed_distance(&s->shape, lb, NULL, NULL) >= 0.5 * s->thickness &&
			    !shape_segment_first_hit(&s->shape, la, lb, 0.0, &t0, &n0))
				return false;
			/* the surface point under the hit, carried with the solid to the step's end */
			vec3 hit = v3_add(la, v3_scale(v3_sub(lb, la), t));
			cl = v3_sub(hit, v3_scale(nl, s->thickness));
		}
		out->distance = d0;
		out->point = xform_apply_point(s->x0, cl);
		out->point_end = xform_apply_point(s->x1, cl);
		out->normal = xform_apply_vector(s->x1, nl);
		out->side = 1;
		out->free_side = false;
		return true;
	}
	if (!s->tree_built) return false;
	aabb box = aabb_grow(aabb_add_point(aabb_of_point(a), b), s->thickness);
	int32_t n;
	double first, bary[3], best_bary[3] = {1.0, 0.0, 0.0};
	int32_t face;
	outer_skips aside = {.count = 0};
	do {
		n = solid_mesh_candidates(w, s, box);
		first = INFINITY;
		face = -1;
		for (int32_t j = 0; j < n && j < w->work.query_capacity; ++j) {
			if (outer_skipped(s, &aside, w->work.query_hits[j])) continue;
			const int32_t* tri = &s->triangles[3 * w->work.query_hits[j]];
			double t;
			if (ccd_point_triangle(a, b, s->v0[tri[0]], s->v1[tri[0]], s->v0[tri[1]], s->v1[tri[1]], s->v0[tri[2]],
					       s->v1[tri[2]], 1e-9, &t, bary) &&
			    t < first) {
				first = t;
				face = w->work.query_hits[j];
				memcpy(best_bary, bary, sizeof bary);
			}
		}
	} while (face >= 0 && outer_set_aside(w, s, s->v0, &aside, face, blend(s->v0, &s->triangles[3 * face], best_bary)));
	/* Two-sided: the path may also come within the thickness of a rim edge without crossing a
	 * face (a particle passing the edge of a wall); the earlier of the two wins. */
	int32_t rim_face = -1;
	vec3 rim_dir = v3_zero();
	double rim_s = 0.0;
	for (int32_t j = 0; s->two_sided && j < n && j < w->work.query_capacity; ++j) {
		const int32_t f = w->work.query_hits[j];
		const int32_t* tri = &s->triangles[3 * f];
		for (int e = 0; e < 3; ++e) {
			if (!(s->open_edges[f] & (1u << e))) continue;
			const int32_t p = tri[e], q = tri[(e + 1) % 3];
			vec3 m1 = v3_scale(v3_add(s->v1[p], s->v1[q]), 0.5), dir;
			double t;
			if (!rim_hit(a, b, s->v0[p], s->v0[q], m1, s->thickness, &t, &dir) || !(t < first)) continue;
			first = t;
			rim_face = f;
			rim_dir = dir;
			/* where along the edge: the hit point's projection */
			vec3 hit = v3_add(a, v3_scale(v3_sub(b, a), t));
			vec3 ev = v3_sub(s->v0[q], s->v0[p]);
			rim_s = fmin(fmax(v3_dot(v3_sub(hit, s->v0[p]), ev) / v3_len2(ev), 0.0), 1.0);
			best_bary[e] = 1.0 - rim_s;
			best_bary[(e + 1) % 3] = rim_s;
			best_bary[(e + 2) % 3] = 0.0;
		}
	}
	if (rim_face >= 0) {
		const int32_t* tri = &s->triangles[3 * rim_face];
		vec3 n0 = solid_face_normal(s->v0, tri), n1 = solid_face_normal(s->v1, tri);
		double across = v3_dot(rim_dir, n0);
		out->point = blend(s->v0, tri, best_bary);
		out->point_end = blend(s->v1, tri, best_bary);
		out->distance = v3_len(v3_sub(a, out->point));
		out->normal = v3_normalize(v3_madd(v3_madd(rim_dir, -across, n0), across, n1));
		out->side = across < 0.0 ? -1 : 1;
		out->free_side = true;
		return true;
	}
	if (face < 0) return false;
	const int32_t* tri = &s->triangles[3 * face];
	vec3 cp = blend(s->v0, tri, best_bary);
	double d0 = v3_dot(v3_sub(a, cp), solid_face_normal(s->v0, tri));
	out->point = cp;
	out->point_end = blend(s->v1, tri, best_bary);
	out->normal = solid_face_normal(s->v1, tri);
	out->distance = d0;
	out->side = 1;
	out->free_side = false;
	if (s->two_sided) {
		/* the side the path comes from: known, or the one its start is on */
		out->side = (signed char)(side ? side : (d0 < 0.0 ? -1 : 1));
		out->normal = v3_scale(out->normal, out->side);
		out->distance = d0 * out->side;
	}
	return true;
}

void solid_free(solid_data* s)
{
	free(s->name);
	free(s->poses);
	free(s->triangles);
	free(s->rest);
	free(s->frames);
	free(s->frame_times);
	drape_character_destroy(s->character);
	free(s->pose0);
	free(s->pose1);
	free(s->v0);
	free(s->v1);
	free(s->boxes);
	free(s->open_edges);
	free(s->face_kinds);
	if (s->tree_built) bvh_free(&s->tree);
	memset(s, 0, sizeof *s);
}

xform solid_pose_at(const solid_data* s, double t) { return pose_at(s, t); }

vec3 solid_mesh_vertex_at(const solid_data* s, int32_t v, double t)
{
	if (s->character) {
		const double* p = s->posed0 == t ? s->pose0 : s->posed1 == t ? s->pose1 : NULL;
		if (p) return v3_load(&p[3 * v]);
		vec3 r = v3(0.0, 0.0, 0.0);
		double* all = malloc(3 * (size_t)s->vertex_count * sizeof *all);
		if (all) {
			character_pose(s->character, t, all);
			r = v3_load(&all[3 * v]);
		}
		free(all);
		return r;
	}
	return xform_apply_point(pose_at(s, t), mesh_local(s, v, t));
}

void solid_mesh_vertices_at(const solid_data* s, double t, vec3* out)
{
	if (!s->character) {
		xform x = pose_at(s, t);
		for (int32_t v = 0; v < s->vertex_count; ++v) out[v] = xform_apply_point(x, mesh_local(s, v, t));
		return;
	}
	double* all = malloc(3 * (size_t)s->vertex_count * sizeof *all);
	if (!all) return;
	character_pose(s->character, t, all);
	for (int32_t v = 0; v < s->vertex_count; ++v) out[v] = v3_load(&all[3 * v]);
	free(all);
}
