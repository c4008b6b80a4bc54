/* Panel outlines (docs/garments.md): straight segments, quadratic and cubic Bezier curves and
 * circular arcs flattened into a fine polyline, the checks on it (a simple polygon), and its area
 * and length. */
#include "garment.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Polyline points per curved outline edge: the chord error of a quarter circle cut into 64 is
 * 3e-4 of its radius, well under any triangle size a garment uses. */
#define CURVE_SAMPLES 64

static void curve_point(const pattern_point* a, const pattern_point* b, double t, double out[2])
{
	const double s = 1.0 - t;
	switch (a->curve) {
	case CURVE_QUAD:
		for (int k = 0; k < 2; ++k) out[k] = s * s * a->at[k] + 2.0 * s * t * a->ctrl[k] + t * t * b->at[k];
		return;
	case CURVE_CUBIC:
		for (int k = 0; k < 2; ++k)
			out[k] = s * s * s * a->at[k] + 3.0 * s * s * t * a->ctrl[k] + 3.0 * s * t * t * a->ctrl[2 + k] +
				 t * t * t * b->at[k];
		return;
	case CURVE_ARC: {
		const double theta = 4.0 * atan(a->bulge);
		const double cx = b->at[0] - a->at[0], cy = b->at[1] - a->at[1];
		const double c = sqrt(cx * cx + cy * cy);
		/* centre on the chord's left at signed distance (c/2) / tan(theta/2) */
		const double d = 0.5 * c / tan(0.5 * theta);
		const double ox = 0.5 * (a->at[0] + b->at[0]) - d * cy / c, oy = 0.5 * (a->at[1] + b->at[1]) + d * cx / c;
		const double r = hypot(a->at[0] - ox, a->at[1] - oy);
		const double a0 = atan2(a->at[1] - oy, a->at[0] - ox);
		out[0] = ox + r * cos(a0 + t * theta);
		out[1] = oy + r * sin(a0 + t * theta);
		return;
	}
	default:
		for (int k = 0; k < 2; ++k) out[k] = s * a->at[k] + t * b->at[k];
	}
}

static double orient(const double* a, const double* b, const double* c)
{
	return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

static bool on_segment(const double* a, const double* b, const double* p)
{
	return fmin(a[0], b[0]) <= p[0] && p[0] <= fmax(a[0], b[0]) && fmin(a[1], b[1]) <= p[1] && p[1] <= fmax(a[1], b[1]);
}

static bool segments_meet(const double* a, const double* b, const double* c, const double* d)
{
	const double o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
	if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) return true;
	return (o1 == 0 && on_segment(a, b, c)) || (o2 == 0 && on_segment(a, b, d)) || (o3 == 0 && on_segment(c, d, a)) ||
	       (o4 == 0 && on_segment(c, d, b));
}

static int32_t edge_of(const int32_t* edge_start, int32_t edges, int32_t segment)
{
	int32_t e = 0;
	while (e + 1 < edges && edge_start[e + 1] <= segment) ++e;
	return e;
}

/* "from point 2 to 3", with the points' corner names where they have them: "from point 2 (p2) to 3". */
static void edge_label(const pattern_panel* p, int32_t e, char* out, size_t size)
{
	const int32_t f = (e + 1) % p->point_count;
	const char* a = p->points[e].corner;
	const char* b = p->points[f].corner;
	snprintf(out, size, "from point %d%s%.32s%s to %d%s%.32s%s", (int)e, a ? " (" : "", a ? a : "", a ? ")" : "", (int)f,
		 b ? " (" : "", b ? b : "", b ? ")" : "");
}

