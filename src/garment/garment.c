/* Building a garment (sec. 8; docs/garments.md): every panel's outline is resampled so that both
 * sides of each seam get the same number of boundary vertices (ease spreads evenly along the
 * longer side), the inside is a regular grid aligned with the grain (warp along u, weft along v,
 * sec. 4.2's anisotropy needs that) kept at least GRID_MARGIN triangle sizes from the outline, and
 * CGAL's constrained Delaunay triangulation (cdt.cpp) fills the band in between. Each panel is
 * then wrapped around its axis in 3D without stretching (pattern x becomes arc length). */
#include "garment.h"

#include "cdt.h"
#include "core.h"
#include "drape_limits.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Grid points closer than this many triangle sizes to the outline are dropped: nearer ones make
 * thin triangles against the boundary vertices (docs/garments.md has the measured angles). */
#define GRID_MARGIN 0.6
/* Seam sides may differ by the ease plus this fraction of their length (curve flattening). */
#define SEAM_SLACK 0.005

typedef struct panel_work {
	double* xy; /* flattened outline */
	int32_t count;
	int32_t* starts; /* per outline edge: its first polyline point */
	double* edge_len;
	int32_t* edge_n;     /* boundary divisions per outline edge */
	int32_t* edge_seam;  /* seam owning the edge, or -1 */
	int32_t* bstart;     /* per outline edge: its first boundary vertex */
	int32_t boundary;    /* boundary vertex count */
	double center[2];    /* bounding-box centre of the outline */
	double size[2];      /* and its extent */
} panel_work;

static void work_free(panel_work* p)
{
	free(p->xy);
	free(p->starts);
	free(p->edge_len);
	free(p->edge_n);
	free(p->edge_seam);
	free(p->bstart);
}

static int32_t find_panel(const garment_def* d, const char* name)
{
	for (int32_t i = 0; i < d->panel_count; ++i)
		if (strcmp(d->panels[i].name, name) == 0) return i;
	return -1;
}

static int32_t find_corner(const pattern_panel* p, const char* name)
{
	for (int32_t i = 0; i < p->point_count; ++i)
		if (p->points[i].corner && strcmp(p->points[i].corner, name) == 0) return i;
	return -1;
}

/* Polyline length of outline edge e. */
static double edge_length(const panel_work* w, int32_t e, int32_t edges)
{
	const int32_t end = e + 1 < edges ? w->starts[e + 1] : w->count;
	double l = 0.0;
	for (int32_t i = w->starts[e]; i < end; ++i) {
		const double* a = &w->xy[2 * i];
		const double* b = &w->xy[2 * ((i + 1) % w->count)];
		l += hypot(b[0] - a[0], b[1] - a[1]);
	}
	return l;
}

/* The point at arc length s along outline edge e. */
static void edge_point(const panel_work* w, int32_t e, int32_t edges, double s, double out[2])
{
	const int32_t end = e + 1 < edges ? w->starts[e + 1] : w->count;
	for (int32_t i = w->starts[e]; i < end; ++i) {
		const double* a = &w->xy[2 * i];
		const double* b = &w->xy[2 * ((i + 1) % w->count)];
		const double l = hypot(b[0] - a[0], b[1] - a[1]);
		if (s <= l || i + 1 == end) {
			const double t = l > 0.0 ? fmin(1.0, s / l) : 0.0;
			out[0] = a[0] + t * (b[0] - a[0]);
			out[1] = a[1] + t * (b[1] - a[1]);
			return;
		}
		s -= l;
	}
}

/* The outline edges a seam side walks, in walking order; returns the count (edges[] has room
 * for point_count). */
static int32_t side_edges(const pattern_panel* p, int32_t from, int32_t to, bool backward, int32_t* edges)
{
	const int32_t n = p->point_count;
	int32_t k = 0;
	if (!backward)
		for (int32_t e = from; e != to; e = (e + 1) % n) edges[k++] = e;
	else
		for (int32_t e = (from + n - 1) % n;; e = (e + n - 1) % n) {
			edges[k++] = e;
			if (e == to) break;
		}
	return k;
}

