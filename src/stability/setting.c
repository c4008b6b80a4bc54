/* The settings of the stability experiments (Boxerman 2003, sec. 6.3-6.5): a 1 m rod with the
 * paper's EA = 2 N and rho = 0.25 kg/m, as the finite-difference PDE or as a mass-spring chain, and
 * a 1 m x 1 m mass-spring sheet of the same fibres. The left end (edge) is pinned, g = 9.8 m/s^2
 * and F = 1 N act on the right end (on one right-hand corner of the sheet); no damping, no drag,
 * no shear or bend stiffness, fixed steps. */
#include "stability/stability.h"

#include "stability/wave1d.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The paper's rod (sec. 6.1, Tables 1-2). The sheet is made of such fibres FIBRE_SPACING apart in
 * both directions, so at the default grid its particles and springs are Table 2's first row. */
#define ROD_EA 2.0
#define ROD_RHO 0.25
#define GRAVITY 9.8
#define FORCE 1.0
#define FIBRE_SPACING 0.04

static const char* const setting_names[DRAPE_STAB_SETTING_COUNT] = {"wave1d", "rod1d", "sheet2d", "sheet3d"};

const char* drape_stab_setting_name(drape_stab_setting s) { return (int)s >= 0 && s < DRAPE_STAB_SETTING_COUNT ? setting_names[s] : "?"; }

bool drape_stab_setting_from_name(const char* name, drape_stab_setting* out)
{
	for (int s = 0; s < DRAPE_STAB_SETTING_COUNT; ++s)
		if (strcmp(name, setting_names[s]) == 0) {
			*out = (drape_stab_setting)s;
			return true;
		}
	return false;
}

double drape_stab_paper_limit(drape_integrator integrator, drape_stab_setting s)
{
	bool one_d = s == DRAPE_STAB_WAVE1D || s == DRAPE_STAB_ROD1D;
	switch (integrator) {
	case DRAPE_INTEGRATOR_BACKWARD_EULER: return INFINITY;
	case DRAPE_INTEGRATOR_SYMPLECTIC_EULER: return one_d ? 1.0 : 0.63;
	case DRAPE_INTEGRATOR_CN_ADI: return one_d ? 2.0 / 3.0 : NAN;
	case DRAPE_INTEGRATOR_ONOFF_ADI: return one_d ? INFINITY : 1.2;
	case DRAPE_INTEGRATOR_SPLIT: return one_d ? NAN : 2.3;
	default: return NAN;
	}
}

/* The PDE counterpart of an integrator (sec. 3.2: eq. 7 is symplectic Euler, eq. 13 backward
 * Euler), or -1. */
static int pde_scheme(drape_integrator integrator)
{
	switch (integrator) {
	case DRAPE_INTEGRATOR_SYMPLECTIC_EULER: return WAVE1D_EXPLICIT;
	case DRAPE_INTEGRATOR_BACKWARD_EULER: return WAVE1D_IMPLICIT;
	case DRAPE_INTEGRATOR_CN_ADI: return WAVE1D_CN_ADI;
	case DRAPE_INTEGRATOR_ONOFF_ADI: return WAVE1D_ONOFF;
	default: return -1;
	}
}

bool drape_stab_applicable(drape_stab_setting s, drape_integrator integrator)
{
	if ((int)integrator < 0 || integrator >= DRAPE_INTEGRATOR_COUNT) return false;
	return s != DRAPE_STAB_WAVE1D || pde_scheme(integrator) >= 0;
}

/* Interior particle mass over stretch spring constant: m = rho h, k_s = EA / h on the rod; on the
 * sheet m = (rho / s) h^2 and k_s = EA / s for fibre spacing s; both give h sqrt(rho / EA). */
double drape_stab_unit(drape_stab_setting s, int32_t grid)
{
	(void)s;
	double h = 1.0 / (grid - 1);
	return h * sqrt(ROD_RHO / ROD_EA);
}

