/* Dressing a garment mesh whose uv is its pattern (docs/garments.md, "Garment meshes"): what
 * pattern tools export, a seamed mesh with several uv per seam vertex (paper footnote 3). The uv
 * charts are the panels; seam vertices are split per chart, each chart is wrapped around its axis
 * like a pattern panel, and the splits become seams that sewing merges back. */
#include "garment.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int32_t root_of(int32_t* parent, int32_t i)
{
	while (parent[i] != i) {
		parent[i] = parent[parent[i]];
		i = parent[i];
	}
	return i;
}

bool garment_from_mesh(const drape_mesh* in, const pattern_panel* panels, int32_t panel_count, garment* g, char* err,
		       size_t err_size)
{
	memset(g, 0, sizeof *g);
	const int32_t nuv = in->uv_count, tc = in->triangle_count;
	int32_t* parent = malloc((size_t)(nuv > 0 ? nuv : 1) * sizeof *parent);
	int32_t* chart_of_uv = malloc((size_t)(nuv > 0 ? nuv : 1) * sizeof *chart_of_uv);
	double* box = NULL;
	int32_t charts = 0;
	bool ok = parent && chart_of_uv;
	if (!ok) snprintf(err, err_size, "out of memory dressing a garment mesh");
	for (int32_t i = 0; ok && i < nuv; ++i) parent[i] = i, chart_of_uv[i] = -1;
	for (int32_t t = 0; ok && t < tc; ++t)
		for (int k = 1; k < 3; ++k) {
			int32_t a = root_of(parent, in->triangle_uvs[3 * t]), b = root_of(parent, in->triangle_uvs[3 * t + k]);
			if (a < b) parent[b] = a;
			else if (b < a) parent[a] = b;
		}
	/* charts numbered in the order of their first triangle */
	for (int32_t t = 0; ok && t < tc; ++t) {
		int32_t r = root_of(parent, in->triangle_uvs[3 * t]);
		if (chart_of_uv[r] < 0) chart_of_uv[r] = charts++;
	}
	if (ok && charts != panel_count) {
		snprintf(err, err_size, "the mesh has %d uv charts (panels) but the garment places %d; list one panel per chart, "
					"in the order of their first triangles",
			 charts, panel_count);
		ok = false;
	}
	for (int32_t i = 0; ok && i < nuv; ++i) chart_of_uv[i] = chart_of_uv[root_of(parent, i)];
	for (int32_t k = 0; ok && k < panel_count; ++k) ok = garment_check_placement(&panels[k], err, err_size);
	/* bounding boxes of the charts in uv (= pattern coordinates) */
	box = malloc(4 * (size_t)(charts > 0 ? charts : 1) * sizeof *box);
	ok = ok && box;
	for (int32_t c = 0; ok && c < charts; ++c) box[4 * c] = box[4 * c + 1] = 1e300, box[4 * c + 2] = box[4 * c + 3] = -1e300;
	for (int32_t i = 0; ok && i < nuv; ++i) {
		int32_t c = chart_of_uv[i];
		if (c < 0) continue;
		for (int k = 0; k < 2; ++k) {
			box[4 * c + k] = fmin(box[4 * c + k], in->uvs[2 * i + k]);
			box[4 * c + 2 + k] = fmax(box[4 * c + 2 + k], in->uvs[2 * i + k]);
		}
	}
	/* one new vertex per distinct (vertex, uv) corner: found through the uv, whose vertex must agree */
	int32_t* vertex_of_uv = malloc((size_t)(nuv > 0 ? nuv : 1) * sizeof *vertex_of_uv);
	int32_t* new_of_uv = malloc((size_t)(nuv > 0 ? nuv : 1) * sizeof *new_of_uv);
	ok = ok && vertex_of_uv && new_of_uv;
	int32_t nv = 0;
	for (int32_t i = 0; ok && i < nuv; ++i) vertex_of_uv[i] = -1, new_of_uv[i] = -1;
	for (int32_t t = 0; ok && t < tc; ++t)
		for (int k = 0; k < 3 && ok; ++k) {
			int32_t uv = in->triangle_uvs[3 * t + k], v = in->triangles[3 * t + k];
			if (vertex_of_uv[uv] >= 0 && vertex_of_uv[uv] != v) {
				snprintf(err, err_size, "uv %d belongs to vertices %d and %d: a garment mesh needs one vertex per uv", uv,
					 vertex_of_uv[uv], v);
				ok = false;
			}
			if (vertex_of_uv[uv] < 0) vertex_of_uv[uv] = v, new_of_uv[uv] = nv++;
		}
	drape_mesh* m = &g->mesh;
	if (ok) {
		m->vertex_count = nv;
		m->uv_count = nv;
		m->triangle_count = tc;
		m->positions = malloc(3 * (size_t)nv * sizeof(double));
		m->uvs = malloc(2 * (size_t)nv * sizeof(double));
		m->triangles = malloc(3 * (size_t)tc * sizeof(int32_t));
		m->triangle_uvs = malloc(3 * (size_t)tc * sizeof(int32_t));
		g->stretch_scale = malloc(2 * (size_t)tc * sizeof(double));
		g->panel_count = panel_count;
		ok = m->positions && m->uvs && m->triangles && m->triangle_uvs && g->stretch_scale;
		if (!ok) snprintf(err, err_size, "out of memory dressing a garment mesh");
	}
	for (int32_t i = 0; ok && i < nuv; ++i) {
		const int32_t q = new_of_uv[i];
		if (q < 0) continue;
		const int32_t c = chart_of_uv[i];
		const double center[2] = {0.5 * (box[4 * c] + box[4 * c + 2]), 0.5 * (box[4 * c + 1] + box[4 * c + 3])};
		const double size[2] = {box[4 * c + 2] - box[4 * c], box[4 * c + 3] - box[4 * c + 1]};
		m->uvs[2 * q] = in->uvs[2 * i];
		m->uvs[2 * q + 1] = in->uvs[2 * i + 1];
		garment_wrap(&panels[c], center, size, &in->uvs[2 * i], &m->positions[3 * q]);
	}
	for (int32_t t = 0; ok && t < tc; ++t) {
		for (int k = 0; k < 3; ++k) m->triangles[3 * t + k] = m->triangle_uvs[3 * t + k] = new_of_uv[in->triangle_uvs[3 * t + k]];
		g->stretch_scale[2 * t] = g->stretch_scale[2 * t + 1] = 1.0;
	}
	/* seams: every copy of a vertex is paired with its first copy; one seam per pair of charts */
	int32_t* first_copy = malloc((size_t)(in->vertex_count > 0 ? in->vertex_count : 1) * sizeof *first_copy);
	int32_t* pair_count = calloc((size_t)charts * (size_t)charts + 1, sizeof *pair_count);
	ok = ok && first_copy && pair_count;
	for (int32_t v = 0; ok && v < in->vertex_count; ++v) first_copy[v] = -1;
	int32_t seams = 0;
	for (int pass = 0; ok && pass < 2; ++pass) {
		/* pass 0 counts pairs per chart pair, pass 1 fills them */
		for (int32_t v = 0; v < in->vertex_count; ++v) first_copy[v] = -1;
		int32_t* fill = pass ? calloc((size_t)charts * (size_t)charts + 1, sizeof *fill) : NULL;
		if (pass && !fill) {
			ok = false;
			break;
		}
		for (int32_t i = 0; i < nuv; ++i) {
			if (new_of_uv[i] < 0) continue;
			const int32_t v = vertex_of_uv[i];
			if (first_copy[v] < 0) {
				first_copy[v] = i;
				continue;
			}
			int32_t ca = chart_of_uv[first_copy[v]], cb = chart_of_uv[i];
			int32_t key = ca * charts + cb;
			if (!pass) {
				seams += pair_count[key] == 0;
				pair_count[key]++;
			} else {
				int32_t s = -1;
				for (int32_t k = 0, idx = 0; k < charts * charts; ++k)
					if (pair_count[k] > 0) {
						if (k == key) s = idx;
						++idx;
					}
				g->seam_pairs[s][2 * fill[key]] = new_of_uv[first_copy[v]];
				g->seam_pairs[s][2 * fill[key] + 1] = new_of_uv[i];
				fill[key]++;
			}
		}
		if (!pass) {
			g->seam_count = seams;
			g->seam_pairs = calloc((size_t)(seams > 0 ? seams : 1), sizeof(int32_t*));
			g->seam_pair_count = calloc((size_t)(seams > 0 ? seams : 1), sizeof(int32_t));
			g->seam_names = calloc((size_t)(seams > 0 ? seams : 1), sizeof(char*));
			ok = g->seam_pairs && g->seam_pair_count && g->seam_names;
			for (int32_t k = 0, idx = 0; ok && k < charts * charts; ++k)
				if (pair_count[k] > 0) {
					g->seam_pair_count[idx] = pair_count[k];
					g->seam_pairs[idx] = malloc(2 * (size_t)pair_count[k] * sizeof(int32_t));
					const char* na = panels[k / charts].name;
					const char* nb = panels[k % charts].name;
					g->seam_names[idx] = malloc(strlen(na) + strlen(nb) + 2);
					ok = g->seam_pairs[idx] && g->seam_names[idx];
					if (ok) sprintf(g->seam_names[idx], "%s+%s", na, nb);
					++idx;
				}
		}
		free(fill);
	}
	if (!ok && !err[0]) snprintf(err, err_size, "out of memory dressing a garment mesh");
	free(parent);
	free(chart_of_uv);
	free(box);
	free(vertex_of_uv);
	free(new_of_uv);
	free(first_copy);
	free(pair_count);
	if (!ok) garment_free(g);
	return ok;
}
