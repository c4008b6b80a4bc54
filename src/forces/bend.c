/* Bend condition of a hinge (sec. 4.3): C = theta, the dihedral angle between the triangles'
 * normals, with exact first and second derivatives (the paper holds |n1|, |n2|, |e| fixed). */
#include "forces.h"

/* With e = x1 - x0, a = x2 - x0, b = x3 - x0 and the unnormalised normals N1 = e x a, N2 = b x e,
 * both normals are perpendicular to e, so N1 x N2 = -det(e, a, b) e and the paper's relations
 * cos = n1.n2, sin = (n1 x n2).e_hat become, after the common positive factor |N1| |N2|,
 *     X = N1.N2 = (e.a)(e.b) - (e.e)(a.b),    Y = (N1 x N2).e_hat = -|e| det(e, a, b),
 * theta = atan2(Y, X). X is a polynomial in dot products and Y a determinant times a length,
 * so their derivatives in q = (e, a, b) are short closed forms; theta's follow by the chain rule
 * through atan2, and x = (x0, x1, x2, x3) enters through q only linearly. Derivation:
 * docs/forces.md. */
typedef struct hinge_frame {
	vec3 e, a, b;
	double ee, ea, eb, ab;
	double l; /* |e| */
	double t; /* det(e, a, b) */
	double x, y, r; /* X, Y and X^2 + Y^2 */
} hinge_frame;

/* Returns false when a wing is degenerate and the angle has no meaning. */
static bool hinge_frame_init(hinge_frame* h, const vec3 x[4])
{
	h->e = v3_sub(x[1], x[0]);
	h->a = v3_sub(x[2], x[0]);
	h->b = v3_sub(x[3], x[0]);
	h->ee = v3_dot(h->e, h->e);
	h->ea = v3_dot(h->e, h->a);
	h->eb = v3_dot(h->e, h->b);
	h->ab = v3_dot(h->a, h->b);
	h->l = sqrt(h->ee);
	h->t = v3_dot(h->e, v3_cross(h->a, h->b));
	h->x = h->ea * h->eb - h->ee * h->ab;
	h->y = -h->l * h->t;
	h->r = h->x * h->x + h->y * h->y;
	/* r = |N1|^2 |N2|^2, so r / (|e|^4 |a|^2 |b|^2) is the product of the squared sines of the
	 * wings' angles at x0: a scale-free measure of how degenerate the wings are. */
	const double scale = h->ee * h->ee * v3_len2(h->a) * v3_len2(h->b);
	return isfinite(h->r) && h->r > 1e-24 * scale;
}

double bend_angle(const vec3 x[4])
{
	hinge_frame h;
	if (!hinge_frame_init(&h, x)) return 0.0;
	return atan2(h.y, h.x);
}

