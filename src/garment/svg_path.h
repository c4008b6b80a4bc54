/* SVG path data (SVG 1.1 sec. 8.3, "path" element's `d`) read into a panel outline
 * (docs/garments.md, "Patterns from SVG"): drape's own small reader, no XML (src/io/scene_svg.c
 * finds the element with libxml2). */
#ifndef DRAPE_SVG_PATH_H
#define DRAPE_SVG_PATH_H

#include "garment.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* User units to metres: x_m = (x - origin[0]) * scale[0], y_m = (origin[1] - y) * scale[1] (SVG's
 * y runs down, drape's up). A uniform scale (scale[0] == scale[1]) keeps circular arcs circular. */
typedef struct svg_map {
	double origin[2];
	double scale[2];
} svg_map;

/* Reads one closed subpath (M ... Z; every command letter, absolute and relative) into *points
 * (one malloc'd block: free it, with the corner names "p0", "p1", ... of the path's vertices, the
 * end points of its segments in order, stored after the points). Lines stay lines, Q/T quadratic
 * and C/S cubic Beziers, circular arcs (equal radii after the map) drape's arcs; elliptical ones
 * become cubic Beziers of at most 90 degrees, whose inner points have no corner name. False with a
 * message that starts with the byte offset into `d` ("offset 14: expected a number"). */
bool svg_path_read(const char* d, const svg_map* map, pattern_point** points, int32_t* count, char* err, size_t err_size);

#endif
