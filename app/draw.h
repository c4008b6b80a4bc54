/* Drawing a drape world with OpenGL 2.1 fixed function (compatibility profile), shared by the
 * offscreen renderer (`drape render`, EGL) and the interactive viewer (GLFW): smooth-shaded cloth
 * with a colour per side, solids posed at a time, a ground grid, and optionally contacts. */
#ifndef DRAPE_APP_DRAW_H
#define DRAPE_APP_DRAW_H

#include "drape.h"

#include <stdbool.h>

typedef struct draw_camera {
	double eye[3], target[3], up[3];
	double fov_y_deg;
} draw_camera;

typedef struct draw_options {
	int width, height;  /* the viewport, pixels */
	bool wireframe;     /* the cloth's triangle edges over its shading */
	bool show_contacts; /* particles in solid contact (yellow), in cloth/cloth pairs (magenta) */
	/* The region the ground grid and plane patches are sized to. Off: the world's bounds at the
	 * drawn time (draw_world_bounds); a renderer sets it to the union over all frames so the grid
	 * stays put while the cloth moves. */
	bool fixed_region;
	double region_lo[3], region_hi[3];
} draw_options;

typedef struct drawer drawer; /* GL state and scratch buffers, reused per frame */

/* Needs a current OpenGL context; NULL when out of memory. */
drawer* drawer_create(void);
void drawer_destroy(drawer* d);

/* Draws the world as it is now (cloth positions; solids posed at `time`), with the ground grid,
 * into the viewport (0, 0, width, height) of the current framebuffer, clearing it first. */
void draw_world(drawer* d, const drape_world* w, double time, const draw_camera* cam, const draw_options* opt);

/* A camera that frames all cloths and solids (from a 3/4 view above). */
draw_camera draw_camera_frame(const drape_world* w, double time, double aspect);

/* The same for a given box (world coordinates) and up direction (unit). */
draw_camera draw_camera_frame_box(const double lo[3], const double hi[3], const double up[3], double aspect);

/* Bounds of every cloth and every solid except infinite planes at `time`, united into lo/hi (which
 * the caller initialises, e.g. with draw_bounds_empty). */
void draw_bounds_empty(double lo[3], double hi[3]);
void draw_world_bounds(const drape_world* w, double time, double lo[3], double hi[3]);

/* The world's up: against gravity, or +z without gravity. */
void draw_world_up(const drape_world* w, double up[3]);

#endif
