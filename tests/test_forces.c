/* Tests of the force layer (sec. 4): each condition's gradient and Hessian against central finite
 * differences, the eq. 7/8/11/12 assembly (including exactly which damping term is dropped), the
 * definite Jacobian rule, momentum conservation, bend angle conventions, drag and user springs. */
#include "test.h"

#include "forces/forces.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------------
 * Deterministic random numbers (splitmix64): every test seeds its own stream, so results do not
 * depend on which tests ran before. */
static uint64_t rng_state;

static void rng_seed(uint64_t seed) { rng_state = seed; }

static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static double rng_uniform(double lo, double hi) { return lo + (hi - lo) * (double)(rng_next() >> 11) * 0x1.0p-53; }

static vec3 rng_vec3(double lo, double hi) { return v3(rng_uniform(lo, hi), rng_uniform(lo, hi), rng_uniform(lo, hi)); }

/* A uniformly random rotation, from a random unit quaternion. */
static mat3 rng_rotation(void)
{
	double q[4];
	for (;;) {
		double s = 0.0;
		for (int i = 0; i < 4; ++i) {
			q[i] = rng_uniform(-1.0, 1.0);
			s += q[i] * q[i];
		}
		if (s > 0.01 && s <= 1.0) {
			s = 1.0 / sqrt(s);
			for (int i = 0; i < 4; ++i) q[i] *= s;
			break;
		}
	}
	double w = q[0], x = q[1], y = q[2], z = q[3];
	mat3 r = {{{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
		   {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
		   {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}}};
	return r;
}

static void v3_set(vec3* a, int i, double s)
{
	if (i == 0)
		a->x = s;
	else if (i == 1)
		a->y = s;
	else
		a->z = s;
}

static double m3_maxabs(mat3 a)
{
	double s = 0.0;
	for (int r = 0; r < 3; ++r)
		for (int c = 0; c < 3; ++c) s = fmax(s, fabs(a.m[r][c]));
	return s;
}

static double v3_maxabs(vec3 a) { return fmax(fabs(a.x), fmax(fabs(a.y), fabs(a.z))); }

/* ---------------------------------------------------------------------------------------------
 * The conditions under test, behind one evaluator so that every generic check runs on each. */
typedef enum cond_kind { KIND_STRETCH, KIND_SHEAR, KIND_BEND } cond_kind;

typedef struct cond_setup {
	cond_kind kind;
	tri_rest rest;
	double bu, bv;
} cond_setup;

static void eval_cond(const cond_setup* s, const vec3* x, condition* c)
{
	switch (s->kind) {
	case KIND_STRETCH: stretch_condition(&s->rest, x, s->bu, s->bv, true, c); break;
	case KIND_SHEAR: shear_condition(&s->rest, x, true, c); break;
	case KIND_BEND: bend_condition(x, true, c); break;
	}
}

static int kind_nodes(cond_kind k) { return k == KIND_BEND ? 4 : 3; }

/* A uv triangle with no angle below about 15 degrees, edges about `size`. */
static void random_rest(tri_rest* r, double size)
{
	for (;;) {
		double uv[3][2];
		for (int i = 0; i < 3; ++i) {
			uv[i][0] = rng_uniform(-size, size);
			uv[i][1] = rng_uniform(-size, size);
		}
		double du1 = uv[1][0] - uv[0][0], dv1 = uv[1][1] - uv[0][1];
		double du2 = uv[2][0] - uv[0][0], dv2 = uv[2][1] - uv[0][1];
		double det = du1 * dv2 - du2 * dv1;
		double l1 = du1 * du1 + dv1 * dv1, l2 = du2 * du2 + dv2 * dv2;
		double l3 = (du2 - du1) * (du2 - du1) + (dv2 - dv1) * (dv2 - dv1);
		double lmax = fmax(l1, fmax(l2, l3));
		if (fabs(det) < 0.25 * lmax || lmax < 0.25 * size * size) continue;
		if (tri_rest_init(r, uv[0], uv[1], uv[2])) return;
	}
}

/* World positions of a rest triangle under a random rigid motion of the deformation gradient
 * F = [su t0, sv t1] (t0, t1 unit, about `skew` off perpendicular), plus a little noise so that
 * w_u, w_v are not exactly the constructed ones. su, sv < b compress, > b stretch. */
static void deform(const tri_rest* r, double su, double sv, double skew, double noise, vec3 x[3])
{
	/* Recover corner uv (up to a translation) from dinv: D = dinv^-1. */
	double det = r->dinv[0][0] * r->dinv[1][1] - r->dinv[0][1] * r->dinv[1][0];
	double du1 = r->dinv[1][1] / det, du2 = -r->dinv[0][1] / det;
	double dv1 = -r->dinv[1][0] / det, dv2 = r->dinv[0][0] / det;
	mat3 rot = rng_rotation();
	double ang = rng_uniform(-skew, skew);
	vec3 t0 = m3_mulv(rot, v3(1.0, 0.0, 0.0));
	vec3 t1 = m3_mulv(rot, v3(sin(ang), cos(ang), 0.0));
	vec3 o = rng_vec3(-2.0, 2.0);
	double uv[3][2] = {{0.0, 0.0}, {du1, dv1}, {du2, dv2}};
	for (int i = 0; i < 3; ++i) {
		x[i] = v3_add(o, v3_add(v3_scale(t0, su * uv[i][0]), v3_scale(t1, sv * uv[i][1])));
		x[i] = v3_add(x[i], rng_vec3(-noise, noise));
	}
}

/* A hinge with dihedral angle theta (this file's convention: the x3 wing rotated by theta about
 * e from the flat position, positive away from n1), then moved rigidly at random. */
static void make_hinge(double theta, double len, double p, double h1, double q, double h2, const mat3* rot, vec3 o,
		       vec3 x[4])
{
	vec3 loc[4] = {v3(0.0, 0.0, 0.0), v3(len, 0.0, 0.0), v3(p, h1, 0.0), v3(q, -h2 * cos(theta), -h2 * sin(theta))};
	for (int i = 0; i < 4; ++i) x[i] = rot ? v3_add(m3_mulv(*rot, loc[i]), o) : loc[i];
}

static void random_hinge(double theta, vec3 x[4])
{
	double len = rng_uniform(0.5, 1.5);
	double p = rng_uniform(-0.3, 1.3) * len, q = rng_uniform(-0.3, 1.3) * len;
	double h1 = rng_uniform(0.3, 1.2), h2 = rng_uniform(0.3, 1.2);
	mat3 rot = rng_rotation();
	make_hinge(theta, len, p, h1, q, h2, &rot, rng_vec3(-2.0, 2.0), x);
}

/* ---------------------------------------------------------------------------------------------
 * Generic checks. */

/* grad against central differences of C, hess against central differences of grad. Errors are
 * measured against the largest entry of grad (of hess): the blocks' natural scale. */
static void check_cond_derivatives(const cond_setup* s, const vec3* x0, double h, double rel)
{
	condition c, cp, cm;
	eval_cond(s, x0, &c);
	const int n = c.n, m = c.m;
	CHECK(n == kind_nodes(s->kind));
	double gscale = 0.0, hscale = 0.0;
	for (int a = 0; a < m; ++a)
		for (int i = 0; i < n; ++i) {
			gscale = fmax(gscale, v3_maxabs(c.grad[a][i]));
			for (int j = 0; j < n; ++j) hscale = fmax(hscale, m3_maxabs(c.hess[a][i][j]));
		}
	CHECK(gscale > 0.0 && hscale > 0.0);

	double gerr = 0.0, herr = 0.0;
	vec3 x[COND_MAX_NODES];
	for (int j = 0; j < n; ++j) {
		for (int d = 0; d < 3; ++d) {
			for (int i = 0; i < n; ++i) x[i] = x0[i];
			const double xj = v3_get(x0[j], d);
			v3_set(&x[j], d, xj + h);
			eval_cond(s, x, &cp);
			v3_set(&x[j], d, xj - h);
			eval_cond(s, x, &cm);
			for (int a = 0; a < m; ++a) {
				double fd = (cp.c[a] - cm.c[a]) / (2.0 * h);
				gerr = fmax(gerr, fabs(fd - v3_get(c.grad[a][j], d)));
				for (int i = 0; i < n; ++i)
					for (int r = 0; r < 3; ++r) {
						fd = (v3_get(cp.grad[a][i], r) - v3_get(cm.grad[a][i], r)) / (2.0 * h);
						herr = fmax(herr, fabs(fd - c.hess[a][i][j].m[r][d]));
					}
			}
		}
	}
	CHECK_NEAR(gerr, 0.0, rel * gscale);
	CHECK_NEAR(herr, 0.0, rel * hscale);
}

static void terms_of(const cond_setup* s, const vec3* x, double k, double kd, const vec3* v, jacobian_mode mode,
		     element_terms* t)
{
	condition c;
	eval_cond(s, x, &c);
	element_terms_clear(t, c.n);
	condition_terms(&c, k, kd, v, mode, t);
}

static double energy_of(const cond_setup* s, const vec3* x, double k)
{
	condition c;
	eval_cond(s, x, &c);
	double e = 0.0;
	for (int a = 0; a < c.m; ++a) e += 0.5 * k * c.c[a] * c.c[a];
	return e;
}

static double blocks_maxabs(const mat3 b[COND_MAX_NODES][COND_MAX_NODES], int n)
{
	double s = 0.0;
	for (int i = 0; i < n; ++i)
		for (int j = 0; j < n; ++j) s = fmax(s, m3_maxabs(b[i][j]));
	return s;
}

/* Block (i,j) is the transpose of block (j,i); the assembly keeps this exact. */
static void check_symmetric(const mat3 b[COND_MAX_NODES][COND_MAX_NODES], int n)
{
	double err = 0.0;
	for (int i = 0; i < n; ++i)
		for (int j = 0; j < n; ++j) err = fmax(err, m3_maxabs(m3_sub(b[i][j], m3_transpose(b[j][i]))));
	CHECK(err == 0.0);
}

/* The eq. 7/8/11/12 assembly at (x0, v) against finite differences, term by term. */
static void check_terms(const cond_setup* s, const vec3* x0, const vec3* v, double k, double kd, double h)
{
	condition c;
	eval_cond(s, x0, &c);
	const int n = c.n;
	element_terms ts, td, tb;
	terms_of(s, x0, k, 0.0, v, JACOBIAN_EXACT, &ts);
	terms_of(s, x0, 0.0, kd, v, JACOBIAN_EXACT, &td);
	terms_of(s, x0, k, kd, v, JACOBIAN_EXACT, &tb);
	CHECK(ts.n == n && td.n == n);

	double fscale = 0.0, dscale = 0.0;
	for (int i = 0; i < n; ++i) {
		fscale = fmax(fscale, v3_maxabs(ts.f[i]));
		dscale = fmax(dscale, v3_maxabs(td.f[i]));
	}
	const double kscale = blocks_maxabs(ts.dfdx, n);
	CHECK(dscale > 0.0 && kscale > 0.0);

	/* f = -dE/dx (eq. 7) and df/dx = FD of f (eq. 8). */
	double ferr = 0.0, kerr = 0.0;
	vec3 x[COND_MAX_NODES];
	element_terms tp, tm;
	for (int j = 0; j < n; ++j)
		for (int d = 0; d < 3; ++d) {
			for (int i = 0; i < n; ++i) x[i] = x0[i];
			const double xj = v3_get(x0[j], d);
			v3_set(&x[j], d, xj + h);
			const double ep = energy_of(s, x, k);
			terms_of(s, x, k, 0.0, v, JACOBIAN_EXACT, &tp);
			v3_set(&x[j], d, xj - h);
			const double em = energy_of(s, x, k);
			terms_of(s, x, k, 0.0, v, JACOBIAN_EXACT, &tm);
			ferr = fmax(ferr, fabs(-(ep - em) / (2.0 * h) - v3_get(ts.f[j], d)));
			for (int i = 0; i < n; ++i)
				for (int r = 0; r < 3; ++r) {
					double fd = (v3_get(tp.f[i], r) - v3_get(tm.f[i], r)) / (2.0 * h);
					kerr = fmax(kerr, fabs(fd - ts.dfdx[i][j].m[r][d]));
				}
		}
	/* At a flat hinge f is zero and only the differences' truncation error, about
	 * h^2 |E'''| / 6 with E''' ~ 3 k dC d2C, is left to compare. */
	double gmax = 0.0, hmax = 0.0;
	for (int a = 0; a < c.m; ++a)
		for (int i = 0; i < n; ++i) {
			gmax = fmax(gmax, v3_maxabs(c.grad[a][i]));
			for (int j = 0; j < n; ++j) hmax = fmax(hmax, m3_maxabs(c.hess[a][i][j]));
		}
	CHECK_NEAR(ferr, 0.0, 1e-6 * fscale + h * h * k * gmax * hmax);
	CHECK_NEAR(kerr, 0.0, 1e-6 * kscale);

	/* Damping force (eq. 11) with Cdot measured independently, as the rate of C along v. */
	const double eps = 1e-6;
	condition cp, cm;
	for (int i = 0; i < n; ++i) x[i] = v3_madd(x0[i], eps, v[i]);
	eval_cond(s, x, &cp);
	for (int i = 0; i < n; ++i) x[i] = v3_madd(x0[i], -eps, v[i]);
	eval_cond(s, x, &cm);
	double derr = 0.0;
	for (int i = 0; i < n; ++i) {
		vec3 d = v3_zero();
		for (int a = 0; a < c.m; ++a) d = v3_madd(d, -kd * (cp.c[a] - cm.c[a]) / (2.0 * eps), c.grad[a][i]);
		derr = fmax(derr, v3_maxabs(v3_sub(d, td.f[i])));
	}
	CHECK_NEAR(derr, 0.0, 1e-6 * dscale);

	/* d is linear in v, so its v-derivative is exact with any step. */
	const double vscale = blocks_maxabs(td.dfdv, n);
	double verr = 0.0;
	vec3 vv[COND_MAX_NODES];
	for (int j = 0; j < n; ++j)
		for (int e = 0; e < 3; ++e) {
			for (int i = 0; i < n; ++i) vv[i] = v[i];
			const double vj = v3_get(v[j], e);
			v3_set(&vv[j], e, vj + 1.0);
			terms_of(s, x0, 0.0, kd, vv, JACOBIAN_EXACT, &tp);
			v3_set(&vv[j], e, vj - 1.0);
			terms_of(s, x0, 0.0, kd, vv, JACOBIAN_EXACT, &tm);
			for (int i = 0; i < n; ++i)
				for (int r = 0; r < 3; ++r) {
					double fd = (v3_get(tp.f[i], r) - v3_get(tm.f[i], r)) / 2.0;
					verr = fmax(verr, fabs(fd - td.dfdv[i][j].m[r][e]));
				}
		}
	CHECK(vscale > 0.0);
	CHECK_NEAR(verr, 0.0, 1e-12 * vscale);

	/* The full x-derivative of d is our damping df/dx plus exactly the term eq. 12 drops,
	 * -kd dC/dx_i (dCdot/dx_j)^T with dCdot_a/dx_j = sum_m hess[a][m][j]^T v_m. */
	mat3 full[COND_MAX_NODES][COND_MAX_NODES];
	for (int i = 0; i < n; ++i)
		for (int j = 0; j < n; ++j) full[i][j] = td.dfdx[i][j];
	double dropscale = 0.0;
	for (int a = 0; a < c.m; ++a)
		for (int j = 0; j < n; ++j) {
			vec3 dcdot = v3_zero();
			for (int m = 0; m < n; ++m) dcdot = v3_add(dcdot, m3_mulv(m3_transpose(c.hess[a][m][j]), v[m]));
			for (int i = 0; i < n; ++i) {
				mat3 drop = m3_scale(m3_outer(c.grad[a][i], dcdot), -kd);
				dropscale = fmax(dropscale, m3_maxabs(drop));
				full[i][j] = m3_add(full[i][j], drop);
			}
		}
	const double fullscale = blocks_maxabs(full, n);
	/* The dropped term must matter here, or this check could not tell it apart. */
	CHECK(dropscale > 1e-2 * fullscale);
	double xerr = 0.0, keptdiff = 0.0;
	for (int j = 0; j < n; ++j)
		for (int d = 0; d < 3; ++d) {
			for (int i = 0; i < n; ++i) x[i] = x0[i];
			const double xj = v3_get(x0[j], d);
			v3_set(&x[j], d, xj + h);
			terms_of(s, x, 0.0, kd, v, JACOBIAN_EXACT, &tp);
			v3_set(&x[j], d, xj - h);
			terms_of(s, x, 0.0, kd, v, JACOBIAN_EXACT, &tm);
			for (int i = 0; i < n; ++i)
				for (int r = 0; r < 3; ++r) {
					double fd = (v3_get(tp.f[i], r) - v3_get(tm.f[i], r)) / (2.0 * h);
					xerr = fmax(xerr, fabs(fd - full[i][j].m[r][d]));
					keptdiff = fmax(keptdiff, fabs(fd - td.dfdx[i][j].m[r][d]));
				}
		}
	CHECK_NEAR(xerr, 0.0, 1e-6 * fullscale);
	CHECK(keptdiff > 1e-3 * fullscale);

	check_symmetric(tb.dfdx, n);
	check_symmetric(tb.dfdv, n);
}

/* Internal forces are invariant to rigid motions: no net force, no net torque, and the force
 * derivatives' block rows sum to zero (a translation changes nothing). */
static void check_momentum(const cond_setup* s, const vec3* x, const vec3* v, double k, double kd)
{
	element_terms t;
	terms_of(s, x, k, kd, v, JACOBIAN_EXACT, &t);
	const int n = t.n;
	vec3 fsum = v3_zero(), tsum = v3_zero();
	double fs = 0.0, ts = 0.0;
	for (int i = 0; i < n; ++i) {
		fsum = v3_add(fsum, t.f[i]);
		tsum = v3_add(tsum, v3_cross(x[i], t.f[i]));
		fs += v3_len(t.f[i]);
		ts += v3_len(x[i]) * v3_len(t.f[i]);
	}
	CHECK(fs > 0.0);
	CHECK_NEAR(v3_len(fsum), 0.0, 1e-13 * fs);
	CHECK_NEAR(v3_len(tsum), 0.0, 1e-13 * ts);
	const double kscale = blocks_maxabs(t.dfdx, n), vscale = blocks_maxabs(t.dfdv, n);
	double kerr = 0.0, verr = 0.0;
	for (int i = 0; i < n; ++i) {
		mat3 sk = m3_zero(), sv = m3_zero();
		for (int j = 0; j < n; ++j) {
			sk = m3_add(sk, t.dfdx[i][j]);
			sv = m3_add(sv, t.dfdv[i][j]);
		}
		kerr = fmax(kerr, m3_maxabs(sk));
		verr = fmax(verr, m3_maxabs(sv));
	}
	CHECK_NEAR(kerr, 0.0, 1e-12 * kscale);
	CHECK_NEAR(verr, 0.0, 1e-12 * vscale);
}

static void random_velocities(vec3* v, int n)
{
	for (int i = 0; i < n; ++i) v[i] = rng_vec3(-1.0, 1.0);
}

/* ---------------------------------------------------------------------------------------------
 * Triangle rest state. */

static void test_tri_rest(void)
{
	const double uv0[2] = {1.0, 2.0}, uv1[2] = {4.0, 2.0}, uv2[2] = {1.0, 4.0};
	tri_rest r;
	CHECK(tri_rest_init(&r, uv0, uv1, uv2));
	CHECK_NEAR(r.area, 3.0, 1e-15);
	/* [[3, 0], [0, 2]]^-1 */
	CHECK_NEAR(r.dinv[0][0], 1.0 / 3.0, 1e-15);
	CHECK_NEAR(r.dinv[0][1], 0.0, 1e-15);
	CHECK_NEAR(r.dinv[1][0], 0.0, 1e-15);
	CHECK_NEAR(r.dinv[1][1], 0.5, 1e-15);

	/* Opposite orientation in uv: still a positive area, and D dinv = I. */
	tri_rest q;
	CHECK(tri_rest_init(&q, uv0, uv2, uv1));
	CHECK_NEAR(q.area, 3.0, 1e-15);
	const double D[2][2] = {{0.0, 3.0}, {2.0, 0.0}};
	for (int i = 0; i < 2; ++i)
		for (int j = 0; j < 2; ++j)
			CHECK_NEAR(D[i][0] * q.dinv[0][j] + D[i][1] * q.dinv[1][j], i == j ? 1.0 : 0.0, 1e-15);

	/* Degenerate: collinear, coincident, nearly collinear, and non-finite corners. */
	const double c1[2] = {2.0, 2.0}, c2[2] = {3.0, 2.0};
	CHECK(!tri_rest_init(&q, uv0, c1, c2));
	CHECK(q.area == 0.0);
	CHECK(!tri_rest_init(&q, uv0, uv0, uv1));
	const double near[2] = {2.5, 2.0 + 1e-14};
	CHECK(!tri_rest_init(&q, uv0, uv1, near));
	const double tiny[3][2] = {{0.0, 0.0}, {1e-9, 0.0}, {0.0, 1e-9}};
	CHECK(tri_rest_init(&q, tiny[0], tiny[1], tiny[2])); /* scale-free: small is not degenerate */
	const double bad[2] = {NAN, 0.0}, inf[2] = {0.0, INFINITY};
	CHECK(!tri_rest_init(&q, bad, uv1, uv2));
	CHECK(!tri_rest_init(&q, uv0, inf, uv2));
}

/* An affine map x = o + F (u, v) has w_u, w_v = the columns of F exactly (eq. 9). */
static void test_stretch_w_affine(void)
{
	rng_seed(11);
	for (int trial = 0; trial < 20; ++trial) {
		const double uv[3][2] = {{rng_uniform(-1, 1), rng_uniform(-1, 1)},
					 {rng_uniform(-1, 1), rng_uniform(-1, 1)},
					 {rng_uniform(-1, 1), rng_uniform(-1, 1)}};
		tri_rest r;
		if (!tri_rest_init(&r, uv[0], uv[1], uv[2])) continue;
		const vec3 f0 = rng_vec3(-2, 2), f1 = rng_vec3(-2, 2), o = rng_vec3(-5, 5);
		vec3 x[3];
		for (int i = 0; i < 3; ++i) x[i] = v3_add(o, v3_add(v3_scale(f0, uv[i][0]), v3_scale(f1, uv[i][1])));
		vec3 wu, wv;
		stretch_w(&r, x, &wu, &wv);
		CHECK_NEAR(v3_len(v3_sub(wu, f0)), 0.0, 1e-9 * v3_len(f0));
		CHECK_NEAR(v3_len(v3_sub(wv, f1)), 0.0, 1e-9 * v3_len(f1));
		/* The weights give the same w, and sum to zero (translation invariance). */
		double cu[3], cv[3];
		tri_rest_weights(&r, cu, cv);
		vec3 su = v3_zero(), sv = v3_zero();
		for (int i = 0; i < 3; ++i) {
			su = v3_madd(su, cu[i], x[i]);
			sv = v3_madd(sv, cv[i], x[i]);
		}
		CHECK_NEAR(v3_len(v3_sub(su, wu)), 0.0, 1e-9 * v3_len(f0));
		CHECK_NEAR(v3_len(v3_sub(sv, wv)), 0.0, 1e-9 * v3_len(f1));
		CHECK_NEAR(cu[0] + cu[1] + cu[2], 0.0, 1e-12 * fabs(cu[1]) + 1e-300);
		CHECK_NEAR(cv[0] + cv[1] + cv[2], 0.0, 1e-12 * fabs(cv[1]) + 1e-300);

		/* Stretch and shear values for this known map. */
		condition c;
		stretch_condition(&r, x, 1.1, 0.9, true, &c);
		CHECK(c.m == 2 && c.n == 3 && c.hess_psd[0] && c.hess_psd[1]);
		CHECK_NEAR(c.c[0], r.area * (v3_len(f0) - 1.1), 1e-9);
		CHECK_NEAR(c.c[1], r.area * (v3_len(f1) - 0.9), 1e-9);
		shear_condition(&r, x, true, &c);
		CHECK(c.m == 1 && c.n == 3 && !c.hess_psd[0]);
		CHECK_NEAR(c.c[0], r.area * v3_dot(f0, f1), 1e-9);
	}
}

/* ---------------------------------------------------------------------------------------------
 * Stretch and shear derivatives. */

static void test_stretch_derivatives(void)
{
	rng_seed(21);
	/* (b_u, b_v, s_u, s_v): rest lengths and the constructed stretches, both sides of b. */
	const double cases[][4] = {
		{1.0, 1.0, 1.3, 1.2}, {1.0, 1.0, 0.6, 0.7}, {1.0, 1.0, 1.4, 0.5}, {1.2, 0.8, 1.0, 1.0},
		{0.7, 1.3, 0.5, 1.6}, {1.5, 1.5, 1.2, 0.9}, {0.9, 1.1, 0.3, 0.2}, {1.0, 1.0, 1.0, 1.0},
	};
	for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ++ci)
		for (int trial = 0; trial < 4; ++trial) {
			cond_setup s = {.kind = KIND_STRETCH, .bu = cases[ci][0], .bv = cases[ci][1]};
			random_rest(&s.rest, 1.0);
			vec3 x[3];
			deform(&s.rest, cases[ci][2], cases[ci][3], 0.4, 0.02, x);
			check_cond_derivatives(&s, x, 1e-6, 1e-6);
		}
}

static void test_stretch_zero_w(void)
{
	const double uv0[2] = {0, 0}, uv1[2] = {1, 0}, uv2[2] = {0, 1};
	tri_rest r;
	CHECK(tri_rest_init(&r, uv0, uv1, uv2));
	/* All corners at one point: w_u = w_v = 0, |w| not differentiable. */
	vec3 x[3] = {v3(1, 2, 3), v3(1, 2, 3), v3(1, 2, 3)};
	condition c;
	stretch_condition(&r, x, 1.0, 1.0, true, &c);
	CHECK_NEAR(c.c[0], -0.5, 1e-15);
	CHECK_NEAR(c.c[1], -0.5, 1e-15);
	double s = 0.0;
	bool finite = true;
	for (int a = 0; a < 2; ++a)
		for (int i = 0; i < 3; ++i) {
			s += v3_maxabs(c.grad[a][i]);
			finite = finite && v3_isfinite(c.grad[a][i]);
			for (int j = 0; j < 3; ++j) {
				s += m3_maxabs(c.hess[a][i][j]);
				finite = finite && isfinite(m3_maxabs(c.hess[a][i][j]));
			}
		}
	CHECK(finite);
	CHECK(s == 0.0);
	/* Only w_v vanishes: component u keeps its derivatives. */
	x[1] = v3(2, 2, 3);
	stretch_condition(&r, x, 1.0, 1.0, true, &c);
	CHECK(v3_len(c.grad[0][1]) > 0.0);
	CHECK(v3_len(c.grad[1][1]) == 0.0 && m3_maxabs(c.hess[1][2][2]) == 0.0);
}

static void test_shear_derivatives(void)
{
	rng_seed(31);
	for (int trial = 0; trial < 24; ++trial) {
		cond_setup s = {.kind = KIND_SHEAR};
		random_rest(&s.rest, rng_uniform(0.2, 2.0));
		vec3 x[3];
		deform(&s.rest, rng_uniform(0.5, 1.5), rng_uniform(0.5, 1.5), 0.8, 0.05, x);
		check_cond_derivatives(&s, x, 1e-6, 1e-6);
	}
}

/* ---------------------------------------------------------------------------------------------
 * Bend. */

static const double bend_angles[] = {0.0, 1e-3, -1e-3, 0.3, -0.7, 1.5707963267948966, -1.5707963267948966,
				     2.5, -2.2, 3.0915926535897933, -3.0915926535897933};
#define BEND_ANGLE_COUNT ((int)(sizeof bend_angles / sizeof bend_angles[0]))

static void test_bend_angle_values(void)
{
	rng_seed(41);
	double worst = 0.0;
	for (int k = 0; k < BEND_ANGLE_COUNT; ++k)
		for (int trial = 0; trial < 8; ++trial) {
			const double th = bend_angles[k];
			vec3 x[4];
			random_hinge(th, x);
			worst = fmax(worst, fabs(bend_angle(x) - th));
			condition c;
			bend_condition(x, true, &c);
			CHECK(c.m == 1 && c.n == 4 && !c.hess_psd[0]);
			CHECK_NEAR(c.c[0], th, 1e-12);
		}
	CHECK_NEAR(worst, 0.0, 1e-12);

	/* Exactly flat, no rotation: exactly zero. */
	vec3 x[4];
	make_hinge(0.0, 1.0, 0.4, 0.8, 0.6, 0.7, NULL, v3_zero(), x);
	CHECK(bend_angle(x) == 0.0);

	/* The sign convention spelled out: the x3 wing folded to the side n1 points away from
	 * (here n1 = +z, x3 below the plane) is positive, matching sin = (n1 x n2).e_hat. */
	vec3 y[4] = {v3(0, 0, 0), v3(1, 0, 0), v3(0.5, 1, 0), v3(0.5, -1, -1)};
	CHECK_NEAR(bend_angle(y), 0.7853981633974483, 1e-15);
}

static void test_bend_sign_and_invariance(void)
{
	rng_seed(42);
	for (int trial = 0; trial < 40; ++trial) {
		const double th = rng_uniform(0.01, 3.1);
		const double len = rng_uniform(0.5, 1.5), p = rng_uniform(-0.3, 1.3), q = rng_uniform(-0.3, 1.3);
		const double h1 = rng_uniform(0.3, 1.2), h2 = rng_uniform(0.3, 1.2);
		mat3 rot = rng_rotation();
		vec3 o = rng_vec3(-3, 3);
		vec3 x[4], xm[4];
		make_hinge(th, len, p, h1, q, h2, &rot, o, x);
		make_hinge(-th, len, p, h1, q, h2, &rot, o, xm);
		const double a = bend_angle(x);
		/* Folding the other way flips the sign and nothing else. */
		CHECK_NEAR(bend_angle(xm), -a, 1e-12);

		/* Rigid motions leave theta alone. */
		mat3 r2 = rng_rotation();
		vec3 t2 = rng_vec3(-10, 10), xr[4];
		for (int i = 0; i < 4; ++i) xr[i] = v3_add(m3_mulv(r2, x[i]), t2);
		CHECK_NEAR(bend_angle(xr), a, 1e-12);

		/* Only the hinge's vertex order matters, never a triangle's stored winding. Seen from
		 * the other end, (x1, x0, x3, x2) is the same hinge (n1, n2 swap, e flips): same
		 * theta. Reversing both triangles (swap x0, x1) or swapping the wings (swap x2, x3)
		 * mirrors the convention: exactly -theta, and the energy theta^2 with its forces
		 * are the same for all four orders. */
		const int perms[4][4] = {{0, 1, 2, 3}, {1, 0, 3, 2}, {1, 0, 2, 3}, {0, 1, 3, 2}};
		const double sign[4] = {1.0, 1.0, -1.0, -1.0};
		element_terms t0;
		const vec3 v[4] = {rng_vec3(-1, 1), rng_vec3(-1, 1), rng_vec3(-1, 1), rng_vec3(-1, 1)};
		cond_setup s = {.kind = KIND_BEND};
		terms_of(&s, x, 2.0, 0.5, v, JACOBIAN_EXACT, &t0);
		const double fscale = fmax(fmax(v3_len(t0.f[0]), v3_len(t0.f[1])), fmax(v3_len(t0.f[2]), v3_len(t0.f[3])));
		const double kscale = blocks_maxabs(t0.dfdx, 4);
		for (int pi = 1; pi < 4; ++pi) {
			vec3 xp[4], vp[4];
			for (int i = 0; i < 4; ++i) {
				xp[i] = x[perms[pi][i]];
				vp[i] = v[perms[pi][i]];
			}
			CHECK_NEAR(bend_angle(xp), sign[pi] * a, 1e-12);
			element_terms tp;
			terms_of(&s, xp, 2.0, 0.5, vp, JACOBIAN_EXACT, &tp);
			double ferr = 0.0, kerr = 0.0;
			for (int i = 0; i < 4; ++i) {
				const int gi = perms[pi][i];
				ferr = fmax(ferr, v3_len(v3_sub(tp.f[i], t0.f[gi])));
				for (int j = 0; j < 4; ++j) {
					const int gj = perms[pi][j];
					kerr = fmax(kerr, m3_maxabs(m3_sub(tp.dfdx[i][j], t0.dfdx[gi][gj])));
					kerr = fmax(kerr, m3_maxabs(m3_sub(tp.dfdv[i][j], t0.dfdv[gi][gj])));
				}
			}
			CHECK_NEAR(ferr, 0.0, 1e-10 * fscale);
			CHECK_NEAR(kerr, 0.0, 1e-10 * kscale);
		}
	}
}

static void test_bend_derivatives(void)
{
	rng_seed(43);
	for (int k = 0; k < BEND_ANGLE_COUNT; ++k)
		for (int trial = 0; trial < 6; ++trial) {
			cond_setup s = {.kind = KIND_BEND};
			vec3 x[4];
			random_hinge(bend_angles[k], x);
			check_cond_derivatives(&s, x, 1e-6, 1e-6);
		}
	/* Exactly flat and axis-aligned (Y is exactly 0). */
	cond_setup s = {.kind = KIND_BEND};
	vec3 x[4];
	make_hinge(0.0, 1.0, 0.4, 0.8, 0.6, 0.7, NULL, v3_zero(), x);
	check_cond_derivatives(&s, x, 1e-6, 1e-6);
	/* Random hinges of random shape, including obtuse wings beyond the edge's ends. */
	for (int trial = 0; trial < 30; ++trial) {
		for (int i = 0; i < 4; ++i) x[i] = rng_vec3(-1, 1);
		if (!(fabs(bend_angle(x)) < 3.0)) continue;
		check_cond_derivatives(&s, x, 1e-6, 1e-6);
	}
	/* Scale: a 1 cm hinge, step scaled with it. */
	random_hinge(0.9, x);
	for (int i = 0; i < 4; ++i) x[i] = v3_scale(x[i], 0.01);
	check_cond_derivatives(&s, x, 1e-8, 1e-6);
}

static void test_bend_degenerate(void)
{
	/* x2 on the edge's line: wing 1 has no normal. */
	vec3 x[4] = {v3(0, 0, 0), v3(1, 0, 0), v3(2, 0, 0), v3(0.5, -1, 0.2)};
	condition c;
	bend_condition(x, true, &c);
	CHECK(c.c[0] == 0.0);
	CHECK(bend_angle(x) == 0.0);
	double s = 0.0;
	for (int i = 0; i < 4; ++i) {
		s += v3_maxabs(c.grad[0][i]);
		for (int j = 0; j < 4; ++j) s += m3_maxabs(c.hess[0][i][j]);
	}
	CHECK(s == 0.0);
	/* Zero-length edge. */
	vec3 y[4] = {v3(0, 0, 0), v3(0, 0, 0), v3(0, 1, 0), v3(0, -1, 0.2)};
	bend_condition(y, true, &c);
	CHECK(c.c[0] == 0.0 && v3_len(c.grad[0][2]) == 0.0);
	/* Non-finite input: no NaN out. */
	y[3].x = NAN;
	bend_condition(y, true, &c);
	CHECK(c.c[0] == 0.0 && v3_isfinite(c.grad[0][0]));
}

/* ---------------------------------------------------------------------------------------------
 * The eq. 7/8/11/12 assembly and momentum, per condition. */

static void test_terms_stretch(void)
{
	rng_seed(51);
	const double cases[][4] = {{1.0, 1.0, 1.3, 1.2}, {1.0, 1.0, 0.6, 0.8}, {1.2, 0.8, 1.0, 1.0}, {0.8, 1.0, 1.5, 0.6}};
	for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ++ci)
		for (int trial = 0; trial < 3; ++trial) {
			cond_setup s = {.kind = KIND_STRETCH, .bu = cases[ci][0], .bv = cases[ci][1]};
			random_rest(&s.rest, 1.0);
			vec3 x[3], v[3];
			deform(&s.rest, cases[ci][2], cases[ci][3], 0.4, 0.02, x);
			random_velocities(v, 3);
			check_terms(&s, x, v, 3.0, 0.7, 1e-6);
		}
}

