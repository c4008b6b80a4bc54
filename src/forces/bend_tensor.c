/* Curvature-tensor bending (docs/bending.md): a per-triangle estimate of the Hessian of the
 * position field, from the jumps of the deformation gradient (eq. 9's w_u, w_v) across the
 * triangle's three edges, and the orthotropic plate energy
 *     E_T = A_T/2 (B_uu |x_uu|^2 + B_vv |x_vv|^2 + 2 sqrt(B_uu B_vv) |x_uv|^2).
 * For an isometric deformation of the flat (u, v) pattern, x_uu = k_uu n, x_vv = k_vv n and
 * x_uv = k_uv n exactly (the u and v lines stay geodesics), so the energy is the plate's with no
 * Poisson coupling, and it is quadratic in x: a constant Hessian, as in Bergou et al.'s quadratic
 * isometric bending (2006), but with warp and weft stiffness apart and on any triangulation. */
#include "bend_tensor.h"

#include <math.h>
#include <string.h>

/* Gradients (in uv) of the three barycentric functions of triangle (a, b, c); false if flat. */
static bool bary_gradients(const double a[2], const double b[2], const double c[2], double g[3][2])
{
	double d1u = b[0] - a[0], d1v = b[1] - a[1], d2u = c[0] - a[0], d2v = c[1] - a[1];
	double det = d1u * d2v - d2u * d1v;
	double scale = d1u * d1u + d1v * d1v + d2u * d2u + d2v * d2v;
	if (!(fabs(det) > 1e-12 * scale)) return false;
	/* phi_b = rows of [d1 d2]^-1 applied to (p - a). */
	g[1][0] = d2v / det;
	g[1][1] = -d2u / det;
	g[2][0] = -d1v / det;
	g[2][1] = d1u / det;
	g[0][0] = -(g[1][0] + g[2][0]);
	g[0][1] = -(g[1][1] + g[2][1]);
	return true;
}

static bool solve3(double m[3][3], double rhs[3][6], int cols)
{
	/* Gaussian elimination with partial pivoting on a 3x3 system with several right-hand sides. */
	double scale = 0.0;
	for (int i = 0; i < 3; ++i)
		for (int j = 0; j < 3; ++j) scale = fmax(scale, fabs(m[i][j]));
	for (int k = 0; k < 3; ++k) {
		int p = k;
		for (int i = k + 1; i < 3; ++i)
			if (fabs(m[i][k]) > fabs(m[p][k])) p = i;
		if (!(fabs(m[p][k]) > 1e-10 * scale)) return false;
		if (p != k) {
			for (int j = 0; j < 3; ++j) {
				double t = m[k][j];
				m[k][j] = m[p][j];
				m[p][j] = t;
			}
			for (int j = 0; j < cols; ++j) {
				double t = rhs[k][j];
				rhs[k][j] = rhs[p][j];
				rhs[p][j] = t;
			}
		}
		for (int i = 0; i < 3; ++i) {
			if (i == k) continue;
			double f = m[i][k] / m[k][k];
			for (int j = 0; j < 3; ++j) m[i][j] -= f * m[k][j];
			for (int j = 0; j < cols; ++j) rhs[i][j] -= f * rhs[k][j];
		}
	}
	for (int k = 0; k < 3; ++k)
		for (int j = 0; j < cols; ++j) rhs[k][j] /= m[k][k];
	return true;
}

