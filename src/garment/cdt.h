/* Constrained Delaunay triangulation of a simple polygon with extra interior points, behind a C
 * interface to CGAL's 2D triangulation (cdt.cpp); panel meshing (docs/garments.md) uses it for
 * the band between a panel's outline and its warp-aligned grid. */
#ifndef DRAPE_GARMENT_CDT_H
#define DRAPE_GARMENT_CDT_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* points: 2 * (boundary_count + interior_count) doubles, the polygon's vertices in order first
 * (its edges are constraints; the polygon must be simple), then interior points. Writes
 * counter-clockwise triangles inside the polygon as point indices into a malloc'd *triangles
 * (3 * *triangle_count). False when out of memory (then *out_of_memory is set: std::bad_alloc in
 * CGAL or the result's malloc), when CGAL throws, or when it merged points (coincident input). */
bool cdt_triangulate(const double* points, int32_t boundary_count, int32_t interior_count, int32_t** triangles,
		     int32_t* triangle_count, bool* out_of_memory);

#ifdef __cplusplus
}
#endif
#endif
