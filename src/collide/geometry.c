/* Geometric primitives of collision detection (sec. 6): closest points, the particle/triangle and
 * edge/edge crossing tests over a postulated linear motion, and triangle/triangle intersection. */
#include "collide/geometry.h"
#include "math/scalar.h"

#include <float.h>
#include <stddef.h>
#include <math.h>

/* A triangle whose height is below this fraction of its longest edge is treated as its three
 * edges, which are within that height of the true answer. Above it, the face formula's
 * barycentric coordinates err by about DBL_EPSILON / (height / edge): sqrt(DBL_EPSILON) balances
 * the two. */
#define TRIANGLE_DEGENERATE 1e-8

/* CCD coefficients are trusted to this many ulps of their scale (ccd_solve): a root test on
 * values below it would be a test on rounding noise. */
#define CCD_ZERO_ULPS 32.0

/* Conservative advancement (always-coplanar motions) stops when the gap to eps is below this
 * fraction of eps, and gives up after so many steps: only a tangential graze of the eps-ball
 * converges slowly, and such a graze does not go below eps. */
#define CCD_ADVANCE_SLACK 1e-3
#define CCD_ADVANCE_MAX 1000

static double clamp01(double x) { return x < 0.0 ? 0.0 : (x > 1.0 ? 1.0 : x); }

static bool v3_is_zero(vec3 a) { return a.x == 0.0 && a.y == 0.0 && a.z == 0.0; }

/* ---- Closest points ---------------------------------------------------------------------- */

double point_segment_closest(vec3 p, vec3 a, vec3 b, double* s)
{
	vec3 ab = v3_sub(b, a);
	double l2 = v3_len2(ab);
	double u = l2 > 0.0 ? clamp01(v3_dot(v3_sub(p, a), ab) / l2) : 0.0;
	*s = u;
	return v3_len2(v3_sub(p, v3_madd(a, u, ab)));
}

static void set_bary(double bary[3], double u, double v, double w)
{
	bary[0] = u;
	bary[1] = v;
	bary[2] = w;
}

/* The closest point of a triangle too thin for the face formula lies on its boundary (or within
 * the triangle's height of it): the best of the three edges. Collinear corners make the longest
 * edge win, coincident ones the point. */
static double closest_on_edges(vec3 p, vec3 a, vec3 b, vec3 c, double bary[3])
{
	double s;
	double best = point_segment_closest(p, a, b, &s);
	set_bary(bary, 1.0 - s, s, 0.0);
	double d = point_segment_closest(p, b, c, &s);
	if (d < best) {
		best = d;
		set_bary(bary, 0.0, 1.0 - s, s);
	}
	d = point_segment_closest(p, c, a, &s);
	if (d < best) {
		best = d;
		set_bary(bary, s, 0.0, 1.0 - s);
	}
	return best;
}

double point_triangle_closest(vec3 p, vec3 a, vec3 b, vec3 c, double bary[3])
{
	vec3 ab = v3_sub(b, a), ac = v3_sub(c, a);
	vec3 n = v3_cross(ab, ac);
	double n2 = v3_len2(n);
	double l2 = fmax(fmax(v3_len2(ab), v3_len2(ac)), v3_len2(v3_sub(c, b)));
	/* |n| = longest edge * height; NaN lands here too */
	if (!(n2 > TRIANGLE_DEGENERATE * TRIANGLE_DEGENERATE * l2 * l2)) return closest_on_edges(p, a, b, c, bary);

	/* Barycentric coordinates of p's projection onto the plane, as ratios of signed sub-areas
	 * n . (x x y) / |n|^2. Their rounding error is about eps L / h (L the longest edge, h the
	 * height), which only moves the inside/outside decision by about eps L. (Voronoi-region
	 * tests built on products of dot products, the textbook alternative, err by eps (L / h)^2
	 * and pick the wrong region for slivers.) */
	vec3 ap = v3_sub(p, a);
	double h = v3_dot(n, ap);
	vec3 pa = v3_neg(v3_madd(ap, -h / n2, n)); /* a - projection of p */
	vec3 pb = v3_add(pa, ab), pc = v3_add(pa, ac);
	double u = v3_dot(n, v3_cross(pb, pc)) / n2;
	double v = v3_dot(n, v3_cross(pc, pa)) / n2;
	double w = v3_dot(n, v3_cross(pa, pb)) / n2;
	if (u >= 0.0 && v >= 0.0 && w >= 0.0) {
		double sum = u + v + w;
		set_bary(bary, u / sum, v / sum, w / sum);
		return h * h / n2;
	}
	/* Outside: the closest point lies on an edge whose opposite coordinate is negative (on a
	 * point beyond an edge's line, or in the normal cone of a corner, which is beyond one of
	 * its two edges' lines). */
	double best = INFINITY, d, t;
	if (u < 0.0 && (d = point_segment_closest(p, b, c, &t)) < best) {
		best = d;
		set_bary(bary, 0.0, 1.0 - t, t);
	}
	if (v < 0.0 && (d = point_segment_closest(p, c, a, &t)) < best) {
		best = d;
		set_bary(bary, t, 0.0, 1.0 - t);
	}
	if (w < 0.0 && (d = point_segment_closest(p, a, b, &t)) < best) {
		best = d;
		set_bary(bary, 1.0 - t, t, 0.0);
	}
	return best;
}

