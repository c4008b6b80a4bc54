/* Triangle geometry for debug drawing (debug_draw.c: positions, normals, indices in float/uint32
 * arrays that OpenGL vertex arrays take directly), and the solids tessellated into it at a given
 * time. No OpenGL here. */
#ifndef DRAPE_DRAW_SHAPES_H
#define DRAPE_DRAW_SHAPES_H

#include "collide/solid.h"

#include <stdint.h>

#define DRAW_PI 3.14159265358979323846

/* Grows only: cleared and refilled every frame without allocating once it is large enough. */
typedef struct draw_geometry {
	float* positions; /* 3 per vertex */
	float* normals;   /* 3 per vertex, unit */
	uint32_t* indices; /* 3 per triangle */
	int32_t vertex_count, vertex_capacity;
	int32_t index_count, index_capacity;
	int32_t* scratch; /* mesh solids: vertex -> triangles adjacency */
	int32_t scratch_capacity;
	vec3* points; /* mesh solids: world vertices, then face normals */
	int32_t point_capacity;
} draw_geometry;

void geometry_clear(draw_geometry* g);
void geometry_free(draw_geometry* g);

/* Appends solid s at time t. Infinite planes become a square patch of half size `plane_half`
 * centred on the point of the plane nearest `focus`. Analytic shapes are tessellated with smooth
 * normals (flat on box faces and cylinder caps); meshes keep creases sharper than 40 degrees and
 * average normals across gentler edges. False when out of memory (g keeps what it had). */
bool geometry_add_solid(draw_geometry* g, const solid_data* s, double t, vec3 focus, double plane_half);

/* Bounds of solid s at time t (not for planes), united into lo/hi. */
void solid_draw_bounds(const solid_data* s, double t, vec3* lo, vec3* hi);

#endif
