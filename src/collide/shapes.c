/* Analytic solids: exact signed distance and continuous first-hit times of a particle's straight
 * path against the surface grown by a thickness (sec. 2.1: "analytically checking for intersection
 * between previous and current positions can guarantee that no collisions are missed"). */
#include "shapes.h"

#include <float.h>
#include <stddef.h>

/* Zero counts as positive: the deterministic side for points on a symmetry plane. */
static inline double sign_of(double x) { return x < 0.0 ? -1.0 : 1.0; }

/* v / len component-wise (no 1/len, which overflows for subnormal lengths), or fallback. */
static inline vec3 unit_or(vec3 v, double len, vec3 fallback)
{
	return len > 0.0 ? v3(v.x / len, v.y / len, v.z / len) : fallback;
}

static double sphere_sd(double r, vec3 p, vec3* c, vec3* n)
{
	double d = v3_len(p);
	*n = unit_or(p, d, v3(0.0, 0.0, 1.0));
	*c = v3_scale(*n, r);
	return d - r;
}

static double capsule_sd(double r, double h, vec3 p, vec3* c, vec3* n)
{
	/* Distance to the core segment minus the radius. */
	double z = fmin(fmax(p.z, -h), h);
	vec3 v = v3(p.x, p.y, p.z - z);
	double d = v3_len(v);
	*n = unit_or(v, d, v3(1.0, 0.0, 0.0));
	*c = v3_madd(v3(0.0, 0.0, z), r, *n);
	return d - r;
}

/* The solid cylinder is a disc times an interval, so outside it the closest point is the disc
 * projection and the interval projection taken separately (exact at the rim too); inside, the
 * nearer of the side and the cap. */
static double cylinder_sd(double r, double h, vec3 p, vec3* c, vec3* n)
{
	double rho = hypot(p.x, p.y);
	vec3 u = unit_or(v3(p.x, p.y, 0.0), rho, v3(1.0, 0.0, 0.0));
	double sz = sign_of(p.z);
	double dr = rho - r, dz = fabs(p.z) - h;
	if (dr > 0.0 && dz > 0.0) {
		double d = hypot(dr, dz);
		*c = v3(r * u.x, r * u.y, sz * h);
		*n = v3(u.x * (dr / d), u.y * (dr / d), sz * (dz / d));
		return d;
	}
	/* Outside through the side only, or inside with the side nearer (ties go to the cap). */
	if (dr > 0.0 || (dz <= 0.0 && dr > dz)) {
		*c = v3(r * u.x, r * u.y, p.z);
		*n = u;
		return dr;
	}
	*c = v3(p.x, p.y, sz * h);
	*n = v3(0.0, 0.0, sz);
	return dz;
}

static double box_sd(vec3 e, vec3 p, vec3* c, vec3* n)
{
	double q[3] = {fabs(p.x) - e.x, fabs(p.y) - e.y, fabs(p.z) - e.z};
	if (q[0] > 0.0 || q[1] > 0.0 || q[2] > 0.0) {
		/* Clamping is the exact projection onto a box: faces, edges and corners alike. */
		*c = v3(fmin(fmax(p.x, -e.x), e.x), fmin(fmax(p.y, -e.y), e.y), fmin(fmax(p.z, -e.z), e.z));
		vec3 v = v3_sub(p, *c);
		double d = v3_len(v);
		*n = unit_or(v, d, v3(1.0, 0.0, 0.0));
		return d;
	}
	/* Inside: the face whose plane is nearest; ties go to the lower axis. */
	int k = 0;
	if (q[1] > q[k]) k = 1;
	if (q[2] > q[k]) k = 2;
	double s = sign_of(v3_get(p, k));
	double pc[3] = {p.x, p.y, p.z}, nc[3] = {0.0, 0.0, 0.0};
	pc[k] = s * v3_get(e, k);
	nc[k] = s;
	*c = v3_load(pc);
	*n = v3_load(nc);
	return q[k];
}

