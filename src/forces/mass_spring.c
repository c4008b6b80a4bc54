/* Mass-spring forces (Boxerman, "ADI Cloth", sec. 2.1): linear stretch and shear springs
 * C = |x1 - x0| - rest, and bend springs over three consecutive particles of a grid line,
 * C = x1 - (a x0 + b x2), linear or stiffening with |C| (the polynomial bend springs of sec. 2.1).
 * Each adds its force, both Jacobians and its damping like the conditions of forces.h. */
#include "forces.h"

void ms_spring_terms(const vec3 x[2], const vec3 v[2], double rest, double k, double kd, element_terms* t)
{
	condition c;
	c.m = 1;
	c.n = 2;
	c.has_hess = true;
	c.hess_psd[0] = true; /* d2|d|/dd2 = (I - dh dh^T) / |d| */
	const vec3 d = v3_sub(x[1], x[0]);
	const double len = v3_len(d);
	c.c[0] = len - rest;
	if (!(len > 0.0)) {
		/* Coincident ends: no direction, and the subgradient's centre (zero) keeps things finite. */
		for (int i = 0; i < 2; ++i) {
			c.grad[0][i] = v3_zero();
			for (int j = 0; j < 2; ++j) c.hess[0][i][j] = m3_zero();
		}
	} else {
		const vec3 dh = v3_scale(d, 1.0 / len);
		const mat3 p = m3_scale(m3_sub(m3_identity(), m3_outer(dh, dh)), 1.0 / len);
		c.grad[0][0] = v3_scale(dh, -1.0);
		c.grad[0][1] = dh;
		c.hess[0][0][0] = c.hess[0][1][1] = p;
		c.hess[0][0][1] = c.hess[0][1][0] = m3_scale(p, -1.0);
	}
	condition_terms(&c, k, kd, v, JACOBIAN_DEFINITE, t);
}

double ms_spring_energy(const vec3 x[2], double rest, double k)
{
	const double c = v3_len(v3_sub(x[1], x[0])) - rest;
	return 0.5 * k * c * c;
}

static vec3 bend_c(const vec3* x, const double wt[3])
{
	return v3_add(v3_add(v3_scale(x[0], wt[0]), v3_scale(x[1], wt[1])), v3_scale(x[2], wt[2]));
}

void ms_bend_terms(const vec3 x[3], const vec3 v[3], const double wt[3], double k, double kd, double s, element_terms* t)
{
	const vec3 c = bend_c(x, wt);
	const vec3 cdot = bend_c(v, wt);
	/* Energy k (|C|^2/2 + |C|^4/(4 s^2)): force on C is -k g C with g = 1 + |C|^2/s^2, and its
	 * C-Hessian k (g I + 2 C C^T / s^2) is positive definite, so A stays definite. */
	double g = 1.0;
	mat3 hc = m3_identity();
	if (s > 0.0) {
		const double s2 = s * s;
		g = 1.0 + v3_len2(c) / s2;
		hc = m3_add(m3_diag(g), m3_scale(m3_outer(c, c), 2.0 / s2));
	}
	const vec3 fc = v3_add(v3_scale(c, -k * g), v3_scale(cdot, -kd));
	for (int a = 0; a < 3; ++a) {
		t->f[a] = v3_madd(t->f[a], wt[a], fc);
		for (int b = 0; b < 3; ++b) {
			const double ww = wt[a] * wt[b];
			t->dfdx[a][b] = m3_madd(t->dfdx[a][b], -k * ww, hc);
			t->dfdv[a][b] = m3_madd(t->dfdv[a][b], -kd * ww, m3_identity());
		}
	}
}

double ms_bend_energy(const vec3 x[3], const double wt[3], double k, double s)
{
	const double c2 = v3_len2(bend_c(x, wt));
	return k * (0.5 * c2 + (s > 0.0 ? 0.25 * c2 * c2 / (s * s) : 0.0));
}

void ms_spring_force(vec3 x0, vec3 x1, vec3 v0, vec3 v1, double rest, double k, double kd, vec3 f[2])
{
	const vec3 d = v3_sub(x1, x0);
	const double len = v3_len(d);
	if (!(len > 0.0)) {
		f[0] = f[1] = v3_zero();
		return;
	}
	const vec3 dh = v3_scale(d, 1.0 / len);
	const double s = k * (len - rest) + kd * v3_dot(dh, v3_sub(v1, v0));
	f[0] = v3_scale(dh, s);
	f[1] = v3_scale(dh, -s);
}

void ms_bend_force(const vec3 x[3], const vec3 v[3], const double wt[3], double k, double kd, double s, vec3 f[3])
{
	const vec3 c = bend_c(x, wt);
	const double g = s > 0.0 ? 1.0 + v3_len2(c) / (s * s) : 1.0;
	const vec3 fc = v3_add(v3_scale(c, -k * g), v3_scale(bend_c(v, wt), -kd));
	for (int a = 0; a < 3; ++a) f[a] = v3_scale(fc, wt[a]);
}
