/* Mesh topology: the hinges (interior edges with their two triangles) on which bend acts. */
#ifndef DRAPE_TOPOLOGY_H
#define DRAPE_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Edge v[0]-v[1] shared by triangles tri[0] (opposite vertex v[2]) and tri[1] (opposite v[3]).
 * v[0], v[1] follow tri[0]'s winding. */
typedef struct hinge_ref {
	int32_t v[4];
	int32_t tri[2];
	int8_t edge[2]; /* which edge of each triangle: edge k joins corners k and (k + 1) % 3 */
} hinge_ref;

/* Finds the hinges of triangles (3 vertex indices each). Fails, naming the edge and triangles, if
 * an edge is shared by more than two triangles or two triangles have the same three vertices. */
bool topology_hinges(const int32_t* triangles, int32_t triangle_count, hinge_ref** out, int32_t* hinge_count,
		     char* err, size_t err_size);

#endif
