/* A mass-spring cloth on a rectangular grid (Boxerman, "ADI Cloth", sec. 2.1, 3.2): stretch
 * springs between 4-neighbours (warp along u, weft along v), shear springs on both diagonals of
 * every cell, bend springs over consecutive triples of a grid line, and cell-area masses. The
 * constants come from the SI material so that refining the grid changes nothing physical; the
 * derivations are in docs/mass-spring.md. */
#include "core.h"
#include "cloth_springs.h"
#include "world_error.h"

#include <math.h>
#include <stdlib.h>

static double uv_dist(const drape_mesh* m, int32_t a, int32_t b)
{
	const double du = m->uvs[2 * a] - m->uvs[2 * b], dv = m->uvs[2 * a + 1] - m->uvs[2 * b + 1];
	return sqrt(du * du + dv * dv);
}

/* Half the rest spacing to the neighbours on either side along a line (0 beyond an end):
 * a particle's share of the line, which is also the width a spring across it stands for. */
static double half_span(const drape_mesh* m, int32_t p, int32_t step, int32_t index, int32_t count)
{
	double s = 0.0;
	if (index > 0) s += 0.5 * uv_dist(m, p, p - step);
	if (index + 1 < count) s += 0.5 * uv_dist(m, p, p + step);
	return s;
}

drape_status cloth_springs_check(drape_world* w, const drape_cloth_def* def)
{
	const drape_mesh* m = def->mesh;
	const int32_t nu = def->grid[0], nv = def->grid[1];
	if (nu < 2 || nv < 1)
		return world_fail(w, "mass_spring cloth needs grid = {nu >= 2, nv >= 1}, got {%d, %d}", nu, nv);
	if ((int64_t)nu * nv != m->vertex_count)
		return world_fail(w, "mass_spring grid %d x %d has %lld particles but the mesh has %d vertices", nu, nv,
				  (long long)nu * nv, m->vertex_count);
	if (m->uv_count != m->vertex_count)
		return world_fail(w, "mass_spring cloth needs one uv per vertex (uv i is vertex i's rest position); mesh has "
				     "%d uv for %d vertices",
				  m->uv_count, m->vertex_count);
	if (nv == 1 && m->triangle_count > 0)
		return world_fail(w, "a mass_spring chain (grid nv = 1) has no triangles, got %d", m->triangle_count);
	if (def->stretch_scale)
		return world_fail(w, "stretch_scale (eq. 10's b_u, b_v) applies to the triangles model, not to mass_spring");
	if (def->nonlinear_bend && !(isfinite(def->bend_kappa1) && def->bend_kappa1 > 0.0))
		return world_fail(w, "nonlinear_bend needs bend_kappa1 finite and > 0, got %g", def->bend_kappa1);
	/* Every spring needs a positive rest length. */
	for (int32_t j = 0; j < nv; ++j)
		for (int32_t i = 0; i < nu; ++i) {
			int32_t p = j * nu + i;
			if (i + 1 < nu && !(uv_dist(m, p, p + 1) > 0.0))
				return world_fail(w, "grid particles %d and %d share their rest (u,v)", p, p + 1);
			if (j + 1 < nv && !(uv_dist(m, p, p + nu) > 0.0))
				return world_fail(w, "grid particles %d and %d share their rest (u,v)", p, p + nu);
			if (i + 1 < nu && j + 1 < nv && !(uv_dist(m, p, p + nu + 1) > 0.0 && uv_dist(m, p + 1, p + nu) > 0.0))
				return world_fail(w, "grid cell at particle %d is degenerate in (u,v)", p);
		}
	return DRAPE_OK;
}

static void add_spring(drape_world* w, int32_t a, int32_t b, int32_t family, double rest, double k, double kd)
{
	ms_spring* s = &w->model.ms_springs[w->model.ms_spring_count++];
	*s = (ms_spring){.v = {a, b}, .family = family, .rest = rest, .k = k, .kd = kd};
}

/* Bend over p - step, p, p + step of a line; B the stiffness against curvature along it. */
static void add_bend(drape_world* w, const drape_mesh* m, int32_t n0, int32_t p, int32_t step, int32_t family, double width,
		     double B, double Bd, double kappa1)
{
	const double h1 = uv_dist(m, p - step, p), h2 = uv_dist(m, p, p + step);
	/* C = x_m - (h2 x_a + h1 x_b) / (h1 + h2) is the sagitta, kappa h1 h2 / 2 on an arc of
	 * curvature kappa; the element stands for length (h1 + h2) / 2 of width `width`, so
	 * E = B/2 kappa^2 w (h1 + h2)/2 = k/2 |C|^2 with k below (docs/mass-spring.md). */
	const double shape = 2.0 * width * (h1 + h2) / ((h1 * h2) * (h1 * h2));
	ms_bend* e = &w->model.ms_bends[w->model.ms_bend_count++];
	*e = (ms_bend){.v = {n0 + p - step, n0 + p, n0 + p + step},
		       .family = family,
		       .wt = {-h2 / (h1 + h2), 1.0, -h1 / (h1 + h2)},
		       .k = B * shape,
		       .kd = Bd * shape,
		       .s = kappa1 > 0.0 ? 0.5 * h1 * h2 * kappa1 : 0.0};
}

