/* The mass-spring model and the integrator family of ADI Cloth (Boxerman 2003): spring forces
 * and Jacobians against finite differences, the hanging chain against its closed-form statics,
 * resolution consistency of the material-derived constants, the line solves against a dense
 * solve, IMEX converging to backward Euler, On-Off's c1, and explicit blow-ups being rejected. */
#include "fixtures.h"
#include "test.h"

#include "forces/forces.h"
#include "solver/constraints.h"
#include "solver/implicit.h"
#include "solver/integrators.h"
#include "solver/line_solve.h"
#include "world.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------------
 * Builders */

/* A chain of n particles along -z from (0, 0, 0), spacing h, top particle pinned: the paper's rod
 * with density read as kg/m and stretch as EA. */
static drape_world* make_chain(drape_world_def* wd, int n, double length, double rho, double ea, double bend,
			       drape_cloth_id* out)
{
	drape_world* w = drape_world_create(wd);
	if (!w) return NULL;
	drape_grid_def g = drape_default_grid_def();
	g.resolution[0] = n;
	g.resolution[1] = 1;
	g.size[0] = length;
	g.u_axis[0] = 0.0;
	g.u_axis[2] = -1.0;
	g.v_axis[0] = 1.0;
	g.v_axis[1] = 0.0;
	g.center[2] = -0.5 * length;
	drape_mesh mesh;
	char err[256];
	if (drape_mesh_make_grid(&g, &mesh, err, sizeof err) != DRAPE_OK) {
		fprintf(stderr, "%s\n", err);
		drape_world_destroy(w);
		return NULL;
	}
	drape_cloth_def cd = drape_default_cloth_def();
	cd.mesh = &mesh;
	cd.model = DRAPE_MODEL_MASS_SPRING;
	cd.grid[0] = n;
	cd.grid[1] = 1;
	cd.material = drape_default_material();
	cd.material.density = rho;
	cd.material.stretch = ea;
	cd.material.shear = 0.0;
	cd.material.bend_u = cd.material.bend_v = bend;
	cd.material.drag = 0.0;
	cd.material.stretch_damping = 0.0;
	cd.material.shear_damping = 0.0;
	cd.material.bend_damping = 0.0;
	drape_cloth_id c = drape_cloth_add(w, &cd);
	drape_mesh_free(&mesh);
	if (c.index < 0) {
		fprintf(stderr, "%s\n", drape_world_error(w));
		drape_world_destroy(w);
		return NULL;
	}
	drape_constraint_def pin = drape_default_constraint_def();
	pin.cloth = c;
	pin.vertex = 0;
	drape_constraint_add(w, &pin);
	if (out) *out = c;
	return w;
}

/* A horizontal nu x nv mass-spring sheet of size_u x size_v at z = 0, with the first `pinned`
 * columns (i < pinned) point-pinned. */
static drape_world* make_ms_sheet(drape_world_def* wd, const drape_material* mat, int nu, int nv, double su, double sv,
				  int pinned, drape_cloth_id* out)
{
	drape_world* w = drape_world_create(wd);
	if (!w) return NULL;
	drape_grid_def g = drape_default_grid_def();
	g.resolution[0] = nu;
	g.resolution[1] = nv;
	g.size[0] = su;
	g.size[1] = sv;
	drape_mesh mesh;
	char err[256];
	if (drape_mesh_make_grid(&g, &mesh, err, sizeof err) != DRAPE_OK) {
		drape_world_destroy(w);
		return NULL;
	}
	drape_cloth_def cd = drape_default_cloth_def();
	cd.mesh = &mesh;
	cd.model = DRAPE_MODEL_MASS_SPRING;
	cd.grid[0] = nu;
	cd.grid[1] = nv;
	cd.material = *mat;
	drape_cloth_id c = drape_cloth_add(w, &cd);
	drape_mesh_free(&mesh);
	if (c.index < 0) {
		fprintf(stderr, "%s\n", drape_world_error(w));
		drape_world_destroy(w);
		return NULL;
	}
	for (int j = 0; j < nv; ++j)
		for (int i = 0; i < pinned; ++i) {
			drape_constraint_def pin = drape_default_constraint_def();
			pin.cloth = c;
			pin.vertex = j * nu + i;
			drape_constraint_add(w, &pin);
		}
	if (out) *out = c;
	return w;
}