double shape_signed_distance(const shape* s, vec3 p, vec3* closest_local, vec3* normal_local)
{
	vec3 c, n;
	double d;
	switch (s->kind) {
	case SHAPE_PLANE:
		c = v3(p.x, p.y, 0.0);
		n = v3(0.0, 0.0, 1.0);
		d = p.z;
		break;
	case SHAPE_SPHERE: d = sphere_sd(s->radius, p, &c, &n); break;
	case SHAPE_CAPSULE: d = capsule_sd(s->radius, s->half_height, p, &c, &n); break;
	case SHAPE_CYLINDER: d = cylinder_sd(s->radius, s->half_height, p, &c, &n); break;
	case SHAPE_BOX: d = box_sd(s->half_extents, p, &c, &n); break;
	default:
		c = p;
		n = v3(0.0, 0.0, 1.0);
		d = INFINITY;
		break;
	}
	if (closest_local) *closest_local = c;
	if (normal_local) *normal_local = n;
	return d;
}

/* ---- Continuous detection: p(t) = o + t w, t in [0, 1]. ----
 * Every grown solid below is a union of convex pieces; the path meets a convex piece in one
 * parameter interval (a span), and the first hit is the earliest entry over the pieces. */

typedef struct span {
	double lo, hi; /* empty when lo > hi */
} span;

static const span span_all = {-INFINITY, INFINITY};
static const span span_none = {INFINITY, -INFINITY};

static inline span span_meet(span a, span b)
{
	span r = {fmax(a.lo, b.lo), fmin(a.hi, b.hi)};
	return r;
}

/* lo <= o + t w <= hi along one coordinate. */
static span slab_span(double o, double w, double lo, double hi)
{
	if (w == 0.0) return (lo <= o && o <= hi) ? span_all : span_none;
	double t1 = (lo - o) / w, t2 = (hi - o) / w;
	span r = {fmin(t1, t2), fmax(t1, t2)};
	return r;
}

/* |m + t w| <= R over dim coordinates (dim 3: a ball; dim 2: an infinite cylinder). The roots of
 * a t^2 + 2 b t + c = 0 in the cancellation-free form q / a, c / q. */
static span ball_span(const double* m, const double* w, int dim, double R)
{
	if (R < 0.0) return span_none;
	double a = 0.0, b = 0.0, c = 0.0;
	for (int i = 0; i < dim; ++i) {
		a += w[i] * w[i];
		b += m[i] * w[i];
		c += m[i] * m[i];
	}
	c -= R * R;
	if (a == 0.0) return c <= 0.0 ? span_all : span_none;
	double disc = b * b - a * c;
	if (disc < 0.0) return span_none;
	double q = -(b + sign_of(b) * sqrt(disc));
	if (q == 0.0) {
		/* b = 0 and disc = 0, so c = 0: a double root at t = 0. */
		span r = {0.0, 0.0};
		return r;
	}
	double t1 = q / a, t2 = c / q;
	span r = {fmin(t1, t2), fmax(t1, t2)};
	return r;
}

/* Ball of radius R about centre. */
static span ball3_span(vec3 o, vec3 w, vec3 centre, double R)
{
	double m[3] = {o.x - centre.x, o.y - centre.y, o.z - centre.z}, ww[3] = {w.x, w.y, w.z};
	return ball_span(m, ww, 3, R);
}

/* Infinite cylinder of radius R about the line through centre along coordinate axis. */
static span line_span(vec3 o, vec3 w, int axis, vec3 centre, double R)
{
	int j = (axis + 1) % 3, k = (axis + 2) % 3;
	double m[2] = {v3_get(o, j) - v3_get(centre, j), v3_get(o, k) - v3_get(centre, k)};
	double ww[2] = {v3_get(w, j), v3_get(w, k)};
	return ball_span(m, ww, 2, R);
}

/* Axis-aligned box |x_i| <= e_i. */
static span box_span(vec3 o, vec3 w, vec3 e)
{
	span r = slab_span(o.x, w.x, -e.x, e.x);
	r = span_meet(r, slab_span(o.y, w.y, -e.y, e.y));
	return span_meet(r, slab_span(o.z, w.z, -e.z, e.z));
}

/* Earliest t in [0, 1] inside the span. */
static inline bool span_entry(span s, double* t)
{
	if (s.lo > s.hi || s.hi < 0.0 || s.lo > 1.0) return false;
	*t = s.lo > 0.0 ? s.lo : 0.0;
	return true;
}