static bool create_pde(drape_stab_case* c, double onoff_c1, char* err, size_t err_size)
{
	wave1d_def d = wave1d_default_def();
	d.ea = ROD_EA;
	d.rho = ROD_RHO;
	d.gravity = GRAVITY;
	d.force = FORCE;
	d.length = 1.0;
	d.cells = c->grid - 1;
	d.dt = c->dt;
	d.scheme = (wave1d_scheme)pde_scheme(c->integrator);
	drape_world_def wd = drape_default_world_def();
	d.c1 = onoff_c1 > 0.0 ? onoff_c1 : wd.onoff_c1;
	/* The world's ADI schemes start with the warp (the rod's only) family implicit. */
	d.implicit_first = true;
	wave1d* w = malloc(sizeof *w);
	if (!w) {
		snprintf(err, err_size, "out of memory");
		return false;
	}
	if (!wave1d_init(w, &d, NULL, NULL, err, err_size)) {
		free(w);
		return false;
	}
	c->pde = w;
	c->particles = d.cells;
	return true;
}

/* Frees what the case holds, not the case. */
static void release(drape_stab_case* c)
{
	if (c->world) drape_world_destroy(c->world);
	if (c->pde) {
		wave1d_free(c->pde);
		free(c->pde);
	}
	free(c->x);
	c->world = NULL;
	c->pde = NULL;
	c->x = NULL;
}

static bool fail(drape_stab_case* c, char* err, size_t err_size, const char* what)
{
	snprintf(err, err_size, "%s %s: %s", drape_stab_setting_name(c->setting), drape_integrator_name(c->integrator), what);
	release(c);
	return false;
}

/* Fills a zeroed case; on failure it holds nothing. */
static bool init(drape_stab_case* c, drape_stab_setting s, drape_integrator integrator, int32_t grid, double dt,
		 int32_t threads, double cg_tolerance, double onoff_c1, char* err, size_t err_size)
{
	c->setting = s;
	c->integrator = integrator;
	c->grid = grid;
	c->dt = dt;
	c->unit = drape_stab_unit(s, grid);
	if (!drape_stab_applicable(s, integrator)) {
		snprintf(err, err_size, "%s has no %s scheme", drape_stab_setting_name(s), drape_integrator_name(integrator));
		return false;
	}
	if (grid < 3) {
		snprintf(err, err_size, "the grid needs at least 3 particles, got %d", grid);
		return false;
	}
	c->x = malloc(3 * (size_t)grid * sizeof(double));
	if (!c->x) return fail(c, err, err_size, "out of memory");
	if (s == DRAPE_STAB_WAVE1D) {
		if (!create_pde(c, onoff_c1, err, err_size)) {
			release(c);
			return false;
		}
		return true;
	}

	const bool rod = s == DRAPE_STAB_ROD1D;
	drape_world_def wd = drape_default_world_def();
	/* 2D: everything along +x, in the sheet's plane (as on the rod); 3D: out of the plane. */
	wd.gravity[0] = s == DRAPE_STAB_SHEET3D ? 0.0 : GRAVITY;
	wd.gravity[1] = 0.0;
	wd.gravity[2] = s == DRAPE_STAB_SHEET3D ? -GRAVITY : 0.0;
	wd.max_dt = wd.min_dt = dt; /* fixed steps: a rejected step is reported, not hidden */
	wd.adaptive = false;
	/* The integrators themselves are studied (ADI Cloth sec. 6.5): strain limiting would hold a
	 * diverging scheme together (docs/stability.md). */
	wd.strain_limit = 0.0;
	wd.threads = threads;
	wd.integrator = integrator;
	wd.self_collision = false;
	if (cg_tolerance > 0.0) wd.cg_tolerance = cg_tolerance;
	if (onoff_c1 > 0.0) wd.onoff_c1 = onoff_c1;
	drape_def_error bad;
	if (drape_world_def_check(&wd, &bad) != DRAPE_OK) {
		char what[320];
		snprintf(what, sizeof what, "world settings: %s: %s", bad.field, bad.reason);
		return fail(c, err, err_size, what);
	}
	c->world = drape_world_create(&wd);
	if (!c->world) return fail(c, err, err_size, "out of memory creating the world");

	drape_mesh mesh;
	memset(&mesh, 0, sizeof mesh);
	char merr[256];
	/* The rod along x from 0 to 1 m (a grid with nv = 1), or the sheet on [0, 1]^2 in the xy plane. */
	drape_grid_def gd = drape_default_grid_def();
	gd.size[0] = gd.size[1] = 1.0;
	gd.resolution[0] = grid;
	gd.resolution[1] = rod ? 1 : grid;
	gd.center[0] = 0.5;
	gd.center[1] = 0.5; /* a grid with nv = 1 lies at v = 0, i.e. y = center - size / 2 = 0 */
	gd.center[2] = 0.0;
	gd.u_axis[0] = 1.0, gd.u_axis[1] = gd.u_axis[2] = 0.0;
	gd.v_axis[1] = 1.0, gd.v_axis[0] = gd.v_axis[2] = 0.0;
	if (drape_mesh_make_grid(&gd, &mesh, merr, sizeof merr) != DRAPE_OK) return fail(c, err, err_size, merr);
	drape_cloth_def cd = drape_default_cloth_def();
	cd.mesh = &mesh;
	cd.model = DRAPE_MODEL_MASS_SPRING;
	cd.grid[0] = grid;
	cd.grid[1] = rod ? 1 : grid;
	drape_material* mat = &cd.material;
	memset(mat, 0, sizeof *mat);
	/* A chain is 1 m wide (docs/mass-spring.md): density in kg/m and stretch as EA. */
	mat->density = rod ? ROD_RHO : ROD_RHO / FIBRE_SPACING;
	mat->stretch = rod ? ROD_EA : ROD_EA / FIBRE_SPACING;
	drape_cloth_id cloth = drape_cloth_add(c->world, &cd);
	drape_mesh_free(&mesh);
	if (cloth.index < 0) return fail(c, err, err_size, drape_world_error(c->world));
	c->particles = drape_cloth_vertex_count(c->world, cloth);

	/* Left end / edge: vertices (0, j), index j * grid. */
	for (int32_t j = 0; j < (rod ? 1 : grid); ++j) {
		drape_constraint_def pin = drape_default_constraint_def();
		pin.cloth = cloth;
		pin.vertex = j * grid;
		if (drape_constraint_add(c->world, &pin).index < 0) return fail(c, err, err_size, drape_world_error(c->world));
	}
	/* F on the right end / the corner (grid - 1, 0): a spring of zero stiffness with a force. */
	drape_spring_def f = drape_default_spring_def();
	f.cloth = cloth;
	f.vertex = grid - 1;
	f.stiffness = 0.0;
	f.damping = 0.0;
	f.force[0] = s == DRAPE_STAB_SHEET3D ? 0.0 : FORCE;
	f.force[2] = s == DRAPE_STAB_SHEET3D ? -FORCE : 0.0;
	if (drape_spring_add(c->world, &f).index < 0) return fail(c, err, err_size, drape_world_error(c->world));
	return true;
}

