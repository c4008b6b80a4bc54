/* User point force on one particle (sec. 4.4, the paper's "mouse" force): a constant force plus
 * a damped spring to a target point. */
#include "forces.h"

void spring_terms(vec3 x, vec3 v, vec3 target, double stiffness, double damping, vec3 force, element_terms* t)
{
	const vec3 f = v3_sub(v3_sub(force, v3_scale(v3_sub(x, target), stiffness)), v3_scale(v, damping));
	t->f[0] = v3_add(t->f[0], f);
	t->dfdx[0][0] = m3_add(t->dfdx[0][0], m3_diag(-stiffness));
	t->dfdv[0][0] = m3_add(t->dfdv[0][0], m3_diag(-damping));
}