/* Splits n divisions over edges of lengths len (each >= 1), largest remainders first. */
static void distribute(const double* len, int32_t count, int32_t n, int32_t* out)
{
	double total = 0.0;
	for (int32_t i = 0; i < count; ++i) total += len[i];
	int32_t used = 0;
	for (int32_t i = 0; i < count; ++i) {
		out[i] = (int32_t)floor(n * len[i] / total);
		if (out[i] < 1) out[i] = 1;
		used += out[i];
	}
	while (used < n) {
		int32_t best = 0;
		double best_r = -1e300;
		for (int32_t i = 0; i < count; ++i) {
			double r = n * len[i] / total - out[i];
			if (r > best_r) best_r = r, best = i;
		}
		out[best]++, used++;
	}
	while (used > n) { /* only when the minimum of 1 per edge overshot: take from the longest share */
		int32_t best = -1;
		double best_r = 1e300;
		for (int32_t i = 0; i < count; ++i) {
			double r = n * len[i] / total - out[i];
			if (out[i] > 1 && r < best_r) best_r = r, best = i;
		}
		if (best < 0) break;
		out[best]--, used--;
	}
}

static double segment_distance(const double* p, const double* a, const double* b)
{
	const double dx = b[0] - a[0], dy = b[1] - a[1];
	const double l2 = dx * dx + dy * dy;
	double t = l2 > 0.0 ? ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2 : 0.0;
	t = fmax(0.0, fmin(1.0, t));
	return hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
}

static int compare_double(const void* a, const void* b)
{
	const double x = *(const double*)a, y = *(const double*)b;
	return (x > y) - (x < y);
}

/* Flat placement: unit up (orthogonalised against the normal) and right = up x normal, so a
 * counter-clockwise outline faces along the normal. False when the two are (nearly) parallel. */
static bool plane_frame(const pattern_panel* p, double up[3], double right[3])
{
	double n[3], nl = 0.0;
	for (int k = 0; k < 3; ++k) nl += p->plane_normal[k] * p->plane_normal[k];
	nl = sqrt(nl);
	if (!(nl > 0.0)) return false;
	double un = 0.0, ul = 0.0;
	for (int k = 0; k < 3; ++k) n[k] = p->plane_normal[k] / nl, un += p->plane_up[k] * n[k];
	for (int k = 0; k < 3; ++k) up[k] = p->plane_up[k] - un * n[k], ul += up[k] * up[k];
	ul = sqrt(ul);
	if (!(ul > 1e-6 * sqrt(un * un + ul * ul))) return false;
	for (int k = 0; k < 3; ++k) up[k] /= ul;
	right[0] = up[1] * n[2] - up[2] * n[1];
	right[1] = up[2] * n[0] - up[0] * n[2];
	right[2] = up[0] * n[1] - up[1] * n[0];
	return true;
}

void garment_wrap(const pattern_panel* p, const double center[2], const double size[2], const double q[2], double out[3])
{
	if (p->flat) {
		double up[3], right[3];
		plane_frame(p, up, right); /* checked by garment_check_placement */
		for (int k = 0; k < 3; ++k)
			out[k] = p->plane_center[k] + (q[0] - center[0]) * right[k] + (q[1] - center[1]) * up[k];
		return;
	}
	double a[3], f[3], r[3], mid[3];
	double al = 0.0;
	for (int k = 0; k < 3; ++k) {
		a[k] = p->axis[1][k] - p->axis[0][k];
		al += a[k] * a[k];
		mid[k] = 0.5 * (p->axis[0][k] + p->axis[1][k]);
	}
	al = sqrt(al);
	double fa = 0.0;
	for (int k = 0; k < 3; ++k) a[k] /= al, fa += p->front[k] * a[k];
	double fl = 0.0;
	for (int k = 0; k < 3; ++k) f[k] = p->front[k] - fa * a[k], fl += f[k] * f[k];
	fl = sqrt(fl);
	for (int k = 0; k < 3; ++k) f[k] /= fl;
	r[0] = a[1] * f[2] - a[2] * f[1];
	r[1] = a[2] * f[0] - a[0] * f[2];
	r[2] = a[0] * f[1] - a[1] * f[0];
	/* a cone when top_radius differs: arc length kept along each height */
	const double tr = p->top_radius > 0.0 ? p->top_radius : p->radius;
	const double fy = size[1] > 0.0 ? (q[1] - (center[1] - 0.5 * size[1])) / size[1] : 0.5;
	const double rad = p->radius + fy * (tr - p->radius);
	const double th = p->angle + (q[0] - center[0]) / rad, s = p->offset + (q[1] - center[1]);
	for (int k = 0; k < 3; ++k) out[k] = mid[k] + s * a[k] + rad * (cos(th) * f[k] + sin(th) * r[k]);
}