/* Keeps the earliest entry over pieces. */
static inline void take_earliest(span s, bool* hit, double* best)
{
	double t;
	if (span_entry(s, &t) && (!*hit || t < *best)) {
		*best = t;
		*hit = true;
	}
}

static bool capsule_hit(double r, double h, vec3 o, vec3 w, double th, double* t)
{
	double R = r + th;
	bool hit = false;
	take_earliest(span_meet(line_span(o, w, 2, v3_zero(), R), slab_span(o.z, w.z, -h, h)), &hit, t);
	take_earliest(ball3_span(o, w, v3(0.0, 0.0, h), R), &hit, t);
	take_earliest(ball3_span(o, w, v3(0.0, 0.0, -h), R), &hit, t);
	return hit;
}

static bool box_hit(vec3 e, vec3 o, vec3 w, double th, double* t)
{
	vec3 E = v3(e.x + th, e.y + th, e.z + th);
	/* Grown by th <= 0 a box is the box of half extents e + th, and for th > 0 that box bounds
	 * the rounded one. */
	if (E.x < 0.0 || E.y < 0.0 || E.z < 0.0) return false;
	if (!span_entry(box_span(o, w, E), t)) return false;
	if (th <= 0.0) return true;
	/* Entered through a face within the original extent of the other two axes: on the rounded
	 * box's flat part, so exact. */
	vec3 q = v3_madd(o, *t, w);
	int beyond = (fabs(q.x) > e.x) + (fabs(q.y) > e.y) + (fabs(q.z) > e.z);
	if (beyond <= 1) return true;
	/* Near an edge or corner: the exact rounded box, a union of convex pieces. */
	bool hit = false;
	for (int i = 0; i < 3; ++i) {
		double g[3] = {e.x, e.y, e.z};
		g[i] += th;
		take_earliest(box_span(o, w, v3_load(g)), &hit, t);
	}
	for (int i = 0; i < 3; ++i) {
		int j = (i + 1) % 3, k = (i + 2) % 3;
		span along = slab_span(v3_get(o, i), v3_get(w, i), -v3_get(e, i), v3_get(e, i));
		for (int sj = -1; sj <= 1; sj += 2)
			for (int sk = -1; sk <= 1; sk += 2) {
				double c[3] = {0.0, 0.0, 0.0};
				c[j] = sj * v3_get(e, j);
				c[k] = sk * v3_get(e, k);
				take_earliest(span_meet(along, line_span(o, w, i, v3_load(c), th)), &hit, t);
			}
	}
	for (int corner = 0; corner < 8; ++corner) {
		vec3 c = v3((corner & 1) ? e.x : -e.x, (corner & 2) ? e.y : -e.y, (corner & 4) ? e.z : -e.z);
		take_earliest(ball3_span(o, w, c, th), &hit, t);
	}
	return hit;
}

static double path_sd(const shape* s, vec3 o, vec3 w, double t)
{
	return shape_signed_distance(s, v3_madd(o, t, w), NULL, NULL);
}

