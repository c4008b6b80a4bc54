/* Test fixtures: the figure 2 sheet built through the public API. */
#include "fixtures.h"

#include "step/constraints.h"
#include "step/implicit.h"
#include "world.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

drape_world* make_sheet(const drape_world_def* wdef, const drape_material* mat, int res, double size, bool pin_corners,
			drape_cloth_id* cloth)
{
	return make_sheet_bent(wdef, mat, res, size, pin_corners, cloth, drape_default_cloth_def().bend_model);
}

drape_world* make_sheet_bent(const drape_world_def* wdef, const drape_material* mat, int res, double size,
			     bool pin_corners, drape_cloth_id* cloth, drape_bend_model bend_model)
{
	drape_grid_def g = drape_default_grid_def();
	g.size[0] = g.size[1] = size;
	g.resolution[0] = g.resolution[1] = res;
	g.center[2] = 1.0;
	drape_mesh mesh;
	char err[256];
	if (drape_mesh_make_grid(&g, &mesh, err, sizeof err) != DRAPE_OK) {
		fprintf(stderr, "make_sheet: %s\n", err);
		return NULL;
	}
	drape_world* w = drape_world_create(wdef);
	drape_cloth_def cd = drape_default_cloth_def();
	cd.mesh = &mesh;
	if (mat) cd.material = *mat;
	cd.bend_model = bend_model;
	cd.name = "sheet";
	drape_cloth_id id = drape_cloth_add(w, &cd);
	drape_mesh_free(&mesh);
	if (id.index < 0) {
		fprintf(stderr, "make_sheet: %s\n", drape_world_error(w));
		drape_world_destroy(w);
		return NULL;
	}
	if (pin_corners) {
		int corners[2] = {(res - 1) * res, res * res - 1};
		for (int k = 0; k < 2; ++k) {
			drape_constraint_def c = drape_default_constraint_def();
			c.cloth = id;
			c.vertex = corners[k];
			drape_constraint_add(w, &c);
		}
	}
	if (cloth) *cloth = id;
	return w;
}

drape_world* fixture_assembled_sheet(const drape_world_def* wdef, drape_bend_model bend_model, int res, double h,
				     uint64_t seed, bool pins)
{
	drape_world* w = make_sheet_bent(wdef, NULL, res, 0.5, pins, NULL, bend_model);
	for (int32_t i = 0; i < w->model.particle_count; ++i) {
		w->state.x[i] = v3_add(w->state.x[i], v3(0.01 * fixture_rand(&seed), 0.01 * fixture_rand(&seed), 0.02 * fixture_rand(&seed)));
		w->state.v[i] = v3(fixture_rand(&seed), fixture_rand(&seed), fixture_rand(&seed));
	}
	workspace_prepare(w);
	constraints_prepare(w, 0.0, h);
	implicit_assemble(w, 0.0, h);
	return w;
}

double fixture_rand(uint64_t* s)
{
	/* splitmix64 */
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return (double)(z >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

double max_abs_diff(const double* a, const double* b, int n)
{
	double m = 0.0;
	for (int i = 0; i < n; ++i) m = fmax(m, fabs(a[i] - b[i]));
	return m;
}

drape_cloth_id fixture_add_sheet(drape_world* w, int res, double size, const double c[3], const double u[3],
				 const double v[3], const drape_material* m)
{
	drape_grid_def g = drape_default_grid_def();
	g.size[0] = g.size[1] = size;
	g.resolution[0] = g.resolution[1] = res;
	for (int k = 0; k < 3; ++k) {
		g.center[k] = c[k];
		g.u_axis[k] = u[k];
		g.v_axis[k] = v[k];
	}
	drape_mesh mesh;
	char err[128];
	drape_mesh_make_grid(&g, &mesh, err, sizeof err);
	drape_cloth_def cd = drape_default_cloth_def();
	cd.mesh = &mesh;
	if (m) cd.material = *m;
	drape_cloth_id id = drape_cloth_add(w, &cd);
	drape_mesh_free(&mesh);
	return id;
}