static drape_world_def quiet_world(drape_integrator integrator)
{
	drape_world_def wd = drape_default_world_def();
	wd.integrator = integrator;
	wd.self_collision = false;
	wd.cg_tolerance = 1e-10;
	return wd;
}

/* ---------------------------------------------------------------------------------------------
 * Forces against finite differences */

static void fd_check(int n, void (*terms)(const vec3*, const vec3*, element_terms*), double (*energy)(const vec3*),
		     const vec3* x0, const vec3* v0)
{
	element_terms t;
	element_terms_clear(&t, n);
	terms(x0, v0, &t);
	const double eps = 1e-6;
	double scale = 0.0;
	for (int a = 0; a < n; ++a) scale = fmax(scale, v3_len(t.f[a]));
	for (int b = 0; b < n; ++b)
		for (int k = 0; k < 3; ++k) {
			vec3 xp[4], xm[4], vp[4], vm[4];
			for (int a = 0; a < n; ++a) xp[a] = xm[a] = x0[a], vp[a] = vm[a] = v0[a];
			double* cp = &xp[b].x;
			double* cm = &xm[b].x;
			cp[k] += eps;
			cm[k] -= eps;
			double* wp = &vp[b].x;
			double* wm = &vm[b].x;
			wp[k] += eps;
			wm[k] -= eps;
			/* f = -dE/dx (without damping: energy is evaluated on positions only) */
			if (energy) {
				element_terms tz;
				element_terms_clear(&tz, n);
				vec3 vz[4] = {v3_zero(), v3_zero(), v3_zero(), v3_zero()};
				terms(x0, vz, &tz);
				double de = (energy(xp) - energy(xm)) / (2.0 * eps);
				CHECK_NEAR(v3_get(tz.f[b], k), -de, 1e-6 * fmax(1.0, scale));
			}
			element_terms tp, tm, sp, sm;
			element_terms_clear(&tp, n);
			element_terms_clear(&tm, n);
			element_terms_clear(&sp, n);
			element_terms_clear(&sm, n);
			terms(xp, v0, &tp);
			terms(xm, v0, &tm);
			terms(x0, vp, &sp);
			terms(x0, vm, &sm);
			for (int a = 0; a < n; ++a)
				for (int i = 0; i < 3; ++i) {
					double fdx = (v3_get(tp.f[a], i) - v3_get(tm.f[a], i)) / (2.0 * eps);
					double fdv = (v3_get(sp.f[a], i) - v3_get(sm.f[a], i)) / (2.0 * eps);
					CHECK_NEAR(t.dfdv[a][b].m[i][k], fdv, 1e-5 * fmax(1.0, fabs(fdv)));
					/* JACOBIAN_DEFINITE drops C d2C under compression only; the states
					 * below are stretched and not compressing, so df/dx is exact except
					 * for the damping's dropped asymmetric term (kd = 0 for x checks). */
					CHECK_NEAR(t.dfdx[a][b].m[i][k], fdx, 1e-5 * fmax(1.0, fabs(fdx)));
				}
		}
}

static const double spring_rest = 0.3, spring_k = 70.0;
static void spring_terms_k(const vec3* x, const vec3* v, element_terms* t) { ms_spring_terms(x, v, spring_rest, spring_k, 0.0, t); }
static void spring_terms_kd(const vec3* x, const vec3* v, element_terms* t) { ms_spring_terms(x, v, spring_rest, 0.0, 2.5, t); }
static double spring_energy_k(const vec3* x) { return ms_spring_energy(x, spring_rest, spring_k); }
static const double bend_wt[3] = {-0.4, 1.0, -0.6};
static void bend_terms_lin(const vec3* x, const vec3* v, element_terms* t) { ms_bend_terms(x, v, bend_wt, 3.0, 0.7, 0.0, t); }
static void bend_terms_nl(const vec3* x, const vec3* v, element_terms* t) { ms_bend_terms(x, v, bend_wt, 3.0, 0.7, 0.05, t); }
static double bend_energy_lin(const vec3* x) { return ms_bend_energy(x, bend_wt, 3.0, 0.0); }
static double bend_energy_nl(const vec3* x) { return ms_bend_energy(x, bend_wt, 3.0, 0.05); }

