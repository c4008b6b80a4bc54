/* The output formats of `drape run --format obj,pc2,glb,usda`: OBJ frames, PC2 point caches with a
 * rest OBJ per cloth, and one animated binary glTF (docs/caches.md). */
#ifndef DRAPE_IO_CACHES_H
#define DRAPE_IO_CACHES_H

#include "drape.h"

#include <cjson/cJSON.h>

enum {
	FORMAT_OBJ = 1,
	FORMAT_PC2 = 2,
	FORMAT_GLB = 4,
	FORMAT_USDA = 8,
};

/* "obj,pc2,glb" (any non-empty subset, any order) into FORMAT_* bits; false with a sentence
 * naming the offending item otherwise. */
bool caches_parse_formats(const char* text, unsigned* formats, char* err, size_t err_size);

typedef struct caches caches;

/* Validates and allocates everything for a run of up to max_frames frames after frame 0; creates
 * no file (files appear from the first caches_add_frame). NULL with a message on failure. */
caches* caches_begin(const char* dir, unsigned formats, const drape_world* world, double fps, int max_frames, char* err,
		     size_t err_size);
/* Writes frame `frame` (0 first) in every format. PC2, glTF and USD begin at the first frame with
 * every seam of the world merged (frame 0 without seams), with the mesh of then: a garment's vertex
 * count changes as its seams merge (docs/caches.md, "Garments"). */
bool caches_add_frame(caches* c, int frame, const drape_world* world, char* err, size_t err_size);
/* For a run that writes checkpoints: each frame's positions are also kept in checkpoint.frames
 * (with PC2, glTF or USD only; OBJ frames are their own record), so that caches_resume can rebuild
 * the caches. Call before frame 0. */
bool caches_keep_frames(caches* c, char* err, size_t err_size);
/* For a resumed run whose checkpoint is at `frame`: feeds frames first ... frame from
 * checkpoint.frames to the PC2, glTF and USD writers (OBJ frames are on disk already) and goes on
 * keeping frames after them. first: the frame those formats started at (0, or a garment's last
 * merge), or -1 while a seam is still open (nothing was kept yet). */
bool caches_resume(caches* c, int frame, int first, char* err, size_t err_size);
/* Whether caches_resume can rebuild frames first ... frame: checkpoint.frames holds them (or no
 * format needs it). Reads only, so that a refusal leaves the folder as it was. */
bool caches_check_resume(const caches* c, int frame, int first, char* err, size_t err_size);
/* Completes the caches with the frames added so far (after a failed caches_add_frame it removes
 * them instead) and frees c. checkpoint.frames stays: a run removes it with caches_remove_spool
 * once its summary.json is written, so that a kill before then can still be resumed. */
bool caches_finish(caches* c, char* err, size_t err_size);
/* Removes dir's checkpoint.frames (a complete run's, after its summary; see caches_finish). */
void caches_remove_spool(const char* dir);

/* For summary.json: {"formats": [...], "obj": "frame_%04d.obj", "pc2": [{"cloth", "cache",
 * "rest"}], "glb": "animation.glb", "cache_start": N} for the formats chosen; cache_start is the
 * first frame of PC2, glTF and USD (null, from -1, when none was written). */
cJSON* caches_outputs_json(unsigned formats, const drape_world* world, int cache_start);

/* Whether `name` is a file that the formats own in an output directory (for --force). */
bool caches_owns_file(const char* name);

#endif