static bool cylinder_hit(const shape* s, vec3 o, vec3 w, double th, double* t)
{
	double r = s->radius, h = s->half_height;
	double R = r + th, H = h + th;
	/* The cylinder (r + th, h + th) is the solid eroded by -th when th <= 0, and bounds the grown
	 * solid when th > 0. */
	if (R < 0.0 || H < 0.0) return false;
	span bound = span_meet(line_span(o, w, 2, v3_zero(), R), slab_span(o.z, w.z, -H, H));
	if (!span_entry(bound, t)) return false;
	if (th <= 0.0) return true;
	vec3 q = v3_madd(o, *t, w);
	if (fabs(q.z) <= h || hypot(q.x, q.y) <= r) return true;
	double lo = *t;
	if (path_sd(s, o, w, lo) <= th) return true;
	/* Entered the bounding cylinder in its rim region, outside the grown solid. The grown solid
	 * adds to the side and cap pieces a torus about each rim (a quartic in t); rather than solve
	 * that, use that a convex solid's signed distance is convex along a line: the sublevel set
	 * {t: sd <= th} is one interval. Find a point in it, then bisect its lower end. */
	double hi;
	bool hit = false;
	take_earliest(span_meet(line_span(o, w, 2, v3_zero(), R), slab_span(o.z, w.z, -h, h)), &hit, &hi);
	take_earliest(span_meet(line_span(o, w, 2, v3_zero(), r), slab_span(o.z, w.z, -H, H)), &hit, &hi);
	if (!hit) {
		/* Only the tori can be in reach: golden-section search of the convex sd over the span
		 * inside the bounding cylinder, stopping as soon as a point within th turns up. */
		const double g = 0.6180339887498949;
		double a = lo, b = fmin(bound.hi, 1.0);
		double x1 = b - g * (b - a), x2 = a + g * (b - a);
		double f1 = path_sd(s, o, w, x1), f2 = path_sd(s, o, w, x2);
		for (int it = 0; it < 200 && !hit; ++it) {
			if (f1 <= th) {
				hi = x1;
				hit = true;
			} else if (f2 <= th) {
				hi = x2;
				hit = true;
			} else if (b - a <= 0x1.0p-60) {
				break;
			} else if (f1 < f2) {
				b = x2;
				x2 = x1;
				f2 = f1;
				x1 = b - g * (b - a);
				f1 = path_sd(s, o, w, x1);
			} else {
				a = x1;
				x1 = x2;
				f1 = f2;
				x2 = a + g * (b - a);
				f2 = path_sd(s, o, w, x2);
			}
		}
		if (!hit) return false;
	}
	/* sd(lo) > th >= sd(hi) with one crossing between: bisect to (below) 2^-60. */
	for (int it = 0; it < 200 && hi - lo > 0x1.0p-60; ++it) {
		double mid = lo + 0.5 * (hi - lo);
		if (mid <= lo || mid >= hi) break;
		if (path_sd(s, o, w, mid) <= th)
			hi = mid;
		else
			lo = mid;
	}
	*t = hi;
	return true;
}

bool shape_segment_first_hit(const shape* s, vec3 p0, vec3 p1, double thickness, double* t, vec3* normal_local)
{
	double th = thickness, tt = 0.0;
	vec3 w = v3_sub(p1, p0);
	bool hit;
	/* Decided by the same function the contact code uses, so a particle the proximity test calls
	 * in contact is never reported as arriving later. */
	if (shape_signed_distance(s, p0, NULL, NULL) <= th) {
		hit = true;
	} else {
		switch (s->kind) {
		case SHAPE_PLANE:
			/* p0.z > th here. */
			hit = p1.z <= th;
			if (hit) tt = fmin((p0.z - th) / (p0.z - p1.z), 1.0);
			break;
		case SHAPE_SPHERE: hit = span_entry(ball3_span(p0, w, v3_zero(), s->radius + th), &tt); break;
		case SHAPE_CAPSULE: hit = capsule_hit(s->radius, s->half_height, p0, w, th, &tt); break;
		case SHAPE_CYLINDER: hit = cylinder_hit(s, p0, w, th, &tt); break;
		case SHAPE_BOX: hit = box_hit(s->half_extents, p0, w, th, &tt); break;
		default: hit = false; break;
		}
	}
	if (!hit) return false;
	*t = tt;
	if (normal_local) shape_signed_distance(s, v3_madd(p0, tt, w), NULL, normal_local);
	return true;
}

aabb shape_local_bounds(const shape* s, double margin)
{
	double m = margin, L = SHAPE_PLANE_EXTENT;
	switch (s->kind) {
	case SHAPE_PLANE: return aabb_make(v3(-L, -L, -L), v3(L, L, m));
	case SHAPE_SPHERE: return aabb_grow(aabb_of_point(v3_zero()), s->radius + m);
	case SHAPE_CAPSULE: {
		double a = s->radius + m;
		return aabb_make(v3(-a, -a, -s->half_height - a), v3(a, a, s->half_height + a));
	}
	case SHAPE_CYLINDER: {
		double a = s->radius + m, b = s->half_height + m;
		return aabb_make(v3(-a, -a, -b), v3(a, a, b));
	}
	case SHAPE_BOX: return aabb_grow(aabb_make(v3_neg(s->half_extents), s->half_extents), m);
	default: return aabb_empty();
	}
}