bool garment_check_placement(const pattern_panel* p, char* err, size_t err_size)
{
	if (p->flat) {
		double up[3], right[3];
		if (plane_frame(p, up, right)) return true;
		snprintf(err, err_size, "panel '%s': flat.normal must be non-zero and flat.up not along it", p->name);
		return false;
	}
	if (!(p->radius > 0.0)) {
		snprintf(err, err_size, "panel '%s': around.radius must be > 0", p->name);
		return false;
	}
	double a[3], al = 0.0, fa = 0.0, fl = 0.0;
	for (int k = 0; k < 3; ++k) a[k] = p->axis[1][k] - p->axis[0][k], al += a[k] * a[k];
	for (int k = 0; k < 3; ++k) fa += p->front[k] * a[k] / sqrt(al), fl += p->front[k] * p->front[k];
	if (!(al > 0.0) || !(fl - fa * fa > 1e-12 * fl)) {
		snprintf(err, err_size, "panel '%s': around.axis needs two distinct points and a 'front' not along it", p->name);
		return false;
	}
	return true;
}

void garment_free(garment* g)
{
	drape_mesh_free(&g->mesh);
	free(g->stretch_scale);
	free(g->panel_first_vertex);
	free(g->panel_first_triangle);
	for (int32_t s = 0; g->seam_pairs && s < g->seam_count; ++s) free(g->seam_pairs[s]);
	free(g->seam_pairs);
	free(g->seam_pair_count);
	for (int32_t s = 0; g->seam_names && s < g->seam_count; ++s) free(g->seam_names[s]);
	free(g->seam_names);
	memset(g, 0, sizeof *g);
}