double segment_segment_closest(vec3 p0, vec3 p1, vec3 q0, vec3 q1, double* s, double* t)
{
	vec3 d1 = v3_sub(p1, p0), d2 = v3_sub(q1, q0), r = v3_sub(p0, q0);
	double a = v3_len2(d1), e = v3_len2(d2);
	double c = v3_dot(d1, r), f = v3_dot(d2, r);
	/* Minimising |r + s d1 - t d2|^2: c + s a - t b = 0 and t = (f + s b) / e. A segment shorter
	 * than 1e-16 of the configuration is a point: its direction is rounding noise. */
	double tiny = DBL_EPSILON * DBL_EPSILON * (a + e + v3_len2(r));
	double sv, tv;
	if (a <= tiny && e <= tiny) {
		sv = tv = 0.0;
	} else if (a <= tiny) {
		sv = 0.0;
		tv = clamp01(f / e);
	} else if (e <= tiny) {
		tv = 0.0;
		sv = clamp01(-c / a);
	} else {
		double b = v3_dot(d1, d2);
		double den = a * e - b * b; /* |d1 x d2|^2 */
		/* Below sin^2 = DBL_EPSILON the general formula's rounding error in s costs as much
		 * distance as treating the segments as parallel does (both about sqrt(eps) of their
		 * length), and the parallel branch gives the more useful point. */
		if (den > DBL_EPSILON * a * e) {
			sv = clamp01((b * f - c * e) / den);
		} else {
			/* Parallel: the middle of the overlap of q0-q1 projected on p0-p1 (or the end
			 * nearest to it when they do not overlap). */
			double s0 = -c / a, s1 = (b - c) / a;
			double lo = fmax(0.0, fmin(s0, s1)), hi = fmin(1.0, fmax(s0, s1));
			sv = clamp01(0.5 * (lo + hi));
		}
		/* The best t for that s; if it leaves [0, 1], clamp it and take the best s for the
		 * clamped t (the distance is a convex quadratic on the unit square). */
		tv = (b * sv + f) / e;
		if (tv < 0.0) {
			tv = 0.0;
			sv = clamp01(-c / a);
		} else if (tv > 1.0) {
			tv = 1.0;
			sv = clamp01((b - c) / a);
		}
	}
	*s = sv;
	*t = tv;
	return v3_len2(v3_sub(v3_madd(p0, sv, d1), v3_madd(q0, tv, d2)));
}

/* ---- Roots of the coplanarity cubic ------------------------------------------------------ */

static double cubic_eval(const double c[4], double t) { return ((c[3] * t + c[2]) * t + c[1]) * t + c[0]; }
static double cubic_slope(const double c[4], double t) { return (3.0 * c[3] * t + 2.0 * c[2]) * t + c[1]; }

/* Real roots of A t^2 + B t + C, sorted, without the cancellation of the textbook formula: the
 * larger root comes from q = -(B + sign(B) sqrt(disc)) / 2, the smaller from C / q. */
static int quadratic_roots(double A, double B, double C, double r[2])
{
	if (A == 0.0) {
		if (B == 0.0) return 0;
		r[0] = -C / B;
		return 1;
	}
	double disc = B * B - 4.0 * A * C;
	if (disc < 0.0) return 0;
	double q = -0.5 * (B + copysign(sqrt(disc), B));
	if (q == 0.0) { /* B = C = 0 */
		r[0] = 0.0;
		return 1;
	}
	double x = q / A, y = C / q;
	r[0] = fmin(x, y);
	r[1] = fmax(x, y);
	return r[0] == r[1] ? 1 : 2;
}

/* The root of a cubic that is monotone on [lo, hi] and changes sign there: Newton's method kept
 * inside the bracket, bisecting whenever a step would leave it or the bracket fails to halve. */
