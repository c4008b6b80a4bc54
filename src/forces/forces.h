/* Internal forces written as condition functions C(x) (sec. 4.1) and the generic machinery that
 * turns a condition into force, stiffness and damping terms (eq. 7, 8, 11, 12). Each force file
 * (stretch.c, shear.c, bend.c, drag.c, spring.c) only says what its condition is. */
#ifndef DRAPE_FORCES_H
#define DRAPE_FORCES_H

#include "../math/mat3.h"
#include <math.h>

#define COND_MAX_COMPONENTS 2
#define COND_MAX_NODES 4

/* A vector condition with m components over n particles, with its exact first and second
 * derivatives: grad[a][i] = dC_a/dx_i, hess[a][i][j] = d2C_a/(dx_i dx_j). */
typedef struct condition {
	int m;
	int n;
	double c[COND_MAX_COMPONENTS];
	vec3 grad[COND_MAX_COMPONENTS][COND_MAX_NODES];
	mat3 hess[COND_MAX_COMPONENTS][COND_MAX_NODES][COND_MAX_NODES];
	/* Component a's Hessian is positive semi-definite (true for the norms in the stretch
	 * condition). Lets condition_terms keep the system definite under compression. */
	bool hess_psd[COND_MAX_COMPONENTS];
	/* hess was filled in. Conditions with an indefinite Hessian can skip it when the caller
	 * assembles JACOBIAN_DEFINITE, which never uses it (the Hessian is most of bend's cost). */
	bool has_hess;
} condition;

/* Local force and derivative blocks of one element over its n particles. */
typedef struct element_terms {
	int n;
	vec3 f[COND_MAX_NODES];
	mat3 dfdx[COND_MAX_NODES][COND_MAX_NODES];
	mat3 dfdv[COND_MAX_NODES][COND_MAX_NODES];
} element_terms;

void element_terms_clear(element_terms* t, int n);
/* Clears only the n x n blocks in use (everything reads t->n): the assembly's hot path. */
void element_terms_reset(element_terms* t, int n);

/* How condition_terms forms df/dx. EXACT is eq. 8 plus the symmetric part of eq. 12.
 * DEFINITE additionally drops C * d2C (and Cdot * d2C) for components whose Hessian is
 * positive semi-definite while C < 0 (Cdot < 0): compressed stretch would otherwise make
 * A = M - h df/dv - h^2 df/dx indefinite (the buckling instability; docs/solver.md). */
typedef enum jacobian_mode {
	JACOBIAN_EXACT = 0,
	JACOBIAN_DEFINITE = 1,
	/* The force alone, no derivatives: an explicit family's terms (only f is read). */
	JACOBIAN_NONE = 2,
} jacobian_mode;

/* Adds to *t the force -k dC C, the damping force -kd dC Cdot (Cdot = dC^T v) and their
 * derivatives:  df/dx += -k (dC dC^T + d2C C) - kd d2C Cdot   (eq. 8, eq. 12 without the
 * asymmetric dC (dCdot/dx)^T term, as the paper drops it),  df/dv += -kd dC dC^T.
 * v holds the n particles' velocities (NULL reads as all zero). */
void condition_terms(const condition* c, double k, double kd, const vec3* v, jacobian_mode mode, element_terms* t);
/* The same for component a alone (stretch's u and v components belong to different families). */
void condition_terms_component(const condition* c, int a, double k, double kd, const vec3* v, jacobian_mode mode,
			       element_terms* t);

/* Rest data of a triangle in (u,v): its area a and the inverse of the 2x2 matrix of eq. 9,
 * dinv = [[du1, du2], [dv1, dv2]]^-1, so that w_u = dx1 dinv[0][0] + dx2 dinv[1][0] and
 * w_v = dx1 dinv[0][1] + dx2 dinv[1][1]. */
typedef struct tri_rest {
	double area;
	double dinv[2][2];
} tri_rest;

/* Fills r from the three corners' (u,v). Returns false if the uv triangle is degenerate. */
bool tri_rest_init(tri_rest* r, const double uv0[2], const double uv1[2], const double uv2[2]);

/* w_u and w_v of eq. 9 for positions x[0..2]. Inline: every triangle's every force and measure
 * starts here. */
static inline void stretch_w(const tri_rest* r, const vec3 x[3], vec3* wu, vec3* wv)
{
	/* Differences first: exact for translated meshes far from the origin. */
	const vec3 dx1 = v3_sub(x[1], x[0]);
	const vec3 dx2 = v3_sub(x[2], x[0]);
	*wu = v3_add(v3_scale(dx1, r->dinv[0][0]), v3_scale(dx2, r->dinv[1][0]));
	*wv = v3_add(v3_scale(dx1, r->dinv[0][1]), v3_scale(dx2, r->dinv[1][1]));
}

/* A triangle's w_u, w_v and their lengths at one position: what its stretch and shear conditions,
 * their energies and the step control's strain measure all start from (one pass per position,
 * step/strain_change.c). */