/* Appends panel p's mesh (boundary points bxy, then grid points) to g. */
static bool mesh_panel(const garment_def* d, int32_t pi, const panel_work* w, const double* bxy, garment* g, char* err,
		       size_t err_size)
{
	const pattern_panel* p = &d->panels[pi];
	const double h = d->triangle_size;
	const double gl = hypot(p->grain[0], p->grain[1]);
	const double gx = p->grain[0] / gl, gy = p->grain[1] / gl;
	const int32_t nb = w->boundary;
	/* uv: pattern coordinates in the grain frame (u along the warp, v across) */
	double umin = 1e300, umax = -1e300, vmin = 1e300, vmax = -1e300;
	double* buv = malloc(2 * (size_t)nb * sizeof *buv);
	if (!buv) goto oom;
	for (int32_t i = 0; i < nb; ++i) {
		buv[2 * i] = bxy[2 * i] * gx + bxy[2 * i + 1] * gy;
		buv[2 * i + 1] = -bxy[2 * i] * gy + bxy[2 * i + 1] * gx;
		umin = fmin(umin, buv[2 * i]), umax = fmax(umax, buv[2 * i]);
		vmin = fmin(vmin, buv[2 * i + 1]), vmax = fmax(vmax, buv[2 * i + 1]);
	}
	/* drape_limits.h (docs/reliability.md, "Limits"): a panel is cloth for a body, and its grid must
	 * fit in memory; a 436 m sliver took 41 s to mesh before it was refused. */
	if (umax - umin > LIMIT_PANEL || vmax - vmin > LIMIT_PANEL) {
		free(buv);
		snprintf(err, err_size, "panel '%s' spans %.3g m x %.3g m, beyond drape's limit of %g m", p->name, umax - umin,
			 vmax - vmin, LIMIT_PANEL);
		return false;
	}
	const int64_t i0 = (int64_t)floor(umin / h), i1 = (int64_t)ceil(umax / h);
	const int64_t j0 = (int64_t)floor(vmin / h), j1 = (int64_t)ceil(vmax / h);
	char why[200] = "";
	if ((i1 - i0 + 1) * (j1 - j0 + 1) > 50000000 || !limits_memory((i1 - i0 + 1) * (j1 - j0 + 1), 0, why, sizeof why)) {
		free(buv);
		snprintf(err, err_size, "panel '%s': triangle_size %g m would make %lld grid points (%s)", p->name, h,
			 (long long)((i1 - i0 + 1) * (j1 - j0 + 1)), why[0] ? why : "more than 5e7");
		return false;
	}
	int32_t cap = nb + 16, np = nb;
	double* pts = malloc(2 * (size_t)cap * sizeof *pts);
	if (!pts) {
		free(buv);
		goto oom;
	}
	memcpy(pts, buv, 2 * (size_t)nb * sizeof *pts);
	free(buv);
	/* The grid is scanned row by row: where the outline crosses the row (the even-odd rule gives
	 * inside or outside) and which outline edges come near it are found once per row, not once
	 * per grid point. Testing every point against every edge was quadratic: a 1 mm triangle size
	 * took 13 s to load (found by fuzz/fuzz_scene.c). The same expressions on the same numbers
	 * decide, so the mesh is bit for bit what the plain tests give. */
	double* cross = malloc((size_t)nb * sizeof *cross);
	int32_t* near = malloc((size_t)nb * sizeof *near);
	if (!cross || !near) {
		free(cross);
		free(near);
		free(pts);
		goto oom;
	}
	/* An edge whose box, grown by this, misses a point is farther from it than the margin. */
	const double margin = GRID_MARGIN * h, reach = margin + h;
	for (int64_t j = j0; j <= j1; ++j) {
		const double y = (double)j * h;
		int32_t nc = 0, nn = 0;
		for (int32_t k = 0, l = nb - 1; k < nb; l = k++) {
			const double* a = &pts[2 * k];
			const double* b = &pts[2 * l];
			if ((a[1] > y) != (b[1] > y)) cross[nc++] = (b[0] - a[0]) * (y - a[1]) / (b[1] - a[1]) + a[0];
			const double* e = &pts[2 * ((k + 1) % nb)]; /* edge k runs from point k to k + 1 */
			if (y >= fmin(a[1], e[1]) - reach && y <= fmax(a[1], e[1]) + reach) near[nn++] = k;
		}
		qsort(cross, (size_t)nc, sizeof *cross, compare_double);
		int32_t left = 0; /* crossings at or left of the point; an odd number right of it: inside */
		for (int64_t i = i0; i <= i1; ++i) {
			const double q[2] = {(double)i * h, y};
			while (left < nc && cross[left] <= q[0]) ++left;
			if ((nc - left) % 2 == 0) continue;
			bool close = false;
			for (int32_t m = 0; m < nn && !close; ++m) {
				const double* a = &pts[2 * near[m]];
				const double* b = &pts[2 * ((near[m] + 1) % nb)];
				close = q[0] >= fmin(a[0], b[0]) - reach && q[0] <= fmax(a[0], b[0]) + reach &&
					segment_distance(q, a, b) < margin;
			}
			if (close) continue;
			if (!core_reserve((void**)&pts, &cap, np + 1, 2 * sizeof *pts)) {
				free(cross);
				free(near);
				free(pts);
				goto oom;
			}
			pts[2 * np] = q[0];
			pts[2 * np + 1] = q[1];
			++np;
		}
	}
	free(cross);
	free(near);
	int32_t* tris = NULL;
	int32_t tc = 0;
	bool no_memory = false;
	if (!cdt_triangulate(pts, nb, np - nb, &tris, &tc, &no_memory) || tc == 0) {
		free(pts);
		free(tris);
		if (no_memory) snprintf(err, err_size, "panel '%s': out of memory triangulating", p->name);
		else snprintf(err, err_size, "panel '%s': the triangulation failed (is the outline simple?)", p->name);
		return false;
	}
	/* grow the garment's mesh */
	drape_mesh* m = &g->mesh;
	const int32_t v0 = m->vertex_count, t0 = m->triangle_count;
	double* pos = realloc(m->positions, 3 * (size_t)(v0 + np) * sizeof(double));
	if (pos) m->positions = pos;
	double* uvs = realloc(m->uvs, 2 * (size_t)(v0 + np) * sizeof(double));
	if (uvs) m->uvs = uvs;
	int32_t* tv = realloc(m->triangles, 3 * (size_t)(t0 + tc) * sizeof(int32_t));
	if (tv) m->triangles = tv;
	int32_t* tu = realloc(m->triangle_uvs, 3 * (size_t)(t0 + tc) * sizeof(int32_t));
	if (tu) m->triangle_uvs = tu;
	double* bs = realloc(g->stretch_scale, 2 * (size_t)(t0 + tc) * sizeof(double));
	if (bs) g->stretch_scale = bs;
	if (!pos || !uvs || !tv || !tu || !bs) {
		free(pts);
		free(tris);
		goto oom;
	}
	for (int32_t i = 0; i < np; ++i) {
		const double u = pts[2 * i], v = pts[2 * i + 1];
		m->uvs[2 * (v0 + i)] = u;
		m->uvs[2 * (v0 + i) + 1] = v;
		const double q[2] = {u * gx - v * gy, u * gy + v * gx}; /* back to pattern coordinates */
		garment_wrap(p, w->center, w->size, q, &m->positions[3 * (v0 + i)]);
	}
	for (int32_t t = 0; t < tc; ++t) {
		for (int k = 0; k < 3; ++k) m->triangles[3 * (t0 + t) + k] = m->triangle_uvs[3 * (t0 + t) + k] = v0 + tris[3 * t + k];
		double cu = 0.0, cv = 0.0;
		for (int k = 0; k < 3; ++k) cu += pts[2 * tris[3 * t + k]] / 3.0, cv += pts[2 * tris[3 * t + k] + 1] / 3.0;
		stretch_regions_apply(p->regions, p->region_count, cu, cv, &g->stretch_scale[2 * (t0 + t)]);
	}
	for (int32_t k = 0; k < p->region_count; ++k) {
		const stretch_region* rg = &p->regions[k];
		int32_t hits = 0;
		for (int32_t t = 0; t < tc; ++t) {
			double cu = 0.0, cv = 0.0;
			for (int c = 0; c < 3; ++c) cu += pts[2 * tris[3 * t + c]] / 3.0, cv += pts[2 * tris[3 * t + c] + 1] / 3.0;
			hits += stretch_region_weight(rg, cu, cv) == 1.0;
		}
		if (hits == 0) {
			free(pts);
			free(tris);
			snprintf(err, err_size,
				 "panel '%s': stretch region %d ([%g, %g] x [%g, %g] in the panel's uv) holds no triangle", p->name,
				 (int)k, rg->lo[0], rg->hi[0], rg->lo[1], rg->hi[1]);
			return false;
		}
	}
	m->vertex_count = m->uv_count = v0 + np;
	m->triangle_count = t0 + tc;
	free(pts);
	free(tris);
	return true;
oom:
	snprintf(err, err_size, "panel '%s': out of memory", p->name);
	return false;
}

