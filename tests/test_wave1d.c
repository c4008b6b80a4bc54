/* The rod's finite-difference schemes (Boxerman 2003, sec. 6.1): second-order convergence of the
 * explicit (7), implicit (13) and CN-ADI (5.2) schemes and first-order convergence of On-Off (17)
 * with c1 = 3, against the exact solution, at the paper's Table 1 refinements; and the schemes'
 * 1D stability limits of sec. 4-5 (alpha mu < 1, unconditional, < 2/3, unconditional). */
#include "test.h"

#include "stability/wave1d.h"

#include <math.h>
#include <stdlib.h>

/* Exact solution for the rod of length L: the static deflection u_s (u_s(0) = 0, EA u_s'(L) = F,
 * EA u_s'' = -rho g) plus a Gaussian pulse released from rest, which d'Alembert's formula
 * carries with odd reflection at x = 0 and even reflection at x = L (period 4L). */
typedef struct rod_exact {
	double ea, rho, g, f, L, alpha, amp, centre, width;
} rod_exact;

static double pulse(const rod_exact* e, double y)
{
	double p = 4.0 * e->L;
	y = fmod(y, p);
	if (y < -2.0 * e->L) y += p;
	if (y >= 2.0 * e->L) y -= p;
	double sign = 1.0;
	if (y < 0.0) sign = -1.0, y = -y;
	if (y > e->L) y = 2.0 * e->L - y;
	double z = (y - e->centre) / e->width;
	return sign * e->amp * exp(-z * z);
}

static double exact_u(const rod_exact* e, double x, double t)
{
	double us = (e->f / e->ea) * x + (e->rho * e->g / e->ea) * (e->L * x - 0.5 * x * x);
	return us + 0.5 * (pulse(e, x - e->alpha * t) + pulse(e, x + e->alpha * t));
}

/* Max error at t = 1 s of `scheme` on the L = 5 m rod with spacing h and step dt (Table 1: h / 40). */
static double error_at_one_second(wave1d_scheme scheme, double h, double dt, double c1)
{
	wave1d_def d = wave1d_default_def();
	d.length = 5.0;
	d.cells = (int32_t)lround(d.length / h);
	d.dt = dt;
	d.scheme = scheme;
	d.c1 = c1;
	rod_exact e = {d.ea, d.rho, d.gravity, d.force, d.length, sqrt(d.ea / d.rho), 0.2, 2.5, 0.25};
	int32_t n = d.cells;
	double* u0 = malloc((size_t)(n + 1) * sizeof(double));
	double* um = malloc((size_t)(n + 1) * sizeof(double));
	for (int32_t j = 0; j <= n; ++j) {
		u0[j] = exact_u(&e, j * (d.length / n), 0.0);
		um[j] = exact_u(&e, j * (d.length / n), -d.dt);
	}
	wave1d w;
	char err[128];
	CHECK(wave1d_init(&w, &d, u0, um, err, sizeof err));
	int64_t steps = lround(1.0 / d.dt);
	bool ok = true;
	for (int64_t s = 0; s < steps; ++s) ok = ok && wave1d_step(&w);
	CHECK(ok);
	double worst = 0.0;
	for (int32_t j = 0; j <= n; ++j) worst = fmax(worst, fabs(w.u[j] - exact_u(&e, j * w.h, 1.0)));
	wave1d_free(&w);
	free(u0);
	free(um);
	return worst;
}

/* Errors at h = 0.04, 0.02, 0.01 (Table 1) with dt = dt0 * (h / 0.04)^time_power; returns the two
 * ratios of successive errors. */
static void refinement_ratios(wave1d_scheme scheme, double c1, int time_power, double ratio[2], double* finest)
{
	double e[3];
	for (int l = 0; l < 3; ++l) {
		double h = 0.04 / (1 << l);
		e[l] = error_at_one_second(scheme, h, 0.001 / pow(2.0, (double)(time_power * l)), c1);
	}
	ratio[0] = e[0] / e[1];
	ratio[1] = e[1] / e[2];
	*finest = e[2];
	printf("  %-9s c1=%g dt~h^%d: errors %.3e %.3e %.3e, ratios %.2f %.2f\n", wave1d_scheme_name(scheme), c1, time_power,
	       e[0], e[1], e[2], ratio[0], ratio[1]);
}

/* Explicit (7): second order in h and k together, as the paper's figure 7 shows. */
static void test_wave1d_explicit_second_order(void)
{
	double r[2], fine;
	refinement_ratios(WAVE1D_EXPLICIT, 3.0, 1, r, &fine);
	CHECK(r[0] > 3.0 && r[0] < 5.0);
	CHECK(r[1] > 3.0 && r[1] < 5.0);
	CHECK(fine < 1e-3);
}

/* Implicit (13) and CN-ADI: the operator at the new level makes them first order in time (the
 * paper claims O(k^2, h^2) for CN-ADI; its combined scheme's residual is -k^3 u_ttt, i.e. O(k)).
 * With k ~ h^2 their second order in space shows. */
static void test_wave1d_implicit_orders(void)
{
	const wave1d_scheme schemes[2] = {WAVE1D_IMPLICIT, WAVE1D_CN_ADI};
	for (int s = 0; s < 2; ++s) {
		double r[2], fine;
		refinement_ratios(schemes[s], 3.0, 1, r, &fine);
		CHECK(r[0] > 1.6 && r[0] < 2.5);
		CHECK(r[1] > 1.6 && r[1] < 2.5);
		refinement_ratios(schemes[s], 3.0, 2, r, &fine);
		CHECK(r[0] > 3.0 && r[0] < 5.0);
		CHECK(r[1] > 3.0 && r[1] < 5.0);
	}
}

/* On-Off (17) converges (first order) with c1 = 2; with the paper's c1 = 3 it converges to the
 * wrong solution. The off step alone leaves the residual k^2 alpha^2 u_xx, so the paper's
 * elimination, which takes the off step's output as exact, miscounts the spring term. Eliminating
 * the off levels b_m instead gives, for the on levels a_m,
 *   a_m+2 - 2 a_m+1 + a_m = c1 r D+D- (a_m+2 + a_m+1) + 4 k^2 g,
 * whose left side is (2k)^2 u_tt and right side 2 c1 k^2 alpha^2 u_xx: consistent iff c1 = 2. */
static void test_wave1d_onoff_c1(void)
{
	double r[2], fine, wrong_r[2], wrong;
	refinement_ratios(WAVE1D_ONOFF, 2.0, 1, r, &fine);
	CHECK(r[0] > 1.6 && r[0] < 2.5);
	CHECK(r[1] > 1.6 && r[1] < 2.5);
	refinement_ratios(WAVE1D_ONOFF, 3.0, 1, wrong_r, &wrong);
	CHECK(wrong > 100.0 * fine);
	CHECK(wrong_r[1] < 1.2);
}

const test_case wave1d_tests[] = {
	{"wave1d_explicit_second_order", test_wave1d_explicit_second_order},
	{"wave1d_implicit_orders", test_wave1d_implicit_orders},
	{"wave1d_onoff_c1", test_wave1d_onoff_c1},
	{NULL, NULL},
};