void bend_condition(const vec3 x[4], bool hessian, condition* c)
{
	c->m = 1;
	c->n = 4;
	/* theta's Hessian has both signs whatever the configuration. */
	c->hess_psd[0] = false;
	c->has_hess = hessian;

	hinge_frame h;
	if (!hinge_frame_init(&h, x)) {
		c->c[0] = 0.0;
		for (int i = 0; i < 4; ++i) {
			c->grad[0][i] = v3_zero();
			for (int j = 0; j < 4; ++j) c->hess[0][i][j] = m3_zero();
		}
		return;
	}
	c->c[0] = atan2(h.y, h.x);

	const vec3 e = h.e, a = h.a, b = h.b;
	const vec3 eh = v3_scale(e, 1.0 / h.l);
	const vec3 axb = v3_cross(a, b), bxe = v3_cross(b, e), exa = v3_cross(e, a);
	const mat3 id = m3_identity();

	/* Gradients of X and Y in q = (e, a, b); d det/de = a x b, d det/da = b x e, d det/db = e x a. */
	vec3 gx[3], gy[3];
	gx[0] = v3_sub(v3_add(v3_scale(a, h.eb), v3_scale(b, h.ea)), v3_scale(e, 2.0 * h.ab));
	gx[1] = v3_sub(v3_scale(e, h.eb), v3_scale(b, h.ee));
	gx[2] = v3_sub(v3_scale(e, h.ea), v3_scale(a, h.ee));
	gy[0] = v3_neg(v3_add(v3_scale(eh, h.t), v3_scale(axb, h.l)));
	gy[1] = v3_scale(bxe, -h.l);
	gy[2] = v3_scale(exa, -h.l);

	/* theta = atan2(Y, X): dtheta = (X dY - Y dX) / R and
	 * d2theta = (X HY - Y HX)/R + 2XY/R^2 (gX gX^T - gY gY^T) + (Y^2 - X^2)/R^2 (gX gY^T + gY gX^T).
	 * Ratios X/R, Y/R first so that R^2 never forms (it under- or overflows for small or large
	 * meshes long before R does). */
	const double xr = h.x / h.r, yr = h.y / h.r;
	const double cxx = 2.0 * xr * yr;
	const double cxy = yr * yr - xr * xr;
	vec3 g[3];
	for (int p = 0; p < 3; ++p) g[p] = v3_sub(v3_scale(gy[p], xr), v3_scale(gx[p], yr));
	c->grad[0][0] = v3_neg(v3_add(v3_add(g[0], g[1]), g[2]));
	for (int p = 0; p < 3; ++p) c->grad[0][p + 1] = g[p];
	if (!hessian) return;

	/* Upper blocks of the Hessians of X and Y in q; the (a,a) and (b,b) blocks vanish for both
	 * (X and det are linear in a and in b). d|e|/de = e_hat, d2|e|/de2 = (I - e_hat e_hat^T)/|e|,
	 * and the mixed second derivatives of det are constant skew matrices. */
	mat3 hx[3][3], hy[3][3];
	hx[0][0] = m3_madd(m3_add(m3_outer(a, b), m3_outer(b, a)), -2.0 * h.ab, id);
	hx[0][1] = m3_madd(m3_add(m3_diag(h.eb), m3_outer(b, e)), -2.0, m3_outer(e, b));
	hx[0][2] = m3_madd(m3_add(m3_diag(h.ea), m3_outer(a, e)), -2.0, m3_outer(e, a));
	hx[1][1] = m3_zero();
	hx[1][2] = m3_madd(m3_outer(e, e), -h.ee, id);
	hx[2][2] = m3_zero();
	hy[0][0] = m3_madd(m3_scale(m3_add(m3_outer(eh, axb), m3_outer(axb, eh)), -1.0), -h.t / h.l,
			   m3_sub(id, m3_outer(eh, eh)));
	hy[0][1] = m3_madd(m3_scale(m3_outer(eh, bxe), -1.0), h.l, m3_skew(b));
	hy[0][2] = m3_madd(m3_scale(m3_outer(eh, exa), -1.0), -h.l, m3_skew(a));
	hy[1][1] = m3_zero();
	hy[1][2] = m3_scale(m3_skew(e), h.l);
	hy[2][2] = m3_zero();

	mat3 hq[3][3];
	for (int p = 0; p < 3; ++p) {
		for (int q = p; q < 3; ++q) {
			mat3 m = m3_madd(m3_scale(hy[p][q], xr), -yr, hx[p][q]);
			m = m3_madd(m, cxx, m3_sub(m3_outer(gx[p], gx[q]), m3_outer(gy[p], gy[q])));
			m = m3_madd(m, cxy, m3_add(m3_outer(gx[p], gy[q]), m3_outer(gy[p], gx[q])));
			hq[p][q] = m;
		}
	}
	for (int p = 1; p < 3; ++p)
		for (int q = 0; q < p; ++q) hq[p][q] = m3_transpose(hq[q][p]);

	/* x0 enters every q with -I, x1..x3 enter e, a, b with +I. Sums are arranged so that the
	 * blocks are exact transposes of each other. */
	const mat3 upper = m3_add(m3_add(hq[0][1], hq[0][2]), hq[1][2]);
	const mat3 diag = m3_add(m3_add(hq[0][0], hq[1][1]), hq[2][2]);
	c->hess[0][0][0] = m3_add(diag, m3_add(upper, m3_transpose(upper)));
	for (int q = 0; q < 3; ++q) {
		const mat3 col = m3_scale(m3_add(m3_add(hq[0][q], hq[1][q]), hq[2][q]), -1.0);
		c->hess[0][0][q + 1] = col;
		c->hess[0][q + 1][0] = m3_transpose(col);
		for (int p = 0; p < 3; ++p) c->hess[0][p + 1][q + 1] = hq[p][q];
	}
}