drape_stab_case* drape_stab_case_create(drape_stab_setting s, drape_integrator integrator, int32_t grid, double dt,
					int32_t threads, double cg_tolerance, double onoff_c1, char* err, size_t err_size)
{
	drape_stab_case* c = calloc(1, sizeof *c);
	if (!c) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	if (init(c, s, integrator, grid, dt, threads, cg_tolerance, onoff_c1, err, err_size)) return c;
	free(c);
	return NULL;
}

void drape_stab_case_destroy(drape_stab_case* c)
{
	if (!c) return;
	release(c);
	free(c);
}

drape_world* drape_stab_case_world(const drape_stab_case* c) { return c->world; }

bool drape_stab_case_step(drape_stab_case* c)
{
	if (c->pde) return wave1d_step(c->pde);
	return drape_world_step(c->world, c->dt) == DRAPE_OK;
}

double drape_stab_case_energy(const drape_stab_case* c)
{
	if (c->pde) return wave1d_energy(c->pde);
	return drape_world_kinetic_energy(c->world) + drape_world_elastic_energy(c->world);
}

bool drape_stab_case_tangled(drape_stab_case* c)
{
	const int32_t n = c->grid;
	const double h = 1.0 / (n - 1), shortest = 0.25 * h;
	if (c->pde) {
		const wave1d* w = c->pde;
		for (int32_t j = 0; j + 1 < n; ++j)
			if (h + w->u[j + 1] - w->u[j] < shortest) return true;
		return false;
	}
	if (c->setting != DRAPE_STAB_ROD1D) return false;
	double* x = c->x;
	drape_cloth_get_positions(c->world, (drape_cloth_id){0}, x);
	for (int32_t j = 0; j + 1 < n; ++j)
		if (x[3 * (j + 1)] - x[3 * j] < shortest) return true;
	return false;
}