/* Checks a panel's own settings and flattens its outline. */
static bool panel_prepare(const garment_def* d, int32_t pi, panel_work* w, char* err, size_t err_size)
{
	const pattern_panel* p = &d->panels[pi];
	const double h = d->triangle_size;
	if (!(hypot(p->grain[0], p->grain[1]) > 0.0)) {
		snprintf(err, err_size, "panel '%s': the grain line has zero length", p->name);
		return false;
	}
	if (!garment_check_placement(p, err, err_size)) return false;
	for (int32_t i = 0; i < p->point_count; ++i)
		for (int32_t j = 0; j < i; ++j)
			if (p->points[i].corner && p->points[j].corner && strcmp(p->points[i].corner, p->points[j].corner) == 0) {
				snprintf(err, err_size, "panel '%s': outline points %d and %d are both named corner '%s'", p->name,
					 (int)j, (int)i, p->points[i].corner);
				return false;
			}
	if (!pattern_flatten(p, &w->xy, &w->count, &w->starts, err, err_size)) return false;
	const double area = fabs(polygon_area(w->xy, w->count));
	if (area < 4.0 * h * h) {
		snprintf(err, err_size,
			 "panel '%s' is too small for triangle_size %g m: its area %.4g m^2 is under 4 triangle_size^2 = %.4g "
			 "m^2 (use smaller triangles)",
			 p->name, h, area, 4.0 * h * h);
		return false;
	}
	const int32_t n = p->point_count;
	w->edge_len = malloc((size_t)n * sizeof(double));
	w->edge_n = malloc((size_t)n * sizeof(int32_t));
	w->edge_seam = malloc((size_t)n * sizeof(int32_t));
	w->bstart = malloc((size_t)n * sizeof(int32_t));
	if (!w->edge_len || !w->edge_n || !w->edge_seam || !w->bstart) {
		snprintf(err, err_size, "panel '%s': out of memory", p->name);
		return false;
	}
	double lo[2] = {1e300, 1e300}, hi[2] = {-1e300, -1e300};
	for (int32_t i = 0; i < w->count; ++i)
		for (int k = 0; k < 2; ++k) lo[k] = fmin(lo[k], w->xy[2 * i + k]), hi[k] = fmax(hi[k], w->xy[2 * i + k]);
	for (int k = 0; k < 2; ++k) w->center[k] = 0.5 * (lo[k] + hi[k]), w->size[k] = hi[k] - lo[k];
	/* The panel limit (mesh_panel) before the edges are divided: a panel of 10^8 m has edges of
	 * more than 2^31 triangles, whose count overflowed (fuzzing, finding 10). Along and across
	 * the grain as mesh_panel measures it, here over the outline's samples. */
	const double gl = hypot(p->grain[0], p->grain[1]), gx = p->grain[0] / gl, gy = p->grain[1] / gl;
	double ulo = 1e300, uhi = -1e300, vlo = 1e300, vhi = -1e300;
	for (int32_t i = 0; i < w->count; ++i) {
		const double u = w->xy[2 * i] * gx + w->xy[2 * i + 1] * gy, v = -w->xy[2 * i] * gy + w->xy[2 * i + 1] * gx;
		ulo = fmin(ulo, u), uhi = fmax(uhi, u), vlo = fmin(vlo, v), vhi = fmax(vhi, v);
	}
	if (!(uhi - ulo <= LIMIT_PANEL && vhi - vlo <= LIMIT_PANEL)) {
		snprintf(err, err_size, "panel '%s' spans %.3g m x %.3g m, beyond drape's limit of %g m", p->name, uhi - ulo,
			 vhi - vlo, LIMIT_PANEL);
		return false;
	}
	for (int32_t e = 0; e < n; ++e) {
		w->edge_len[e] = edge_length(w, e, n);
		long r = lround(w->edge_len[e] / h);
		w->edge_n[e] = r < 1 ? 1 : (int32_t)r;
		w->edge_seam[e] = -1;
	}
	return true;
}