typedef struct tri_w {
	vec3 u, v;
	double lu, lv;
} tri_w;

static inline void tri_w_at(const tri_rest* r, const vec3 x[3], tri_w* t)
{
	stretch_w(r, x, &t->u, &t->v);
	t->lu = v3_len(t->u);
	t->lv = v3_len(t->v);
}

/* The constant weights with w_u = sum_m cu[m] x_m and w_v = sum_m cv[m] x_m, which are also
 * dw_u/dx_m = cu[m] I and dw_v/dx_m = cv[m] I: cu = (-(dinv00 + dinv10), dinv00, dinv10),
 * cv = (-(dinv01 + dinv11), dinv01, dinv11). */
static inline void tri_rest_weights(const tri_rest* r, double cu[3], double cv[3])
{
	cu[0] = -(r->dinv[0][0] + r->dinv[1][0]);
	cu[1] = r->dinv[0][0];
	cu[2] = r->dinv[1][0];
	cv[0] = -(r->dinv[0][1] + r->dinv[1][1]);
	cv[1] = r->dinv[0][1];
	cv[2] = r->dinv[1][1];
}

/* Component a (0: u, 1: v) of the stretch condition from the triangle's w: its value *c and gradient
 * g[i] = dC/dx_i, given the weights cw of that component (tri_rest_weights); *wh = w / |w|. False
 * (g zero) where |w| = 0: no derivative there, and zero is its subgradient's centre. */
static inline bool stretch_component_w(const tri_rest* r, const tri_w* tw, int a, double b, const double cw[3], double* c,
				       vec3 g[3], vec3* wh)
{
	const double len = a ? tw->lv : tw->lu;
	*c = r->area * (len - b);
	if (!(len > 0.0)) {
		for (int i = 0; i < 3; ++i) g[i] = v3_zero();
		return false;
	}
	*wh = v3_scale(a ? tw->v : tw->u, 1.0 / len);
	for (int i = 0; i < 3; ++i) g[i] = v3_scale(*wh, r->area * cw[i]);
	return true;
}

/* Shear's value a w_u . w_v and gradient from the triangle's w and weights. */
static inline void shear_w(const tri_rest* r, const tri_w* tw, const double cu[3], const double cv[3], double* c, vec3 g[3])
{
	const double a = r->area;
	*c = a * v3_dot(tw->u, tw->v);
	for (int i = 0; i < 3; ++i) g[i] = v3_add(v3_scale(tw->v, a * cu[i]), v3_scale(tw->u, a * cv[i]));
}

/* The force of one condition component with value c and gradient g over n particles (eq. 7 and
 * the damping of eq. 11): f_i += -(k c + kd Cdot) g_i, Cdot = sum g_i . v_i (v NULL: zero). */
static inline void condition_force(const vec3* g, int n, double c, double k, double kd, const vec3* v, vec3* f)
{
	double cdot = 0.0;
	if (v) {
		for (int i = 0; i < n; ++i) cdot += v3_dot(g[i], v[i]);
	}
	const double fs = -(k * c + kd * cdot);
	for (int i = 0; i < n; ++i) f[i] = v3_madd(f[i], fs, g[i]);
}

/* Stretch (eq. 10): C = a (|w_u| - b_u, |w_v| - b_v). The Hessian is filled only if `hessian`. */
void stretch_condition(const tri_rest* r, const vec3 x[3], double bu, double bv, bool hessian, condition* c);
/* The same from the triangle's w at x (tri_w_at): the same numbers, bit for bit. */
void stretch_condition_w(const tri_rest* r, const tri_w* tw, double bu, double bv, bool hessian, condition* c);
/* The stretch and shear energies k/2 |C|^2 of a triangle from its w (the same C as the conditions). */
static inline double stretch_energy_w(const tri_rest* r, const tri_w* tw, double bu, double bv, double k)
{
	const double cu = r->area * (tw->lu - bu), cv = r->area * (tw->lv - bv);
	return 0.5 * k * (cu * cu + cv * cv);
}
static inline double shear_energy_w(const tri_rest* r, const tri_w* tw, double k)
{
	const double c = r->area * v3_dot(tw->u, tw->v);
	return 0.5 * k * c * c;
}

/* Strain limiting's stiffening (docs/solver.md, "Strain limiting"): outside
 * [min(b, 1) (1 - s), max(b, 1) (1 + s)] (b = 1: plain cloth; b < 1, an elastic band, may stretch
 * to its fabric's pattern length; b > 1, a gather, may be squeezed to it) the stretch of eq. 10
 * gains a second condition a (|w| - bound) of stiffness
 * (STRETCH_LIMIT_STIFFENING - 1) k, so the energy is k/2 C^2 + (F - 1) k/2 C'^2: a biphasic response
 * with a continuous force. Fills c from the stretch condition `stretch` of the same triangle (the
 * same gradient and Hessian, only the values differ) and returns which components are beyond the
 * limit (bit 0: u, bit 1: v); the others must not be used. */
