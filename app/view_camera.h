/* The viewer's orbit camera: a target point, a distance and two angles about the scene's up axis,
 * with the pixel <-> world maths that mouse picking needs (a perspective projection with the same
 * conventions as gluPerspective/gluLookAt, which app/draw.c uses). No OpenGL here. */
#ifndef DRAPE_VIEW_CAMERA_H
#define DRAPE_VIEW_CAMERA_H

#include <stdbool.h>

typedef struct view_orbit {
	double target[3];
	double distance;  /* eye to target, m */
	double yaw;       /* radians about world_up */
	double pitch;     /* radians above the plane normal to world_up, |pitch| < 89 degrees */
	double world_up[3];
	double fov_y_deg;
} view_orbit;

/* Where the camera is and which way it looks; forward, right and up are unit and orthogonal. */
typedef struct view_frame {
	double eye[3];
	double forward[3];
	double right[3];
	double up[3];
} view_frame;

/* An orbit that looks from eye at target, about world_up (need not be unit; zero means +z). */
void view_orbit_look(view_orbit* o, const double eye[3], const double target[3], const double world_up[3],
		     double fov_y_deg);
void view_orbit_frame(const view_orbit* o, view_frame* f);

/* Mouse motions, in pixels of a view `height` pixels tall: rotate about the target, slide the
 * target in the view plane so that the point under the cursor follows it, and zoom by
 * `clicks` scroll-wheel notches (positive: closer). */
void view_orbit_rotate(view_orbit* o, double dx, double dy);
void view_orbit_pan(view_orbit* o, double dx, double dy, double height);
void view_orbit_zoom(view_orbit* o, double clicks);

/* The ray from the eye through window point (px, py) of a width x height view, y pointing down
 * (GLFW's cursor coordinates); dir is unit. */
void view_ray(const view_orbit* o, double width, double height, double px, double py, double origin[3],
	      double dir[3]);
/* The window point of p and its depth along the view direction; false if p is not in front of
 * the eye. */
bool view_project(const view_orbit* o, double width, double height, const double p[3], double* px, double* py,
		  double* depth);
/* Where the ray meets the plane through `point` with normal `normal`; false if it is parallel
 * to the plane or the meeting point lies behind the origin. */
bool view_ray_plane(const double origin[3], const double dir[3], const double point[3], const double normal[3],
		    double out[3]);

#endif
