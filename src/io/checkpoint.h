/* checkpoint.bin beside a run's frames: what `drape resume DIR` needs to continue a killed run
 * bit-identically (docs/reliability.md, "Resume"): the scene's identity (path, overrides, a hash of
 * its text), the run's settings, the totals so far, the folder's entries from before the run, the
 * sewing state, and the world's stepping state (world_state.h). Written after every frame, atomically. */
#ifndef DRAPE_CHECKPOINT_H
#define DRAPE_CHECKPOINT_H

#include "drape.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CHECKPOINT_FILE "checkpoint.bin"

typedef struct scene scene;

typedef struct checkpoint {
	uint64_t scene_hash;
	int32_t frame;  /* the last frame written */
	int32_t frames; /* the run's last frame */
	int32_t threads;
	uint32_t formats;
	int32_t frames_written;
	double wall_seconds;
	drape_stats totals;
	char* scene_path; /* "" for the built-in default scene */
	char** sets;
	int32_t set_count;
	char** before; /* the folder's entries before the run */
	int32_t before_count;
	/* the sewing state after `frame` (io/sewing.h); seam_merged_frame is owned */
	int32_t sew_open, sew_frame;
	double sew_sewn_at, sew_motion_start;
	int32_t seam_count;
	int32_t* seam_merged_frame;
	/* --strict, and the crossed cloth recorded so far (io/run_warnings.h); crossings is owned */
	int32_t strict;
	int32_t crossing_count;
	struct crossing_record* crossings;
} checkpoint;

/* FNV-1a of the scene's text (its file, or the built-in one) and its overrides; false when the
 * file cannot be read. */
bool checkpoint_scene_hash(const scene* s, uint64_t* hash);

bool checkpoint_write(const char* dir, const checkpoint* c, drape_world* world, char* err, size_t err_size);

/* Reads the header (the world state stays in the file for checkpoint_read_world). */
bool checkpoint_read(const char* dir, checkpoint* c, char* err, size_t err_size);
bool checkpoint_read_world(const char* dir, drape_world* world, char* err, size_t err_size);
void checkpoint_free(checkpoint* c);

#endif