static double refine_root(const double c[4], double lo, double hi, double flo)
{
	double t = 0.5 * (lo + hi);
	double width = hi - lo;
	for (int it = 0; it < 200; ++it) {
		double ft = cubic_eval(c, t);
		if (ft == 0.0) return t;
		if ((ft < 0.0) == (flo < 0.0)) {
			lo = t;
			flo = ft;
		} else {
			hi = t;
		}
		if (hi - lo <= 2.0 * DBL_EPSILON) break;
		double slope = cubic_slope(c, t);
		double next = slope != 0.0 ? t - ft / slope : lo;
		bool halved = hi - lo <= 0.5 * width;
		width = hi - lo;
		t = (next > lo && next < hi && halved) ? next : 0.5 * (lo + hi);
	}
	return 0.5 * (lo + hi);
}

/* Roots in [0, 1] where values |f| <= ztol at the ends and critical points count as zeros. The
 * critical points (roots of the derivative) cut [0, 1] into pieces on which the cubic is
 * monotone, so each piece holds at most one root and a sign change brackets it; a zero at a cut
 * is a root on its own, which is how tangent (double) roots are found. */
static int unit_roots(double c0, double c1, double c2, double c3, double ztol, double roots[3])
{
	double m = fmax(fmax(fabs(c0), fabs(c1)), fmax(fabs(c2), fabs(c3)));
	if (m == 0.0) return -1;
	/* Scale to max |ci| = 1 so that nothing over- or underflows on the way. */
	double c[4] = {c0 / m, c1 / m, c2 / m, c3 / m};
	ztol /= m;

	double knot[4], fv[4];
	int nk = 0;
	knot[nk++] = 0.0;
	double crit[2];
	int nc = quadratic_roots(3.0 * c[3], 2.0 * c[2], c[1], crit);
	for (int i = 0; i < nc; ++i)
		if (crit[i] > 0.0 && crit[i] < 1.0 && crit[i] > knot[nk - 1]) knot[nk++] = crit[i];
	knot[nk++] = 1.0;
	for (int i = 0; i < nk; ++i) {
		fv[i] = cubic_eval(c, knot[i]);
		if (fabs(fv[i]) <= ztol) fv[i] = 0.0;
	}

	int n = 0;
	for (int i = 0; i < nk && n < 3; ++i) {
		if (fv[i] == 0.0) {
			roots[n++] = knot[i];
		} else if (i + 1 < nk && fv[i + 1] != 0.0 && (fv[i] < 0.0) != (fv[i + 1] < 0.0)) {
			double r = refine_root(c, knot[i], knot[i + 1], fv[i]);
			if (n == 0 || r > roots[n - 1]) roots[n++] = r;
		}
	}
	return n;
}

int cubic_roots_in_unit_interval(double c0, double c1, double c2, double c3, double roots[3])
{
	/* Horner's rounding on [0, 1] stays below a few ulps of sum |ci|. */
	double ztol = 8.0 * DBL_EPSILON * (fabs(c0) + fabs(c1) + fabs(c2) + fabs(c3));
	return unit_roots(c0, c1, c2, c3, ztol, roots);
}

/* ---- Continuous collision ------------------------------------------------------------------- */

/* Coefficients of det(A, B, C)(t) = A . (B x C) for A = A0 + t dA etc.: the coplanarity cubic of
 * four points, with A, B, C their positions relative to the first. */
static void triple_cubic(vec3 A0, vec3 dA, vec3 B0, vec3 dB, vec3 C0, vec3 dC, double c[4])
{
	vec3 bc00 = v3_cross(B0, C0), bc01 = v3_cross(B0, dC), bc10 = v3_cross(dB, C0), bc11 = v3_cross(dB, dC);
	vec3 bc1 = v3_add(bc01, bc10);
	c[0] = v3_dot(A0, bc00);
	c[1] = v3_dot(dA, bc00) + v3_dot(A0, bc1);
	c[2] = v3_dot(dA, bc1) + v3_dot(A0, bc11);
	c[3] = v3_dot(dA, bc11);
}

/* Four vertices moving linearly: a point and a triangle (x[0]; x[1..3]) or two edges (x[0..1];
 * x[2..3]). */
typedef struct ccd_motion {
	vec3 x0[4], x1[4];
	bool edges;
} ccd_motion;

/* Squared distance at time t; out gets bary (point/triangle) or s, t (edge/edge). */
static double motion_dist2(const ccd_motion* m, double t, double out[3])
{
	vec3 x[4];
	for (int i = 0; i < 4; ++i) x[i] = v3_lerp(m->x0[i], m->x1[i], t);
	if (m->edges) return segment_segment_closest(x[0], x[1], x[2], x[3], &out[0], &out[1]);
	return point_triangle_closest(x[0], x[1], x[2], x[3], out);
}