static void test_terms_shear(void)
{
	rng_seed(52);
	for (int trial = 0; trial < 12; ++trial) {
		cond_setup s = {.kind = KIND_SHEAR};
		random_rest(&s.rest, 1.0);
		vec3 x[3], v[3];
		deform(&s.rest, rng_uniform(0.6, 1.4), rng_uniform(0.6, 1.4), 0.8, 0.05, x);
		random_velocities(v, 3);
		check_terms(&s, x, v, 2.0, 0.4, 1e-6);
	}
}

static void test_terms_bend(void)
{
	rng_seed(53);
	for (int k = 0; k < BEND_ANGLE_COUNT; ++k)
		for (int trial = 0; trial < 2; ++trial) {
			cond_setup s = {.kind = KIND_BEND};
			vec3 x[4], v[4];
			random_hinge(bend_angles[k], x);
			random_velocities(v, 4);
			check_terms(&s, x, v, 1.5, 0.3, 1e-6);
		}
}

static void test_momentum(void)
{
	rng_seed(61);
	for (int trial = 0; trial < 20; ++trial) {
		vec3 x[4], v[4];
		random_velocities(v, 4);
		cond_setup s = {.kind = KIND_STRETCH, .bu = 1.1, .bv = 0.9};
		random_rest(&s.rest, 1.0);
		deform(&s.rest, rng_uniform(0.5, 1.5), rng_uniform(0.5, 1.5), 0.5, 0.05, x);
		check_momentum(&s, x, v, 5.0, 0.0);
		check_momentum(&s, x, v, 0.0, 0.8);
		check_momentum(&s, x, v, 5.0, 0.8);
		s.kind = KIND_SHEAR;
		check_momentum(&s, x, v, 5.0, 0.0);
		check_momentum(&s, x, v, 0.0, 0.8);
		s.kind = KIND_BEND;
		random_hinge(rng_uniform(-3.0, 3.0), x);
		check_momentum(&s, x, v, 5.0, 0.0);
		check_momentum(&s, x, v, 0.0, 0.8);
		check_momentum(&s, x, v, 5.0, 0.8);
	}
}

