/* From a condition C(x) to force, stiffness and damping blocks (sec. 4.1 eq. 7, 8; sec. 4.5
 * eq. 11, 12), and the uv rest data of a triangle shared by stretch and shear (sec. 4.2 eq. 9). */
#include "forces.h"

#include <assert.h>

void element_terms_clear(element_terms* t, int n)
{
	t->n = n;
	for (int i = 0; i < COND_MAX_NODES; ++i) {
		t->f[i] = v3_zero();
		for (int j = 0; j < COND_MAX_NODES; ++j) {
			t->dfdx[i][j] = m3_zero();
			t->dfdv[i][j] = m3_zero();
		}
	}
}

void condition_terms(const condition* c, double k, double kd, const vec3* v, jacobian_mode mode, element_terms* t)
{
	for (int a = 0; a < c->m; ++a) condition_terms_component(c, a, k, kd, v, mode, t);
}

void condition_terms_component(const condition* c, int a, double k, double kd, const vec3* v, jacobian_mode mode,
			       element_terms* t)
{
	const int n = c->n;
	{
		const vec3* g = c->grad[a];
		if (mode == JACOBIAN_NONE) {
			condition_force(g, n, c->c[a], k, kd, v, t->f);
			return;
		}
		double cdot = 0.0;
		if (v) {
			for (int i = 0; i < n; ++i) cdot += v3_dot(g[i], v[i]);
		}
		const double fs = -(k * c->c[a] + kd * cdot);

		/* With a PSD d2C, the terms -k C d2C and -kd Cdot d2C add k C d2C and kd Cdot d2C to
		 * -df/dx: indefinite once C < 0 (Cdot < 0). With an indefinite d2C (shear, bend) they
		 * are indefinite whatever the sign, and unbounded as a triangle degenerates. DEFINITE
		 * drops them in those cases (Gauss-Newton), so -df/dx stays a sum of PSD parts; the
		 * force is exact, only the linearisation is changed. */
		double hs = k * c->c[a];
		double hd = kd * cdot;
		if (mode == JACOBIAN_DEFINITE) {
			if (!c->hess_psd[a] || c->c[a] < 0.0) hs = 0.0;
			if (!c->hess_psd[a] || cdot < 0.0) hd = 0.0;
		}
		const double hw = -(hs + hd);
		assert(hw == 0.0 || c->has_hess);

		for (int i = 0; i < n; ++i) {
			t->f[i] = v3_madd(t->f[i], fs, g[i]);
			for (int j = 0; j < n; ++j) {
				/* Same operation order for (i,j) and (j,i), so the blocks stay exactly
				 * transposes of each other when the condition's Hessian is. */
				const mat3 gg = m3_outer(g[i], g[j]);
				t->dfdx[i][j] = m3_madd(t->dfdx[i][j], -k, gg);
				if (hw != 0.0) t->dfdx[i][j] = m3_madd(t->dfdx[i][j], hw, c->hess[a][i][j]);
				t->dfdv[i][j] = m3_madd(t->dfdv[i][j], -kd, gg);
			}
		}
	}
}

void element_terms_reset(element_terms* t, int n)
{
	t->n = n;
	for (int i = 0; i < n; ++i) {
		t->f[i] = v3_zero();
		for (int j = 0; j < n; ++j) {
			t->dfdx[i][j] = m3_zero();
			t->dfdv[i][j] = m3_zero();
		}
	}
}

bool tri_rest_init(tri_rest* r, const double uv0[2], const double uv1[2], const double uv2[2])
{
	r->area = 0.0;
	r->dinv[0][0] = r->dinv[0][1] = r->dinv[1][0] = r->dinv[1][1] = 0.0;
	if (!isfinite(uv0[0]) || !isfinite(uv0[1]) || !isfinite(uv1[0]) || !isfinite(uv1[1]) || !isfinite(uv2[0]) ||
	    !isfinite(uv2[1]))
		return false;

	const double du1 = uv1[0] - uv0[0], dv1 = uv1[1] - uv0[1];
	const double du2 = uv2[0] - uv0[0], dv2 = uv2[1] - uv0[1];
	const double det = du1 * dv2 - du2 * dv1;

	/* Scale-free test: det / (longest edge)^2 is about the sine of the smallest angle. */
	const double l1 = du1 * du1 + dv1 * dv1;
	const double l2 = du2 * du2 + dv2 * dv2;
	const double l3 = (du2 - du1) * (du2 - du1) + (dv2 - dv1) * (dv2 - dv1);
	const double lmax = fmax(l1, fmax(l2, l3));
	if (!isfinite(det) || !isfinite(lmax) || !(fabs(det) > 1e-12 * lmax)) return false;

	r->area = 0.5 * fabs(det);
	r->dinv[0][0] = dv2 / det;
	r->dinv[0][1] = -du2 / det;
	r->dinv[1][0] = -dv1 / det;
	r->dinv[1][1] = du1 / det;
	return true;
}
