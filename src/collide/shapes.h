/* Analytic solids for cloth/solid contact (sec. 2.1 and 6): exact signed distance, closest point and
 * normal, and the first time a particle's straight path comes within a thickness of the surface. */
#ifndef DRAPE_SHAPES_H
#define DRAPE_SHAPES_H

#include "aabb.h"

#include <stdbool.h>

/* Each shape lives in its own local frame (placed in the world by an xform, transform.h):
 *   SHAPE_PLANE     the plane z = 0; the solid is z <= 0 (outside = +z), infinite
 *   SHAPE_SPHERE    centre at the origin, radius
 *   SHAPE_CAPSULE   the segment (0,0,-half_height)..(0,0,half_height) swept by a ball of radius
 *   SHAPE_CYLINDER  axis z, radius, z in [-half_height, half_height], flat caps
 *   SHAPE_BOX       |x| <= half_extents.x, |y| <= half_extents.y, |z| <= half_extents.z
 * Unused fields are ignored. Dimensions are assumed >= 0. */
typedef enum shape_kind { SHAPE_PLANE, SHAPE_SPHERE, SHAPE_CAPSULE, SHAPE_CYLINDER, SHAPE_BOX } shape_kind;

typedef struct shape {
	shape_kind kind;
	double radius;
	double half_height;
	vec3 half_extents;
} shape;

/* The plane's bounds reach this far (m) from the origin in x, y and below: large enough for any
 * scene, finite so that transformed bounds and box arithmetic never meet inf or NaN. */
#define SHAPE_PLANE_EXTENT 1.0e6

/* Exact signed distance from p (local frame) to the surface: negative inside. Optionally the
 * closest surface point and the outward unit normal there (NULL to skip). Outside, normal =
 * (p - closest) / distance, the gradient of the distance. Inside, the closest point is on the
 * nearest face (box: the face whose plane is nearest; cylinder: side or nearer cap) and the normal
 * is that face's. Where that choice is tied or undefined the result is deterministic: ties between
 * box faces go to the lower axis (x, then y, then z), a cylinder's cap beats its side, a zero
 * coordinate counts as positive (the +x, +y, +z faces, the top cap), and the sphere's centre or a
 * point on the capsule's axis gets the normal +x (sphere centre: +z). */
double shape_signed_distance(const shape* s, vec3 p_local, vec3* closest_local, vec3* normal_local);

/* The earliest t in [0, 1] at which p(t) = p0 + t (p1 - p0) has signed distance <= thickness,
 * i.e. enters the solid grown by thickness (its Minkowski sum with a ball; a negative thickness
 * erodes it instead). Returns false if the path never gets that close. t = 0 when p0 is already
 * within thickness. normal_local gets the outward normal of the surface at p(t) (as
 * shape_signed_distance). Exact up to rounding for every shape:
 *   plane              linear in t
 *   sphere             a quadratic (ball of radius r + thickness)
 *   capsule            the grown capsule as infinite cylinder within the height slab, union two end
 *                      balls; each piece a quadratic or a slab, the earliest entry wins
 *   box                slab test against the box grown by thickness on all sides (a cull); where
 *                      that entry lies beyond an edge or corner, the exact rounded box: the union
 *                      of three boxes grown along one axis, twelve edge cylinders within their
 *                      slab and eight corner balls
 *   cylinder           the grown cylinder within its bounding cylinder (r + th, h + th): an entry
 *                      through its side within the original height or its caps within the original
 *                      radius is exact; in the rounded rim (a torus, quartic) the signed distance
 *                      along the path is convex, so the crossing is bracketed (by the side/cap
 *                      pieces, or at the minimum found by golden section) and bisected to the last
 *                      bit.
 * p0 == p1 is a static test. */
bool shape_segment_first_hit(const shape* s, vec3 p0_local, vec3 p1_local, double thickness, double* t,
			     vec3* normal_local);

/* Bounds of the solid in its local frame grown by margin. The plane's is the finite slab
 * |x|, |y| <= SHAPE_PLANE_EXTENT, -SHAPE_PLANE_EXTENT <= z <= margin. */
aabb shape_local_bounds(const shape* s, double margin);

#endif