/* ---------------------------------------------------------------------------------------------
 * JACOBIAN_DEFINITE. */

/* Smallest eigenvalue of a symmetric matrix, by cyclic Jacobi rotations. */
static double min_eigenvalue(double a[][9], int n)
{
	for (int sweep = 0; sweep < 50; ++sweep) {
		double off = 0.0;
		for (int p = 0; p < n; ++p)
			for (int q = p + 1; q < n; ++q) off += a[p][q] * a[p][q];
		if (off < 1e-30) break;
		for (int p = 0; p < n; ++p)
			for (int q = p + 1; q < n; ++q) {
				if (a[p][q] == 0.0) continue;
				const double theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
				const double t = (theta >= 0.0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
				const double c = 1.0 / sqrt(t * t + 1.0), s = t * c;
				for (int k = 0; k < n; ++k) {
					const double akp = a[k][p], akq = a[k][q];
					a[k][p] = c * akp - s * akq;
					a[k][q] = s * akp + c * akq;
				}
				for (int k = 0; k < n; ++k) {
					const double apk = a[p][k], aqk = a[q][k];
					a[p][k] = c * apk - s * aqk;
					a[q][k] = s * apk + c * aqk;
				}
			}
	}
	double m = a[0][0];
	for (int i = 1; i < n; ++i) m = fmin(m, a[i][i]);
	return m;
}

static void neg_dfdx_dense(const element_terms* t, double a[9][9])
{
	for (int i = 0; i < 3; ++i)
		for (int j = 0; j < 3; ++j)
			for (int r = 0; r < 3; ++r)
				for (int c = 0; c < 3; ++c) a[3 * i + r][3 * j + c] = -t->dfdx[i][j].m[r][c];
}

static double quad_form(double a[9][9], const double* p)
{
	double s = 0.0;
	for (int i = 0; i < 9; ++i)
		for (int j = 0; j < 9; ++j) s += p[i] * a[i][j] * p[j];
	return s;
}

static void test_jacobian_definite(void)
{
	rng_seed(71);
	for (int trial = 0; trial < 20; ++trial) {
		cond_setup s = {.kind = KIND_STRETCH, .bu = 1.0, .bv = 1.0};
		random_rest(&s.rest, 1.0);
		vec3 x[3], v[3];
		deform(&s.rest, rng_uniform(0.5, 0.8), rng_uniform(0.5, 0.8), 0.3, 0.02, x);
		/* Still shrinking, so that Cdot < 0 too and the damping half of the rule is used. */
		vec3 ctr = v3_scale(v3_add(v3_add(x[0], x[1]), x[2]), 1.0 / 3.0);
		for (int i = 0; i < 3; ++i) v[i] = v3_add(v3_scale(v3_sub(x[i], ctr), -0.5), rng_vec3(-0.01, 0.01));
		condition c;
		eval_cond(&s, x, &c);
		CHECK(c.c[0] < 0.0 && c.c[1] < 0.0);
		double cdot[2] = {0.0, 0.0};
		for (int a = 0; a < 2; ++a)
			for (int i = 0; i < 3; ++i) cdot[a] += v3_dot(c.grad[a][i], v[i]);
		CHECK(cdot[0] < 0.0 && cdot[1] < 0.0);

		const double k = 10.0, kd = 2.0;
		element_terms te, td;
		terms_of(&s, x, k, kd, v, JACOBIAN_EXACT, &te);
		terms_of(&s, x, k, kd, v, JACOBIAN_DEFINITE, &td);
		double ae[9][9], ad[9][9];
		neg_dfdx_dense(&te, ae);
		neg_dfdx_dense(&td, ad);
		const double scale = blocks_maxabs(te.dfdx, 3);

		/* The buckling direction: out of plane along t = w_u x w_v, with the corners moving as
		 * the u weights. It is orthogonal to both gradients, so only C d2C sees it. */
		vec3 wu, wv;
		stretch_w(&s.rest, x, &wu, &wv);
		const vec3 nrm = v3_normalize(v3_cross(wu, wv));
		double cu[3], cv[3];
		tri_rest_weights(&s.rest, cu, cv);
		double p[9];
		for (int i = 0; i < 3; ++i) v3_store(v3_scale(nrm, cu[i]), p + 3 * i);
		CHECK(quad_form(ae, p) < -1e-3 * scale);
		CHECK(quad_form(ad, p) >= -1e-12 * scale);

		double worst = INFINITY;
		for (int sample = 0; sample < 200; ++sample) {
			double r[9], rr = 0.0;
			for (int i = 0; i < 9; ++i) {
				r[i] = rng_uniform(-1.0, 1.0);
				rr += r[i] * r[i];
			}
			worst = fmin(worst, quad_form(ad, r) / rr);
		}
		CHECK(worst >= -1e-12 * scale);

		CHECK(min_eigenvalue(ae, 9) < -1e-3 * scale);
		CHECK(min_eigenvalue(ad, 9) >= -1e-12 * scale);

		/* Forces and df/dv never change, only df/dx. */
		for (int i = 0; i < 3; ++i) {
			CHECK(v3_len(v3_sub(te.f[i], td.f[i])) == 0.0);
			for (int j = 0; j < 3; ++j) CHECK(m3_maxabs(m3_sub(te.dfdv[i][j], td.dfdv[i][j])) == 0.0);
		}
		check_symmetric(td.dfdx, 3);
	}

	/* Stretched and stretching: the rule does nothing. */
	cond_setup s = {.kind = KIND_STRETCH, .bu = 1.0, .bv = 1.0};
	random_rest(&s.rest, 1.0);
	vec3 x[3], v[3];
	deform(&s.rest, 1.3, 1.2, 0.3, 0.0, x);
	vec3 ctr = v3_scale(v3_add(v3_add(x[0], x[1]), x[2]), 1.0 / 3.0);
	for (int i = 0; i < 3; ++i) v[i] = v3_scale(v3_sub(x[i], ctr), 0.5);
	element_terms te, td;
	terms_of(&s, x, 10.0, 2.0, v, JACOBIAN_EXACT, &te);
	terms_of(&s, x, 10.0, 2.0, v, JACOBIAN_DEFINITE, &td);
	for (int i = 0; i < 3; ++i)
		for (int j = 0; j < 3; ++j) CHECK(m3_maxabs(m3_sub(te.dfdx[i][j], td.dfdx[i][j])) == 0.0);

	/* Shear and bend Hessians are indefinite: DEFINITE keeps only the Gauss-Newton part, i.e.
	 * exactly what EXACT gives for the same condition with its Hessian zeroed, while EXACT itself
	 * differs (the C d2C and Cdot d2C terms are there). */
	for (int kind = KIND_SHEAR; kind <= KIND_BEND; ++kind) {
		cond_setup q = {.kind = (cond_kind)kind};
		random_rest(&q.rest, 1.0);
		vec3 y[4], w[4];
		if (kind == KIND_SHEAR)
			deform(&q.rest, 0.7, 0.6, 0.8, 0.05, y);
		else
			random_hinge(-1.0, y);
		random_velocities(w, 4);
		condition c;
		eval_cond(&q, y, &c);
		element_terms tg;
		terms_of(&q, y, 10.0, 2.0, w, JACOBIAN_EXACT, &te);
		terms_of(&q, y, 10.0, 2.0, w, JACOBIAN_DEFINITE, &td);
		memset(c.hess, 0, sizeof c.hess);
		element_terms_clear(&tg, c.n);
		condition_terms(&c, 10.0, 2.0, w, JACOBIAN_EXACT, &tg);
		double differs = 0.0;
		for (int i = 0; i < te.n; ++i)
			for (int j = 0; j < te.n; ++j) {
				CHECK(m3_maxabs(m3_sub(tg.dfdx[i][j], td.dfdx[i][j])) == 0.0);
				differs = fmax(differs, m3_maxabs(m3_sub(te.dfdx[i][j], td.dfdx[i][j])));
			}
		CHECK(differs > 0.0);
	}
}

static void test_terms_clear_and_accumulate(void)
{
	element_terms t;
	t.f[2] = v3(1, 2, 3);
	t.dfdx[3][1] = m3_diag(4.0);
	t.dfdv[0][3] = m3_diag(5.0);
	element_terms_clear(&t, 3);
	CHECK(t.n == 3);
	CHECK(v3_len(t.f[2]) == 0.0 && m3_maxabs(t.dfdx[3][1]) == 0.0 && m3_maxabs(t.dfdv[0][3]) == 0.0);

	/* condition_terms adds: two calls give twice one call. */
	rng_seed(81);
	cond_setup s = {.kind = KIND_BEND};
	vec3 x[4], v[4];
	random_hinge(0.8, x);
	random_velocities(v, 4);
	condition c;
	eval_cond(&s, x, &c);
	element_terms one, two;
	element_terms_clear(&one, 4);
	element_terms_clear(&two, 4);
	condition_terms(&c, 3.0, 0.5, v, JACOBIAN_EXACT, &one);
	condition_terms(&c, 3.0, 0.5, v, JACOBIAN_EXACT, &two);
	condition_terms(&c, 3.0, 0.5, v, JACOBIAN_EXACT, &two);
	double err = 0.0;
	for (int i = 0; i < 4; ++i) {
		err = fmax(err, v3_maxabs(v3_sub(two.f[i], v3_scale(one.f[i], 2.0))));
		for (int j = 0; j < 4; ++j) err = fmax(err, m3_maxabs(m3_sub(two.dfdx[i][j], m3_scale(one.dfdx[i][j], 2.0))));
	}
	CHECK_NEAR(err, 0.0, 1e-14 * blocks_maxabs(one.dfdx, 4));
	/* NULL velocities read as zero. */
	element_terms zn, zv;
	const vec3 zero[4] = {v3_zero(), v3_zero(), v3_zero(), v3_zero()};
	element_terms_clear(&zn, 4);
	element_terms_clear(&zv, 4);
	condition_terms(&c, 3.0, 0.5, NULL, JACOBIAN_EXACT, &zn);
	condition_terms(&c, 3.0, 0.5, zero, JACOBIAN_EXACT, &zv);
	err = 0.0;
	for (int i = 0; i < 4; ++i) {
		err = fmax(err, v3_maxabs(v3_sub(zn.f[i], zv.f[i])));
		for (int j = 0; j < 4; ++j) err = fmax(err, m3_maxabs(m3_sub(zn.dfdx[i][j], zv.dfdx[i][j])));
	}
	CHECK(err == 0.0);
}

/* ---------------------------------------------------------------------------------------------
 * Drag and user springs. */

static void drag_of(const vec3 x[3], const vec3 v[3], vec3 wind, double drag, element_terms* t)
{
	element_terms_clear(t, 3);
	drag_terms(x, v, wind, drag, JACOBIAN_EXACT, t);
}

static void test_drag_derivative(void)
{
	rng_seed(91);
	for (int trial = 0; trial < 20; ++trial) {
		vec3 x[3], v[3];
		for (int i = 0; i < 3; ++i) x[i] = rng_vec3(-1, 1);
		random_velocities(v, 3);
		const vec3 wind = rng_vec3(-2, 2);
		const double drag = rng_uniform(0.1, 3.0);
		element_terms t, tp, tm;
		drag_of(x, v, wind, drag, &t);
		const double scale = blocks_maxabs(t.dfdv, 3);
		CHECK(scale > 0.0);
		double err = 0.0;
		for (int j = 0; j < 3; ++j)
			for (int e = 0; e < 3; ++e) {
				vec3 vv[3] = {v[0], v[1], v[2]};
				const double vj = v3_get(v[j], e);
				v3_set(&vv[j], e, vj + 1.0);
				drag_of(x, vv, wind, drag, &tp);
				v3_set(&vv[j], e, vj - 1.0);
				drag_of(x, vv, wind, drag, &tm);
				for (int i = 0; i < 3; ++i)
					for (int r = 0; r < 3; ++r) {
						double fd = (v3_get(tp.f[i], r) - v3_get(tm.f[i], r)) / 2.0;
						err = fmax(err, fabs(fd - t.dfdv[i][j].m[r][e]));
					}
			}
		CHECK_NEAR(err, 0.0, 1e-12 * scale);
		check_symmetric(t.dfdv, 3);
		CHECK(blocks_maxabs(t.dfdx, 3) == 0.0);
	}

	/* A hand-computed case: unit right triangle in z = 0 (area 1/2, n = +z) rising at 2 m/s. */
	const vec3 x[3] = {v3(0, 0, 0), v3(1, 0, 0), v3(0, 1, 0)};
	const vec3 v[3] = {v3(0, 0, 2), v3(0, 0, 2), v3(0, 0, 2)};
	element_terms t;
	drag_of(x, v, v3_zero(), 3.0, &t);
	for (int i = 0; i < 3; ++i) {
		CHECK_NEAR(v3_len(v3_sub(t.f[i], v3(0, 0, -1.0))), 0.0, 1e-15);
		for (int j = 0; j < 3; ++j) {
			CHECK_NEAR(t.dfdv[i][j].m[2][2], -1.0 / 6.0, 1e-15);
			CHECK(fabs(t.dfdv[i][j].m[0][0]) + fabs(t.dfdv[i][j].m[0][2]) == 0.0);
		}
	}
}

static void test_drag_direction(void)
{
	rng_seed(92);
	for (int trial = 0; trial < 20; ++trial) {
		vec3 x[3], v[3];
		for (int i = 0; i < 3; ++i) x[i] = rng_vec3(-1, 1);
		random_velocities(v, 3);
		const vec3 wind = rng_vec3(-1, 1);
		const vec3 n = v3_normalize(v3_cross(v3_sub(x[1], x[0]), v3_sub(x[2], x[0])));
		element_terms t;
		drag_of(x, v, wind, 1.5, &t);
		const vec3 rel = v3_sub(v3_scale(v3_add(v3_add(v[0], v[1]), v[2]), 1.0 / 3.0), wind);
		for (int i = 0; i < 3; ++i) {
			/* Along the normal, against the relative velocity. */
			CHECK_NEAR(v3_len(v3_cross(t.f[i], n)), 0.0, 1e-14 * v3_len(t.f[i]));
			CHECK(v3_dot(t.f[i], rel) <= 0.0);
		}

		/* Relative velocity in the plane: no drag at all. */
		const vec3 e1 = v3_sub(x[1], x[0]), e2 = v3_sub(x[2], x[0]);
		for (int i = 0; i < 3; ++i)
			v[i] = v3_add(wind, v3_add(v3_scale(e1, rng_uniform(-2, 2)), v3_scale(e2, rng_uniform(-2, 2))));
		drag_of(x, v, wind, 1.5, &t);
		double sv = v3_len(v[0]) + v3_len(v[1]) + v3_len(v[2]);
		double area = 0.5 * v3_len(v3_cross(e1, e2));
		for (int i = 0; i < 3; ++i) CHECK_NEAR(v3_len(t.f[i]), 0.0, 1e-14 * 1.5 * area * sv);
	}

	/* No area, no drag, and nothing is added. */
	const vec3 x[3] = {v3(0, 0, 0), v3(1, 1, 1), v3(2, 2, 2)};
	const vec3 v[3] = {v3(0, 0, 1), v3(1, 0, 0), v3(0, 1, 0)};
	element_terms t;
	drag_of(x, v, v3_zero(), 1.0, &t);
	CHECK(v3_len(t.f[0]) + v3_len(t.f[1]) + v3_len(t.f[2]) == 0.0 && blocks_maxabs(t.dfdv, 3) == 0.0);
}

static void test_spring(void)
{
	const vec3 x = v3(1, 2, 3), v = v3(-1, 0.5, 2), target = v3(0, 2, 5), force = v3(0, 0, -9.81);
	element_terms t;
	element_terms_clear(&t, 1);
	spring_terms(x, v, target, 40.0, 3.0, force, &t);
	/* force - 40 (1, 0, -2) - 3 (-1, 0.5, 2) */
	CHECK_NEAR(v3_len(v3_sub(t.f[0], v3(-37.0, -1.5, -9.81 + 80.0 - 6.0))), 0.0, 1e-12);
	const double h = 1e-3;
	for (int d = 0; d < 3; ++d) {
		vec3 xp = x, xm = x, vp = v, vm = v;
		v3_set(&xp, d, v3_get(x, d) + h);
		v3_set(&xm, d, v3_get(x, d) - h);
		v3_set(&vp, d, v3_get(v, d) + h);
		v3_set(&vm, d, v3_get(v, d) - h);
		element_terms a, b, c, e;
		element_terms_clear(&a, 1);
		element_terms_clear(&b, 1);
		element_terms_clear(&c, 1);
		element_terms_clear(&e, 1);
		spring_terms(xp, v, target, 40.0, 3.0, force, &a);
		spring_terms(xm, v, target, 40.0, 3.0, force, &b);
		spring_terms(x, vp, target, 40.0, 3.0, force, &c);
		spring_terms(x, vm, target, 40.0, 3.0, force, &e);
		for (int r = 0; r < 3; ++r) {
			CHECK_NEAR((v3_get(a.f[0], r) - v3_get(b.f[0], r)) / (2 * h), t.dfdx[0][0].m[r][d], 1e-9);
			CHECK_NEAR((v3_get(c.f[0], r) - v3_get(e.f[0], r)) / (2 * h), t.dfdv[0][0].m[r][d], 1e-9);
		}
	}
	CHECK_NEAR(t.dfdx[0][0].m[1][1], -40.0, 0.0);
	CHECK_NEAR(t.dfdv[0][0].m[2][2], -3.0, 0.0);
}

/* Strain limiting's stiffening (docs/solver.md, "Strain limiting"): the force the solver assembles
 * (the stretch condition plus the limit condition at (F - 1) k on the components beyond the limit)
 * is minus the gradient of the biphasic energy k/2 C^2 + (F - 1) k/2 C'^2, stretched and squeezed;
 * within the limit nothing is added. */
static void biphasic_energy_force(const tri_rest* r, const vec3* x, double k, double s, double* e, vec3 f[3])
{
	condition c, cl;
	stretch_condition(r, x, 1.0, 1.0, true, &c);
	int beyond = stretch_limit_condition(r, &c, 1.0, 1.0, s, &cl);
	*e = 0.0;
	element_terms t;
	if (f) element_terms_clear(&t, 3);
	for (int a = 0; a < 2; ++a) {
		*e += 0.5 * k * c.c[a] * c.c[a];
		if (f) condition_terms_component(&c, a, k, 0.0, NULL, JACOBIAN_DEFINITE, &t);
		if (!(beyond & (1 << a))) continue;
		*e += 0.5 * (STRETCH_LIMIT_STIFFENING - 1.0) * k * cl.c[a] * cl.c[a];
		if (f) condition_terms_component(&cl, a, (STRETCH_LIMIT_STIFFENING - 1.0) * k, 0.0, NULL, JACOBIAN_DEFINITE, &t);
	}
	for (int i = 0; f && i < 3; ++i) f[i] = t.f[i];
}

static void test_stretch_limit_stiffening(void)
{
	const double k = 500.0, s = 0.01, h = 1e-7;
	for (int trial = 0; trial < 20; ++trial) {
		tri_rest r;
		random_rest(&r, 0.05);
		vec3 x[3];
		const double su = trial % 2 ? 1.04 : 0.97, sv = trial % 3 ? 1.02 : 1.005;
		deform(&r, su, sv, 0.05, 0.0, x);
		condition c, cl;
		stretch_condition(&r, x, 1.0, 1.0, true, &c);
		int beyond = stretch_limit_condition(&r, &c, 1.0, 1.0, s, &cl);
		CHECK(beyond == (sv > 1.01 ? 3 : 1)); /* su is always beyond, sv = 1.005 is within */
		/* C' = a (|w| - bound), the bound on the side the component is out */
		CHECK_NEAR(cl.c[0], r.area * (su - (su > 1.0 ? 1.0 + s : 1.0 - s)), 1e-12 * r.area);
		double e;
		vec3 f[3];
		biphasic_energy_force(&r, x, k, s, &e, f);
		double err = 0.0, scale = 0.0;
		for (int i = 0; i < 3; ++i)
			for (int d = 0; d < 3; ++d) {
				vec3 xp[3] = {x[0], x[1], x[2]}, xm[3] = {x[0], x[1], x[2]};
				v3_set(&xp[i], d, v3_get(x[i], d) + h);
				v3_set(&xm[i], d, v3_get(x[i], d) - h);
				double ep, em;
				biphasic_energy_force(&r, xp, k, s, &ep, NULL);
				biphasic_energy_force(&r, xm, k, s, &em, NULL);
				err = fmax(err, fabs(-(ep - em) / (2.0 * h) - v3_get(f[i], d)));
				scale = fmax(scale, fabs(v3_get(f[i], d)));
			}
		CHECK(scale > 0.0);
		CHECK_NEAR(err, 0.0, 1e-5 * scale);
	}
}

/* m3_mul is written out (mat3.h): the same bits as the triple loop it replaced, which summed each
 * entry from +0.0 in k order, also where products are -0.0 or the entries span many magnitudes. */
static void test_mat3_mul_same_bits_as_loop(void)
{
	int differ = 0;
	for (int rep = 0; rep < 2000; ++rep) {
		mat3 a, b;
		for (int i = 0; i < 3; ++i)
			for (int j = 0; j < 3; ++j) {
				a.m[i][j] = rng_uniform(-1.0, 1.0) * pow(10.0, rng_uniform(-12.0, 12.0));
				b.m[i][j] = rng_uniform(-1.0, 1.0) * pow(10.0, rng_uniform(-12.0, 12.0));
				/* a row of signed zeros: every product -0.0 or +0.0 */
				if (rep % 7 == 0 && i == rep / 7 % 3) a.m[i][j] = rep % 14 == 0 ? -0.0 : 0.0;
			}
		mat3 loop = m3_zero();
		for (int i = 0; i < 3; ++i)
			for (int k = 0; k < 3; ++k)
				for (int j = 0; j < 3; ++j) loop.m[i][j] += a.m[i][k] * b.m[k][j];
		mat3 r = m3_mul(a, b);
		differ += memcmp(&r, &loop, sizeof r) != 0;
	}
	CHECK(differ == 0);
}

const test_case forces_tests[] = {
	{"mat3_mul_same_bits_as_loop", test_mat3_mul_same_bits_as_loop},
	{"stretch_limit_stiffening", test_stretch_limit_stiffening},
	{"tri_rest", test_tri_rest},
	{"stretch_w_affine", test_stretch_w_affine},
	{"stretch_derivatives", test_stretch_derivatives},
	{"stretch_zero_w", test_stretch_zero_w},
	{"shear_derivatives", test_shear_derivatives},
	{"bend_angle_values", test_bend_angle_values},
	{"bend_sign_and_invariance", test_bend_sign_and_invariance},
	{"bend_derivatives", test_bend_derivatives},
	{"bend_degenerate", test_bend_degenerate},
	{"terms_stretch", test_terms_stretch},
	{"terms_shear", test_terms_shear},
	{"terms_bend", test_terms_bend},
	{"momentum", test_momentum},
	{"jacobian_definite", test_jacobian_definite},
	{"terms_clear_and_accumulate", test_terms_clear_and_accumulate},
	{"drag_derivative", test_drag_derivative},
	{"drag_direction", test_drag_direction},
	{"spring", test_spring},
	{NULL, NULL},
};
