/* Writes a cloth animation as binary glTF 2.0 (.glb): each cloth is a node with its rest mesh
 * (positions, uv, triangles) and one morph target per later frame, and one animation keys the
 * morph weights at the scene's frame rate. Frames are spooled to disk while the run goes, so
 * memory does not grow with the number of frames; the file appears (by rename) only when done. */
#ifndef DRAPE_GLTF_WRITE_H
#define DRAPE_GLTF_WRITE_H

#include "drape.h"

typedef struct gltf_object {
	const char* name;
	const drape_mesh* mesh; /* uv and triangles; positions come with each frame */
} gltf_object;

typedef struct gltf_writer gltf_writer;

/* Prepares the export of `count` cloths for at most max_frames + 1 frames (the base mesh, and
 * max_frames more) at `fps`, the base being drape's frame first_frame (0 but for garments, whose
 * caches start once sewn: docs/caches.md): keyframe k is at (first_frame + k) / fps and its morph
 * target is named frame_NNNN after drape's frame. Fails (NULL, message) when the file would
 * exceed the 4 GiB a GLB can hold. Nothing is created on disk until the first frame. */
gltf_writer* gltf_writer_begin(const char* path, const gltf_object* objects, int32_t count, double fps,
			       int32_t first_frame, int32_t max_frames, char* err, size_t err_size);
/* Adds the next frame: positions[o] holds 3 * vertex_count doubles for object o (drape's axes).
 * No allocation. */
bool gltf_writer_add_frame(gltf_writer* w, const double* const* positions, char* err, size_t err_size);
/* Writes path (through path + ".tmp" and rename) with the frames added so far; frees w. */
bool gltf_writer_finish(gltf_writer* w, char* err, size_t err_size);
/* Drops everything written so far and frees w (NULL is fine). */
void gltf_writer_abort(gltf_writer* w);

/* The glTF vertices of a mesh: one per distinct (vertex, uv) pair used by a triangle corner, in
 * increasing vertex then uv order, so a seam vertex becomes several glTF vertices. Fills
 * vertex[k], uv[k] (arrays of 3 * triangle_count entries, or more) and corner[3 * t + c] (index
 * of triangle t's corner c); returns the count, or -1 when out of memory. */
int32_t gltf_split_vertices(const drape_mesh* mesh, int32_t* vertex, int32_t* uv, uint32_t* corner);

#endif