/* The four points stay coplanar (motion within a plane, or parallel edges), so no root marks the
 * contact: find the first time the distance reaches eps by conservative advancement. Every point
 * of either primitive is a convex combination of its vertices, so its distance to the other
 * changes at most at rate K = max |d_i - w| over the first's vertices + the same over the
 * second's, for any common drift w; stepping by (d - eps) / K can never step over a contact. */
static bool advance_coplanar(const ccd_motion* m, double eps, double* t, double out[3])
{
	int split = m->edges ? 2 : 1;
	vec3 d[4], w = v3_zero();
	for (int i = 0; i < 4; ++i) {
		d[i] = v3_sub(m->x1[i], m->x0[i]);
		w = v3_madd(w, 0.25, d[i]);
	}
	double k0 = 0.0, k1 = 0.0;
	for (int i = 0; i < 4; ++i) {
		double r = v3_len(v3_sub(d[i], w));
		if (i < split) k0 = fmax(k0, r);
		else k1 = fmax(k1, r);
	}
	double K = k0 + k1;
	double tt = 0.0;
	for (int it = 0; it < CCD_ADVANCE_MAX; ++it) {
		double gap = sqrt(motion_dist2(m, tt, out)) - eps;
		if (gap <= CCD_ADVANCE_SLACK * eps) {
			*t = tt;
			return true;
		}
		if (!(K > 0.0) || tt >= 1.0) return false;
		tt += gap / K;
		if (tt > 1.0) return false; /* even at full speed the distance stays above eps */
	}
	return false;
}

/* Shared by both tests: the cubic det(x1 - x0, x2 - x0, x3 - x0)(t), its roots in order, and the
 * proximity check at each root. */
static bool ccd_solve(const ccd_motion* m, double eps, double* t, double out[3])
{
	vec3 rel0[3], drel[3];
	for (int i = 0; i < 3; ++i) {
		rel0[i] = v3_sub(m->x0[i + 1], m->x0[0]);
		drel[i] = v3_sub(v3_sub(m->x1[i + 1], m->x1[0]), rel0[i]);
	}
	double c[4];
	triple_cubic(rel0[0], drel[0], rel0[1], drel[1], rel0[2], drel[2], c);
	/* What the cubic's values can be trusted to: the arithmetic's rounding, a few ulps of the
	 * bound L0 L1 L2 on |det| over the step (Li = |rel0_i| + |drel_i|), plus the rounding of the
	 * coordinates themselves, about ulp(M) for the largest coordinate M, which moves det by
	 * M (L0 L1 + L1 L2 + L2 L0) ulps: points meant to be coplanar 300 m from the origin are
	 * 1e-14 m off their plane. */
	double L[3], M = 0.0;
	for (int i = 0; i < 3; ++i) L[i] = v3_len(rel0[i]) + v3_len(drel[i]);
	for (int i = 0; i < 4; ++i) M = fmax(M, fmax(v3_max_abs(m->x0[i]), v3_max_abs(m->x1[i])));
	double scale = L[0] * L[1] * L[2] + M * (L[0] * L[1] + L[1] * L[2] + L[2] * L[0]);
	double ztol = CCD_ZERO_ULPS * DBL_EPSILON * scale;
	double cmax = fmax(fmax(fabs(c[0]), fabs(c[1])), fmax(fabs(c[2]), fabs(c[3])));
	if (cmax <= ztol) return advance_coplanar(m, eps, t, out);

	double roots[3];
	int n = unit_roots(c[0], c[1], c[2], c[3], ztol, roots);
	double eps2 = eps * eps;
	for (int i = 0; i < n; ++i) {
		if (motion_dist2(m, roots[i], out) <= eps2) {
			*t = roots[i];
			return true;
		}
	}
	return false;
}

bool ccd_point_triangle(vec3 p0, vec3 p1, vec3 a0, vec3 a1, vec3 b0, vec3 b1, vec3 c0, vec3 c1,
			double eps, double* t, double bary[3])
{
	ccd_motion m = {{p0, a0, b0, c0}, {p1, a1, b1, c1}, false};
	return ccd_solve(&m, eps, t, bary);
}

