/* Air drag on a triangle (sec. 4.4): opposes the relative velocity along the triangle's normal.
 * Only df/dv enters the implicit system (eq. 6). df/dx, from the normal and area turning with the
 * positions, is not symmetric and so cannot go into the symmetric system that CG solves (sec.
 * 5.2); drag is weak next to the internal forces, and its velocity derivative is what keeps it
 * stable at large steps. */
#include "forces.h"

void drag_terms(const vec3 x[3], const vec3 v[3], vec3 wind, double drag, jacobian_mode mode, element_terms* t)
{
	const vec3 cr = v3_cross(v3_sub(x[1], x[0]), v3_sub(x[2], x[0]));
	const double len = v3_len(cr);
	/* A triangle with no area has no normal and catches no air. */
	if (!(len > 0.0)) return;
	const vec3 n = v3_scale(cr, 1.0 / len);
	const double area = 0.5 * len;

	const vec3 vbar = v3_scale(v3_add(v3_add(v[0], v[1]), v[2]), 1.0 / 3.0);
	const double s = drag * area / 3.0;
	const vec3 f = v3_scale(n, -s * v3_dot(v3_sub(vbar, wind), n));
	/* Each corner's force sees each corner's velocity through vbar, with weight 1/3. */
	for (int i = 0; i < 3; ++i) t->f[i] = v3_add(t->f[i], f);
	if (mode == JACOBIAN_NONE) return;
	const mat3 dv = m3_scale(m3_outer(n, n), -s / 3.0);
	for (int i = 0; i < 3; ++i)
		for (int j = 0; j < 3; ++j) t->dfdv[i][j] = m3_add(t->dfdv[i][j], dv);
}
