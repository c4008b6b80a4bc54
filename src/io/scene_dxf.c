/* A panel's outline from a DXF-AAMA file (docs/garments.md, "Patterns from DXF-AAMA";
 * docs/scene-format.md): `"outline": {"dxf": "pattern.dxf", "piece": "FRONT"}`. garment/dxf_aama.cpp
 * reads the piece through dxflib; here its boundary becomes outline points named p0, p1, ... and
 * each notch splits the straight piece it sits on at a point named n0, n1, ... (or renames the
 * vertex it sits on). */
#include "scene_internal.h"

#include "garment/dxf_aama.h"
#include "garment/garment.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME_SIZE 13
#define NOTCH_TOLERANCE 1e-5 /* m: how far from the boundary a notch may sit (0.01 mm) */

/* Inserts notch k at (x, y) into the straight piece it lies on; false with the reason. */
static bool insert_notch(pattern_point* pts, int32_t* count, int32_t k, const double q[2], char* names, char* why, size_t size)
{
	for (int32_t i = 0; i < *count; ++i) {
		const double* a = pts[i].at;
		const double* b = pts[(i + 1) % *count].at;
		char* name = names + (size_t)k * NAME_SIZE;
		if (hypot(q[0] - a[0], q[1] - a[1]) <= NOTCH_TOLERANCE) {
			/* AAMA writers often put the notch on a boundary vertex: the vertex takes the notch's name */
			snprintf(name, NAME_SIZE, "n%d", (int)k);
			pts[i].corner = name;
			return true;
		}
		const double dx = b[0] - a[0], dy = b[1] - a[1], len2 = dx * dx + dy * dy;
		const double t = len2 > 0.0 ? ((q[0] - a[0]) * dx + (q[1] - a[1]) * dy) / len2 : -1.0;
		if (!(t > 0.0 && t < 1.0) || fabs((q[0] - a[0]) * dy - (q[1] - a[1]) * dx) / sqrt(len2) > NOTCH_TOLERANCE) continue;
		if (pts[i].curve != CURVE_LINE) {
			snprintf(why, size, "notch n%d at (%.6g, %.6g) m is on an arc of the boundary; notches are read on straight pieces",
				 (int)k, q[0], q[1]);
			return false;
		}
		memmove(&pts[i + 2], &pts[i + 1], (size_t)(*count - i - 1) * sizeof *pts);
		pattern_point* p = &pts[i + 1];
		memset(p, 0, sizeof *p);
		p->at[0] = a[0] + t * dx, p->at[1] = a[1] + t * dy;
		snprintf(name, NAME_SIZE, "n%d", (int)k);
		p->corner = name;
		(*count)++;
		return true;
	}
	snprintf(why, size, "notch n%d at (%.6g, %.6g) m is not on the boundary", (int)k, q[0], q[1]);
	return false;
}

static bool build_points(const dxf_piece* d, pattern_point** out, int32_t* count, char* why, size_t size)
{
	const int32_t total = d->count + d->notch_count;
	pattern_point* pts = malloc((size_t)total * (sizeof *pts + NAME_SIZE) + 1);
	if (!pts) {
		snprintf(why, size, "out of memory");
		return false;
	}
	char* names = (char*)(pts + total);
	for (int32_t i = 0; i < d->count; ++i) {
		pattern_point* p = &pts[i];
		memset(p, 0, sizeof *p);
		p->at[0] = d->xyb[3 * i], p->at[1] = d->xyb[3 * i + 1];
		p->bulge = d->xyb[3 * i + 2];
		p->curve = p->bulge != 0.0 ? CURVE_ARC : CURVE_LINE;
		char* name = names + (size_t)(d->notch_count + i) * NAME_SIZE;
		snprintf(name, NAME_SIZE, "p%d", (int)i);
		p->corner = name;
	}
	int32_t n = d->count;
	for (int32_t k = 0; k < d->notch_count; ++k) {
		/* a slit's end on the boundary: its first point, else its second */
		const double* q = &d->notches[4 * k];
		if (!insert_notch(pts, &n, k, q, names, why, size) &&
		    !(strstr(why, "is not on the boundary") && insert_notch(pts, &n, k, q + 2, names, why, size))) {
			free(pts);
			return false;
		}
	}
	*out = pts;
	*count = n;
	return true;
}

bool scene_load_dxf_outline(const json_ctx* c, const jnode* n, pattern_panel* p, pattern_point** points)
{
	static const char* const keys[] = {"dxf", "piece", "units", NULL};
	const char* v[2];
	if (!json_check_object(c, n, keys) || !scene_outline_ref(c, n, keys, v)) return false;
	double unit = 0.0;
	const cJSON* units = json_get(n, "units");
	if (units) {
		jnode un = json_node(n, units);
		const char* u;
		if (!json_string(c, &un, &u)) return false;
		static const char* const unames[] = {"mm", "cm", "in", "m", NULL};
		static const double metres[] = {0.001, 0.01, 0.0254, 1.0};
		for (int k = 0; unames[k]; ++k)
			if (strcmp(u, unames[k]) == 0) unit = metres[k];
		if (unit == 0.0) return json_fail(c, &un, "unknown units '%s' (mm, cm, in, m)", u);
	}
	char* path = scene_file_path(c->file, v[0]);
	if (!path) return scene_out_of_memory(c);
	dxf_piece d;
	char msg[512];
	bool ok = dxf_aama_read(path, v[1], unit, &d, msg, sizeof msg);
	free(path);
	if (!ok) return json_fail(c, n, "%s: %s", v[0], msg);
	int32_t count = 0;
	ok = build_points(&d, points, &count, msg, sizeof msg);
	if (ok && d.has_grain && hypot(d.grain[0], d.grain[1]) > 0.0) p->grain[0] = d.grain[0], p->grain[1] = d.grain[1];
	dxf_piece_free(&d);
	if (!ok) return json_fail(c, n, "%s: piece '%s': %s", v[0], v[1], msg);
	p->points = *points;
	p->point_count = count;
	char what[300];
	snprintf(what, sizeof what, "piece '%.256s'", v[1]);
	return scene_outline_simple(c, n, p, v[0], what);
}
