/* Curvature-tensor bending (docs/bending.md): a per-triangle estimate of the Hessian of the
 * position field and the orthotropic plate energy
 *     E_T = A_T/2 (B_uu |x_uu|^2 + B_vv |x_vv|^2 + 2 sqrt(B_uu B_vv) |x_uv|^2).
 * The estimate is a rotation-free Morley triangle: the curvature is the boundary integral of the
 * slopes, (1/A) sum_k |e_k| (theta_k - G n_k) n_k n_k^T, with the normal slope theta_k at each
 * edge's midpoint the average of the quadratics fitted to the two triangles beside it (each from
 * the jumps of the deformation gradient, eq. 9's w_u, w_v, across its three edges). One slope
 * per edge makes it conservative, the fits make it exact for quadratic fields.
 * For an isometric deformation of the flat (u, v) pattern, x_uu = k_uu n, x_vv = k_vv n and
 * x_uv = k_uv n exactly (the u and v lines stay geodesics), so the energy is the plate's with no
 * Poisson coupling, and it is quadratic in x: a constant Hessian, as in Bergou et al.'s quadratic
 * isometric bending (2006), but with warp and weft stiffness apart and on any triangulation. */
#include "bend_tensor.h"

#include <math.h>
#include <stdlib.h>
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

bool bend_tensor_fit_make(const bend_tensor_input* in, double c_uu, double c_vv, bend_tensor_fit* out)
{
	const double(*P)[2] = in->uv;
	double g[3][2];
	memset(out, 0, sizeof *out);
	if (!bary_gradients(P[0], P[1], P[2], g)) return false;
	out->area = 0.5 * fabs((P[1][0] - P[0][0]) * (P[2][1] - P[0][1]) - (P[2][0] - P[0][0]) * (P[1][1] - P[0][1]));
	const double cu = (P[0][0] + P[1][0] + P[2][0]) / 3.0, cv = (P[0][1] + P[1][1] + P[2][1]) / 3.0;
	/* Free edges: the plate's natural condition M_nn = 0, with M = diag-weighted curvature. */
	double cmax = fmax(c_uu, c_vv);
	double wu = cmax > 0.0 ? c_uu / cmax : 1.0, wv = cmax > 0.0 ? c_vv / cmax : 1.0, wt = sqrt(wu * wv);

	double m[3][3], d[3][6], n[3][2];
	memset(d, 0, sizeof d);
	for (int k = 0; k < 3; ++k) {
		/* Edge k joins corners k+1 and k+2; n is its unit normal pointing away from corner k. */
		const double* a = P[(k + 1) % 3];
		const double* b = P[(k + 2) % 3];
		double tu = b[0] - a[0], tv = b[1] - a[1];
		double len = sqrt(tu * tu + tv * tv);
		double nu = tv / len, nv = -tu / len;
		if (nu * (a[0] - P[k][0]) + nv * (a[1] - P[k][1]) < 0.0) nu = -nu, nv = -nv;
		n[k][0] = nu;
		n[k][1] = nv;
		out->weight[k][0] = len / out->area * nu * nu;
		out->weight[k][1] = len / out->area * nv * nv;
		out->weight[k][2] = len / out->area * nu * nv;
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
		 * produces through the same weights, so that the fit is exact for every quadratic
		 * field. The linear interpolants' gradients are not the field's gradient at the
		 * centroids, so this cannot be written as n^T H (c' - c). Coordinates about the centroid. */
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
	memcpy(out->jump, d, sizeof d);
	if (!solve3(m, d, 6)) return false;
	memcpy(out->alpha, d, sizeof d);
	/* The fitted quadratic is the linear interpolant plus 1/2 y^T H y - I(1/2 y^T H y) (y about
	 * the centroid; the bracket vanishes at the corners), so its gradient at y exceeds the
	 * interpolant's by H y - sum_m 1/2 (Y_m^T H Y_m) grad(phi_m): at edge k's midpoint, along
	 * n_k, a linear function of H, i.e. of alpha. */
	double suu[2] = {0, 0}, svv[2] = {0, 0}, suv[2] = {0, 0};
	for (int mm = 0; mm < 3; ++mm) {
		double yu = P[mm][0] - cu, yv = P[mm][1] - cv;
		for (int r = 0; r < 2; ++r) {
			suu[r] += 0.5 * yu * yu * g[mm][r];
			svv[r] += 0.5 * yv * yv * g[mm][r];
			suv[r] += yu * yv * g[mm][r];
		}
	}
	for (int k = 0; k < 3; ++k) {
		double yu = 0.5 * (P[(k + 1) % 3][0] + P[(k + 2) % 3][0]) - cu;
		double yv = 0.5 * (P[(k + 1) % 3][1] + P[(k + 2) % 3][1]) - cv;
		/* d/du picks H_uu y_u + H_uv y_v, d/dv picks H_uv y_u + H_vv y_v. */
		double e_uu = n[k][0] * (yu - suu[0]) + n[k][1] * (-suu[1]);
		double e_vv = n[k][0] * (-svv[0]) + n[k][1] * (yv - svv[1]);
		double e_uv = n[k][0] * (yv - suv[0]) + n[k][1] * (yu - suv[1]);
		for (int mm = 0; mm < 6; ++mm)
			out->eta[k][mm] = e_uu * out->alpha[0][mm] + e_vv * out->alpha[1][mm] + e_uv * out->alpha[2][mm];
	}
	return true;
}

void bend_tensor_morley(const bend_tensor_fit* own, const bend_tensor_fit* const nb[3], const int nb_edge[3],
			const int nb_slot[3][6], double alpha[3][BEND_TENSOR_NODES])
{
	/* theta_k - G n_k: for a free edge the own fit's eta; across an edge the mean of the own fit's
	 * slope and the neighbour's (whose outward normal is -n_k), i.e.
	 * 1/2 (jump_k + eta_k - eta'_k'), since n_k . (G' - G) is the jump. */
	memset(alpha, 0, 3 * BEND_TENSOR_NODES * sizeof(double));
	for (int k = 0; k < 3; ++k) {
		const double* w = own->weight[k];
		const double s = nb[k] ? 0.5 : 1.0;
		for (int mm = 0; mm < 6; ++mm) {
			double own_part = s * (own->eta[k][mm] + own->jump[k][mm]);
			for (int c = 0; c < 3; ++c) alpha[c][mm] += w[c] * own_part;
		}
		if (!nb[k]) continue;
		for (int mm = 0; mm < 6; ++mm) {
			double nb_part = -0.5 * nb[k]->eta[nb_edge[k]][mm];
			for (int c = 0; c < 3; ++c) alpha[c][nb_slot[k][mm]] += w[c] * nb_part;
		}
	}
}

void bend_tensor_matrix_row(const double alpha[3][BEND_TENSOR_NODES], double area, double c_uu, double c_vv, int i,
			    double row[BEND_TENSOR_NODES])
{
	const double c_uv = sqrt(c_uu * c_vv);
	for (int j = 0; j < BEND_TENSOR_NODES; ++j)
		row[j] = area * (c_uu * alpha[0][i] * alpha[0][j] + c_vv * alpha[1][i] * alpha[1][j] + 2.0 * c_uv * alpha[2][i] * alpha[2][j]);
}

void bend_tensor_matrix(const double alpha[3][BEND_TENSOR_NODES], double area, double c_uu, double c_vv,
			double q[BEND_TENSOR_NODES][BEND_TENSOR_NODES])
{
	for (int i = 0; i < BEND_TENSOR_NODES; ++i) bend_tensor_matrix_row(alpha, area, c_uu, c_vv, i, q[i]);
}

/* One row of Q and D: the columns of the row's elements, each entry summed over the elements in
 * element order; returns the column count. pos[] is -1 for every column on entry and on return. */
static int32_t build_row(const bend_tensor_elem* els, int32_t i, const int32_t* inc_start, const int32_t* inc,
			 int32_t* pos, int32_t* cols, double* k, double* d)
{
	enum { NN = BEND_TENSOR_NODES };
	int32_t count = 0;
	for (int32_t a = inc_start[i]; a < inc_start[i + 1]; ++a) {
		const bend_tensor_elem* el = &els[inc[a] / NN];
		const int si = inc[a] % NN;
		double qk[NN], qd[NN];
		if (k) {
			bend_tensor_matrix_row(el->alpha, el->area, el->c_uu, el->c_vv, si, qk);
			bend_tensor_matrix_row(el->alpha, el->area, el->damping, el->damping, si, qd);
		}
		for (int j = 0; j < NN; ++j) {
			if (!bend_tensor_node_used(el, j)) continue;
			const int32_t col = el->v[j];
			if (pos[col] < 0) {
				pos[col] = count;
				cols[count] = col;
				if (k) k[count] = d[count] = 0.0;
				++count;
			}
			if (k) {
				k[pos[col]] += qk[j];
				d[pos[col]] += qd[j];
			}
		}
	}
	/* Columns ascending (the order the forces are summed in); insertion sort, rows are short. */
	for (int32_t a = 0; a < count; ++a) pos[cols[a]] = -1;
	for (int32_t a = 1; a < count; ++a) {
		const int32_t c = cols[a];
		const double kk = k ? k[a] : 0.0, dd = k ? d[a] : 0.0;
		int32_t b = a - 1;
		for (; b >= 0 && cols[b] > c; --b) {
			cols[b + 1] = cols[b];
			if (k) k[b + 1] = k[b], d[b + 1] = d[b];
		}
		cols[b + 1] = c;
		if (k) k[b + 1] = kk, d[b + 1] = dd;
	}
	return count;
}

bool bend_tensor_rows_build(const bend_tensor_elem* els, int32_t count, int32_t n, int32_t** start, int32_t** col,
			    double** k, double** d)
{
	enum { NN = BEND_TENSOR_NODES };
	*start = calloc((size_t)n + 1, sizeof **start);
	if (!*start) return false;
	if (count == 0) return true;
	/* Each particle's (element, slot) pairs in element order, so that every entry is summed in
	 * the same order for any mesh numbering of the rows. Slots that repeat a vertex (a missing
	 * neighbour) carry zero weights and are left out: an element's used nodes are distinct. */
	int32_t* inc_start = calloc((size_t)n + 1, sizeof *inc_start);
	int32_t* pos = malloc((size_t)n * sizeof *pos);
	bool ok = inc_start && pos;
	for (int32_t e = 0; ok && e < count; ++e)
		for (int j = 0; j < NN; ++j)
			if (bend_tensor_node_used(&els[e], j)) inc_start[els[e].v[j] + 1]++;
	int32_t longest = 0;
	for (int32_t i = 0; ok && i < n; ++i) {
		longest = inc_start[i + 1] > longest ? inc_start[i + 1] : longest;
		inc_start[i + 1] += inc_start[i];
	}
	int32_t* inc = ok ? malloc((size_t)(inc_start[n] > 0 ? inc_start[n] : 1) * sizeof *inc) : NULL;
	int32_t* cursor = ok ? malloc((size_t)n * sizeof *cursor) : NULL;
	const size_t row_max = (size_t)longest * NN + 1;
	int32_t* cols = malloc(row_max * sizeof *cols);
	double* rk = malloc(row_max * sizeof *rk);
	double* rd = malloc(row_max * sizeof *rd);
	ok = ok && inc && cursor && cols && rk && rd;
	int32_t* s = *start;
	if (ok) {
		memcpy(cursor, inc_start, (size_t)n * sizeof *cursor);
		for (int32_t e = 0; e < count; ++e)
			for (int j = 0; j < NN; ++j)
				if (bend_tensor_node_used(&els[e], j)) inc[cursor[els[e].v[j]]++] = e * NN + j;
		for (int32_t i = 0; i < n; ++i) pos[i] = -1;
		for (int32_t i = 0; i < n; ++i) s[i + 1] = s[i] + build_row(els, i, inc_start, inc, pos, cols, NULL, NULL);
		const size_t nnz = (size_t)s[n];
		*col = malloc((nnz ? nnz : 1) * sizeof **col);
		*k = malloc((nnz ? nnz : 1) * sizeof **k);
		*d = malloc((nnz ? nnz : 1) * sizeof **d);
		ok = *col && *k && *d;
	}
	for (int32_t i = 0; ok && i < n; ++i)
		build_row(els, i, inc_start, inc, pos, &(*col)[s[i]], &(*k)[s[i]], &(*d)[s[i]]);
	free(inc_start);
	free(pos);
	free(inc);
	free(cursor);
	free(cols);
	free(rk);
	free(rd);
	return ok;
}

double bend_tensor_energy(const bend_tensor_elem* els, int32_t count, const vec3* x)
{
	/* From the elements, so that it also holds before the first step sums their matrices. For a
	 * q whose rows sum to zero, x^T q x = -1/2 sum q_ij |x_i - x_j|^2 (translation-exact). */
	double e = 0.0;
	for (int32_t k = 0; k < count; ++k) {
		const bend_tensor_elem* el = &els[k];
		double q[BEND_TENSOR_NODES][BEND_TENSOR_NODES];
		bend_tensor_matrix(el->alpha, el->area, el->c_uu, el->c_vv, q);
		for (int i = 0; i < BEND_TENSOR_NODES; ++i)
			for (int j = i + 1; j < BEND_TENSOR_NODES; ++j) e += q[i][j] * v3_len2(v3_sub(x[el->v[i]], x[el->v[j]]));
	}
	return -0.5 * e;
}

double bend_tensor_rows_energy(int32_t n, const int32_t* start, const int32_t* col, const double* k, const vec3* x)
{
	/* The symmetric rows count each pair twice: -1/2 sum_{i<j} becomes -1/4 sum_{i,j}. Each row's
	 * sum, then the rows' in order: the explicit step forms it with the row's force, two rows at a
	 * time (step/bend_tensor_assemble.c, bend_tensor_energy_force), where one running sum over all
	 * entries was a chain of dependent additions as long as the matrix. */
	double e = 0.0;
	for (int32_t i = 0; i < n; ++i) {
		double row = 0.0;
		for (int32_t s = start[i]; s < start[i + 1]; ++s) row += k[s] * v3_len2(v3_sub(x[i], x[col[s]]));
		e += row;
	}
	return -0.25 * e;
}