#define STRETCH_LIMIT_STIFFENING 20.0
/* The lengths the band's ends scale: |w| may range over [lo (1 - s), hi (1 + s)]. */
static inline double stretch_limit_lo(double b) { return b < 1.0 ? b : 1.0; }
static inline double stretch_limit_hi(double b) { return b > 1.0 ? b : 1.0; }
int stretch_limit_condition(const tri_rest* r, const condition* stretch, double bu, double bv, double s, condition* c);

/* Shear (sec. 4.3): C = a w_u . w_v. The Hessian is filled only if `hessian`. */
void shear_condition(const tri_rest* r, const vec3 x[3], bool hessian, condition* c);
/* The same from the triangle's w at x (tri_w_at; the lengths are not read). */
void shear_condition_w(const tri_rest* r, const tri_w* tw, bool hessian, condition* c);

/* Bend (sec. 4.3): C = theta, the angle between the normals of triangles (x0,x1,x2) and
 * (x0,x3,x1) hinged on edge x0-x1, from sin(theta) = (n1 x n2).e, cos(theta) = n1.n2; zero
 * when the hinge is flat. The normals are built from the hinge's own vertex order, so the
 * triangles' winding does not matter. Valid for |theta| < pi. The Hessian is filled only if
 * `hessian`. */
void bend_condition(const vec3 x[4], bool hessian, condition* c);
/* The bend angle alone (cheap; used by tests and diagnostics). */
double bend_angle(const vec3 x[4]);
/* A tensor cloth's fold guard (docs/bending.md, "Fold guard"): the hinge condition past the guard
 * angle, C = sign(theta) (|theta| - guard), zero within it; guard 0 is the plain hinge, C = theta.
 * Its energy k/2 C^2 is continuously differentiable at the guard angle. */
static inline double bend_guarded(double theta, double guard)
{
	if (!(guard > 0.0)) return theta;
	const double m = fabs(theta) - guard;
	return m > 0.0 ? copysign(m, theta) : 0.0;
}

/* Air drag on a triangle (sec. 4.4): f_i = -(drag * area / 3) ((vbar - wind) . n) n on each
 * corner, vbar the mean corner velocity and n the unit normal, area the current area. Adds f
 * and, unless mode is JACOBIAN_NONE, its exact df/dv; df/dx (non-symmetric) is left out of the implicit
 * system (docs/solver.md). */
void drag_terms(const vec3 x[3], const vec3 v[3], vec3 wind, double drag, jacobian_mode mode, element_terms* t);
/* Drag's force on each corner (the same on all three) and the unit normal and s = drag area / 3 its
 * df/dv needs; false (nothing) for a triangle with no area. */
static inline bool drag_force(const vec3 x[3], const vec3 v[3], vec3 wind, double drag, vec3* f, vec3* n, double* s)
{
	const vec3 cr = v3_cross(v3_sub(x[1], x[0]), v3_sub(x[2], x[0]));
	const double len = v3_len(cr);
	/* A triangle with no area has no normal and catches no air. */
	if (!(len > 0.0)) return false;
	*n = v3_scale(cr, 1.0 / len);
	const double area = 0.5 * len;
	const vec3 vbar = v3_scale(v3_add(v3_add(v[0], v[1]), v[2]), 1.0 / 3.0);
	*s = drag * area / 3.0;
	*f = v3_scale(*n, -*s * v3_dot(v3_sub(vbar, wind), *n));
	return true;
}

/* User point force on one particle (sec. 4.4): f = force - stiffness (x - target) - damping v,
 * with df/dx = -stiffness I and df/dv = -damping I. */
void spring_terms(vec3 x, vec3 v, vec3 target, double stiffness, double damping, vec3 force, element_terms* t);

/* Mass-spring stretch/shear spring (ADI Cloth sec. 2.1) between x[0] and x[1]: C = |x1 - x0| - rest,
 * force -k C dC - kd Cdot dC, Jacobians as condition_terms (JACOBIAN_DEFINITE). */
void ms_spring_terms(const vec3 x[2], const vec3 v[2], double rest, double k, double kd, element_terms* t);
double ms_spring_energy(const vec3 x[2], double rest, double k);
/* Mass-spring bend spring over x[0..2]: C = sum wt[m] x[m] (a vector), energy
 * k (|C|^2/2 + |C|^4/(4 s^2)) (s = 0: linear), damping -kd Cdot along dC. */
void ms_bend_terms(const vec3 x[3], const vec3 v[3], const double wt[3], double k, double kd, double s, element_terms* t);
double ms_bend_energy(const vec3 x[3], const double wt[3], double k, double s);
/* The same forces alone, for explicit treatment (equal to the f of the *_terms functions). */
void ms_spring_force(vec3 x0, vec3 x1, vec3 v0, vec3 v1, double rest, double k, double kd, vec3 f[2]);
void ms_bend_force(const vec3 x[3], const vec3 v[3], const double wt[3], double k, double kd, double s, vec3 f[3]);

#endif