drape_status cloth_springs_build(drape_world* w, const drape_cloth_def* def, int32_t n0)
{
	const drape_mesh* m = def->mesh;
	const drape_material* mat = &def->material;
	const int32_t nu = def->grid[0], nv = def->grid[1];
	const int64_t springs = (int64_t)(nu - 1) * nv + (int64_t)nu * (nv - 1) + 2 * (int64_t)(nu - 1) * (nv - 1);
	const int64_t bends = (int64_t)(nu > 2 ? nu - 2 : 0) * nv + (int64_t)(nv > 2 ? nv - 2 : 0) * nu;
	if (springs + w->model.ms_spring_count > INT32_MAX / 2 || bends + w->model.ms_bend_count > INT32_MAX / 2 ||
	    !core_reserve((void**)&w->model.ms_springs, &w->model.ms_spring_capacity, w->model.ms_spring_count + (int32_t)springs, sizeof(ms_spring)) ||
	    !core_reserve((void**)&w->model.ms_bends, &w->model.ms_bend_capacity, w->model.ms_bend_count + (int32_t)bends, sizeof(ms_bend))) {
		world_fail_status(w, DRAPE_ERROR_MEMORY, "out of memory adding the springs of a %d x %d grid", nu, nv);
		return DRAPE_ERROR_MEMORY;
	}
	const double kappa1 = def->nonlinear_bend ? def->bend_kappa1 : 0.0;
	/* Widths across: along v a particle stands for half_span in v (a chain is 1 m wide). */
#define WIDTH_V(p, j) (nv == 1 ? 1.0 : half_span(m, (p), nu, (j), nv))
#define WIDTH_U(p, i) half_span(m, (p), 1, (i), nu)
	for (int32_t j = 0; j < nv; ++j)
		for (int32_t i = 0; i < nu; ++i) {
			const int32_t p = j * nu + i;
			w->model.mass[n0 + p] = mat->density * WIDTH_U(p, i) * WIDTH_V(p, j);
			if (i + 1 < nu) {
				/* k = E_2D * width / length (sec. 3.2, eq. 12 with EA = stretch * width) */
				double width = 0.5 * (WIDTH_V(p, j) + WIDTH_V(p + 1, j)), rest = uv_dist(m, p, p + 1);
				add_spring(w, n0 + p, n0 + p + 1, FAMILY_STRETCH_U, rest, mat->stretch * width / rest,
					   mat->stretch_damping * width / rest);
			}
			if (j + 1 < nv) {
				double width = 0.5 * (WIDTH_U(p, i) + WIDTH_U(p + nu, i)), rest = uv_dist(m, p, p + nu);
				add_spring(w, n0 + p, n0 + p + nu, FAMILY_STRETCH_V, rest, mat->stretch * width / rest,
					   mat->stretch_damping * width / rest);
			}
			if (i + 1 < nu && j + 1 < nv) {
				/* Both diagonals of the cell: under a shear strain gamma each changes length by
				 * gamma hu hv / L, so 2 k/2 (gamma hu hv / L)^2 = shear/2 gamma^2 hu hv gives
				 * k = shear L^2 / (2 hu hv). */
				double hu = uv_dist(m, p, p + 1), hv = uv_dist(m, p, p + nu);
				double l1 = uv_dist(m, p, p + nu + 1), l2 = uv_dist(m, p + 1, p + nu);
				double c1 = l1 * l1 / (2.0 * hu * hv), c2 = l2 * l2 / (2.0 * hu * hv);
				add_spring(w, n0 + p, n0 + p + nu + 1, FAMILY_SHEAR, l1, mat->shear * c1, mat->shear_damping * c1);
				add_spring(w, n0 + p + 1, n0 + p + nu, FAMILY_SHEAR, l2, mat->shear * c2, mat->shear_damping * c2);
			}
			/* Curvature along u makes creases parallel to v: bend_v (docs/model.md's naming). */
			if (i > 0 && i + 1 < nu)
				add_bend(w, m, n0, p, 1, FAMILY_BEND, WIDTH_V(p, j), mat->bend_v, mat->bend_damping, kappa1);
			if (j > 0 && j + 1 < nv)
				add_bend(w, m, n0, p, nu, FAMILY_BEND, WIDTH_U(p, i), mat->bend_u, mat->bend_damping, kappa1);
		}
#undef WIDTH_V
#undef WIDTH_U
	return DRAPE_OK;
}