bool bend_tensor_element(const bend_tensor_input* in, double c_uu, double c_vv, double alpha[3][6], double* area)
{
	const double(*P)[2] = in->uv;
	double g[3][2];
	if (!bary_gradients(P[0], P[1], P[2], g)) return false;
	*area = 0.5 * fabs((P[1][0] - P[0][0]) * (P[2][1] - P[0][1]) - (P[2][0] - P[0][0]) * (P[1][1] - P[0][1]));
	const double cu = (P[0][0] + P[1][0] + P[2][0]) / 3.0, cv = (P[0][1] + P[1][1] + P[2][1]) / 3.0;
	/* Free edges: the plate's natural condition M_nn = 0, with M = diag-weighted curvature. */
	double cmax = fmax(c_uu, c_vv);
	double wu = cmax > 0.0 ? c_uu / cmax : 1.0, wv = cmax > 0.0 ? c_vv / cmax : 1.0, wt = sqrt(wu * wv);

	double m[3][3], d[3][6];
	memset(d, 0, sizeof d);
	for (int k = 0; k < 3; ++k) {
		/* Edge k joins corners k+1 and k+2; n is its unit normal pointing away from corner k. */
		const double* a = P[(k + 1) % 3];
		const double* b = P[(k + 2) % 3];
		double tu = b[0] - a[0], tv = b[1] - a[1];
		double len = sqrt(tu * tu + tv * tv);
		double nu = tv / len, nv = -tu / len;
		if (nu * (a[0] - P[k][0]) + nv * (a[1] - P[k][1]) < 0.0) nu = -nu, nv = -nv;
		if (!in->has_flap[k]) {
			m[k][0] = wu * nu * nu;
			m[k][1] = wv * nv * nv;
			m[k][2] = 2.0 * wt * nu * nv;
			continue;
		}
		/* The neighbour unfolded into this triangle's uv across the edge (on a seam its own uv
		 * may be placed and turned differently): the flap's offset along and off the edge. */
		const double* a2 = in->flap_uv[k][0];
		const double* b2 = in->flap_uv[k][1];
		const double* q2 = in->flap_uv[k][2];
		double t2u = b2[0] - a2[0], t2v = b2[1] - a2[1];
		double l2 = t2u * t2u + t2v * t2v;
		double qu = q2[0] - a2[0], qv = q2[1] - a2[1];
		double along = (qu * t2u + qv * t2v) / l2;
		double off = fabs(t2u * qv - t2v * qu) / sqrt(l2) * (len / sqrt(l2));
		double q[2] = {a[0] + along * tu + off * nu, a[1] + along * tv + off * nv};
		double h[3][2];
		if (!bary_gradients(a, b, q, h)) return false;
		/* d_k = (G' - G) n: G = sum_m x_m grad(phi_m)^T. Nodes: corners 0..2, flap of edge k is 3+k. */
		for (int mm = 0; mm < 3; ++mm) d[k][mm] -= g[mm][0] * nu + g[mm][1] * nv;
		d[k][(k + 1) % 3] += h[0][0] * nu + h[0][1] * nv;
		d[k][(k + 2) % 3] += h[1][0] * nu + h[1][1] * nv;
		d[k][3 + k] += h[2][0] * nu + h[2][1] * nv;
		/* Row k: the jump d_k that each quadratic field q_c (Hessian component c = uu, vv, uv)
		 * produces through the same weights, so that K is exact for every quadratic field. The
		 * linear interpolants' gradients are not the field's gradient at the centroids, so
		 * this cannot be written as n^T H (c' - c). Coordinates about the centroid. */
		const double* node[6] = {P[0], P[1], P[2], NULL, NULL, NULL};
		node[3 + k] = q;
		for (int c = 0; c < 3; ++c) m[k][c] = 0.0;
		for (int mm = 0; mm < 6; ++mm) {
			if (!node[mm] || d[k][mm] == 0.0) continue;
			double pu = node[mm][0] - cu, pv = node[mm][1] - cv;
			m[k][0] += d[k][mm] * 0.5 * pu * pu;
			m[k][1] += d[k][mm] * 0.5 * pv * pv;
			m[k][2] += d[k][mm] * pu * pv;
		}
	}
	if (!solve3(m, d, 6)) return false;
	memcpy(alpha, d, sizeof d);
	return true;
}

void bend_tensor_matrix(const double alpha[3][6], double area, double c_uu, double c_vv, double q[6][6])
{
	const double c_uv = sqrt(c_uu * c_vv);
	for (int i = 0; i < 6; ++i)
		for (int j = 0; j < 6; ++j)
			q[i][j] = area * (c_uu * alpha[0][i] * alpha[0][j] + c_vv * alpha[1][i] * alpha[1][j] +
					  2.0 * c_uv * alpha[2][i] * alpha[2][j]);
}

double bend_tensor_energy(const double q[6][6], const vec3 x[6])
{
	double e = 0.0;
	for (int i = 0; i < 6; ++i)
		for (int j = 0; j < 6; ++j) e += q[i][j] * v3_dot(x[i], x[j]);
	return 0.5 * e;
}
