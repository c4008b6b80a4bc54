/* Picking a cloth particle under the cursor and dragging it with the paper's user-controlled
 * force (sec. 4.4): a zero-length spring from the particle to the cursor's point in 3D, added to
 * the world with drape_spring_add so that its gradient enters the implicit system. */
#ifndef DRAPE_VIEW_PICK_H
#define DRAPE_VIEW_PICK_H

#include "drape.h"
#include "view_camera.h"

typedef struct view_pick {
	int32_t cloth;
	int32_t vertex;
	double position[3];
	double pixel_distance; /* from the cursor, pixels */
} view_pick;

/* The cloth particle nearest the cursor ray, in window pixels, among those within radius_px of
 * the cursor and not hidden behind a nearer layer of cloth (see docs/viewer.md). False if none. */
bool view_pick_particle(const drape_world* w, const view_orbit* o, double width, double height, double px,
			double py, double radius_px, view_pick* out);

/* Where vertex `vertex` of cloth `cloth` is now. *scratch (room for *size doubles) grows to hold
 * the cloth's positions and is reused from call to call. False for an index out of range or when
 * out of memory. */
bool view_particle_position(const drape_world* w, int32_t cloth, int32_t vertex, double** scratch, size_t* size,
			    double out[3]);

/* A drag in progress: the spring and the plane its target moves in (through the grabbed point,
 * facing the camera as it was at the press). */
typedef struct view_drag {
	bool active;
	drape_spring_id spring;
	view_pick grabbed;
	double stiffness; /* N/m */
	double plane_normal[3];
	double target[3];
} view_drag;

/* The default stiffness for dragging `cloth`: a 5 cm stretch holds the whole cloth's weight, so
 * the pull is firm at any mesh resolution and cloth mass. */
double view_drag_default_stiffness(const drape_world* w, drape_cloth_id cloth, const double gravity[3]);

/* Picks at the cursor and, on a hit, adds the spring with its target on the grabbed particle (no
 * jump at the press). stiffness <= 0 selects view_drag_default_stiffness; the damping is
 * damping_time * stiffness. False (and nothing added) on a miss or if the world refuses. */
bool view_drag_begin(view_drag* d, drape_world* w, const view_orbit* o, double width, double height, double px,
		     double py, double stiffness, double damping_time, const double gravity[3]);
/* Moves the target to where the cursor ray meets the drag plane. */
void view_drag_move(view_drag* d, drape_world* w, const view_orbit* o, double width, double height, double px,
		    double py);
void view_drag_end(view_drag* d, drape_world* w);

#endif
