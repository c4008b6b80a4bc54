/* SVG path data into a panel outline (SVG 1.1 sec. 8.3 "The grammar for path data", appendix F.6
 * "Elliptical arc implementation notes"; docs/garments.md, "Patterns from SVG"). A small reader of
 * drape's own: Debian packages no C library that hands out a path's segments (librsvg renders, it
 * does not expose path data). Fuzzed by fuzz/fuzz_svg_path.c. */
#include "svg_path.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SVG_PI 3.14159265358979323846
/* Corner names "p<index>": room for the longest int32_t and the NUL. */
#define NAME_SIZE 13

typedef struct reader {
	const char* d;
	size_t pos;
	const svg_map* map;
	pattern_point* pts;
	int32_t* vertex; /* per point: its path vertex index, -1 for an arc's inner split point */
	int32_t count, cap, vertices;
	double cur[2], start[2], last_ctrl[2]; /* user units */
	char last_cmd;			       /* upper case: whether last_ctrl reflects (S after C/S, T after Q/T) */
	char* err;
	size_t err_size;
} reader;

static bool fail(reader* r, size_t at, const char* fmt, ...)
{
	int n = snprintf(r->err, r->err_size, "offset %zu: ", at);
	if (n < 0 || (size_t)n >= r->err_size) return false;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->err + n, r->err_size - (size_t)n, fmt, ap);
	va_end(ap);
	return false;
}