/* Resolves seam s's sides, checks lengths against the ease and sets the divisions of their edges. */
static bool seam_prepare(const garment_def* d, int32_t s, panel_work* works, int32_t* sides[2], int32_t counts[2],
			 char* err, size_t err_size)
{
	const pattern_seam* sm = &d->seams[s];
	double len[2] = {0.0, 0.0};
	for (int k = 0; k < 2; ++k) {
		const pattern_seam_side* sd = &sm->side[k];
		const int32_t pi = find_panel(d, sd->panel);
		if (pi < 0) {
			snprintf(err, err_size, "seam '%s': side %d names panel '%s', which does not exist", sm->name, k, sd->panel);
			return false;
		}
		const pattern_panel* p = &d->panels[pi];
		const int32_t from = find_corner(p, sd->from), to = find_corner(p, sd->to);
		if (from < 0 || to < 0) {
			snprintf(err, err_size, "seam '%s': panel '%s' has no corner named '%s'", sm->name, p->name,
				 from < 0 ? sd->from : sd->to);
			return false;
		}
		if (from == to) {
			snprintf(err, err_size, "seam '%s': side %d starts and ends at corner '%s'", sm->name, k, sd->from);
			return false;
		}
		counts[k] = side_edges(p, from, to, sd->backward, sides[k]);
		for (int32_t i = 0; i < counts[k]; ++i) {
			const int32_t e = sides[k][i];
			if (works[pi].edge_seam[e] >= 0) {
				snprintf(err, err_size, "seam '%s': panel '%s''s outline edge from point %d is already in seam '%s'",
					 sm->name, p->name, (int)e, d->seams[works[pi].edge_seam[e]].name);
				return false;
			}
			works[pi].edge_seam[e] = s;
			len[k] += works[pi].edge_len[e];
		}
	}
	const double diff = fabs(len[0] - len[1]), longest = fmax(len[0], len[1]);
	if (diff > sm->ease + SEAM_SLACK * longest) {
		snprintf(err, err_size,
			 "seam '%s': its sides are %.4g m (panel '%s') and %.4g m (panel '%s') long; they differ by %.4g m, more "
			 "than its ease %g m",
			 sm->name, len[0], sm->side[0].panel, len[1], sm->side[1].panel, diff, sm->ease);
		return false;
	}
	long n = lround(longest / d->triangle_size);
	if (n < counts[0]) n = counts[0];
	if (n < counts[1]) n = counts[1];
	if (n > 50000000) {
		snprintf(err, err_size, "seam '%s': its sides are %.4g m long, %ld triangle sides of %g m, too many to mesh", sm->name,
			 longest, n, d->triangle_size);
		return false;
	}
	for (int k = 0; k < 2; ++k) {
		const int32_t pi = find_panel(d, sm->side[k].panel);
		double lens[counts[k]];
		int32_t ns[counts[k]];
		for (int32_t i = 0; i < counts[k]; ++i) lens[i] = works[pi].edge_len[sides[k][i]];
		distribute(lens, counts[k], (int32_t)n, ns);
		for (int32_t i = 0; i < counts[k]; ++i) works[pi].edge_n[sides[k][i]] = ns[i];
	}
	return true;
}