bool pattern_flatten(const pattern_panel* p, double** xy, int32_t* count, int32_t** edge_start, char* err, size_t err_size)
{
	*xy = NULL;
	*edge_start = NULL;
	*count = 0;
	const int32_t n = p->point_count;
	bool curved = false;
	for (int32_t i = 0; i < n; ++i) curved = curved || p->points[i].curve != CURVE_LINE;
	if (n < (curved ? 2 : 3)) {
		snprintf(err, err_size, "panel '%s': an outline needs at least 3 points (2 with a curve), got %d", p->name, n);
		return false;
	}
	int32_t total = 0;
	for (int32_t i = 0; i < n; ++i) total += p->points[i].curve == CURVE_LINE ? 1 : CURVE_SAMPLES;
	double* pts = malloc(2 * (size_t)total * sizeof *pts);
	int32_t* starts = malloc((size_t)n * sizeof *starts);
	if (!pts || !starts) {
		free(pts);
		free(starts);
		snprintf(err, err_size, "panel '%s': out of memory", p->name);
		return false;
	}
	int32_t m = 0;
	for (int32_t i = 0; i < n; ++i) {
		const pattern_point* a = &p->points[i];
		const pattern_point* b = &p->points[(i + 1) % n];
		starts[i] = m;
		if (a->at[0] == b->at[0] && a->at[1] == b->at[1]) {
			snprintf(err, err_size, "panel '%s': outline points %d and %d coincide at (%g, %g)", p->name, (int)i,
				 (int)((i + 1) % n), a->at[0], a->at[1]);
			free(pts);
			free(starts);
			return false;
		}
		if (a->curve == CURVE_ARC && !(isfinite(a->bulge) && a->bulge != 0.0 && fabs(a->bulge) <= 1e3)) {
			snprintf(err, err_size, "panel '%s': outline point %d: arc bulge must be non-zero and finite, got %g",
				 p->name, (int)i, a->bulge);
			free(pts);
			free(starts);
			return false;
		}
		const int32_t samples = a->curve == CURVE_LINE ? 1 : CURVE_SAMPLES;
		for (int32_t k = 0; k < samples; ++k, ++m) curve_point(a, b, (double)k / samples, &pts[2 * m]);
	}
	/* A simple polygon: no two non-adjacent segments meet. Segments whose bounding boxes are apart
	 * cannot meet: the box test first spares most pairs the four orientations (an outline of a
	 * few curves is hundreds of samples, and this runs for every panel a scene loads). */
	for (int32_t i = 0; i < total; ++i) {
		const double* a = &pts[2 * i];
		const double* b = &pts[2 * ((i + 1) % total)];
		const double lo_x = fmin(a[0], b[0]), hi_x = fmax(a[0], b[0]);
		const double lo_y = fmin(a[1], b[1]), hi_y = fmax(a[1], b[1]);
		for (int32_t j = i + 1; j < total; ++j) {
			if (j == i + 1 || (i == 0 && j == total - 1)) continue;
			const double* c = &pts[2 * j];
			const double* d = &pts[2 * ((j + 1) % total)];
			if (fmax(c[0], d[0]) < lo_x || fmin(c[0], d[0]) > hi_x || fmax(c[1], d[1]) < lo_y ||
			    fmin(c[1], d[1]) > hi_y)
				continue;
			if (segments_meet(a, b, c, d)) {
				int32_t ei = edge_of(starts, n, i), ej = edge_of(starts, n, j);
				char e0[96], e1[96];
				edge_label(p, ei, e0, sizeof e0);
				edge_label(p, ej, e1, sizeof e1);
				snprintf(err, err_size,
					 "panel '%s': the outline crosses itself (its edge %s meets the edge %s near (%.4g, %.4g))",
					 p->name, e0, e1, c[0], c[1]);
				free(pts);
				free(starts);
				return false;
			}
		}
	}
	*xy = pts;
	*count = total;
	*edge_start = starts;
	return true;
}

double polygon_area(const double* xy, int32_t count)
{
	double a = 0.0;
	for (int32_t i = 0; i < count; ++i) {
		const double* p = &xy[2 * i];
		const double* q = &xy[2 * ((i + 1) % count)];
		a += p[0] * q[1] - q[0] * p[1];
	}
	return 0.5 * a;
}

double polygon_length(const double* xy, int32_t count)
{
	double l = 0.0;
	for (int32_t i = 0; i < count; ++i) {
		const double* p = &xy[2 * i];
		const double* q = &xy[2 * ((i + 1) % count)];
		l += hypot(q[0] - p[0], q[1] - p[1]);
	}
	return l;
}