static bool is_wsp(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

static void skip_wsp(reader* r)
{
	while (is_wsp(r->d[r->pos])) r->pos++;
}

/* Whitespace and at most one comma between parameters. */
static void skip_separator(reader* r)
{
	skip_wsp(r);
	if (r->d[r->pos] == ',') {
		r->pos++;
		skip_wsp(r);
	}
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* A number by SVG's grammar (sign, digits, fraction, exponent; "1.5.5" is 1.5 then .5), converted
 * by strtod from a copy, so that strtod's own extensions (inf, nan, hex) never apply. */
static bool read_number(reader* r, double* out)
{
	skip_wsp(r);
	const char* s = r->d + r->pos;
	size_t n = 0;
	if (s[n] == '+' || s[n] == '-') n++;
	size_t digits = 0;
	while (is_digit(s[n])) n++, digits++;
	if (s[n] == '.') {
		n++;
		while (is_digit(s[n])) n++, digits++;
	}
	if (digits == 0) return fail(r, r->pos, s[0] ? "expected a number, got '%c'" : "expected a number, got the end", s[0]);
	if (s[n] == 'e' || s[n] == 'E') {
		size_t e = n + 1;
		if (s[e] == '+' || s[e] == '-') e++;
		if (is_digit(s[e])) {
			while (is_digit(s[e])) e++;
			n = e;
		}
	}
	char buf[64];
	if (n >= sizeof buf) return fail(r, r->pos, "a number of %zu characters", n);
	memcpy(buf, s, n);
	buf[n] = '\0';
	*out = strtod(buf, NULL);
	if (!isfinite(*out)) return fail(r, r->pos, "number '%s' out of range", buf);
	r->pos += n;
	skip_separator(r);
	return true;
}

static bool read_flag(reader* r, bool* out)
{
	skip_wsp(r);
	char c = r->d[r->pos];
	if (c != '0' && c != '1') return fail(r, r->pos, "expected an arc flag 0 or 1");
	*out = c == '1';
	r->pos++;
	skip_separator(r);
	return true;
}

static bool read_pair(reader* r, bool relative, double out[2])
{
	if (!read_number(r, &out[0]) || !read_number(r, &out[1])) return false;
	if (relative) out[0] += r->cur[0], out[1] += r->cur[1];
	return true;
}

static void to_metres(const reader* r, const double u[2], double* m)
{
	m[0] = (u[0] - r->map->origin[0]) * r->map->scale[0];
	m[1] = (r->map->origin[1] - u[1]) * r->map->scale[1];
}

/* Appends a point at `end` (user units), the previous point continuing to it as `curve`. */
static bool push(reader* r, size_t at, pattern_curve curve, const double* ctrl_user, int ctrl_count, const double end[2],
		 double bulge, bool vertex)
{
	if (r->count == r->cap) {
		int32_t cap = r->cap ? 2 * r->cap : 16;
		pattern_point* p = realloc(r->pts, (size_t)cap * sizeof *p);
		if (p) r->pts = p;
		int32_t* v = realloc(r->vertex, (size_t)cap * sizeof *v);
		if (v) r->vertex = v;
		if (!p || !v) return fail(r, at, "out of memory");
		r->cap = cap;
	}
	if (r->count > 0) {
		pattern_point* prev = &r->pts[r->count - 1];
		prev->curve = curve;
		for (int k = 0; k < ctrl_count; ++k) to_metres(r, &ctrl_user[2 * k], &prev->ctrl[2 * k]);
		prev->bulge = bulge;
	}
	pattern_point* p = &r->pts[r->count];
	memset(p, 0, sizeof *p);
	to_metres(r, end, p->at);
	if (!isfinite(p->at[0]) || !isfinite(p->at[1])) return fail(r, at, "a point out of range in metres");
	r->vertex[r->count] = vertex ? r->vertices++ : -1;
	r->count++;
	r->cur[0] = end[0], r->cur[1] = end[1];
	return true;
}

/* A segment to `end`; zero-length ones (all its points on the current point) are skipped. */
static bool segment(reader* r, size_t at, pattern_curve curve, const double* ctrl, int ctrl_count, const double end[2])
{
	bool moves = end[0] != r->cur[0] || end[1] != r->cur[1];
	for (int k = 0; k < ctrl_count; ++k) moves = moves || ctrl[2 * k] != r->cur[0] || ctrl[2 * k + 1] != r->cur[1];
	if (!moves) return true;
	return push(r, at, curve, ctrl, ctrl_count, end, 0.0, true);
}

static double vector_angle(double ux, double uy, double vx, double vy)
{
	return atan2(ux * vy - uy * vx, ux * vx + uy * vy);
}

/* An elliptical arc by SVG's endpoint parametrisation (F.6.5, F.6.6): a circular one (equal radii
 * in metres) as drape arcs of at most 180 degrees, else cubic Beziers of at most 90. */
static bool arc(reader* r, size_t at, double rx, double ry, double phi_deg, bool large, bool sweep, const double end[2])
{
	const double* p0 = r->cur;
	if (end[0] == p0[0] && end[1] == p0[1]) return true; /* F.6.2: omitted */
	rx = fabs(rx), ry = fabs(ry);
	if (rx == 0.0 || ry == 0.0) return segment(r, at, CURVE_LINE, NULL, 0, end);
	const double phi = fmod(phi_deg, 360.0) * SVG_PI / 180.0, cp = cos(phi), sp = sin(phi);
	const double hx = 0.5 * (p0[0] - end[0]), hy = 0.5 * (p0[1] - end[1]);
	const double x1 = cp * hx + sp * hy, y1 = -sp * hx + cp * hy;
	const double lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry);
	if (lambda > 1.0) rx *= sqrt(lambda), ry *= sqrt(lambda);
	double num = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1;
	const double den = rx * rx * y1 * y1 + ry * ry * x1 * x1;
	double k = num > 0.0 && den > 0.0 ? sqrt(num / den) : 0.0;
	if (large == sweep) k = -k;
	const double cx1 = k * rx * y1 / ry, cy1 = -k * ry * x1 / rx;
	const double cx = cp * cx1 - sp * cy1 + 0.5 * (p0[0] + end[0]), cy = sp * cx1 + cp * cy1 + 0.5 * (p0[1] + end[1]);
	const double ux = (x1 - cx1) / rx, uy = (y1 - cy1) / ry, vx = (-x1 - cx1) / rx, vy = (-y1 - cy1) / ry;
	const double theta1 = atan2(uy, ux);
	double dtheta = vector_angle(ux, uy, vx, vy);
	if (!sweep && dtheta > 0.0) dtheta -= 2.0 * SVG_PI;
	if (sweep && dtheta < 0.0) dtheta += 2.0 * SVG_PI;
	if (!isfinite(cx) || !isfinite(cy) || !isfinite(dtheta)) return fail(r, at, "an arc out of range");
	const double rel = fabs(rx * r->map->scale[0] - ry * r->map->scale[1]) / fmax(rx * r->map->scale[0], ry * r->map->scale[1]);
	const bool circle = rel < 1e-9;
	const int pieces = circle ? (fabs(dtheta) > SVG_PI * (1.0 + 1e-12) ? 2 : 1)
				  : (int)ceil(fabs(dtheta) / (0.5 * SVG_PI) - 1e-12);
	const double step = dtheta / (pieces > 0 ? pieces : 1);
	for (int i = 0; i < pieces; ++i) {
		const double a0 = theta1 + i * step, a1 = a0 + step;
		double q[2];
		if (i == pieces - 1) q[0] = end[0], q[1] = end[1];
		else q[0] = cx + rx * cos(a1) * cp - ry * sin(a1) * sp, q[1] = cy + rx * cos(a1) * sp + ry * sin(a1) * cp;
		if (circle) {
			/* SVG's positive angles turn clockwise once y points up: the bulge changes sign. */
			if (!push(r, at, CURVE_ARC, NULL, 0, q, -tan(0.25 * step), i == pieces - 1)) return false;
			continue;
		}
		const double t = 4.0 / 3.0 * tan(0.25 * step);
		const double e0[2] = {cos(a0) - t * sin(a0), sin(a0) + t * cos(a0)};
		const double e1[2] = {cos(a1) + t * sin(a1), sin(a1) - t * cos(a1)};
		const double ctrl[4] = {cx + rx * e0[0] * cp - ry * e0[1] * sp, cy + rx * e0[0] * sp + ry * e0[1] * cp,
					cx + rx * e1[0] * cp - ry * e1[1] * sp, cy + rx * e1[0] * sp + ry * e1[1] * cp};
		if (!push(r, at, CURVE_CUBIC, ctrl, 2, q, 0.0, i == pieces - 1)) return false;
	}
	return true;
}

/* One command's parameters (one repetition); cmd is the letter as written. */
static bool command(reader* r, char cmd, size_t at)
{
	const bool rel = cmd >= 'a';
	const char up = (char)(rel ? cmd - 32 : cmd);
	double p[2], c[4];
	const bool reflect_c = (up == 'S' && (r->last_cmd == 'C' || r->last_cmd == 'S'));
	const bool reflect_q = (up == 'T' && (r->last_cmd == 'Q' || r->last_cmd == 'T'));
	bool ok = true;
	switch (up) {
	case 'L':
		ok = read_pair(r, rel, p) && segment(r, at, CURVE_LINE, NULL, 0, p);
		break;
	case 'H':
		ok = read_number(r, &p[0]);
		p[0] += rel ? r->cur[0] : 0.0, p[1] = r->cur[1];
		ok = ok && segment(r, at, CURVE_LINE, NULL, 0, p);
		break;
	case 'V':
		ok = read_number(r, &p[1]);
		p[1] += rel ? r->cur[1] : 0.0, p[0] = r->cur[0];
		ok = ok && segment(r, at, CURVE_LINE, NULL, 0, p);
		break;
	case 'C':
		ok = read_pair(r, rel, &c[0]) && read_pair(r, rel, &c[2]) && read_pair(r, rel, p);
		if (ok) r->last_ctrl[0] = c[2], r->last_ctrl[1] = c[3];
		ok = ok && segment(r, at, CURVE_CUBIC, c, 2, p);
		break;
	case 'S':
		c[0] = reflect_c ? 2.0 * r->cur[0] - r->last_ctrl[0] : r->cur[0];
		c[1] = reflect_c ? 2.0 * r->cur[1] - r->last_ctrl[1] : r->cur[1];
		ok = read_pair(r, rel, &c[2]) && read_pair(r, rel, p);
		if (ok) r->last_ctrl[0] = c[2], r->last_ctrl[1] = c[3];
		ok = ok && segment(r, at, CURVE_CUBIC, c, 2, p);
		break;
	case 'Q':
		ok = read_pair(r, rel, c) && read_pair(r, rel, p);
		if (ok) r->last_ctrl[0] = c[0], r->last_ctrl[1] = c[1];
		ok = ok && segment(r, at, CURVE_QUAD, c, 1, p);
		break;
	case 'T':
		c[0] = reflect_q ? 2.0 * r->cur[0] - r->last_ctrl[0] : r->cur[0];
		c[1] = reflect_q ? 2.0 * r->cur[1] - r->last_ctrl[1] : r->cur[1];
		r->last_ctrl[0] = c[0], r->last_ctrl[1] = c[1];
		ok = read_pair(r, rel, p) && segment(r, at, CURVE_QUAD, c, 1, p);
		break;
	case 'A': {
		double rx, ry, phi;
		bool large, sweep;
		ok = read_number(r, &rx) && read_number(r, &ry) && read_number(r, &phi) && read_flag(r, &large) &&
		     read_flag(r, &sweep) && read_pair(r, rel, p) && arc(r, at, rx, ry, phi, large, sweep, p);
		break;
	}
	default:
		return fail(r, at, "unknown path command '%c'", cmd);
	}
	r->last_cmd = up;
	return ok;
}

static bool is_command(char c)
{
	return c && strchr("MmLlHhVvCcSsQqTtAaZz", c) != NULL;
}

static bool read_path(reader* r)
{
	skip_wsp(r);
	const size_t first = r->pos;
	const char m = r->d[r->pos];
	if (m != 'M' && m != 'm') return fail(r, first, m ? "path data must start with M or m" : "empty path data");
	r->pos++;
	double p[2];
	if (!read_pair(r, false, p) || !push(r, first, CURVE_LINE, NULL, 0, p, 0.0, true)) return false;
	r->start[0] = p[0], r->start[1] = p[1];
	char cmd = m == 'M' ? 'L' : 'l'; /* further pairs after a moveto are linetos */
	for (;;) {
		skip_wsp(r);
		const size_t at = r->pos;
		const char ch = r->d[at];
		if (!ch) return fail(r, at, "the path is not closed (it ends without Z); a panel's outline is one closed path");
		if (ch == 'M' || ch == 'm') return fail(r, at, "a second subpath ('%c'); a panel's outline is one closed path", ch);
		if (ch == 'Z' || ch == 'z') {
			r->pos++;
			skip_wsp(r);
			if (r->d[r->pos])
				return fail(r, r->pos, "more path data after Z; a panel's outline is one closed path");
			break;
		}
		if (is_command(ch)) cmd = ch, r->pos++;
		else if (!(is_digit(ch) || ch == '.' || ch == '-' || ch == '+'))
			return fail(r, at, "unexpected '%c' in path data", ch);
		if (!command(r, cmd, at)) return false;
	}
	/* Z: a last point on the start is the start; otherwise a straight piece closes the outline. */
	if (r->count > 1 && r->cur[0] == r->start[0] && r->cur[1] == r->start[1]) r->count--, r->vertices--;
	else if (r->count > 0) r->pts[r->count - 1].curve = CURVE_LINE;
	return true;
}

bool svg_path_read(const char* d, const svg_map* map, pattern_point** points, int32_t* count, char* err, size_t err_size)
{
	*points = NULL;
	*count = 0;
	reader r = {.d = d, .map = map, .err = err, .err_size = err_size};
	bool ok = read_path(&r);
	pattern_point* out = NULL;
	if (ok) {
		out = malloc((size_t)r.count * (sizeof *out + NAME_SIZE));
		if (!out) ok = fail(&r, r.pos, "out of memory");
	}
	if (ok) {
		char* names = (char*)(out + r.count);
		for (int32_t i = 0; i < r.count; ++i) {
			out[i] = r.pts[i];
			out[i].corner = NULL;
			if (r.vertex[i] < 0) continue;
			char* name = names + (size_t)i * NAME_SIZE;
			snprintf(name, NAME_SIZE, "p%d", (int)r.vertex[i]);
			out[i].corner = name;
		}
		*points = out;
		*count = r.count;
	}
	free(r.pts);
	free(r.vertex);
	return ok;
}