/* Boundary vertex indices (global) along a seam side, from its first corner to its last. */
static int32_t side_vertices(const panel_work* w, const int32_t* edges, int32_t count, bool backward, int32_t base,
			     int32_t* out)
{
	int32_t k = 0;
	for (int32_t i = 0; i < count; ++i) {
		const int32_t e = edges[i];
		if (!backward)
			for (int32_t j = 0; j < w->edge_n[e]; ++j) out[k++] = base + w->bstart[e] + j;
		else {
			if (i == 0) out[k++] = base + (w->edge_n[e] + w->bstart[e]) % w->boundary; /* the edge's end */
			for (int32_t j = w->edge_n[e] - 1; j >= 0; --j) out[k++] = base + w->bstart[e] + j;
		}
	}
	if (!backward) {
		const int32_t last = edges[count - 1];
		out[k++] = base + (w->bstart[last] + w->edge_n[last]) % w->boundary;
	}
	return k;
}

bool garment_build(const garment_def* d, garment* g, char* err, size_t err_size)
{
	memset(g, 0, sizeof *g);
	if (!(d->triangle_size >= LIMIT_EDGE)) {
		snprintf(err, err_size, "garment triangle_size must be at least %g m (drape's smallest cell), got %g", LIMIT_EDGE,
			 d->triangle_size);
		return false;
	}
	for (int32_t i = 0; i < d->panel_count; ++i)
		for (int32_t j = 0; j < i; ++j)
			if (strcmp(d->panels[i].name, d->panels[j].name) == 0) {
				snprintf(err, err_size, "panels %d and %d are both named '%s'", (int)j, (int)i, d->panels[i].name);
				return false;
			}
	panel_work* works = calloc((size_t)(d->panel_count > 0 ? d->panel_count : 1), sizeof *works);
	int32_t max_points = 1;
	for (int32_t i = 0; i < d->panel_count; ++i)
		if (d->panels[i].point_count > max_points) max_points = d->panels[i].point_count;
	int32_t* sides[2] = {malloc((size_t)max_points * sizeof(int32_t)), malloc((size_t)max_points * sizeof(int32_t))};
	g->panel_count = d->panel_count;
	g->seam_count = d->seam_count;
	g->panel_first_vertex = calloc((size_t)d->panel_count + 1, sizeof(int32_t));
	g->panel_first_triangle = calloc((size_t)d->panel_count + 1, sizeof(int32_t));
	g->seam_pairs = calloc((size_t)(d->seam_count > 0 ? d->seam_count : 1), sizeof(int32_t*));
	g->seam_pair_count = calloc((size_t)(d->seam_count > 0 ? d->seam_count : 1), sizeof(int32_t));
	bool ok = works && sides[0] && sides[1] && g->panel_first_vertex && g->panel_first_triangle && g->seam_pairs &&
		  g->seam_pair_count;
	if (!ok) snprintf(err, err_size, "out of memory building the garment");
	for (int32_t i = 0; ok && i < d->panel_count; ++i) ok = panel_prepare(d, i, &works[i], err, err_size);
	int32_t counts[2];
	for (int32_t s = 0; ok && s < d->seam_count; ++s) ok = seam_prepare(d, s, works, sides, counts, err, err_size);
	/* boundary points, then the panel meshes */
	for (int32_t i = 0; ok && i < d->panel_count; ++i) {
		panel_work* w = &works[i];
		const pattern_panel* p = &d->panels[i];
		/* Within the panel limit an outline can still be long (a zigzag of many points): its
		 * boundary points are capped as the grid's are (mesh_panel), before an int32 sum of them. */
		int64_t boundary = 0;
		for (int32_t e = 0; e < p->point_count; ++e) boundary += w->edge_n[e];
		if (boundary > 50000000) {
			snprintf(err, err_size, "panel '%s': its outline is %lld triangle sides of %g m long, too many to mesh", p->name,
				 (long long)boundary, d->triangle_size);
			ok = false;
			break;
		}
		w->boundary = 0;
		for (int32_t e = 0; e < p->point_count; ++e) w->bstart[e] = w->boundary, w->boundary += w->edge_n[e];
		double* bxy = malloc(2 * (size_t)w->boundary * sizeof *bxy);
		if (!bxy) {
			snprintf(err, err_size, "panel '%s': out of memory", p->name);
			ok = false;
			break;
		}
		for (int32_t e = 0; e < p->point_count; ++e)
			for (int32_t j = 0; j < w->edge_n[e]; ++j)
				edge_point(w, e, p->point_count, w->edge_len[e] * j / w->edge_n[e], &bxy[2 * (w->bstart[e] + j)]);
		g->panel_first_vertex[i] = g->mesh.vertex_count;
		g->panel_first_triangle[i] = g->mesh.triangle_count;
		ok = mesh_panel(d, i, w, bxy, g, err, err_size);
		free(bxy);
	}
	if (ok) {
		g->panel_first_vertex[d->panel_count] = g->mesh.vertex_count;
		g->panel_first_triangle[d->panel_count] = g->mesh.triangle_count;
	}
	for (int32_t s = 0; ok && s < d->seam_count; ++s) {
		const pattern_seam* sm = &d->seams[s];
		int32_t* verts[2] = {NULL, NULL};
		int32_t nv[2] = {0, 0};
		for (int k = 0; k < 2; ++k) {
			const int32_t pi = find_panel(d, sm->side[k].panel);
			const pattern_panel* p = &d->panels[pi];
			counts[k] = side_edges(p, find_corner(p, sm->side[k].from), find_corner(p, sm->side[k].to), sm->side[k].backward,
					       sides[k]);
			verts[k] = malloc(((size_t)works[pi].boundary + 1) * sizeof(int32_t));
			if (verts[k])
				nv[k] = side_vertices(&works[pi], sides[k], counts[k], sm->side[k].backward, g->panel_first_vertex[pi],
						      verts[k]);
		}
		g->seam_pairs[s] = malloc(2 * (size_t)(nv[0] > 0 ? nv[0] : 1) * sizeof(int32_t));
		ok = verts[0] && verts[1] && g->seam_pairs[s] && nv[0] == nv[1];
		if (!verts[0] || !verts[1] || !g->seam_pairs[s]) snprintf(err, err_size, "seam '%s': out of memory", sm->name);
		else if (!ok) snprintf(err, err_size, "seam '%s': internal error pairing %d with %d vertices", sm->name, nv[0], nv[1]);
		for (int32_t k = 0; ok && k < nv[0]; ++k) {
			g->seam_pairs[s][2 * k] = verts[0][k];
			g->seam_pairs[s][2 * k + 1] = verts[1][k];
		}
		g->seam_pair_count[s] = ok ? nv[0] : 0;
		free(verts[0]);
		free(verts[1]);
	}
	for (int32_t i = 0; works && i < d->panel_count; ++i) work_free(&works[i]);
	free(works);
	free(sides[0]);
	free(sides[1]);
	if (!ok) garment_free(g);
	return ok;
}
