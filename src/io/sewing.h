/* A run with garments (docs/garments.md): after each frame, merge the seams that have
 * closed, stop with exit 3 naming a seam still open past sewing.time_limit, and note when the
 * sewn garment has relaxed (kinetic energy under sewing.relax_energy): the time motion may start. */
#ifndef DRAPE_IO_SEWING_H
#define DRAPE_IO_SEWING_H

#include "drape.h"
#include "io/scene.h"

#include <stddef.h>

typedef struct sewing_state {
	int32_t seam_count;
	int32_t open;        /* seams not yet merged */
	double sewn_at;      /* s: when the last seam merged; < 0 while some are open */
	double motion_start; /* s: when the garment had relaxed after sewing; < 0 until then */
	int32_t frame;        /* frames stepped so far */
	int32_t* merged_frame; /* per seam: the frame after which it merged, -1 while open */
} sewing_state;

/* False when out of memory. */
bool sewing_begin(sewing_state* st, const drape_world* world);
void sewing_end(sewing_state* st);
/* A resumed run's state, as saved after its last frame (io/checkpoint.h); merged_frame holds
 * seam_count entries, which must be the world's seam count. */
void sewing_restore(sewing_state* st, int32_t open, int32_t frame, double sewn_at, double motion_start,
		    const int32_t* merged_frame, int32_t seam_count);
/* Before each frame: gravity as the scene has it, scaled by sewing.gravity while a seam is open. */
void sewing_set_gravity(const sewing_state* st, drape_world* world, const scene* s);
/* The largest gap of the open seams now, m (frame 0's seam_gap). */
double sewing_max_gap(const drape_world* world);
/* DRAPE_OK, or DRAPE_ERROR_DIVERGED (a seam still open past the time limit) / DRAPE_ERROR_INVALID
 * (a merge refused) with the message in err. */
drape_status sewing_after_frame(sewing_state* st, drape_world* world, const scene* s, char* err, size_t err_size);

#endif