bool ccd_edge_edge(vec3 p0, vec3 p1, vec3 q0, vec3 q1, vec3 r0, vec3 r1, vec3 s0, vec3 s1, double eps,
		   double* t, double* s_param, double* t_param)
{
	ccd_motion m = {{p0, q0, r0, s0}, {p1, q1, r1, s1}, true};
	double out[3];
	if (!ccd_solve(&m, eps, t, out)) return false;
	*s_param = out[0];
	*t_param = out[1];
	return true;
}

/* ---- Intersection predicates ---------------------------------------------------------------- */

/* Plane values (below) are trusted to this many ulps of their scale, as the CCD cubic is. */
#define PLANE_ZERO_ULPS 32.0

/* |a|_1 >= |a|: lengths for a rounding bound, without a square root. */
static double v3_norm1(vec3 a) { return fabs(a.x) + fabs(a.y) + fabs(a.z); }

/* What a plane value n . (x - o), with n = (u - o) x (v - o), can be trusted to, given l1 >= |u - o|,
 * l2 >= |v - o| and r >= |x - o|. As in ccd_solve: the arithmetic errs by a few ulps of l1 l2 r (a
 * bound on the value itself), and the coordinates carry their own rounding, up to ulp(M) each for
 * M the largest coordinate of the four points, which moves the determinant by up to
 * M (l1 l2 + l2 r + r l1) ulps. Within it the sign is noise: every vertex of a flat sheet in a
 * tilted plane 100 m from the origin is 1e-14 m off the plane of every other triangle, on either
 * side, and the signs decide nothing there. M is bounded by o's largest coordinate plus the
 * longest of the three offsets, which costs less than visiting every point. */
static double plane_tol(vec3 o, double l1, double l2, double r)
{
	double M = v3_max_abs(o) + max2(max2(l1, l2), r);
	return PLANE_ZERO_ULPS * DBL_EPSILON * (l1 * l2 * r + M * (l1 * l2 + l2 * r + r * l1));
}

static double snap_zero(double d, double tol) { return fabs(d) <= tol ? 0.0 : d; }

/* The axis of n's largest component: projected along it, a triangle of normal n keeps at least
 * 1/sqrt(3) of its area. */
static int dominant_axis(vec3 n)
{
	double x = fabs(n.x), y = fabs(n.y), z = fabs(n.z);
	return x >= y ? (x >= z ? 0 : 2) : (y >= z ? 1 : 2);
}

/* Signed volume det(q - p, u - p, v - p): which side of the line pq the directed line uv passes.
 * Swapping u and v negates it exactly (no fused operations), so two triangles sharing an edge
 * see a segment cross that edge consistently. */
static double side(vec3 p, vec3 q, vec3 u, vec3 v)
{
	return v3_dot(v3_sub(q, p), v3_cross(v3_sub(u, p), v3_sub(v, p)));
}

/* Twice the signed area of (u, v, w) projected along axis k, with the other two axes in cyclic
 * order so that the sign agrees with component k of the 3D normal. */
static double orient2(vec3 u, vec3 v, vec3 w, int k)
{
	int i = (k + 1) % 3, j = (k + 2) % 3;
	double ux = v3_get(u, i), uy = v3_get(u, j);
	return (v3_get(v, i) - ux) * (v3_get(w, j) - uy) - (v3_get(v, j) - uy) * (v3_get(w, i) - ux);
}

static bool opposite_or_zero(double a, double b) { return !((a > 0.0 && b > 0.0) || (a < 0.0 && b < 0.0)); }

/* Whether x, taken to lie on the line ab, lies on the closed segment ab (all projected along k);
 * *s is its parameter, x = a + s (b - a). A point ab holds only itself. */
static bool on_segment_2d(vec3 x, vec3 a, vec3 b, int k, double* s)
{
	int i = (k + 1) % 3, j = (k + 2) % 3;
	double dx = v3_get(b, i) - v3_get(a, i), dy = v3_get(b, j) - v3_get(a, j);
	double ex = v3_get(x, i) - v3_get(a, i), ey = v3_get(x, j) - v3_get(a, j);
	double dd = dx * dx + dy * dy;
	if (dd == 0.0) {
		*s = 0.0;
		return ex == 0.0 && ey == 0.0;
	}
	*s = (ex * dx + ey * dy) / dd;
	return *s >= 0.0 && *s <= 1.0;
}

/* Closed 2D segments pq and uv (projected along k) meet; *t is the parameter along pq of the
 * first common point. The four orientations are set to zero within their rounding bound, the 2D
 * form of plane_tol: a few ulps of D^2 + M D, with D the L1 extent of the four points (a bound on
 * every difference) and M their largest coordinate. Grid edges on one line of a sheet in a tilted
 * plane are collinear up to rounding only, and the signs of their orientations are noise: taken
 * at face value, they would let two such edges a whole cell apart "cross". */