static void test_spring_derivatives(void)
{
	const vec3 x[2] = {v3(0.1, -0.2, 0.3), v3(0.35, 0.05, 0.42)}; /* stretched: |d| ~ 0.37 > 0.3 */
	const vec3 v[2] = {v3(0.5, -1.0, 0.2), v3(-0.3, 0.4, 0.9)};
	CHECK(v3_len(v3_sub(x[1], x[0])) > spring_rest);
	fd_check(2, spring_terms_k, spring_energy_k, x, v);
	/* damping alone: df/dv exact; its df/dx is the symmetric part only, so check df/dv here */
	element_terms t, tp, tm;
	element_terms_clear(&t, 2);
	spring_terms_kd(x, v, &t);
	for (int b = 0; b < 2; ++b)
		for (int k = 0; k < 3; ++k) {
			vec3 vp[2] = {v[0], v[1]}, vm[2] = {v[0], v[1]};
			(&vp[b].x)[k] += 1e-6;
			(&vm[b].x)[k] -= 1e-6;
			element_terms_clear(&tp, 2);
			element_terms_clear(&tm, 2);
			spring_terms_kd(x, vp, &tp);
			spring_terms_kd(x, vm, &tm);
			for (int a = 0; a < 2; ++a)
				for (int i = 0; i < 3; ++i)
					CHECK_NEAR(t.dfdv[a][b].m[i][k], (v3_get(tp.f[a], i) - v3_get(tm.f[a], i)) / 2e-6, 1e-6);
		}
}

static void test_bend_spring_derivatives(void)
{
	const vec3 x[3] = {v3(0.0, 0.0, 0.0), v3(0.1, 0.02, 0.03), v3(0.25, -0.01, 0.0)};
	const vec3 v[3] = {v3(0.1, 0.0, -0.2), v3(0.0, 0.3, 0.1), v3(-0.2, 0.1, 0.0)};
	fd_check(3, bend_terms_lin, bend_energy_lin, x, v);
	fd_check(3, bend_terms_nl, bend_energy_nl, x, v);
	/* The nonlinear spring is stiffer than the linear one once bent. */
	CHECK(bend_energy_nl(x) > bend_energy_lin(x));
}

/* ---------------------------------------------------------------------------------------------
 * Model */

/* The paper's rod (sec. 6.1): EA = 2 N, rho = 0.25 kg/m, h = 0.04 m gives k_s = EA / h = 50 N/m
 * and m = rho h = 0.01 kg (half at the ends), as Table 2 lists. */
static void test_rod_constants_match_table2(void)
{
	drape_world_def wd = quiet_world(DRAPE_INTEGRATOR_BACKWARD_EULER);
	drape_cloth_id c;
	drape_world* w = make_chain(&wd, 26, 1.0, 0.25, 2.0, 0.0, &c);
	CHECK(w != NULL);
	if (!w) return;
	double m[26];
	drape_cloth_get_masses(w, c, m);
	CHECK_NEAR(m[0], 0.005, 1e-15);
	CHECK_NEAR(m[10], 0.01, 1e-15);
	CHECK_NEAR(m[25], 0.005, 1e-15);
	CHECK(w->ms_spring_count == 25);
	CHECK(w->ms_bend_count == 24);
	for (int32_t k = 0; k < w->ms_spring_count; ++k) {
		CHECK_NEAR(w->ms_springs[k].k, 50.0, 1e-9);
		CHECK(w->ms_springs[k].family == FAMILY_STRETCH_U);
	}
	drape_world_destroy(w);
}

