/* Air drag on a triangle (sec. 4.4): opposes the relative velocity along the triangle's normal.
 * Only df/dv enters the implicit system (eq. 6). df/dx, from the normal and area turning with the
 * positions, is not symmetric and so cannot go into the symmetric system that CG solves (sec.
 * 5.2); drag is weak next to the internal forces, and its velocity derivative is what keeps it
 * stable at large steps. */
#include "forces.h"

void drag_terms(const vec3 x[3], const vec3 v[3], vec3 wind, double drag, jacobian_mode mode, element_terms* t)
{
	vec3 f, n;
	double s;
	if (!drag_force(x, v, wind, drag, &f, &n, &s)) return;
	/* Each corner's force sees each corner's velocity through vbar, with weight 1/3. */
	for (int i = 0; i < 3; ++i) t->f[i] = v3_add(t->f[i], f);
	if (mode == JACOBIAN_NONE) return;
	const mat3 dv = m3_scale(m3_outer(n, n), -s / 3.0);
	for (int i = 0; i < 3; ++i)
		for (int j = 0; j < 3; ++j) t->dfdv[i][j] = m3_add(t->dfdv[i][j], dv);
}