static bool segments_meet_2d(vec3 p, vec3 q, vec3 u, vec3 v, int k, double* t)
{
	int i = (k + 1) % 3, j = (k + 2) % 3;
	const vec3 pts[4] = {p, q, u, v};
	double lo_i = INFINITY, hi_i = -INFINITY, lo_j = INFINITY, hi_j = -INFINITY, M = 0.0;
	for (int m = 0; m < 4; ++m) {
		double xi = v3_get(pts[m], i), xj = v3_get(pts[m], j);
		lo_i = min2(lo_i, xi), hi_i = max2(hi_i, xi);
		lo_j = min2(lo_j, xj), hi_j = max2(hi_j, xj);
		M = max2(M, max2(fabs(xi), fabs(xj)));
	}
	double D = (hi_i - lo_i) + (hi_j - lo_j);
	double tol = PLANE_ZERO_ULPS * DBL_EPSILON * (D * D + M * D);
	double o1 = snap_zero(orient2(p, q, u, k), tol), o2 = snap_zero(orient2(p, q, v, k), tol);
	double o3 = snap_zero(orient2(u, v, p, k), tol), o4 = snap_zero(orient2(u, v, q, k), tol);
	if ((o1 == 0.0 && o2 == 0.0) || (o3 == 0.0 && o4 == 0.0)) {
		/* on one line (or pq a point): compare parameters along the line */
		double dx = v3_get(q, i) - v3_get(p, i), dy = v3_get(q, j) - v3_get(p, j);
		double dd = dx * dx + dy * dy;
		if (dd == 0.0) {
			/* pq is the point p: on uv when collinear with it and between its ends */
			double ex = v3_get(v, i) - v3_get(u, i), ey = v3_get(v, j) - v3_get(u, j);
			double along = (v3_get(p, i) - v3_get(u, i)) * ex + (v3_get(p, j) - v3_get(u, j)) * ey;
			*t = 0.0;
			return o3 == 0.0 && along >= 0.0 && along <= ex * ex + ey * ey;
		}
		double su = ((v3_get(u, i) - v3_get(p, i)) * dx + (v3_get(u, j) - v3_get(p, j)) * dy) / dd;
		double sv = ((v3_get(v, i) - v3_get(p, i)) * dx + (v3_get(v, j) - v3_get(p, j)) * dy) / dd;
		double lo = fmin(su, sv), hi = fmax(su, sv);
		if (hi < 0.0 || lo > 1.0) return false;
		*t = fmax(lo, 0.0);
		return true;
	}
	if (!opposite_or_zero(o1, o2) || !opposite_or_zero(o3, o4)) return false;
	if (o1 == 0.0 || o2 == 0.0 || o3 == 0.0 || o4 == 0.0) {
		/* An end on the other segment's line (up to rounding): the two lines meet there, so
		 * that end is the only candidate, and its position along the other segment decides.
		 * The remaining signs would not do: with one zero in each pair they say "meet" for
		 * two segments within rounding of one line, however far apart along it. */
		double best = INFINITY, s;
		if (o3 == 0.0 && on_segment_2d(p, u, v, k, &s)) best = 0.0;
		if (o4 == 0.0 && on_segment_2d(q, u, v, k, &s)) best = min2(best, 1.0);
		if (o1 == 0.0 && on_segment_2d(u, p, q, k, &s)) best = min2(best, s);
		if (o2 == 0.0 && on_segment_2d(v, p, q, k, &s)) best = min2(best, s);
		*t = best;
		return best <= 1.0;
	}
	/* o3, o4 are p's and q's signed distances to the line uv (times |uv|) */
	*t = clamp01(o3 / (o3 - o4));
	return true;
}

/* Closed triangle abc, projected along axis k, contains p's projection. The orientation is read
 * from the projection itself, so k may come from the other triangle of a pair. A triangle whose
 * projection has no area contains nothing (its boundary is tested as segments). */
static bool point_in_triangle_2d(vec3 p, vec3 a, vec3 b, vec3 c, int k)
{
	double area = orient2(a, b, c, k);
	if (area == 0.0) return false;
	double s = area > 0.0 ? 1.0 : -1.0;
	return s * orient2(a, b, p, k) >= 0.0 && s * orient2(b, c, p, k) >= 0.0 && s * orient2(c, a, p, k) >= 0.0;
}

