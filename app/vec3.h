/* The command's own 3-vector arithmetic, for the camera, picking, the drawing's lighting and the
 * ground grid on a plane solid's frame. The world is read through drape.h as arrays of doubles
 * (3 per vertex) and frames as origin and quaternion; this only does the geometry around it, so
 * the command needs none of the library's private maths. */
#ifndef DRAPE_APP_VEC3_H
#define DRAPE_APP_VEC3_H

#include <math.h>
#include <stdbool.h>

typedef struct vec3 {
	double x, y, z;
} vec3;

static inline vec3 v3(double x, double y, double z) { return (vec3){x, y, z}; }
static inline vec3 v3_zero(void) { return v3(0.0, 0.0, 0.0); }
/* From and to 3 doubles, the layout of drape.h's arrays. */
static inline vec3 v3_load(const double* p) { return v3(p[0], p[1], p[2]); }
static inline void v3_store(vec3 a, double* p) { p[0] = a.x, p[1] = a.y, p[2] = a.z; }
static inline vec3 v3_add(vec3 a, vec3 b) { return v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline vec3 v3_sub(vec3 a, vec3 b) { return v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline vec3 v3_scale(vec3 a, double s) { return v3(s * a.x, s * a.y, s * a.z); }
static inline vec3 v3_neg(vec3 a) { return v3_scale(a, -1.0); }
/* a + s b */
static inline vec3 v3_madd(vec3 a, double s, vec3 b) { return v3_add(a, v3_scale(b, s)); }
static inline double v3_dot(vec3 a, vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline vec3 v3_cross(vec3 a, vec3 b) { return v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); }
static inline double v3_len2(vec3 a) { return v3_dot(a, a); }
static inline double v3_len(vec3 a) { return sqrt(v3_len2(a)); }
/* a / |a|, or zero for a zero vector. */
static inline vec3 v3_normalize(vec3 a)
{
	const double l = v3_len(a);
	return l > 0.0 ? v3_scale(a, 1.0 / l) : v3_zero();
}
static inline bool v3_isfinite(vec3 a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }

/* A solid's frame as drape_world_draw hands it over: origin p and unit quaternion q = (w, x, y, z),
 * world = R(q) local + p. */
typedef struct frame {
	vec3 p;
	double q[4];
} frame;

/* v rotated by q (sign 1) or by its inverse (sign -1): v + w t + u x t with t = 2 u x v, u the
 * vector part (conjugated for the inverse). */
static inline vec3 frame_rotate(frame f, double sign, vec3 v)
{
	const vec3 u = v3(sign * f.q[1], sign * f.q[2], sign * f.q[3]);
	const vec3 t = v3_scale(v3_cross(u, v), 2.0);
	return v3_add(v3_madd(v, f.q[0], t), v3_cross(u, t));
}
static inline vec3 frame_to_world(frame f, vec3 local) { return v3_add(frame_rotate(f, 1.0, local), f.p); }
static inline vec3 frame_to_local(frame f, vec3 world) { return frame_rotate(f, -1.0, v3_sub(world, f.p)); }

#endif
