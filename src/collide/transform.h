/* Rigid transforms (translation + unit quaternion) that place the analytic solids of
 * src/collide/shapes.c in the world and move them between keyframes (sec. 6 cloth/solid contact). */
#ifndef DRAPE_TRANSFORM_H
#define DRAPE_TRANSFORM_H

#include "math/mat3.h"
#include "math/vec3.h"

/* x_world = R(q) x_local + p. q = (w, x, y, z) is a unit quaternion; the functions here keep it
 * unit, and a quaternion read from user data should go through xform_make, which normalises. */
typedef struct xform {
	vec3 p;
	double q[4];
} xform;

static inline xform xform_identity(void)
{
	xform r = {{0.0, 0.0, 0.0}, {1.0, 0.0, 0.0, 0.0}};
	return r;
}

/* From a translation and any non-zero quaternion (normalised here; the zero quaternion gives the
 * identity rotation). */
static inline xform xform_make(vec3 p, double w, double x, double y, double z)
{
	double n = sqrt(w * w + x * x + y * y + z * z);
	xform r = {p, {1.0, 0.0, 0.0, 0.0}};
	if (n > 0.0) {
		r.q[0] = w / n;
		r.q[1] = x / n;
		r.q[2] = y / n;
		r.q[3] = z / n;
	}
	return r;
}

/* Rotation by angle (radians, right-handed) about axis (any length; zero gives no rotation). */
static inline xform xform_from_axis_angle(vec3 p, vec3 axis, double angle)
{
	vec3 u = v3_normalize(axis);
	double s = sin(0.5 * angle);
	xform r = {p, {cos(0.5 * angle), s * u.x, s * u.y, s * u.z}};
	if (v3_len2(u) == 0.0) r = xform_make(p, 1.0, 0.0, 0.0, 0.0);
	return r;
}

/* v rotated by q: v + 2w (u x v) + 2 u x (u x v), u the vector part; the inverse rotation uses
 * the conjugate (u -> -u). */
static inline vec3 xform_quat_rotate(const double* q, double sign, vec3 v)
{
	vec3 u = v3(sign * q[1], sign * q[2], sign * q[3]);
	vec3 t = v3_scale(v3_cross(u, v), 2.0);
	return v3_add(v3_madd(v, q[0], t), v3_cross(u, t));
}

static inline vec3 xform_apply_vector(xform x, vec3 v) { return xform_quat_rotate(x.q, 1.0, v); }
static inline vec3 xform_apply_point(xform x, vec3 v) { return v3_add(xform_apply_vector(x, v), x.p); }
static inline vec3 xform_inv_apply_vector(xform x, vec3 v) { return xform_quat_rotate(x.q, -1.0, v); }
static inline vec3 xform_inv_apply_point(xform x, vec3 v) { return xform_inv_apply_vector(x, v3_sub(v, x.p)); }

/* R(q) as a matrix, e.g. to rotate a Jacobian block or for tests. */
static inline mat3 xform_rotation(xform x)
{
	double w = x.q[0], a = x.q[1], b = x.q[2], c = x.q[3];
	mat3 r = {{{1.0 - 2.0 * (b * b + c * c), 2.0 * (a * b - w * c), 2.0 * (a * c + w * b)},
		   {2.0 * (a * b + w * c), 1.0 - 2.0 * (a * a + c * c), 2.0 * (b * c - w * a)},
		   {2.0 * (a * c - w * b), 2.0 * (b * c + w * a), 1.0 - 2.0 * (a * a + b * b)}}};
	return r;
}

/* a after b: xform_apply_point(xform_compose(a, b), v) == a(b(v)). */
static inline xform xform_compose(xform a, xform b)
{
	const double* p = a.q;
	const double* q = b.q;
	xform r;
	r.p = v3_add(xform_apply_vector(a, b.p), a.p);
	r.q[0] = p[0] * q[0] - p[1] * q[1] - p[2] * q[2] - p[3] * q[3];
	r.q[1] = p[0] * q[1] + p[1] * q[0] + p[2] * q[3] - p[3] * q[2];
	r.q[2] = p[0] * q[2] - p[1] * q[3] + p[2] * q[0] + p[3] * q[1];
	r.q[3] = p[0] * q[3] + p[1] * q[2] - p[2] * q[1] + p[3] * q[0];
	return r;
}

static inline xform xform_inverse(xform a)
{
	xform r = {v3_zero(), {a.q[0], -a.q[1], -a.q[2], -a.q[3]}};
	r.p = v3_neg(xform_apply_vector(r, a.p));
	return r;
}

/* q and -q are one rotation: flip b's to a's hemisphere so interpolation takes the short way. */
static inline void xform_align_quat(const double* a, double* b)
{
	if (a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] < 0.0)
		for (int i = 0; i < 4; ++i) b[i] = -b[i];
}

/* Keyframe interpolation at s in [0, 1]: linear in the translation, normalised linear in the
 * quaternion. Not constant angular speed (slerp is), but cheap and exactly a at s = 0 and b at
 * s = 1; for the small rotations between keyframes the two agree closely. */
static inline xform xform_nlerp(xform a, xform b, double s)
{
	if (s == 0.0) return a;
	if (s == 1.0) return b;
	xform_align_quat(a.q, b.q);
	vec3 p = v3_add(v3_scale(a.p, 1.0 - s), v3_scale(b.p, s));
	return xform_make(p, (1.0 - s) * a.q[0] + s * b.q[0], (1.0 - s) * a.q[1] + s * b.q[1],
			  (1.0 - s) * a.q[2] + s * b.q[2], (1.0 - s) * a.q[3] + s * b.q[3]);
}

/* As xform_nlerp, but rotating at constant angular speed about a fixed axis. */
static inline xform xform_slerp(xform a, xform b, double s)
{
	if (s == 0.0) return a;
	if (s == 1.0) return b;
	xform_align_quat(a.q, b.q);
	double c = a.q[0] * b.q[0] + a.q[1] * b.q[1] + a.q[2] * b.q[2] + a.q[3] * b.q[3];
	/* Nearly equal rotations: sin(theta) -> 0 loses the weights, and nlerp agrees to O(theta^3). */
	if (c > 0.9995) return xform_nlerp(a, b, s);
	double th = acos(c), sn = sin(th);
	double wa = sin((1.0 - s) * th) / sn, wb = sin(s * th) / sn;
	vec3 p = v3_add(v3_scale(a.p, 1.0 - s), v3_scale(b.p, s));
	return xform_make(p, wa * a.q[0] + wb * b.q[0], wa * a.q[1] + wb * b.q[1], wa * a.q[2] + wb * b.q[2],
			  wa * a.q[3] + wb * b.q[3]);
}

#endif
