/* Writes frames as Wavefront OBJ, atomically (readers never see half a file). */
#ifndef DRAPE_OBJ_WRITE_H
#define DRAPE_OBJ_WRITE_H

#include "drape.h"

/* One cloth in a frame: its mesh (uv and triangles) at `positions` (3 * vertex_count doubles;
 * NULL: the mesh's own positions). */
typedef struct obj_object {
	const char* name; /* written as "o name"; NULL: no o line */
	const drape_mesh* mesh;
	const double* positions;
} obj_object;

/* Writes all objects to one file, each after an "o" line with its indices offset past the
 * objects before it. The file is written as path + ".tmp" and renamed over path. */
bool obj_write_objects(const char* path, const obj_object* objects, int32_t count, char* err, size_t err_size);

/* The same for a single unnamed mesh. */
bool obj_write(const char* path, const drape_mesh* mesh, const double* positions, char* err, size_t err_size);

#endif