/* Segment and triangle in one plane (up to rounding), tested in their projection along axis k. */
static bool coplanar_segment_triangle(vec3 p, vec3 q, vec3 a, vec3 b, vec3 c, int k, double* t)
{
	if (point_in_triangle_2d(p, a, b, c, k)) {
		*t = 0.0;
		return true;
	}
	/* p is outside, so the segment meets the triangle iff it meets its boundary */
	double best = INFINITY, tt;
	if (segments_meet_2d(p, q, a, b, k, &tt)) best = fmin(best, tt);
	if (segments_meet_2d(p, q, b, c, k, &tt)) best = fmin(best, tt);
	if (segments_meet_2d(p, q, c, a, k, &tt)) best = fmin(best, tt);
	*t = best;
	return best <= 1.0;
}

/* The segment/triangle decision from the plane values dp = n . (p - a), dq = n . (q - a), already
 * set to zero where they are within rounding; k is the projection axis for the in-plane cases. */
static bool segment_triangle_planes(vec3 p, vec3 q, vec3 a, vec3 b, vec3 c, double dp, double dq, int k, double* t)
{
	if (!opposite_or_zero(dp, dq)) return false;
	if (dp == 0.0 && dq == 0.0) return coplanar_segment_triangle(p, q, a, b, c, k, t);
	/* One end in the plane (up to rounding), the other off it: that end is the only common
	 * point, and it is in the plane, so the test is 2D. The line through both ends would be the
	 * wrong thing to test: a zero here may stand for a true distance of up to the rounding
	 * bound, and a segment that shallow can cross the plane anywhere along its line's
	 * extension, a whole cell away. */
	if (dp == 0.0 || dq == 0.0) {
		*t = dp == 0.0 ? 0.0 : 1.0;
		return point_in_triangle_2d(dp == 0.0 ? p : q, a, b, c, k);
	}
	/* Both ends beyond rounding on opposite sides: the segment crosses the plane at one point,
	 * inside the triangle iff the line pq passes on the same side of all three directed edges. */
	double s1 = side(p, q, a, b), s2 = side(p, q, b, c), s3 = side(p, q, c, a);
	bool neg = s1 < 0.0 || s2 < 0.0 || s3 < 0.0, pos = s1 > 0.0 || s2 > 0.0 || s3 > 0.0;
	if (neg && pos) return false;
	/* All three zero would put the line in the plane, which dp, dq deny: rounding, so fall
	 * back to the planar test. */
	if (!neg && !pos) return coplanar_segment_triangle(p, q, a, b, c, k, t);
	*t = dp / (dp - dq);
	return true;
}

bool segment_triangle_intersect(vec3 p, vec3 q, vec3 a, vec3 b, vec3 c, double* t)
{
	double tt = 0.0;
	if (!t) t = &tt;
	vec3 ab = v3_sub(b, a), ac = v3_sub(c, a), ap = v3_sub(p, a), aq = v3_sub(q, a);
	vec3 n = v3_cross(ab, ac);
	if (v3_is_zero(n)) return false;
	double tol = plane_tol(a, v3_norm1(ab), v3_norm1(ac), max2(v3_norm1(ap), v3_norm1(aq)));
	double dp = snap_zero(v3_dot(n, ap), tol), dq = snap_zero(v3_dot(n, aq), tol);
	/* the common answer (both ends on one side) without the call */
	return opposite_or_zero(dp, dq) && segment_triangle_planes(p, q, a, b, c, dp, dq, dominant_axis(n), t);
}

/* The plane values of triangle q's corners relative to triangle p's plane (normal n), set to zero
 * within rounding; returns how many are zero. */
static int plane_values(const vec3 p[3], vec3 n, const vec3 q[3], double d[3])
{
	double r = 0.0;
	vec3 rel[3];
	for (int i = 0; i < 3; ++i) {
		rel[i] = v3_sub(q[i], p[0]);
		r = max2(r, v3_norm1(rel[i]));
	}
	double tol = plane_tol(p[0], v3_norm1(v3_sub(p[1], p[0])), v3_norm1(v3_sub(p[2], p[0])), r);
	int zeros = 0;
	for (int i = 0; i < 3; ++i) {
		d[i] = snap_zero(v3_dot(n, rel[i]), tol);
		zeros += d[i] == 0.0;
	}
	return zeros;
}

static bool all_one_side(const double d[3])
{
	return (d[0] > 0.0 && d[1] > 0.0 && d[2] > 0.0) || (d[0] < 0.0 && d[1] < 0.0 && d[2] < 0.0);
}

