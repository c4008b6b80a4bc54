/* Rectangular grid meshes with (u,v) rest coordinates in metres (paper sec. 2 and figure 2's
 * sheet), and drape_mesh_free for every mesh the library hands out. */
#include "core.h"
#include "drape_limits.h"
#include "drape.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The grid's particle count is capped so that index arithmetic stays far inside int32 (six
 * indices per cell) and a typo in a scene cannot ask for terabytes. */
#define GRID_MAX_PARTICLES 50000000

static drape_status grid_fail(drape_status status, char* err, size_t err_size, const char* fmt, ...)
{
	if (err && err_size > 0) {
		va_list args;
		va_start(args, fmt);
		vsnprintf(err, err_size, fmt, args);
		va_end(args);
	}
	return status;
}

drape_grid_def drape_default_grid_def(void)
{
	drape_grid_def def;
	memset(&def, 0, sizeof def);
	def.size[0] = 1.0;
	def.size[1] = 1.0;
	def.resolution[0] = 21;
	def.resolution[1] = 21;
	def.u_axis[0] = 1.0;
	def.v_axis[1] = 1.0;
	def.cookie = DRAPE_COOKIE;
	return def;
}

static bool finite3(const double* a)
{
	return isfinite(a[0]) && isfinite(a[1]) && isfinite(a[2]);
}
static double dot3(const double* a, const double* b)
{
	return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

drape_status drape_mesh_make_grid(const drape_grid_def* def, drape_mesh* out, char* err, size_t err_size)
{
	if (out) memset(out, 0, sizeof *out);
	if (!def || !out) return grid_fail(DRAPE_ERROR_INVALID, err, err_size, "grid: NULL def or output mesh");
	if (def->cookie != DRAPE_COOKIE)
		return grid_fail(DRAPE_ERROR_INVALID, err, err_size,
				 "grid def not initialised with drape_default_grid_def()");

	double su = def->size[0], sv = def->size[1];
	if (!isfinite(su) || !isfinite(sv) || !(su > 0.0) || !(sv > 0.0))
		return grid_fail(DRAPE_ERROR_INVALID, err, err_size, "grid size must be finite and > 0, got [%g, %g]",
				 su, sv);
	int32_t nu = def->resolution[0], nv = def->resolution[1];
	/* nv = 1 is a chain along u without triangles (mass-spring rods, ADI Cloth sec. 6). */
	if (nu < 2 || nv < 1)
		return grid_fail(DRAPE_ERROR_INVALID, err, err_size,
				 "grid resolution must be >= 2 particles along u and >= 1 along v, got [%d, %d]", (int)nu,
				 (int)nv);
	if ((int64_t)nu * (int64_t)nv > GRID_MAX_PARTICLES)
		return grid_fail(DRAPE_ERROR_INVALID, err, err_size,
				 "grid resolution [%d, %d] has more than %d particles", (int)nu, (int)nv,
				 GRID_MAX_PARTICLES);
	if (!finite3(def->center) || !finite3(def->u_axis) || !finite3(def->v_axis))
		return grid_fail(DRAPE_ERROR_INVALID, err, err_size, "grid center and axes must be finite");

	/* Gram-Schmidt: the axes only need to span the cloth's plane; making them orthonormal keeps
	 * the rest (u,v) lengths equal to world lengths, so the grid starts unstretched. */
	/* Each axis scaled by its largest component first, so that 1e308 does not overflow the norm. */
	double ua[3], va[3];
	double mu = fmax(fabs(def->u_axis[0]), fmax(fabs(def->u_axis[1]), fabs(def->u_axis[2])));
	double mv = fmax(fabs(def->v_axis[0]), fmax(fabs(def->v_axis[1]), fabs(def->v_axis[2])));
	if (!(mu > 0.0) || !(mv > 0.0))
		return grid_fail(DRAPE_ERROR_INVALID, err, err_size, "grid u_axis and v_axis must be non-zero");
	for (int k = 0; k < 3; ++k) {
		ua[k] = def->u_axis[k] / mu;
		va[k] = def->v_axis[k] / mv;
	}
	double lu = sqrt(dot3(ua, ua)), lv = sqrt(dot3(va, va));
	double uh[3], vh[3];
	for (int k = 0; k < 3; ++k) uh[k] = ua[k] / lu;
	double along = dot3(va, uh);
	for (int k = 0; k < 3; ++k) vh[k] = va[k] - along * uh[k];
	double lo = sqrt(dot3(vh, vh));
	if (!(lo > 1e-9 * lv))
		return grid_fail(DRAPE_ERROR_INVALID, err, err_size, "grid u_axis and v_axis are parallel");
	for (int k = 0; k < 3; ++k) vh[k] /= lo;

	/* drape_limits.h: slivers and particle counts no run gets through (docs/reliability.md, "Limits") */
	double cu = su / (nu - 1), cv = nv > 1 ? sv / (nv - 1) : cu;
	if (cu / cv > LIMIT_GRID_ASPECT || cv / cu > LIMIT_GRID_ASPECT)
		return grid_fail(DRAPE_ERROR_INVALID, err, err_size,
				 "grid cells of %.3g m x %.3g m are %.0f times longer than wide, beyond drape's limit of "
				 "%g: change size or resolution",
				 cu, cv, fmax(cu / cv, cv / cu), LIMIT_GRID_ASPECT);
	char why[200];
	if (!limits_memory((int64_t)nu * nv, 0, why, sizeof why))
		return grid_fail(DRAPE_ERROR_INVALID, err, err_size, "grid resolution [%d, %d]: %s", (int)nu, (int)nv, why);
	int32_t n = nu * nv;
	int32_t tri_count = 2 * (nu - 1) * (nv - 1);
	double* positions = malloc(sizeof(double) * 3 * (size_t)n);
	double* uvs = malloc(sizeof(double) * 2 * (size_t)n);
	int32_t* tris = malloc(sizeof(int32_t) * 3 * (size_t)(tri_count > 0 ? tri_count : 1));
	int32_t* tri_uvs = malloc(sizeof(int32_t) * 3 * (size_t)(tri_count > 0 ? tri_count : 1));
	if (!positions || !uvs || !tris || !tri_uvs) {
		free(positions);
		free(uvs);
		free(tris);
		free(tri_uvs);
		return grid_fail(DRAPE_ERROR_MEMORY, err, err_size, "grid: out of memory for %d particles", (int)n);
	}

	double du = su / (double)(nu - 1), dv = nv > 1 ? sv / (double)(nv - 1) : 0.0;
	for (int32_t j = 0; j < nv; ++j) {
		for (int32_t i = 0; i < nu; ++i) {
			int32_t id = j * nu + i;
			/* Exact end values, so the far edges sit at size rather than size +- rounding. */
			double u = i == nu - 1 ? su : (double)i * du;
			double v = nv == 1 ? 0.0 : (j == nv - 1 ? sv : (double)j * dv);
			uvs[2 * id + 0] = u;
			uvs[2 * id + 1] = v;
			for (int k = 0; k < 3; ++k)
				positions[3 * id + k] =
					def->center[k] + (u - 0.5 * su) * uh[k] + (v - 0.5 * sv) * vh[k];
		}
	}

	/* Cell corners a (i,j), b (i+1,j), c (i+1,j+1), d (i,j+1). Alternating the diagonal in a
	 * checkerboard keeps the mesh free of a preferred shear direction; every triangle is listed
	 * counter-clockwise in (u,v). */
	int32_t t = 0;
	for (int32_t j = 0; j + 1 < nv; ++j) {
		for (int32_t i = 0; i + 1 < nu; ++i) {
			int32_t a = j * nu + i, b = a + 1, c = a + nu + 1, d = a + nu;
			int32_t q[6];
			if (((i + j) & 1) == 0) {
				q[0] = a, q[1] = b, q[2] = c, q[3] = a, q[4] = c, q[5] = d;
			} else {
				q[0] = a, q[1] = b, q[2] = d, q[3] = b, q[4] = c, q[5] = d;
			}
			memcpy(tris + 3 * t, q, sizeof q);
			t += 2;
		}
	}
	memcpy(tri_uvs, tris, sizeof(int32_t) * 3 * (size_t)tri_count);

	out->vertex_count = n;
	out->positions = positions;
	out->uv_count = n;
	out->uvs = uvs;
	out->triangle_count = tri_count;
	out->triangles = tris;
	out->triangle_uvs = tri_uvs;
	return DRAPE_OK;
}

void drape_mesh_free(drape_mesh* mesh)
{
	if (!mesh) return;
	free(mesh->positions);
	free(mesh->uvs);
	free(mesh->triangles);
	free(mesh->triangle_uvs);
	memset(mesh, 0, sizeof *mesh);
}
