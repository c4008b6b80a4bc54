/* Geometric primitives of collision detection (sec. 6): closest points, the particle/triangle and
 * edge/edge crossing tests over a linear motion, and the triangle/triangle intersection predicate.
 * Pure functions in double precision: no allocation, no state. See docs/collide.md. */
#ifndef DRAPE_GEOMETRY_H
#define DRAPE_GEOMETRY_H

#include "math/vec3.h"

#include <stdbool.h>
#include <stdint.h>

/* Squared distance from p to the closed triangle abc; bary receives the barycentric coordinates
 * (of a, b, c) of the closest point, each >= 0, summing to 1 up to rounding. A degenerate triangle
 * (height below 1e-8 of its longest edge: collinear or coincident corners) is treated as the union
 * of its three edges. */
double point_triangle_closest(vec3 p, vec3 a, vec3 b, vec3 c, double bary[3]);

/* Squared distance from p to the segment ab; *s in [0, 1] is the parameter of the closest point
 * a + s (b - a). A zero-length segment gives s = 0. */
double point_segment_closest(vec3 p, vec3 a, vec3 b, double* s);

/* Squared distance between the segments p0-p1 and q0-q1; *s, *t in [0, 1] are the parameters of
 * the closest points p0 + s (p1 - p0), q0 + t (q1 - q0). Zero-length segments act as points. For
 * (nearly) parallel segments, whose closest pairs form a family, s is the middle of the overlap of
 * the two segments' projections, so that a contact force lands in the middle of the overlap. */
double segment_segment_closest(vec3 p0, vec3 p1, vec3 q0, vec3 q1, double* s, double* t);

/* The distinct real roots in [0, 1] of c0 + c1 t + c2 t^2 + c3 t^3, sorted ascending; returns their
 * count (0..3). A multiple (tangent) root is reported once. Values within rounding of zero (a few
 * ulps of sum |ci|) at 0, 1 and the critical points count as roots. Convention: the zero polynomial
 * (all four coefficients exactly 0) returns -1 and writes no root: every t is a root. */
int cubic_roots_in_unit_interval(double c0, double c1, double c2, double c3, double roots[3]);

/* Continuous collision tests. Every vertex moves on a straight line from its position at t = 0
 * (x0) to its position at t = 1 (x1). A hit is the earliest t in [0, 1] at which the four points
 * are coplanar and the point lies within eps of the triangle (the edges within eps of each other).
 * When the four points stay coplanar all the step (for instance motion within a plane, or two
 * parallel edges), the hit is instead the earliest t at which the distance drops to eps. eps > 0:
 * the distance at a computed root is never exactly zero. Resting contact that does not cross the
 * plane is the business of a proximity test, not of these. */
bool ccd_point_triangle(vec3 p0, vec3 p1, vec3 a0, vec3 a1, vec3 b0, vec3 b1, vec3 c0, vec3 c1,
			double eps, double* t, double bary[3]);
/* Edge 1 is p-q, edge 2 is r-s; *s_param and *t_param are the closest-point parameters on edge 1
 * and edge 2 at the time of the hit. */
bool ccd_edge_edge(vec3 p0, vec3 p1, vec3 q0, vec3 q1, vec3 r0, vec3 r1, vec3 s0, vec3 s1, double eps,
		   double* t, double* s_param, double* t_param);

/* Whether the closed segment pq meets the closed triangle abc, with orientation predicates (signs
 * of 3x3 determinants) rather than computed intersection points. *t (may be NULL) receives the
 * parameter along pq of the first point of contact. The distances of p and q to the triangle's
 * plane count as zero within their rounding bound (a few ulps of the products of the coordinates'
 * magnitude and the edge lengths, docs/collide.md): a segment lying in the plane up to rounding is
 * tested in 2D, and so is an end touching it. A zero-area triangle meets nothing. */
bool segment_triangle_intersect(vec3 p, vec3 q, vec3 a, vec3 b, vec3 c, double* t);

/* Whether two closed triangles intersect, touching included (a shared point counts), coplanar
 * triangles included. Two triangles meet if and only if an edge of one meets the other, so this is
 * six segment/triangle tests after a separating-plane rejection, with the same rounding bound on
 * the plane distances. A triangle within rounding of the other's plane makes the pair coplanar,
 * decided in 2D: coplanar only up to rounding, as after a generic rotation, counts as
 * coplanar. A zero-area triangle meets nothing. */
bool triangle_triangle_intersect(vec3 a0, vec3 a1, vec3 a2, vec3 b0, vec3 b1, vec3 b2);

/* The same for two triangles of one mesh that share `shared` vertices, listed first: a0 = b0 when
 * shared = 1; a0 = b0 and a1 = b1 when shared = 2. The shared vertex or edge is not an
 * intersection:
 *   shared = 0: triangle_triangle_intersect.
 *   shared = 1: they intersect if the edge opposite the shared vertex in either triangle meets the
 *               other triangle (any other contact would have to pass through that edge).
 *   shared = 2: they intersect only when folded flat onto each other: coplanar (up to rounding),
 *               with the two opposite vertices on the same side of the shared edge.
 *   shared = 3: the same triangle; false. */
bool triangle_triangle_intersect_shared(vec3 a0, vec3 a1, vec3 a2, vec3 b0, vec3 b1, vec3 b2, int shared);

/* triangle_triangle_intersect_shared for triangles ta, tb (vertex indices into x) of one mesh: finds
 * the shared vertices and orders them as that function wants. */
bool mesh_triangles_intersect(const vec3* x, const int32_t ta[3], const int32_t tb[3]);

#endif