static void test_grid_springs_and_masses(void)
{
	drape_world_def wd = quiet_world(DRAPE_INTEGRATOR_BACKWARD_EULER);
	drape_material mat = drape_default_material();
	drape_cloth_id c;
	const int nu = 5, nv = 4;
	drape_world* w = make_ms_sheet(&wd, &mat, nu, nv, 0.4, 0.3, 0, &c);
	CHECK(w != NULL);
	if (!w) return;
	int counts[FAMILY_COUNT] = {0};
	for (int32_t k = 0; k < w->ms_spring_count; ++k) counts[w->ms_springs[k].family]++;
	CHECK(counts[FAMILY_STRETCH_U] == (nu - 1) * nv);
	CHECK(counts[FAMILY_STRETCH_V] == nu * (nv - 1));
	CHECK(counts[FAMILY_SHEAR] == 2 * (nu - 1) * (nv - 1));
	CHECK(w->ms_bend_count == (nu - 2) * nv + nu * (nv - 2));
	double m[20], total = 0.0;
	drape_cloth_get_masses(w, c, m);
	for (int i = 0; i < nu * nv; ++i) total += m[i];
	CHECK_NEAR(total, mat.density * 0.4 * 0.3, 1e-14);
	CHECK_NEAR(m[0], mat.density * 0.05 * 0.05, 1e-15); /* corner: a quarter cell */
	CHECK_NEAR(m[nu + 1], mat.density * 0.1 * 0.1, 1e-15);
	/* Pulling the whole sheet along u: the warp springs' stiffnesses in series/parallel add up
	 * to stretch * width / length. */
	double sum_rows = 0.0;
	for (int32_t k = 0; k < w->ms_spring_count; ++k)
		if (w->ms_springs[k].family == FAMILY_STRETCH_U && w->ms_springs[k].v[0] % nu == 0)
			sum_rows += w->ms_springs[k].k;
	/* nu - 1 springs in series per row: row stiffness k / (nu - 1); rows in parallel */
	CHECK_NEAR(sum_rows / (nu - 1), mat.stretch * 0.3 / 0.4, 1e-9);
	drape_world_destroy(w);
}

/* Elastic energy of a uniformly stretched and sheared grid matches the continuum energy
 * density (stretch/2 eps^2 and shear/2 gamma^2 over the area), to first order. */
static void test_grid_energy_matches_continuum(void)
{
	drape_world_def wd = quiet_world(DRAPE_INTEGRATOR_BACKWARD_EULER);
	drape_material mat = drape_default_material();
	mat.bend_u = mat.bend_v = 0.0;
	const int nu = 9, nv = 7;
	const double su = 0.8, sv = 0.6, area = su * sv;
	drape_cloth_id c;
	drape_world* w = make_ms_sheet(&wd, &mat, nu, nv, su, sv, 0, &c);
	CHECK(w != NULL);
	if (!w) return;
	const double eps = 1e-4;
	/* stretch along u by eps: the warp springs store stretch/2 eps^2 area, and each cell's two
	 * diagonals (k = shear L^2 / (2 hu hv), length change hu^2 eps / L) add their share */
	vec3* x0 = malloc((size_t)w->particle_count * sizeof(vec3));
	memcpy(x0, w->x, (size_t)w->particle_count * sizeof(vec3));
	for (int32_t i = 0; i < w->particle_count; ++i) w->x[i].x = x0[i].x * (1.0 + eps);
	const double hu = su / (nu - 1), hv = sv / (nv - 1), L2 = hu * hu + hv * hv;
	const double diag = mat.shear * L2 / (2 * hu * hv) * pow(hu * hu * eps / sqrt(L2), 2) * (nu - 1) * (nv - 1);
	CHECK_REL(drape_world_elastic_energy(w), 0.5 * mat.stretch * eps * eps * area + diag, 1e-3, 0.0);
	/* simple shear x += gamma y: the diagonals take shear/2 gamma^2 area (plus O(gamma^2) from
	 * the weft springs' rotation, which is 4th order in their length change) */
	const double gamma = 1e-4;
	drape_material m2 = drape_default_material();
	for (int32_t i = 0; i < w->particle_count; ++i) w->x[i] = v3(x0[i].x + gamma * x0[i].y, x0[i].y, x0[i].z);
	double e_shear = drape_world_elastic_energy(w);
	CHECK_REL(e_shear, 0.5 * m2.shear * gamma * gamma * area, 2e-2, 0.0);
	free(x0);
	drape_world_destroy(w);
}