bool triangle_triangle_intersect(vec3 a0, vec3 a1, vec3 a2, vec3 b0, vec3 b1, vec3 b2)
{
	const vec3 A[3] = {a0, a1, a2}, B[3] = {b0, b1, b2};
	vec3 na = v3_cross(v3_sub(a1, a0), v3_sub(a2, a0));
	vec3 nb = v3_cross(v3_sub(b1, b0), v3_sub(b2, b0));
	if (v3_is_zero(na) || v3_is_zero(nb)) return false;
	/* db: B's corners against A's plane, da: A's against B's. Each is computed and set to zero
	 * (or not) once, and every edge through that corner decides with the same value, so the
	 * separating-plane test and the six edge tests cannot contradict each other. */
	double db[3], da[3];
	int zb = plane_values(A, na, B, db);
	/* a separating plane: all of one triangle beyond rounding on one side of the other's */
	if (all_one_side(db)) return false;
	int za = plane_values(B, nb, A, da);
	if (all_one_side(da)) return false;
	int ka = dominant_axis(na), kb = dominant_axis(nb);
	if (zb == 3 || za == 3) {
		/* One triangle lies in the other's plane up to rounding: both are in that plane, and
		 * every sign of a 3D determinant is noise. Decide in 2D, projected along that plane's
		 * dominant axis. */
		int k = zb == 3 ? ka : kb;
		for (int i = 0; i < 3; ++i) db[i] = da[i] = 0.0;
		ka = kb = k;
	}
	/* The intersection is a convex set whose extreme points lie on edges of one triangle or the
	 * other (in the coplanar case: crossing boundaries, or one triangle's edges inside the
	 * other), so two triangles meet iff one of the six edges meets the other triangle. */
	double t;
	for (int i = 0; i < 3; ++i) {
		/* the sign check inline: most edges stop there, and the call passes five points */
		int j = (i + 1) % 3;
		bool reach_b = opposite_or_zero(da[i], da[j]), reach_a = opposite_or_zero(db[i], db[j]);
		if (reach_b && segment_triangle_planes(A[i], A[j], b0, b1, b2, da[i], da[j], kb, &t)) return true;
		if (reach_a && segment_triangle_planes(B[i], B[j], a0, a1, a2, db[i], db[j], ka, &t)) return true;
	}
	return false;
}

bool triangle_triangle_intersect_shared(vec3 a0, vec3 a1, vec3 a2, vec3 b0, vec3 b1, vec3 b2, int shared)
{
	switch (shared) {
	case 0:
		return triangle_triangle_intersect(a0, a1, a2, b0, b1, b2);
	case 1:
		/* Both planes hold the shared vertex v, so any contact lies on a line through v, and
		 * the triangle reaching less far along it ends on its opposite edge, inside the other
		 * triangle. An opposite edge cannot hold v, so a hit is never the shared vertex. */
		return segment_triangle_intersect(a1, a2, b0, b1, b2, NULL) ||
		       segment_triangle_intersect(b1, b2, a0, a1, a2, NULL);
	case 2: {
		/* Away from coplanarity the two meet only on the shared edge. Coplanar (up to
		 * rounding), they overlap iff both free vertices lie on the same side of it (folded
		 * flat onto each other). */
		vec3 e = v3_sub(a1, a0), f = v3_sub(a2, a0), g = v3_sub(b2, a0);
		vec3 na = v3_cross(e, f), nb = v3_cross(e, g);
		double tol = plane_tol(a0, v3_norm1(e), v3_norm1(f), v3_norm1(g));
		return fabs(v3_dot(na, g)) <= tol && v3_dot(na, nb) > 0.0;
	}
	default:
		return false;
	}
}

bool mesh_triangles_intersect(const vec3* x, const int32_t ta[3], const int32_t tb[3])
{
	/* Put shared vertices first, paired up in the same order in both triangles. */
	int32_t oa[3], ob[3];
	bool used_a[3] = {false, false, false}, used_b[3] = {false, false, false};
	int shared = 0;
	for (int i = 0; i < 3; ++i)
		for (int j = 0; j < 3; ++j)
			if (!used_a[i] && !used_b[j] && ta[i] == tb[j]) {
				oa[shared] = ta[i];
				ob[shared] = tb[j];
				used_a[i] = used_b[j] = true;
				++shared;
			}
	int na = shared, nb = shared;
	for (int i = 0; i < 3; ++i) {
		if (!used_a[i]) oa[na++] = ta[i];
		if (!used_b[i]) ob[nb++] = tb[i];
	}
	return triangle_triangle_intersect_shared(x[oa[0]], x[oa[1]], x[oa[2]], x[ob[0]], x[ob[1]], x[ob[2]], shared);
}
