/* Test hooks of `drape view` (docs/viewer.md): a "ready" file once the first frame is on screen,
 * a JSON report of the tracked and dragged particles' positions written on exit, and a PNG
 * screenshot of the last displayed frame. */
#ifndef DRAPE_VIEW_HOOKS_H
#define DRAPE_VIEW_HOOKS_H

#include "drape.h"
#include "view_pick.h"

#include <stddef.h>

typedef struct view_sample {
	int64_t frame; /* simulated frames since the world was (re)built */
	double time;
	double position[3];
	double target[3]; /* the spring's target (drags only) */
} view_sample;

typedef struct view_drag_record {
	int32_t cloth, vertex;
	double stiffness;
	double grab[3];
	view_sample* samples;
	int32_t count, capacity;
} view_drag_record;

typedef struct view_recorder {
	int32_t track_cloth; /* < 0: nothing tracked */
	int32_t track_vertex;
	view_sample* track;
	int32_t track_count, track_capacity;
	view_drag_record* drags;
	int32_t drag_count, drag_capacity;
	double* scratch; /* one cloth's positions */
	size_t scratch_size;
	int32_t resets;
	/* sewing (io/sewing.h), as of the report: seams, those still open, when motion began (< 0: not yet) */
	int32_t seams, seams_open;
	double motion_start;
	bool out_of_memory;
} view_recorder;

/* Records where the tracked particle and the dragged one (if any) are after frame `frame`. */
void view_recorder_frame(view_recorder* r, const drape_world* w, int64_t frame, const view_drag* drag);
void view_recorder_drag_begin(view_recorder* r, const drape_world* w, int64_t frame, const view_drag* drag,
			      double stiffness);
/* status: "ok", or "diverged" when a step failed during the session; totals: steps, rejected
 * steps, CG iterations and the smallest and largest step over the session. */
bool view_recorder_write(const view_recorder* r, const char* path, const char* status, const char* error,
			 int64_t displayed_frames, double time, const drape_stats* totals, char* err, size_t err_size);
void view_recorder_free(view_recorder* r);

/* Writes {"window": [w, h], "framebuffer": [w, h], "pixel": [x, y]} (pixel: where the tracked
 * particle is on screen, window coordinates; null when nothing is tracked) through a temporary
 * file and a rename, so a reader never sees half of it. */
bool view_write_ready(const char* path, int win_w, int win_h, int fb_w, int fb_h, bool has_pixel, double px,
		      double py, char* err, size_t err_size);

#endif
