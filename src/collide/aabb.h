/* Axis-aligned bounding boxes, the bounding volumes of the hierarchical bounding box trees of
 * sec. 6 (src/collide/bvh.c). Inline: they sit in every traversal loop. */
#ifndef DRAPE_AABB_H
#define DRAPE_AABB_H

#include "math/vec3.h"

#include <float.h>
#include <stdbool.h>

/* Closed box [lo, hi]. A box with lo > hi on some axis is empty; aabb_empty() is the identity of
 * aabb_union. Finite sentinels (not infinities) so that centroids and extents of an empty box stay
 * NaN-free. */
typedef struct aabb {
	vec3 lo, hi;
} aabb;

static inline aabb aabb_make(vec3 lo, vec3 hi)
{
	aabb r = {lo, hi};
	return r;
}
static inline aabb aabb_empty(void)
{
	return aabb_make(v3(DBL_MAX, DBL_MAX, DBL_MAX), v3(-DBL_MAX, -DBL_MAX, -DBL_MAX));
}
static inline bool aabb_is_empty(aabb a) { return a.lo.x > a.hi.x || a.lo.y > a.hi.y || a.lo.z > a.hi.z; }
static inline aabb aabb_of_point(vec3 p) { return aabb_make(p, p); }

static inline aabb aabb_union(aabb a, aabb b)
{
	/* Plain comparisons, not fmin/fmax: those are library calls under strict IEEE semantics
	 * (no -ffast-math here), and box bounds are never NaN. */
	return aabb_make(v3(a.lo.x < b.lo.x ? a.lo.x : b.lo.x, a.lo.y < b.lo.y ? a.lo.y : b.lo.y, a.lo.z < b.lo.z ? a.lo.z : b.lo.z),
			 v3(a.hi.x > b.hi.x ? a.hi.x : b.hi.x, a.hi.y > b.hi.y ? a.hi.y : b.hi.y, a.hi.z > b.hi.z ? a.hi.z : b.hi.z));
}
static inline aabb aabb_add_point(aabb a, vec3 p) { return aabb_union(a, aabb_of_point(p)); }

/* The box of a straight path (a moving particle between two steps, sec. 2.1). */
static inline aabb aabb_of_segment(vec3 p0, vec3 p1) { return aabb_add_point(aabb_of_point(p0), p1); }

/* Grown by margin on every side (contact thickness, sec. 2.1); a negative margin shrinks. */
static inline aabb aabb_grow(aabb a, double margin)
{
	vec3 m = v3(margin, margin, margin);
	return aabb_make(v3_sub(a.lo, m), v3_add(a.hi, m));
}

/* Closed intervals: boxes that only touch overlap, so a particle lying exactly on a face's box is
 * never culled. */
static inline bool aabb_overlap(aabb a, aabb b)
{
	return a.lo.x <= b.hi.x && b.lo.x <= a.hi.x && a.lo.y <= b.hi.y && b.lo.y <= a.hi.y && a.lo.z <= b.hi.z &&
	       b.lo.z <= a.hi.z;
}
static inline bool aabb_contains_point(aabb a, vec3 p)
{
	return a.lo.x <= p.x && p.x <= a.hi.x && a.lo.y <= p.y && p.y <= a.hi.y && a.lo.z <= p.z && p.z <= a.hi.z;
}
/* Whether b lies inside a (boundaries included). */
static inline bool aabb_contains(aabb a, aabb b)
{
	return a.lo.x <= b.lo.x && b.hi.x <= a.hi.x && a.lo.y <= b.lo.y && b.hi.y <= a.hi.y && a.lo.z <= b.lo.z &&
	       b.hi.z <= a.hi.z;
}

static inline vec3 aabb_centre(aabb a) { return v3_scale(v3_add(a.lo, a.hi), 0.5); }
static inline vec3 aabb_extent(aabb a) { return v3_sub(a.hi, a.lo); }

/* Surface area, zero for an empty box. */
static inline double aabb_surface_area(aabb a)
{
	if (aabb_is_empty(a)) return 0.0;
	vec3 e = aabb_extent(a);
	return 2.0 * (e.x * e.y + e.y * e.z + e.z * e.x);
}

#endif