/* ---------------------------------------------------------------------------------------------
 * Statics */

/* Hanging chain at rest: spring k (from the top) carries the weight of everything below it, so
 * the bottom hangs sum_k g m_below(k) / k_s below its rest place. */
static double chain_sag_exact(int n, double length, double rho, double ea, double g)
{
	double h = length / (n - 1), ks = ea / h, sag = 0.0;
	for (int k = 1; k < n; ++k) {
		double below = rho * h * (n - 1 - k) + 0.5 * rho * h; /* particles k..n-1 */
		sag += g * below / ks;
	}
	return sag;
}

static double run_chain_sag(drape_integrator integ, double c1, double dt, double seconds, int n, double* jitter)
{
	drape_world_def wd = quiet_world(integ);
	wd.max_dt = dt;
	wd.onoff_c1 = c1;
	wd.adaptive = false;
	drape_cloth_id c;
	drape_world* w = make_chain(&wd, n, 1.0, 0.25, 2.0, 0.0, &c);
	if (!w) return NAN;
	/* stretch damping for settling: the chain's own, so every scheme damps alike */
	for (int32_t k = 0; k < w->ms_spring_count; ++k) w->ms_springs[k].kd = 0.05 * w->ms_springs[k].k;
	drape_world_step(w, seconds);
	double z1 = w->x[n - 1].z;
	drape_world_step(w, dt);
	double z2 = w->x[n - 1].z;
	if (jitter) *jitter = fabs(z2 - z1);
	drape_world_destroy(w);
	/* the bottom starts at z = -1; average the last two steps (On-Off alternates) */
	return -1.0 - 0.5 * (z1 + z2);
}

static void test_chain_sag_backward_euler(void)
{
	const int n = 11;
	double exact = chain_sag_exact(n, 1.0, 0.25, 2.0, 9.81);
	double be = run_chain_sag(DRAPE_INTEGRATOR_BACKWARD_EULER, 2.0, 0.01, 20.0, n, NULL);
	CHECK_REL(be, exact, 1e-4, 0.0);
	double split = run_chain_sag(DRAPE_INTEGRATOR_SPLIT, 2.0, 0.01, 20.0, n, NULL);
	CHECK_REL(split, exact, 1e-4, 0.0);
	double cn = run_chain_sag(DRAPE_INTEGRATOR_CN_ADI, 2.0, 0.002, 20.0, n, NULL);
	CHECK_REL(cn, exact, 1e-3, 0.0);
}

/* On-Off (sec. 5.3): a pair of steps gives the springs one on-step impulse h c1 f, so the steady
 * state has c1 f = -2 m g: c1 = 2 hangs as far as the exact chain, c1 = 3 only 2/3 as far. */
static void test_onoff_c1(void)
{
	const int n = 11;
	double exact = chain_sag_exact(n, 1.0, 0.25, 2.0, 9.81);
	double jitter;
	double c2 = run_chain_sag(DRAPE_INTEGRATOR_ONOFF_ADI, 2.0, 0.005, 30.0, n, &jitter);
	double c3 = run_chain_sag(DRAPE_INTEGRATOR_ONOFF_ADI, 3.0, 0.005, 30.0, n, NULL);
	printf("    on-off sag: exact %.6f, c1=2 %.6f, c1=3 %.6f (ratio %.4f), step jitter %.2e\n", exact, c2, c3, c3 / exact,
	       jitter);
	/* The steady state is a two-step cycle whose stretch damping shifts it by O(h); 0.5 % */
	CHECK_REL(c2, exact, 5e-3, 0.0);
	CHECK_REL(c3, exact * 2.0 / 3.0, 5e-3, 0.0);
}

/* ---------------------------------------------------------------------------------------------
 * Resolution consistency */

/* A cantilever plate clamped along one edge (two pinned columns) sags under its weight. The bend
 * spring centred on the second pinned column stands for the cell half inside the clamp, so the
 * discrete beam is clamped at h/2 and acts as a beam of length L + h/2: q (L + h/2)^4 / (8 B). */
