/* Closed triangle surfaces from implicit functions: marching tetrahedra over a regular grid
 * (isosurface.c) and the clean-up that turns its raw output into an even mesh (remesh.c): edge
 * collapses, Delaunay flips and tangential relaxation projected back onto the surface. Used for the
 * generated body of docs/mannequin.md. */
#ifndef DRAPE_ISOSURFACE_H
#define DRAPE_ISOSURFACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An implicit function: negative inside, positive outside, about a distance in metres near the
 * surface (its gradient length near 1). */
typedef double (*iso_field)(const void* ctx, const double p[3]);

/* A triangle mesh in growable arrays; the functions here own and free them. */
typedef struct iso_mesh {
	double* positions; /* 3 per vertex */
	int32_t* triangles; /* 3 per triangle, counter-clockwise seen from outside */
	int32_t vertex_count, triangle_count;
} iso_mesh;

/* The zero set of field sampled at the points lo + h (i, j, k), 0 <= i < n[0] etc. The grid is
 * cut into six tetrahedra per cell along the main diagonal (the Kuhn triangulation, whose face
 * diagonals agree between neighbouring cells), and each tetrahedron contributes its piece of the
 * linear interpolant's zero set: the union is a closed, consistently oriented 2-manifold whatever
 * the field, provided the field is positive on the grid's boundary (checked: false otherwise). A
 * sample exactly 0 counts as outside. Vertices are shared through the grid edges they lie on. */
bool iso_extract(iso_field field, const void* ctx, const double lo[3], double h, const int32_t n[3], iso_mesh* out,
		 char* err, size_t err_size);

/* Improves a closed manifold mesh lying on the zero set of field towards triangles of edge length
 * `target`: collapses edges shorter than 0.45 target (under the link condition, so the surface
 * stays a manifold of the same topology, and never flipping a triangle), flips edges towards the
 * Delaunay condition where the surface is flat across them, and moves vertices tangentially
 * towards their neighbours' centroid, projecting them back onto the zero set (Newton steps along
 * the field's gradient). `passes` rounds of the three. */
bool iso_remesh(iso_mesh* m, iso_field field, const void* ctx, double target, int passes, char* err,
		size_t err_size);

/* Checks that every directed edge occurs once and its reverse once (closed, oriented, manifold
 * at edges) and that every vertex's triangles form a single fan (manifold at vertices). Names the
 * first offending edge or vertex in err. */
bool iso_check_manifold(const iso_mesh* m, char* err, size_t err_size);

void iso_mesh_free(iso_mesh* m);

#endif
