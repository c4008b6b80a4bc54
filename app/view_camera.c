/* Orbit camera maths for `drape view`: orbit/pan/zoom and the cursor ray used to pick and drag
 * particles (the paper's user-controlled force, sec. 4.4, needs a point in 3D under the mouse). */
#include "view_camera.h"

#include "vec3.h"

#include <math.h>

#define VIEW_PI 3.14159265358979323846
#define MAX_PITCH (89.0 * VIEW_PI / 180.0)

/* Two unit axes spanning the plane normal to up, so that (a, b, up) is right-handed. */
static void horizontal_axes(vec3 up, vec3* a, vec3* b)
{
	vec3 seed = fabs(up.x) < 0.9 ? v3(1.0, 0.0, 0.0) : v3(0.0, 1.0, 0.0);
	*a = v3_normalize(v3_sub(seed, v3_scale(up, v3_dot(seed, up))));
	*b = v3_cross(up, *a);
}

static vec3 world_up(const view_orbit* o)
{
	vec3 up = v3_normalize(v3_load(o->world_up));
	return v3_len2(up) > 0.0 ? up : v3(0.0, 0.0, 1.0);
}

void view_orbit_look(view_orbit* o, const double eye[3], const double target[3], const double up_in[3],
		     double fov_y_deg)
{
	vec3 up = v3_normalize(v3_load(up_in));
	if (v3_len2(up) == 0.0) up = v3(0.0, 0.0, 1.0);
	v3_store(up, o->world_up);
	for (int i = 0; i < 3; ++i) o->target[i] = target[i];
	o->fov_y_deg = fov_y_deg;
	vec3 d = v3_sub(v3_load(eye), v3_load(target)); /* target -> eye */
	o->distance = v3_len(d);
	if (o->distance <= 0.0) {
		o->distance = 1.0;
		d = v3_scale(up, -1.0);
	}
	vec3 a, b;
	horizontal_axes(up, &a, &b);
	double h = v3_dot(d, up);
	o->pitch = fmax(-MAX_PITCH, fmin(MAX_PITCH, asin(fmax(-1.0, fmin(1.0, h / v3_len(d))))));
	o->yaw = atan2(v3_dot(d, b), v3_dot(d, a));
}

void view_orbit_frame(const view_orbit* o, view_frame* f)
{
	vec3 up = world_up(o), a, b;
	horizontal_axes(up, &a, &b);
	vec3 horiz = v3_add(v3_scale(a, cos(o->yaw)), v3_scale(b, sin(o->yaw)));
	vec3 to_eye = v3_add(v3_scale(horiz, cos(o->pitch)), v3_scale(up, sin(o->pitch)));
	vec3 eye = v3_madd(v3_load(o->target), o->distance, to_eye);
	vec3 forward = v3_neg(to_eye);
	vec3 right = v3_normalize(v3_cross(forward, up));
	vec3 cam_up = v3_cross(right, forward);
	v3_store(eye, f->eye);
	v3_store(forward, f->forward);
	v3_store(right, f->right);
	v3_store(cam_up, f->up);
}

void view_orbit_rotate(view_orbit* o, double dx, double dy)
{
	const double rad_per_pixel = 0.008;
	o->yaw -= dx * rad_per_pixel;
	o->yaw = remainder(o->yaw, 2.0 * VIEW_PI);
	o->pitch = fmax(-MAX_PITCH, fmin(MAX_PITCH, o->pitch + dy * rad_per_pixel));
}

/* Metres per pixel in the plane through the target facing the camera. */
static double target_scale(const view_orbit* o, double height)
{
	return 2.0 * o->distance * tan(0.5 * o->fov_y_deg * VIEW_PI / 180.0) / fmax(height, 1.0);
}

void view_orbit_pan(view_orbit* o, double dx, double dy, double height)
{
	view_frame f;
	view_orbit_frame(o, &f);
	double s = target_scale(o, height);
	vec3 t = v3_load(o->target);
	t = v3_madd(t, -dx * s, v3_load(f.right));
	t = v3_madd(t, dy * s, v3_load(f.up));
	v3_store(t, o->target);
}

void view_orbit_zoom(view_orbit* o, double clicks)
{
	o->distance = fmax(1e-3, fmin(1e4, o->distance * exp(-0.12 * clicks)));
}

void view_ray(const view_orbit* o, double width, double height, double px, double py, double origin[3],
	      double dir[3])
{
	view_frame f;
	view_orbit_frame(o, &f);
	double t = tan(0.5 * o->fov_y_deg * VIEW_PI / 180.0);
	double aspect = width / fmax(height, 1.0);
	/* Normalised device coordinates of the point, y up. */
	double nx = 2.0 * px / fmax(width, 1.0) - 1.0;
	double ny = 1.0 - 2.0 * py / fmax(height, 1.0);
	vec3 d = v3_load(f.forward);
	d = v3_madd(d, nx * t * aspect, v3_load(f.right));
	d = v3_madd(d, ny * t, v3_load(f.up));
	for (int i = 0; i < 3; ++i) origin[i] = f.eye[i];
	v3_store(v3_normalize(d), dir);
}

bool view_project(const view_orbit* o, double width, double height, const double p[3], double* px, double* py,
		  double* depth)
{
	view_frame f;
	view_orbit_frame(o, &f);
	vec3 d = v3_sub(v3_load(p), v3_load(f.eye));
	double z = v3_dot(d, v3_load(f.forward));
	if (!(z > 0.0)) return false;
	double t = tan(0.5 * o->fov_y_deg * VIEW_PI / 180.0);
	double aspect = width / fmax(height, 1.0);
	double nx = v3_dot(d, v3_load(f.right)) / (z * t * aspect);
	double ny = v3_dot(d, v3_load(f.up)) / (z * t);
	*px = 0.5 * (nx + 1.0) * width;
	*py = 0.5 * (1.0 - ny) * height;
	*depth = z;
	return true;
}

bool view_ray_plane(const double origin[3], const double dir[3], const double point[3], const double normal[3],
		    double out[3])
{
	vec3 n = v3_load(normal), d = v3_load(dir), o = v3_load(origin);
	double dn = v3_dot(d, n);
	if (fabs(dn) < 1e-12 * v3_len(n) * v3_len(d)) return false;
	double s = v3_dot(v3_sub(v3_load(point), o), n) / dn;
	if (!(s > 0.0)) return false;
	v3_store(v3_madd(o, s, d), out);
	return true;
}
