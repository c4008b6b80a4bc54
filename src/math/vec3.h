/* 3-vectors in double precision, inline because they sit in every hot loop. */
#ifndef DRAPE_VEC3_H
#define DRAPE_VEC3_H

#include <math.h>
#include <stdbool.h>

typedef struct vec3 {
	double x, y, z;
} vec3;

static inline vec3 v3(double x, double y, double z)
{
	vec3 r = {x, y, z};
	return r;
}
static inline vec3 v3_zero(void) { return v3(0.0, 0.0, 0.0); }
static inline vec3 v3_load(const double* p) { return v3(p[0], p[1], p[2]); }
static inline void v3_store(vec3 a, double* p)
{
	p[0] = a.x;
	p[1] = a.y;
	p[2] = a.z;
}
static inline vec3 v3_add(vec3 a, vec3 b) { return v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline vec3 v3_sub(vec3 a, vec3 b) { return v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline vec3 v3_scale(vec3 a, double s) { return v3(a.x * s, a.y * s, a.z * s); }
static inline vec3 v3_neg(vec3 a) { return v3(-a.x, -a.y, -a.z); }
/* a + s * b */
static inline vec3 v3_madd(vec3 a, double s, vec3 b) { return v3(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z); }
static inline double v3_dot(vec3 a, vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline vec3 v3_cross(vec3 a, vec3 b)
{
	return v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline double v3_len2(vec3 a) { return v3_dot(a, a); }
static inline double v3_len(vec3 a) { return sqrt(v3_dot(a, a)); }
/* Unit vector, or zero for a zero vector. */
static inline vec3 v3_normalize(vec3 a)
{
	double l = v3_len(a);
	return l > 0.0 ? v3_scale(a, 1.0 / l) : v3_zero();
}
/* (1 - t) a + t b: exactly a at t = 0 and b at t = 1. */
static inline vec3 v3_lerp(vec3 a, vec3 b, double t) { return v3_add(v3_scale(a, 1.0 - t), v3_scale(b, t)); }
/* The largest |component|: the scale against which rounding in a coordinate is judged. */
static inline double v3_max_abs(vec3 a)
{
	double x = fabs(a.x), y = fabs(a.y), z = fabs(a.z), yz = y > z ? y : z;
	return x > yz ? x : yz;
}
static inline bool v3_isfinite(vec3 a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }
static inline double v3_get(vec3 a, int i) { return i == 0 ? a.x : (i == 1 ? a.y : a.z); }

#endif
