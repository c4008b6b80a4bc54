/* Shear condition of a triangle (sec. 4.3): C = a w_u . w_v, with w_u, w_v from eq. 9. The
 * Hessian is constant because C is a quadratic form in the positions. */
#include "forces.h"

void shear_condition(const tri_rest* r, const vec3 x[3], bool hessian, condition* c)
{
	tri_w tw;
	stretch_w(r, x, &tw.u, &tw.v);
	shear_condition_w(r, &tw, hessian, c);
}

void shear_condition_w(const tri_rest* r, const tri_w* tw, bool hessian, condition* c)
{
	double cu[3], cv[3];
	tri_rest_weights(r, cu, cv);
	const double a = r->area;

	c->m = 1;
	c->n = 3;
	shear_w(r, tw, cu, cv, &c->c[0], c->grad[0]);
	/* The quadratic form pairs w_u with w_v, so it has both signs. */
	c->hess_psd[0] = false;
	c->has_hess = hessian;
	for (int i = 0; i < 3; ++i)
		for (int j = 0; hessian && j < 3; ++j) c->hess[0][i][j] = m3_diag(a * (cu[i] * cv[j] + cv[i] * cu[j]));
}
