/* Stretch condition of a triangle (sec. 4.2, eq. 10): C = a (|w_u| - b_u, |w_v| - b_v), with
 * w_u, w_v from eq. 9, and its exact first and second derivatives; and the stiffening beyond the
 * strain limit (docs/solver.md, "Strain limiting"). */
#include "forces.h"

void stretch_condition(const tri_rest* r, const vec3 x[3], double bu, double bv, bool hessian, condition* c)
{
	tri_w tw;
	tri_w_at(r, x, &tw);
	stretch_condition_w(r, &tw, bu, bv, hessian, c);
}

void stretch_condition_w(const tri_rest* r, const tri_w* tw, double bu, double bv, bool hessian, condition* c)
{
	const double lens[2] = {tw->lu, tw->lv};
	double cw[2][3];
	tri_rest_weights(r, cw[0], cw[1]);
	const double b[2] = {bu, bv};

	c->m = 2;
	c->n = 3;
	c->has_hess = hessian;
	for (int a = 0; a < 2; ++a) {
		const double len = lens[a];
		/* d2|w|/dw2 = (I - w w^T / |w|^2) / |w| is PSD, and w is linear in x. */
		c->hess_psd[a] = true;
		vec3 wh;
		if (!stretch_component_w(r, tw, a, b[a], cw[a], &c->c[a], c->grad[a], &wh)) {
			/* |w| has no derivative at w = 0 (a triangle crushed to a point along u or v):
			 * nor a Hessian. */
			for (int i = 0; i < 3; ++i)
				for (int j = 0; hessian && j < 3; ++j) c->hess[a][i][j] = m3_zero();
			continue;
		}
		if (!hessian) continue;
		const mat3 p = m3_scale(m3_sub(m3_identity(), m3_outer(wh, wh)), r->area / len);
		for (int i = 0; i < 3; ++i)
			for (int j = 0; j < 3; ++j) c->hess[a][i][j] = m3_scale(p, cw[a][i] * cw[a][j]);
	}
}

int stretch_limit_condition(const tri_rest* r, const condition* stretch, double bu, double bv, double s, condition* c)
{
	const double b[2] = {bu, bv};
	int beyond = 0;
	*c = *stretch;
	for (int a = 0; a < 2; ++a) {
		const double len = stretch->c[a] / r->area + b[a]; /* |w| */
		const double hi = stretch_limit_hi(b[a]) * (1.0 + s), lo = stretch_limit_lo(b[a]) * (1.0 - s);
		c->c[a] = 0.0;
		if (len > hi) c->c[a] = r->area * (len - hi);
		else if (len < lo) c->c[a] = r->area * (len - lo);
		else continue;
		beyond |= 1 << a;
	}
	return beyond;
}
