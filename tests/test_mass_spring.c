/* The mass-spring model and the integrator family of ADI Cloth (Boxerman 2003): spring forces
 * and Jacobians against finite differences, the hanging chain against its closed-form statics,
 * resolution consistency of the material-derived constants, the line solves against a dense
 * solve, IMEX converging to backward Euler, On-Off's c1, and explicit blow-ups being rejected. */
#include "fixtures.h"
#include "test.h"
#include "test_io.h"

#include "io/scene.h"

#include "forces/forces.h"
#include "step/constraints.h"
#include "step/implicit.h"
#include "step/integrators.h"
#include "step/line_solve.h"
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
	g.center[0] = 0.5 * g.size[1]; /* the chain is the grid's v = 0 edge */
	drape_mesh mesh;
	char err[256];
	if (drape_mesh_make_grid(&g, &mesh, err, sizeof err) != DRAPE_OK) {
		fprintf(stderr, "%s\n", err);
		drape_world_destroy(w);
		return NULL;
	}
	/* a chain is the grid's v = 0 edge: along u through center - size[1]/2 v_axis */
	CHECK(mesh.vertex_count == n && mesh.triangle_count == 0);
	CHECK(mesh.positions[0] == 0.0 && mesh.positions[1] == 0.0 && mesh.positions[2] == 0.0);
	CHECK(fabs(mesh.positions[3 * (n - 1) + 2] + length) < 1e-12);
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
	wd.strain_limit = 0.0; /* the closed forms below are for linear springs */
	wd.cg_tolerance = 1e-10;
	wd.threads = 1; /* small systems: no thread overhead */
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
	/* the explicit path's force alone equals the terms' force */
	element_terms full;
	element_terms_clear(&full, 2);
	ms_spring_terms(x, v, spring_rest, spring_k, 2.5, &full);
	vec3 f[2];
	ms_spring_force(x[0], x[1], v[0], v[1], spring_rest, spring_k, 2.5, f);
	for (int a = 0; a < 2; ++a) CHECK(v3_len(v3_sub(f[a], full.f[a])) <= 1e-12 * v3_len(f[a]));
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
	element_terms full;
	element_terms_clear(&full, 3);
	bend_terms_nl(x, v, &full);
	vec3 f[3];
	ms_bend_force(x, v, bend_wt, 3.0, 0.7, 0.05, f);
	for (int a = 0; a < 3; ++a) CHECK(v3_len(v3_sub(f[a], full.f[a])) <= 1e-12 * v3_len(f[a]));
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
	CHECK(w->model.ms_spring_count == 25);
	CHECK(w->model.ms_bend_count == 24);
	for (int32_t k = 0; k < w->model.ms_spring_count; ++k) {
		CHECK_NEAR(w->model.ms_springs[k].k, 50.0, 1e-9);
		CHECK(w->model.ms_springs[k].family == FAMILY_STRETCH_U);
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
	for (int32_t k = 0; k < w->model.ms_spring_count; ++k) counts[w->model.ms_springs[k].family]++;
	CHECK(counts[FAMILY_STRETCH_U] == (nu - 1) * nv);
	CHECK(counts[FAMILY_STRETCH_V] == nu * (nv - 1));
	CHECK(counts[FAMILY_SHEAR] == 2 * (nu - 1) * (nv - 1));
	CHECK(w->model.ms_bend_count == (nu - 2) * nv + nu * (nv - 2));
	double m[20], total = 0.0;
	drape_cloth_get_masses(w, c, m);
	for (int i = 0; i < nu * nv; ++i) total += m[i];
	CHECK_NEAR(total, mat.density * 0.4 * 0.3, 1e-14);
	CHECK_NEAR(m[0], mat.density * 0.05 * 0.05, 1e-15); /* corner: a quarter cell */
	CHECK_NEAR(m[nu + 1], mat.density * 0.1 * 0.1, 1e-15);
	/* Pulling the whole sheet along u: the warp springs' stiffnesses in series/parallel add up
	 * to stretch * width / length. */
	double sum_rows = 0.0;
	for (int32_t k = 0; k < w->model.ms_spring_count; ++k)
		if (w->model.ms_springs[k].family == FAMILY_STRETCH_U && w->model.ms_springs[k].v[0] % nu == 0)
			sum_rows += w->model.ms_springs[k].k;
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
	vec3* x0 = malloc((size_t)w->model.particle_count * sizeof(vec3));
	memcpy(x0, w->state.x, (size_t)w->model.particle_count * sizeof(vec3));
	for (int32_t i = 0; i < w->model.particle_count; ++i) w->state.x[i].x = x0[i].x * (1.0 + eps);
	const double hu = su / (nu - 1), hv = sv / (nv - 1), L2 = hu * hu + hv * hv;
	const double diag = mat.shear * L2 / (2 * hu * hv) * pow(hu * hu * eps / sqrt(L2), 2) * (nu - 1) * (nv - 1);
	CHECK_REL(drape_world_elastic_energy(w), 0.5 * mat.stretch * eps * eps * area + diag, 1e-3, 0.0);
	/* simple shear x += gamma y: the diagonals take shear/2 gamma^2 area (plus O(gamma^2) from
	 * the weft springs' rotation, which is 4th order in their length change) */
	const double gamma = 1e-4;
	drape_material m2 = drape_default_material();
	for (int32_t i = 0; i < w->model.particle_count; ++i) w->state.x[i] = v3(x0[i].x + gamma * x0[i].y, x0[i].y, x0[i].z);
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
	for (int32_t k = 0; k < w->model.ms_spring_count; ++k) w->model.ms_springs[k].kd = 0.05 * w->model.ms_springs[k].k;
	drape_world_step(w, seconds);
	double z1 = w->state.x[n - 1].z;
	drape_world_step(w, dt);
	double z2 = w->state.x[n - 1].z;
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

/* The same question dynamically: a mass on a spring (a two-particle chain, top pinned, no
 * gravity) released stretched oscillates with period 2 pi sqrt(m / k). On-Off with c1 = 2 keeps
 * it; c1 = 3 makes the spring 1.5 times stiffer, the period sqrt(1.5) times shorter. */
static double oscillation_period(drape_integrator integ, double c1, double h)
{
	drape_world_def wd = quiet_world(integ);
	wd.gravity[2] = 0.0;
	wd.max_dt = h;
	wd.adaptive = false;
	wd.onoff_c1 = c1;
	drape_cloth_id c;
	drape_world* w = make_chain(&wd, 2, 1.0, 0.25, 2.0, 0.0, &c); /* k = 2 N/m, m = 0.125 kg */
	if (!w) return NAN;
	w->state.x[1].z -= 0.1;
	double prev = w->state.x[1].z + 1.0, first = -1.0, last = -1.0;
	int crossings = 0;
	/* upward crossings of the rest length, at a time interpolated within the step (sampled after
	 * each pair of steps, so On-Off is always seen after an on-step) */
	for (int k = 1; k <= (int)(12.0 / (2 * h)); ++k) {
		drape_world_step(w, 2 * h);
		double d = w->state.x[1].z + 1.0;
		if (prev < 0.0 && d >= 0.0) {
			double t = drape_world_time(w) - 2 * h * d / (d - prev);
			if (first < 0.0) first = t;
			last = t;
			crossings++;
		}
		prev = d;
	}
	drape_world_destroy(w);
	return crossings > 1 ? (last - first) / (crossings - 1) : NAN;
}

static void test_onoff_period(void)
{
	const double h = 0.002, exact = 2.0 * 3.14159265358979323846 * sqrt(0.125 / 2.0);
	double be = oscillation_period(DRAPE_INTEGRATOR_BACKWARD_EULER, 2.0, h);
	double c2 = oscillation_period(DRAPE_INTEGRATOR_ONOFF_ADI, 2.0, h);
	double c3 = oscillation_period(DRAPE_INTEGRATOR_ONOFF_ADI, 3.0, h);
	printf("    period: exact %.4f s, backward Euler %.4f, on-off c1=2 %.4f, c1=3 %.4f (exact / sqrt(1.5) = %.4f)\n", exact, be, c2,
	       c3, exact / sqrt(1.5));
	CHECK_REL(be, exact, 0.002, 0.0);
	CHECK_REL(c2, exact, 0.002, 0.0);
	CHECK_REL(c3, exact / sqrt(1.5), 0.002, 0.0);
}

/* ---------------------------------------------------------------------------------------------
 * Resolution consistency */

/* A cantilever plate clamped along one edge (two pinned columns) sags under its weight. The bend
 * spring centred on the second pinned column stands for the cell half inside the clamp, so the
 * discrete beam is clamped at h/2 and acts as a beam of length L + h/2: q (L + h/2)^4 / (8 B). */
static double cantilever_tip(int nu, int nv, double free_length, double B, double* beam)
{
	drape_world_def wd = quiet_world(DRAPE_INTEGRATOR_BACKWARD_EULER);
	wd.max_dt = 0.01;
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
	drape_world_step(w, 2.0);
	double tip = 0.0;
	for (int j = 0; j < nv; ++j) tip += w->state.x[j * nu + nu - 1].z / nv;
	drape_world_destroy(w);
	return -tip;
}

/* A hammock: a sheet pinned along both short edges sags under its weight, held by stretch alone
 * (a cable: the sag is set by the stretch stiffness and the load, not by the grid). */
static double hammock_sag(int nu, int nv)
{
	drape_world_def wd = quiet_world(DRAPE_INTEGRATOR_BACKWARD_EULER);
	wd.max_dt = 0.02;
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
	drape_world_step(w, 3.0);
	double mid = 0.0;
	for (int j = 0; j < nv; ++j) mid += w->state.x[j * nu + nu / 2].z / nv;
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

/* ---------------------------------------------------------------------------------------------
 * Line solves */

/* Dense Gaussian elimination with partial pivoting on an n x n row-major matrix. */
static bool dense_solve(int n, double* a, double* b)
{
	for (int c = 0; c < n; ++c) {
		int piv = c;
		for (int r = c + 1; r < n; ++r)
			if (fabs(a[r * n + c]) > fabs(a[piv * n + c])) piv = r;
		if (a[piv * n + c] == 0.0) return false;
		if (piv != c) {
			for (int k = 0; k < n; ++k) {
				double t = a[c * n + k];
				a[c * n + k] = a[piv * n + k];
				a[piv * n + k] = t;
			}
			double t = b[c];
			b[c] = b[piv];
			b[piv] = t;
		}
		for (int r = c + 1; r < n; ++r) {
			double f = a[r * n + c] / a[c * n + c];
			for (int k = c; k < n; ++k) a[r * n + k] -= f * a[c * n + k];
			b[r] -= f * b[c];
		}
	}
	for (int r = n - 1; r >= 0; --r) {
		double s = b[r];
		for (int k = r + 1; k < n; ++k) s -= a[r * n + k] * b[k];
		b[r] = s / a[r * n + r];
	}
	return true;
}

/* The assembled ADI/split line systems, solved line by line with block Thomas, equal a dense
 * solve of the same filtered system [S A S + (I - S)] u = S (b - A z), dv = S u + z, with the
 * left edge point-pinned and one particle on a plane and one on a line constraint. */
static void check_lines_against_dense(drape_integrator integ, int phase)
{
	drape_world_def wd = quiet_world(integ);
	drape_material mat = drape_default_material();
	const int nu = 6, nv = 4;
	drape_cloth_id c;
	drape_world* w = make_ms_sheet(&wd, &mat, nu, nv, 0.5, 0.3, 1, &c);
	CHECK(w != NULL);
	if (!w) return;
	drape_constraint_def plane = drape_default_constraint_def();
	plane.cloth = c;
	plane.vertex = nu + 3;
	plane.kind = DRAPE_CONSTRAINT_PLANE;
	plane.axis[0] = 0.3, plane.axis[1] = 0.2, plane.axis[2] = 1.0;
	drape_constraint_add(w, &plane);
	drape_constraint_def line = plane;
	line.vertex = 2 * nu + 4;
	line.kind = DRAPE_CONSTRAINT_LINE;
	drape_constraint_add(w, &line);
	uint64_t seed = 7;
	for (int32_t i = 0; i < w->model.particle_count; ++i) {
		w->state.x[i] = v3_add(w->state.x[i], v3(0.02 * fixture_rand(&seed), 0.02 * fixture_rand(&seed), 0.03 * fixture_rand(&seed)));
		w->state.v[i] = v3(0.3 * fixture_rand(&seed), 0.3 * fixture_rand(&seed), 0.3 * fixture_rand(&seed));
	}
	CHECK(workspace_prepare(w) == DRAPE_OK);
	const double h = 0.02;
	constraints_prepare(w, 0.0, h);
	w->state.adi_phase = phase;
	step_scheme sc;
	integrator_scheme(w, &sc);
	const int dir = sc.solve == SOLVE_LINES_V ? 1 : 0;
	assemble_pass(w, 0.0, h, &sc.pass[integ == DRAPE_INTEGRATOR_SPLIT ? phase : 0]);
	if (integ == DRAPE_INTEGRATOR_SPLIT && phase == 1)
		for (int32_t i = 0; i < w->model.particle_count; ++i) w->work.b[i] = v3(fixture_rand(&seed), fixture_rand(&seed), fixture_rand(&seed));
	const int split_dir = integ == DRAPE_INTEGRATOR_SPLIT ? phase : dir;
	const int32_t n = w->model.particle_count, N = 3 * n;
	vec3* dv = malloc((size_t)n * sizeof(vec3));
	CHECK(line_solve(w, split_dir, w->work.b, dv));
	double* a = calloc((size_t)N * N, sizeof(double));
	double* full = calloc((size_t)N * N, sizeof(double));
	double* r = calloc((size_t)N, sizeof(double));
	for (int32_t i = 0; i < n; ++i)
		for (int32_t s2 = w->work.A.row_start[i]; s2 < w->work.A.row_start[i + 1]; ++s2) {
			int32_t j = w->work.A.cols[s2];
			for (int p = 0; p < 3; ++p)
				for (int q = 0; q < 3; ++q) full[(3 * i + p) * N + 3 * j + q] = w->work.A.blocks[s2].m[p][q];
		}
	/* S A S + (I - S) and S (b - A z) */
	for (int32_t i = 0; i < n; ++i) {
		mat3 Si = w->work.constrained[i] ? w->work.S[i] : m3_identity();
		vec3 az = v3_zero();
		for (int32_t j = 0; j < n; ++j) {
			mat3 Aij;
			for (int p = 0; p < 3; ++p)
				for (int q = 0; q < 3; ++q) Aij.m[p][q] = full[(3 * i + p) * N + 3 * j + q];
			az = v3_add(az, m3_mulv(Aij, w->work.z[j]));
			mat3 Sj = w->work.constrained[j] ? w->work.S[j] : m3_identity();
			mat3 blk = m3_mul(Si, m3_mul(Aij, Sj));
			if (i == j) blk = m3_add(blk, m3_sub(m3_identity(), Si));
			for (int p = 0; p < 3; ++p)
				for (int q = 0; q < 3; ++q) a[(3 * i + p) * N + 3 * j + q] = blk.m[p][q];
		}
		vec3 ri = m3_mulv(Si, v3_sub(w->work.b[i], az));
		r[3 * i] = ri.x, r[3 * i + 1] = ri.y, r[3 * i + 2] = ri.z;
	}
	CHECK(dense_solve(N, a, r));
	double worst = 0.0, scale = 0.0;
	for (int32_t i = 0; i < n; ++i) {
		vec3 u = v3(r[3 * i], r[3 * i + 1], r[3 * i + 2]);
		vec3 want = w->work.constrained[i] ? v3_add(m3_mulv(w->work.S[i], u), w->work.z[i]) : u;
		worst = fmax(worst, v3_len(v3_sub(want, dv[i])));
		scale = fmax(scale, v3_len(want));
		/* pinned particles get exactly z */
		if (i % nu == 0) CHECK(v3_len(v3_sub(dv[i], w->work.z[i])) == 0.0);
	}
	CHECK(scale > 1e-3);
	CHECK(worst <= 1e-10 * scale);
	/* and the system really is line-only: no block couples particles of different lines */
	int cross = 0;
	for (int32_t i = 0; i < n; ++i)
		for (int32_t s2 = w->work.A.row_start[i]; s2 < w->work.A.row_start[i + 1]; ++s2) {
			int32_t j = w->work.A.cols[s2];
			bool same_line = split_dir == 0 ? (i / nu == j / nu) : (i % nu == j % nu);
			if (same_line) continue;
			for (int p = 0; p < 3; ++p)
				for (int q = 0; q < 3; ++q) cross += w->work.A.blocks[s2].m[p][q] != 0.0;
		}
	CHECK(cross == 0);
	free(dv);
	free(a);
	free(full);
	free(r);
	drape_world_destroy(w);
}

static void test_line_solves_match_dense(void)
{
	check_lines_against_dense(DRAPE_INTEGRATOR_CN_ADI, 0);
	check_lines_against_dense(DRAPE_INTEGRATOR_CN_ADI, 1);
	check_lines_against_dense(DRAPE_INTEGRATOR_ONOFF_ADI, 0);
	check_lines_against_dense(DRAPE_INTEGRATOR_ONOFF_ADI, 1);
	check_lines_against_dense(DRAPE_INTEGRATOR_SPLIT, 0); /* split's warp sweep */
	check_lines_against_dense(DRAPE_INTEGRATOR_SPLIT, 1); /* and its weft sweep's matrix */
}

/* ---------------------------------------------------------------------------------------------
 * Integrators against each other */

/* Positions after `seconds` of a falling sheet with step h: a triangle sheet pinned at two corners,
 * a mass-spring sheet clamped along one edge. */
static void swing(drape_integrator integ, drape_cloth_model model, double h, double seconds, double* out)
{
	drape_world_def wd = quiet_world(integ);
	wd.max_dt = h;
	wd.adaptive = false;
	drape_material mat = drape_default_material();
	mat.bend_u = mat.bend_v = 2e-3; /* bend matters */
	drape_world* w;
	drape_cloth_id c;
	if (model == DRAPE_MODEL_TRIANGLES) {
		w = make_sheet(&wd, &mat, 7, 0.3, true, &c);
	} else {
		/* clamped along one edge and falling: bend matters, and nothing buckles (a sheet hung
		 * by two corners wrinkles, and its wrinkles do not converge with h) */
		w = make_ms_sheet(&wd, &mat, 7, 7, 0.3, 0.3, 2, &c);
	}
	CHECK(w != NULL);
	if (!w) return;
	CHECK(drape_world_step(w, seconds) == DRAPE_OK);
	drape_cloth_get_positions(w, c, out);
	drape_world_destroy(w);
}

static void imex_converges(drape_cloth_model model)
{
	/* explicit shear needs h below ~sqrt(m / k_shear) = 5 ms here (sec. 2.3) */
	const double T = 0.2;
	double be[2][3 * 49], bend[2][3 * 49], bs[2][3 * 49];
	const double hs[2] = {0.002, 0.0005};
	for (int k = 0; k < 2; ++k) {
		swing(DRAPE_INTEGRATOR_BACKWARD_EULER, model, hs[k], T, be[k]);
		swing(DRAPE_INTEGRATOR_IMEX_BEND, model, hs[k], T, bend[k]);
		swing(DRAPE_INTEGRATOR_IMEX_BEND_SHEAR, model, hs[k], T, bs[k]);
	}
	double d1[2], d2[2];
	for (int k = 0; k < 2; ++k) {
		d1[k] = max_abs_diff(be[k], bend[k], 3 * 49);
		d2[k] = max_abs_diff(be[k], bs[k], 3 * 49);
	}
	printf("    %s: |imex_bend - be| %.2e -> %.2e, |imex_bend_shear - be| %.2e -> %.2e (h %.3f -> %.3f)\n",
	       model == DRAPE_MODEL_TRIANGLES ? "triangles" : "mass_spring", d1[0], d1[1], d2[0], d2[1], hs[0], hs[1]);
	/* both first order: the gap shrinks about in proportion to h (4x here) */
	CHECK(d1[0] > 0.0 && d2[0] > 0.0);
	CHECK(d1[1] < 0.5 * d1[0]);
	CHECK(d2[1] < 0.5 * d2[0]);
	CHECK(d1[1] < 5e-3 && d2[1] < 5e-3);
}

static void test_imex_converges_to_implicit(void)
{
	imex_converges(DRAPE_MODEL_MASS_SPRING);
	imex_converges(DRAPE_MODEL_TRIANGLES);
}

/* Forward and symplectic Euler, the line schemes and backward Euler approach one solution. */
static void test_all_integrators_agree_at_small_steps(void)
{
	/* below the explicit limit sqrt(m / k_s) = 0.5 ms of the stretch springs */
	const double T = 0.05, h = 1e-4;
	double ref[3 * 49], x[3 * 49];
	swing(DRAPE_INTEGRATOR_BACKWARD_EULER, DRAPE_MODEL_MASS_SPRING, h, T, ref);
	for (int i = DRAPE_INTEGRATOR_FORWARD_EULER; i < DRAPE_INTEGRATOR_COUNT; ++i) {
		swing((drape_integrator)i, DRAPE_MODEL_MASS_SPRING, h, T, x);
		double d = max_abs_diff(ref, x, 3 * 49);
		printf("    %-18s max |x - x_be| = %.2e m\n", drape_integrator_name((drape_integrator)i), d);
		CHECK(d < 1e-3);
	}
	/* the triangle model with the integrators that do not need grid lines */
	swing(DRAPE_INTEGRATOR_BACKWARD_EULER, DRAPE_MODEL_TRIANGLES, h, T, ref);
	for (int i = DRAPE_INTEGRATOR_FORWARD_EULER; i <= DRAPE_INTEGRATOR_IMEX_BEND_SHEAR; ++i) {
		swing((drape_integrator)i, DRAPE_MODEL_TRIANGLES, h, T, x);
		double d = max_abs_diff(ref, x, 3 * 49);
		printf("    triangles %-18s max |x - x_be| = %.2e m\n", drape_integrator_name((drape_integrator)i), d);
		CHECK(d < 1e-3);
	}
}

/* A symplectic Euler step far beyond sqrt(m / k_s) blows up; adaptive stepping rejects the steps
 * (nothing non-finite is ever accepted) and halves down to a stable size. */
static void test_explicit_blowup_rejected(void)
{
	drape_world_def wd = quiet_world(DRAPE_INTEGRATOR_SYMPLECTIC_EULER);
	wd.max_dt = 1.0 / 30.0;
	drape_cloth_id c;
	drape_world* w = make_chain(&wd, 11, 1.0, 0.25, 200.0, 0.0, &c); /* sqrt(m/k) = 3.5 ms */
	CHECK(w != NULL);
	if (!w) return;
	CHECK(drape_world_step(w, 0.5) == DRAPE_OK);
	drape_stats st = drape_world_get_stats(w);
	CHECK(st.rejected > 0);
	CHECK(w->state.control.dt < 0.0036);
	/* the hanging chain holds about m g sag = 0.015 J; a blow-up would hold ~1e80 */
	double e = drape_world_kinetic_energy(w) + drape_world_elastic_energy(w);
	printf("    %lld steps, %lld rejected, dt now %.2e s, energy %.3e J\n", (long long)st.steps, (long long)st.rejected,
	       w->state.control.dt, e);
	CHECK(isfinite(e) && e < 1.0);
	drape_world_destroy(w);
	/* Without adaptive stepping the divergence test still rejects blown-up steps; with min_dt
	 * above the stable step the run stops with DRAPE_ERROR_DIVERGED at the last good state. */
	wd.adaptive = false;
	w = make_chain(&wd, 11, 1.0, 0.25, 200.0, 0.0, &c);
	CHECK(drape_world_step(w, 0.5) == DRAPE_OK);
	e = drape_world_kinetic_energy(w) + drape_world_elastic_energy(w);
	printf("    adaptive off: %lld rejected, energy %.3e J\n", (long long)drape_world_get_stats(w).rejected, e);
	CHECK(drape_world_get_stats(w).rejected > 0);
	CHECK(isfinite(e) && e < 1.0);
	drape_world_destroy(w);
	wd.min_dt = 0.01;
	w = make_chain(&wd, 11, 1.0, 0.25, 200.0, 0.0, &c);
	drape_status s = drape_world_step(w, 5.0);
	CHECK(s == DRAPE_ERROR_DIVERGED);
	CHECK(strstr(drape_world_error(w), "diverged") != NULL);
	CHECK(strstr(drape_world_error(w), "spring") != NULL);
	printf("    %s\n", drape_world_error(w));
	e = drape_world_kinetic_energy(w) + drape_world_elastic_energy(w);
	CHECK(isfinite(e) && e < 1.0);
	drape_world_destroy(w);
}

/* Impossible combinations are refused with messages naming the culprit. */
static void test_rejected_combinations(void)
{
	drape_world_def wd = drape_default_world_def();
	wd.integrator = DRAPE_INTEGRATOR_SPLIT;
	CHECK(drape_world_create(&wd) == NULL); /* self_collision on by default */
	wd.self_collision = false;
	drape_world* w = drape_world_create(&wd);
	CHECK(w != NULL);
	drape_grid_def g = drape_default_grid_def();
	g.resolution[0] = g.resolution[1] = 4;
	drape_mesh mesh;
	drape_mesh_make_grid(&g, &mesh, NULL, 0);
	drape_cloth_def cd = drape_default_cloth_def();
	cd.mesh = &mesh;
	cd.name = "skirt";
	drape_cloth_id c = drape_cloth_add(w, &cd);
	CHECK(c.index < 0);
	CHECK(strstr(drape_world_error(w), "skirt") && strstr(drape_world_error(w), "split"));
	cd.model = DRAPE_MODEL_MASS_SPRING;
	cd.grid[0] = 4;
	cd.grid[1] = 5; /* wrong */
	CHECK(drape_cloth_add(w, &cd).index < 0);
	CHECK(strstr(drape_world_error(w), "4 x 5") != NULL);
	cd.grid[1] = 4;
	CHECK(drape_cloth_add(w, &cd).index == 0);
	drape_mesh_free(&mesh);
	drape_world_destroy(w);
	wd.integrator = DRAPE_INTEGRATOR_COUNT;
	CHECK(drape_world_create(&wd) == NULL);
	wd.integrator = DRAPE_INTEGRATOR_ONOFF_ADI;
	wd.onoff_c1 = 0.0;
	CHECK(drape_world_create(&wd) == NULL);
	for (int i = 0; i < DRAPE_INTEGRATOR_COUNT; ++i) {
		drape_integrator back;
		CHECK(drape_integrator_from_name(drape_integrator_name((drape_integrator)i), &back) && back == (drape_integrator)i);
	}
	CHECK(drape_integrator_name(DRAPE_INTEGRATOR_COUNT) == NULL);
}

/* ---------------------------------------------------------------------------------------------
 * Scene files */

static void test_scene_keys(void)
{
	scene s;
	char err[1024];
	CHECK(scene_load_text(q("{'solver': {'integrator': 'onoff_adi', 'onoff_c1': 3, 'max_dt': 0.001},"
				"'cloths': [{'model': 'mass_spring', 'nonlinear_bend': true, 'bend_kappa1': 5,"
				"'grid': {'resolution': [8, 1], 'size': [1, 1]}, 'pins': [{'edge': 'left'}]}]}"),
			      "test.json", &s, err, sizeof err));
	CHECK(s.world.integrator == DRAPE_INTEGRATOR_ONOFF_ADI && s.world.onoff_c1 == 3.0);
	CHECK(!s.world.self_collision); /* off by default for the line schemes */
	CHECK(s.cloths[0].model == DRAPE_MODEL_MASS_SPRING && s.cloths[0].nonlinear_bend && s.cloths[0].bend_kappa1 == 5.0);
	CHECK(s.constraint_count == 1);
	drape_world* w = scene_build_world(&s, err, sizeof err);
	CHECK(w != NULL);
	if (w) {
		CHECK(w->model.ms_spring_count == 7 && w->model.ms_bend_count == 6 && w->model.ms_bends[0].s > 0.0);
		CHECK(drape_world_step(w, 0.01) == DRAPE_OK);
		drape_world_destroy(w);
	}
	scene_free(&s);

	static const struct {
		const char* json;
		const char* expect;
	} bad[] = {
		{"{'solver': {'integrator': 'adi'}, 'cloths': [{'grid': {}}]}", "test.json:1: solver.integrator: unknown integrator 'adi'"},
		{"{'solver': {'onoff_c1': 0}, 'cloths': [{'grid': {}}]}", "solver.onoff_c1: must be > 0"},
		{"{'cloths': [{'model': 'springs', 'grid': {}}]}", "cloths[0].model: unknown model 'springs' (triangles, mass_spring)"},
		{"{'cloths': [{'nonlinear_bend': true, 'grid': {}}]}", "cloths[0].nonlinear_bend: nonlinear bend springs belong to model 'mass_spring'"},
		{"{'cloths': [{'grid': {'resolution': [5, 1]}}]}", "a grid with 1 particle along v is a chain"},
		{"{'cloths': [{'model': 'mass_spring', 'mesh': {'file': 'a.obj'}}]}", "model 'mass_spring' needs a 'grid'"},
		{"{'solver': {'integrator': 'split'}, 'cloth_contact': {'enabled': true}, 'cloths': [{'grid': {}}]}",
		 "cloth_contact.enabled: cloth/cloth contact needs integrator backward_euler, imex_bend or imex_bend_shear, not split"},
	};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
		CHECK(!scene_load_text(q(bad[k].json), "test.json", &s, err, sizeof err));
		CHECK_HAS(err, bad[k].expect);
	}
	/* A triangles cloth under a line scheme is refused when the world is built, naming it. */
	CHECK(scene_load_text(q("{'solver': {'integrator': 'cn_adi'}, 'cloths': [{'name': 'cape', 'grid': {}}]}"), "test.json", &s,
			      err, sizeof err));
	CHECK(scene_build_world(&s, err, sizeof err) == NULL);
	CHECK_HAS(err, "cloths[0] 'cape': cloth 'cape' uses the triangles model, but the cn_adi integrator");
	scene_free(&s);
}

/* Solid contact with every integrator: a mass-spring sheet dropped on a floor comes to rest on
 * it (its thickness above z = 0), through the same contact constraints as backward Euler. */
static void test_solid_contact_all_integrators(void)
{
	for (int i = 0; i < DRAPE_INTEGRATOR_COUNT; ++i) {
		char json[1024];
		snprintf(json, sizeof json,
			 "{'solver': {'integrator': '%s', 'max_dt': 0.0005}, 'cloth_contact': {'enabled': false},"
			 "'cloths': [{'model': 'mass_spring', 'grid': {'resolution': [6, 6], 'size': [0.3, 0.3], 'center': [0, 0, 0.03]},"
			 "'material': {'stretch': 100, 'shear': 5, 'stretch_damping': 0.2}}],"
			 "'solids': [{'shape': 'plane', 'thickness': 0.005, 'friction': 0.5}]}",
			 drape_integrator_name((drape_integrator)i));
		scene s;
		char err[1024];
		CHECK(scene_load_text(q(json), "test.json", &s, err, sizeof err));
		drape_world* w = scene_build_world(&s, err, sizeof err);
		CHECK(w != NULL);
		if (!w) {
			scene_free(&s);
			continue;
		}
		CHECK(drape_world_step(w, 0.3) == DRAPE_OK);
		double lo = 1.0, hi = -1.0;
		for (int32_t k = 0; k < w->model.particle_count; ++k) lo = fmin(lo, w->state.x[k].z), hi = fmax(hi, w->state.x[k].z);
		drape_stats st = drape_world_get_stats(w);
		printf("    %-18s z in [%.5f, %.5f], %d in contact, KE %.2e\n", drape_integrator_name((drape_integrator)i), lo, hi,
		       st.solid_contacts, drape_world_kinetic_energy(w));
		CHECK(lo > 0.004 && hi < 0.0051);
		CHECK(st.solid_contacts == 36);
		drape_world_destroy(w);
		scene_free(&s);
	}
}

/* The shipped mass-spring scene loads, builds and runs a few steps with the split scheme. */
static void test_shipped_scene(void)
{
	scene s;
	char err[1024];
	CHECK(scene_load_file(DRAPE_SOURCE_DIR "/scenes/mass_spring_sheet.json", &s, err, sizeof err));
	CHECK(s.world.integrator == DRAPE_INTEGRATOR_SPLIT);
	drape_world* w = scene_build_world(&s, err, sizeof err);
	CHECK(w != NULL);
	if (w) {
		CHECK(drape_world_step(w, 0.05) == DRAPE_OK);
		CHECK(drape_world_get_stats(w).rejected == 0);
		/* the pinned corners stay exactly put */
		const drape_mesh* m = drape_cloth_mesh(w, (drape_cloth_id){0});
		int32_t nu = s.cloths[0].grid_resolution[0], nv = s.cloths[0].grid_resolution[1];
		int32_t corner = (nv - 1) * nu;
		CHECK(w->state.x[corner].x == m->positions[3 * corner] && w->state.x[corner].z == m->positions[3 * corner + 2]);
		drape_world_destroy(w);
	}
	scene_free(&s);
}

/* Lines are solved in parallel with per-thread scratch: the result does not depend on the
 * thread count (a grid large enough for the parallel paths). */
static void test_split_thread_invariant(void)
{
	double* x[2] = {NULL, NULL};
	const int nu = 48, nv = 46;
	for (int k = 0; k < 2; ++k) {
		drape_world_def wd = quiet_world(DRAPE_INTEGRATOR_SPLIT);
		wd.threads = k + 1;
		wd.max_dt = 0.001;
		drape_material mat = drape_default_material();
		drape_cloth_id c;
		drape_world* w = make_ms_sheet(&wd, &mat, nu, nv, 1.0, 1.0, 1, &c);
		CHECK(w != NULL);
		if (!w) return;
		CHECK(drape_world_step(w, 0.005) == DRAPE_OK);
		x[k] = malloc(3 * (size_t)nu * nv * sizeof(double));
		drape_cloth_get_positions(w, c, x[k]);
		drape_world_destroy(w);
	}
	CHECK(memcmp(x[0], x[1], 3 * (size_t)nu * nv * sizeof(double)) == 0);
	free(x[0]);
	free(x[1]);
}

const test_case mass_spring_tests[] = {
	{"spring_derivatives", test_spring_derivatives},
	{"bend_spring_derivatives", test_bend_spring_derivatives},
	{"rod_constants_match_table2", test_rod_constants_match_table2},
	{"grid_springs_and_masses", test_grid_springs_and_masses},
	{"grid_energy_matches_continuum", test_grid_energy_matches_continuum},
	{"chain_sag_backward_euler", test_chain_sag_backward_euler},
	{"onoff_c1", test_onoff_c1},
	{"onoff_period", test_onoff_period},
	{"resolution_consistent_sag", test_resolution_consistent_sag},
	{"line_solves_match_dense", test_line_solves_match_dense},
	{"imex_converges_to_implicit", test_imex_converges_to_implicit},
	{"all_integrators_agree_at_small_steps", test_all_integrators_agree_at_small_steps},
	{"explicit_blowup_rejected", test_explicit_blowup_rejected},
	{"rejected_combinations", test_rejected_combinations},
	{"scene_keys", test_scene_keys},
	{"shipped_scene", test_shipped_scene},
	{"solid_contact_all_integrators", test_solid_contact_all_integrators},
	{"split_thread_invariant", test_split_thread_invariant},
	{NULL, NULL},
};
