/* Writes cloth animation as a USD text layer (.usda): one Mesh prim per cloth under /drape with
 * its triangles, face-varying rest uv (primvars:st) and time-sampled points, one sample per frame
 * (docs/caches.md). Samples are spooled per cloth while the run goes, so memory does not grow with
 * the number of frames; the file appears (by rename) only when finished. */
#ifndef DRAPE_USDA_WRITE_H
#define DRAPE_USDA_WRITE_H

#include "drape.h"

typedef struct usda_object {
	const char* name;       /* made into a unique USD identifier */
	const drape_mesh* mesh; /* triangles and uv; positions come with each frame */
} usda_object;

typedef struct usda_writer usda_writer;

/* Prepares path (written as path + ".tmp", spools beside it). The first frame added gets time code
 * first_frame (0 but for garments, whose caches start once sewn: docs/caches.md), which is the
 * layer's startTimeCode. NULL with a message on failure. */
usda_writer* usda_writer_begin(const char* path, const usda_object* objects, int32_t count, double fps,
			       int32_t first_frame, char* err, size_t err_size);
/* Adds the next frame (time code first_frame + its index): positions[o] holds 3 * vertex_count doubles. */
bool usda_writer_add_frame(usda_writer* w, const double* const* positions, char* err, size_t err_size);
/* Assembles the layer from the spools, renames it over path, frees w. */
bool usda_writer_finish(usda_writer* w, char* err, size_t err_size);
/* Removes every temporary file and frees w (NULL is fine). */
void usda_writer_abort(usda_writer* w);

#endif
