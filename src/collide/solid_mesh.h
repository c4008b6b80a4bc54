/* Queries of a mesh solid's bounding-volume tree shared by solid_query.c and solid_outer.c. */
#ifndef DRAPE_SOLID_MESH_H
#define DRAPE_SOLID_MESH_H

#include "solid.h"

/* Faces of mesh solid s whose boxes overlap `box`, into the world's query scratch (query_hits). */
int32_t solid_mesh_candidates(drape_world* w, const solid_data* s, aabb box);

/* The unit normal of triangle tri of vertices v. */
vec3 solid_face_normal(const vec3* v, const int32_t* tri);

/* The winding number of the closed mesh s placed at `v` about x, counted along a vertical ray:
 * 1 inside one part, 2 where two parts of a body overlap, 0 outside (the faces' outward normals
 * give each crossing its sign). Uses the query scratch. */
int solid_ray_winding(drape_world* w, const solid_data* s, const vec3* v, vec3 x);

/* Whether x lies inside the closed mesh s placed at `v` (ray parity: an odd winding number). Uses
 * the query scratch. */
bool solid_ray_parity(drape_world* w, const solid_data* s, const vec3* v, vec3 x);

#endif