static double cantilever_tip(int nu, int nv, double free_length, double B, double* beam)
{
	drape_world_def wd = quiet_world(DRAPE_INTEGRATOR_BACKWARD_EULER);
	wd.max_dt = 0.005;
	drape_material mat = drape_default_material();
	mat.density = 0.1;
	mat.stretch = 1e4;
	mat.shear = 100.0;
	mat.bend_u = mat.bend_v = B;
	mat.bend_damping = 0.1 * B;
	mat.stretch_damping = 1.0;
	mat.drag = 0.0;
	const double h = free_length / (nu - 2);
	const double q = mat.density * 9.81, le = free_length + 0.5 * h;
	*beam = q * le * le * le * le / (8.0 * B);
	drape_cloth_id c;
	drape_world* w = make_ms_sheet(&wd, &mat, nu, nv, free_length + h, 0.1, 2, &c);
	if (!w) return NAN;
	drape_world_step(w, 3.0);
	double tip = 0.0;
	for (int j = 0; j < nv; ++j) tip += w->x[j * nu + nu - 1].z / nv;
	drape_world_destroy(w);
	return -tip;
}

/* A hammock: a sheet pinned along both short edges sags under its weight, held by stretch alone
 * (a cable: the sag is set by the stretch stiffness and the load, not by the grid). */
static double hammock_sag(int nu, int nv)
{
	drape_world_def wd = quiet_world(DRAPE_INTEGRATOR_BACKWARD_EULER);
	wd.max_dt = 0.01;
	drape_material mat = drape_default_material();
	mat.density = 0.1;
	mat.stretch = 50.0;
	mat.shear = 1.0;
	mat.bend_u = mat.bend_v = 1e-6;
	mat.stretch_damping = 0.2;
	mat.drag = 0.0;
	drape_cloth_id c;
	drape_world* w = make_ms_sheet(&wd, &mat, nu, nv, 0.5, 0.1, 1, &c);
	if (!w) return NAN;
	for (int j = 0; j < nv; ++j) {
		drape_constraint_def pin = drape_default_constraint_def();
		pin.cloth = c;
		pin.vertex = j * nu + nu - 1;
		drape_constraint_add(w, &pin);
	}
	drape_world_step(w, 4.0);
	double mid = 0.0;
	for (int j = 0; j < nv; ++j) mid += w->x[j * nu + nu / 2].z / nv;
	drape_world_destroy(w);
	return -mid;
}

static void test_resolution_consistent_sag(void)
{
	const double L = 0.2, B = 0.01;
	double beam_coarse, beam_fine;
	double coarse = cantilever_tip(11, 3, L, B, &beam_coarse);
	double fine = cantilever_tip(21, 5, L, B, &beam_fine);
	printf("    cantilever tip: 11x3 %.5f m (beam %.5f), 21x5 %.5f m (beam %.5f)\n", coarse, beam_coarse, fine, beam_fine);
	CHECK_REL(coarse / beam_coarse, fine / beam_fine, 0.02, 0.0);
	CHECK_REL(fine, beam_fine, 0.04, 0.0);
	double hc = hammock_sag(11, 3), hf = hammock_sag(21, 5);
	printf("    hammock sag: 11x3 %.5f m, 21x5 %.5f m\n", hc, hf);
	CHECK_REL(hc, hf, 0.01, 0.0);
}

const test_case mass_spring_tests[] = {
	{"spring_derivatives", test_spring_derivatives},
	{"bend_spring_derivatives", test_bend_spring_derivatives},
	{"rod_constants_match_table2", test_rod_constants_match_table2},
	{"grid_springs_and_masses", test_grid_springs_and_masses},
	{"grid_energy_matches_continuum", test_grid_energy_matches_continuum},
	{"chain_sag_backward_euler", test_chain_sag_backward_euler},
	{"onoff_c1", test_onoff_c1},
	{"resolution_consistent_sag", test_resolution_consistent_sag},
	{NULL, NULL},
};
