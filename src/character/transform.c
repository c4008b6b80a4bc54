/* The skeleton's arithmetic (docs/characters.md): affine joint transforms, unit quaternions
 * (w, x, y, z) and their spherical interpolation, Euler angles of keyframes, and the search for the
 * key interval holding a time. Shared by import (bind matrices, the dressing pose), pose.c (forward
 * kinematics, clip sampling) and keyframes.c, none of which depends on the others for it. */
#include "character.h"

#include <math.h>

#define DEG 0.017453292519943295 /* pi / 180 */

affine affine_identity(void)
{
	affine a = {{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}};
	return a;
}

affine affine_mul(affine a, affine b)
{
	affine r;
	for (int i = 0; i < 3; ++i) {
		for (int j = 0; j < 4; ++j) {
			double s = j == 3 ? a.m[4 * i + 3] : 0.0;
			for (int k = 0; k < 3; ++k) s += a.m[4 * i + k] * b.m[4 * k + j];
			r.m[4 * i + j] = s;
		}
	}
	return r;
}

void quat_matrix(const double q[4], double r[9])
{
	double w = q[0], a = q[1], b = q[2], c = q[3];
	r[0] = 1.0 - 2.0 * (b * b + c * c), r[1] = 2.0 * (a * b - w * c), r[2] = 2.0 * (a * c + w * b);
	r[3] = 2.0 * (a * b + w * c), r[4] = 1.0 - 2.0 * (a * a + c * c), r[5] = 2.0 * (b * c - w * a);
	r[6] = 2.0 * (a * c - w * b), r[7] = 2.0 * (b * c + w * a), r[8] = 1.0 - 2.0 * (a * a + b * b);
}

/* The unit quaternion of a rotation matrix (row-major 3x3), by the largest of its four candidates. */
void quat_from_matrix(const double* r, double q[4])
{
	/* Shepperd (1978): by the largest of the trace and the diagonal terms */
	double tr = r[0] + r[4] + r[8];
	if (tr > r[0] && tr > r[4] && tr > r[8]) {
		double u = 2.0 * sqrt(1.0 + tr);
		q[0] = 0.25 * u, q[1] = (r[7] - r[5]) / u, q[2] = (r[2] - r[6]) / u, q[3] = (r[3] - r[1]) / u;
	} else if (r[0] >= r[4] && r[0] >= r[8]) {
		double u = 2.0 * sqrt(1.0 + r[0] - r[4] - r[8]);
		q[0] = (r[7] - r[5]) / u, q[1] = 0.25 * u, q[2] = (r[1] + r[3]) / u, q[3] = (r[2] + r[6]) / u;
	} else if (r[4] >= r[8]) {
		double u = 2.0 * sqrt(1.0 - r[0] + r[4] - r[8]);
		q[0] = (r[2] - r[6]) / u, q[1] = (r[1] + r[3]) / u, q[2] = 0.25 * u, q[3] = (r[5] + r[7]) / u;
	} else {
		double u = 2.0 * sqrt(1.0 - r[0] - r[4] + r[8]);
		q[0] = (r[3] - r[1]) / u, q[1] = (r[2] + r[6]) / u, q[2] = (r[5] + r[7]) / u, q[3] = 0.25 * u;
	}
	double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
	for (int k = 0; k < 4; ++k) q[k] /= n;
}

affine affine_from_trs(const joint_trs* x)
{
	double r[9];
	quat_matrix(x->q, r);
	affine m;
	for (int i = 0; i < 3; ++i) {
		for (int j = 0; j < 3; ++j) m.m[4 * i + j] = r[3 * i + j] * x->s[j];
		m.m[4 * i + 3] = x->t[i];
	}
	return m;
}

affine affine_inverse(affine a)
{
	const double* m = a.m;
	double c00 = m[5] * m[10] - m[6] * m[9], c01 = m[6] * m[8] - m[4] * m[10], c02 = m[4] * m[9] - m[5] * m[8];
	double det = m[0] * c00 + m[1] * c01 + m[2] * c02;
	double inv[9] = {c00, m[2] * m[9] - m[1] * m[10], m[1] * m[6] - m[2] * m[5],
			 c01, m[0] * m[10] - m[2] * m[8], m[2] * m[4] - m[0] * m[6],
			 c02, m[1] * m[8] - m[0] * m[9],  m[0] * m[5] - m[1] * m[4]};
	affine r;
	for (int i = 0; i < 3; ++i) {
		for (int j = 0; j < 3; ++j) r.m[4 * i + j] = inv[3 * i + j] / det;
		r.m[4 * i + 3] = -(r.m[4 * i] * m[3] + r.m[4 * i + 1] * m[7] + r.m[4 * i + 2] * m[11]);
	}
	return r;
}

void affine_apply(const affine* a, const double p[3], double out[3])
{
	const double* m = a->m;
	double x = p[0], y = p[1], z = p[2];
	out[0] = m[0] * x + m[1] * y + m[2] * z + m[3];
	out[1] = m[4] * x + m[5] * y + m[6] * z + m[7];
	out[2] = m[8] * x + m[9] * y + m[10] * z + m[11];
}

/* q = a * b (Hamilton product). */
void quat_mul(const double* a, const double* b, double* q)
{
	q[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
	q[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
	q[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
	q[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
}

/* Shortest-arc spherical interpolation of unit quaternions; nlerp when they nearly agree. */
void quat_slerp(const double* a, const double* b, double s, double* out)
{
	double d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
	double sign = d < 0.0 ? -1.0 : 1.0;
	d = fabs(d);
	double wa = 1.0 - s, wb = s;
	if (d < 0.9995) {
		double th = acos(d), sn = sin(th);
		wa = sin((1.0 - s) * th) / sn;
		wb = sin(s * th) / sn;
	}
	double n = 0.0;
	for (int k = 0; k < 4; ++k) {
		out[k] = wa * a[k] + sign * wb * b[k];
		n += out[k] * out[k];
	}
	n = sqrt(n);
	for (int k = 0; k < 4; ++k) out[k] /= n;
}

int32_t character_find_key(const double* times, int32_t n, double t, double* s)
{
	*s = 0.0;
	if (n <= 1 || t <= times[0]) return 0;
	if (t >= times[n - 1]) return n - 1;
	int32_t lo = 0, hi = n - 1;
	while (hi - lo > 1) {
		int32_t mid = (lo + hi) / 2;
		if (times[mid] <= t) lo = mid;
		else hi = mid;
	}
	*s = (t - times[lo]) / (times[hi] - times[lo]);
	return lo;
}

void character_euler_quat(const double deg[3], double q[4])
{
	double qx[4] = {cos(0.5 * deg[0] * DEG), sin(0.5 * deg[0] * DEG), 0.0, 0.0};
	double qy[4] = {cos(0.5 * deg[1] * DEG), 0.0, sin(0.5 * deg[1] * DEG), 0.0};
	double qz[4] = {cos(0.5 * deg[2] * DEG), 0.0, 0.0, sin(0.5 * deg[2] * DEG)};
	double zy[4];
	quat_mul(qz, qy, zy);
	quat_mul(zy, qx, q);
}

void character_rest_globals(const drape_character* c, affine* g)
{
	for (int32_t i = 0; i < c->joint_count; ++i) {
		affine local = affine_from_trs(&c->joints[i].rest);
		int32_t p = c->joints[i].parent;
		g[i] = p >= 0 ? affine_mul(g[p], local) : local;
	}
}
