/* The OBJ reader's internal entry points beyond the public drape_mesh_load_obj. */
#ifndef DRAPE_OBJ_READ_H
#define DRAPE_OBJ_READ_H

#include "drape.h"

/* Reads only geometry (v and f) for solids, which have no rest state: corners may be v, v/vt,
 * v//vn or v/vt/vn, and any vt are checked but dropped, so out->uv_count is 0 and uvs and
 * triangle_uvs are NULL. Everything else (messages "path:line: ...", fans, index rules) is as in
 * drape_mesh_load_obj. On failure *out is zeroed and err says why. */
bool obj_read_geometry(const char* path, drape_mesh* out, char* err, size_t err_size);

#endif
