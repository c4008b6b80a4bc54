/* Collision geometry primitives (sec. 6): closest points against hand-computed answers and brute
 * force, cubic roots, the particle/triangle and edge/edge crossing tests against dense sampling of
 * the motion, and the triangle/triangle predicate. */
#include "test.h"

#include "collide/geometry.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* ---- helpers ---- */

/* splitmix64 in [lo, hi): the suite stays self-contained (it builds without the library). */
static double rnd(uint64_t* s, double lo, double hi)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return lo + (hi - lo) * ((double)(z >> 11) / 9007199254740992.0);
}
/* One call per statement: the order in which a function's arguments are evaluated is unspecified,
 * and the tests must draw the same numbers under every compiler. */
static vec3 rnd_v(uint64_t* s, double lo, double hi)
{
	double x = rnd(s, lo, hi);
	double y = rnd(s, lo, hi);
	return v3(x, y, rnd(s, lo, hi));
}

static vec3 at(vec3 x0, vec3 x1, double t) { return v3_add(v3_scale(x0, 1.0 - t), v3_scale(x1, t)); }

static double det3(vec3 a, vec3 b, vec3 c) { return v3_dot(a, v3_cross(b, c)); }

static vec3 bary_point(vec3 a, vec3 b, vec3 c, const double w[3])
{
	return v3_add(v3_add(v3_scale(a, w[0]), v3_scale(b, w[1])), v3_scale(c, w[2]));
}

static bool bary_valid(const double w[3])
{
	return w[0] >= 0.0 && w[1] >= 0.0 && w[2] >= 0.0 && fabs(w[0] + w[1] + w[2] - 1.0) <= 1e-14;
}

/* Barycentric coordinates of p's projection onto the plane of abc (an independent formula). */
static void plane_bary(vec3 p, vec3 a, vec3 b, vec3 c, double w[3])
{
	vec3 n = v3_cross(v3_sub(b, a), v3_sub(c, a));
	double n2 = v3_len2(n);
	w[0] = v3_dot(n, v3_cross(v3_sub(b, p), v3_sub(c, p))) / n2;
	w[1] = v3_dot(n, v3_cross(v3_sub(c, p), v3_sub(a, p))) / n2;
	w[2] = v3_dot(n, v3_cross(v3_sub(a, p), v3_sub(b, p))) / n2;
}

/* Rotation about a random axis, then a translation: a rigid motion. */
typedef struct rigid {
	vec3 col[3], shift;
} rigid;

static rigid rnd_rigid(uint64_t* s)
{
	vec3 k = v3_normalize(rnd_v(s, -1.0, 1.0));
	double th = rnd(s, 0.0, 6.283185307179586), c = cos(th), sn = sin(th);
	rigid r;
	/* Rodrigues: R e = c e + sn (k x e) + (1 - c) (k . e) k */
	vec3 e[3] = {v3(1, 0, 0), v3(0, 1, 0), v3(0, 0, 1)};
	for (int i = 0; i < 3; ++i)
		r.col[i] = v3_add(v3_add(v3_scale(e[i], c), v3_scale(v3_cross(k, e[i]), sn)),
				  v3_scale(k, (1.0 - c) * v3_dot(k, e[i])));
	r.shift = rnd_v(s, -5.0, 5.0);
	return r;
}
static vec3 apply(const rigid* r, vec3 x)
{
	return v3_add(r->shift, v3_add(v3_add(v3_scale(r->col[0], x.x), v3_scale(r->col[1], x.y)), v3_scale(r->col[2], x.z)));
}

/* ---- point / triangle ---- */

static void check_pt(vec3 p, vec3 a, vec3 b, vec3 c, double want_d2, double w0, double w1, double w2)
{
	double w[3];
	double d2 = point_triangle_closest(p, a, b, c, w);
	CHECK_NEAR(d2, want_d2, 1e-14);
	CHECK_NEAR(w[0], w0, 1e-14);
	CHECK_NEAR(w[1], w1, 1e-14);
	CHECK_NEAR(w[2], w2, 1e-14);
	CHECK(bary_valid(w));
}

static void test_point_triangle_voronoi_regions(void)
{
	vec3 a = v3(0, 0, 0), b = v3(2, 0, 0), c = v3(0, 2, 0);
	check_pt(v3(-1, -1, 1), a, b, c, 3.0, 1, 0, 0);          /* vertex a */
	check_pt(v3(3, -1, 0.5), a, b, c, 2.25, 0, 1, 0);        /* vertex b */
	check_pt(v3(-1, 3, 0), a, b, c, 2.0, 0, 0, 1);           /* vertex c */
	check_pt(v3(0.5, -1, 2), a, b, c, 5.0, 0.75, 0.25, 0);   /* edge ab -> (0.5, 0, 0) */
	check_pt(v3(-2, 1.5, 0), a, b, c, 4.0, 0.25, 0, 0.75);   /* edge ac -> (0, 1.5, 0) */
	check_pt(v3(2, 2, 1), a, b, c, 3.0, 0, 0.5, 0.5);        /* edge bc -> (1, 1, 0) */
	check_pt(v3(0.5, 0.5, -3), a, b, c, 9.0, 0.5, 0.25, 0.25); /* face -> (0.5, 0.5, 0) */
	/* The same with the corners relabelled: the coordinates follow their corners. */
	check_pt(v3(0.5, -1, 2), b, c, a, 5.0, 0.25, 0, 0.75);
	check_pt(v3(2, 2, 1), c, a, b, 3.0, 0.5, 0, 0.5);
	check_pt(v3(0.5, 0.5, -3), c, a, b, 9.0, 0.25, 0.5, 0.25);
	/* Points on the triangle are at distance 0. */
	check_pt(v3(1, 0, 0), a, b, c, 0.0, 0.5, 0.5, 0);
	check_pt(b, a, b, c, 0.0, 0, 1, 0);
}

static void test_point_triangle_random_vs_brute(void)
{
	uint64_t s = 11;
	const int N = 120;
	for (int trial = 0; trial < 150; ++trial) {
		vec3 a = rnd_v(&s, -1, 1), b = rnd_v(&s, -1, 1), c = rnd_v(&s, -1, 1);
		if (v3_len(v3_cross(v3_sub(b, a), v3_sub(c, a))) < 0.05) continue;
		/* near the triangle, in its plane, and far away */
		vec3 p = rnd_v(&s, trial % 3 == 2 ? -20.0 : -1.5, trial % 3 == 2 ? 20.0 : 1.5);
		if (trial % 3 == 1) {
			double w[3];
			w[0] = rnd(&s, -0.5, 1.5);
			w[1] = rnd(&s, -0.5, 1.5);
			w[2] = 1.0 - w[0] - w[1];
			p = bary_point(a, b, c, w);
		}
		double w[3];
		double d2 = point_triangle_closest(p, a, b, c, w);
		CHECK(bary_valid(w));
		CHECK_NEAR(v3_len(v3_sub(p, bary_point(a, b, c, w))), sqrt(d2), 1e-14);
		double best = INFINITY;
		for (int i = 0; i <= N; ++i)
			for (int j = 0; i + j <= N; ++j) {
				double u[3] = {(double)i / N, (double)j / N, (double)(N - i - j) / N};
				best = fmin(best, v3_len2(v3_sub(p, bary_point(a, b, c, u))));
			}
		/* no sample beats it; the grid (spacing <= 2 * 2 sqrt(3) / N) comes close to it */
		CHECK(best >= d2 - 1e-12);
		CHECK(sqrt(best) - sqrt(d2) <= 4.0 * sqrt(3.0) / N);
	}
}

static void test_point_triangle_degenerate(void)
{
	double w[3];
	/* collinear, c beyond b: the longest edge a-c holds the answer */
	vec3 a = v3(0, 0, 0), b = v3(1, 0, 0), c = v3(3, 0, 0);
	CHECK_NEAR(point_triangle_closest(v3(2, 1, 0), a, b, c, w), 1.0, 1e-15);
	CHECK(bary_valid(w));
	CHECK_NEAR(v3_len2(v3_sub(bary_point(a, b, c, w), v3(2, 0, 0))), 0.0, 1e-28);
	CHECK_NEAR(point_triangle_closest(v3(4, 0, 2), a, b, c, w), 5.0, 1e-15);
	CHECK_NEAR(w[2], 1.0, 1e-15);
	/* coincident corners: a point */
	vec3 q = v3(1, 1, 1);
	CHECK_NEAR(point_triangle_closest(v3(1, 1, 3), q, q, q, w), 4.0, 1e-15);
	CHECK(bary_valid(w));
	/* two coincident corners: a segment */
	CHECK_NEAR(point_triangle_closest(v3(0.5, 2, 0), a, a, b, w), 4.0, 1e-15);
	CHECK(bary_valid(w));
	CHECK_NEAR(w[2], 0.5, 1e-15);
	/* a sliver 1e-13 high: treated as its edges, within its height of the segment answer */
	vec3 sl = v3(1, 1e-13, 0);
	for (int k = 0; k < 5; ++k) {
		vec3 p = v3(-0.5 + 0.5 * k, 0.3, 0.2 * k);
		double d2 = point_triangle_closest(p, a, c, sl, w);
		double sp;
		double ref = point_segment_closest(p, a, c, &sp);
		CHECK(bary_valid(w));
		CHECK(fabs(sqrt(d2) - sqrt(ref)) <= 2e-13);
		CHECK_REL(v3_len2(v3_sub(p, bary_point(a, c, sl, w))), d2, 1e-12, 1e-28);
	}
	/* NaN in, no crash, no out-of-range coordinates */
	double d2 = point_triangle_closest(v3(NAN, 0, 0), a, b, v3(0, 1, 0), w);
	CHECK(d2 != d2 || d2 >= 0.0);
}

/* Long-double reference for slivers: the projection if it falls inside, else the best edge. */
typedef struct lvec {
	long double x, y, z;
} lvec;
static lvec lv(vec3 a) { return (lvec){a.x, a.y, a.z}; }
static lvec lsub(lvec a, lvec b) { return (lvec){a.x - b.x, a.y - b.y, a.z - b.z}; }
static long double ldot(lvec a, lvec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static lvec lcross(lvec a, lvec b) { return (lvec){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
static long double lseg2(lvec p, lvec a, lvec b)
{
	lvec ab = lsub(b, a);
	long double s = ldot(lsub(p, a), ab) / ldot(ab, ab);
	s = s < 0 ? 0 : (s > 1 ? 1 : s);
	lvec d = {p.x - a.x - s * ab.x, p.y - a.y - s * ab.y, p.z - a.z - s * ab.z};
	return ldot(d, d);
}
static double ref_point_triangle(vec3 P, vec3 A, vec3 B, vec3 C)
{
	lvec p = lv(P), a = lv(A), b = lv(B), c = lv(C);
	long double best = fminl(lseg2(p, a, b), fminl(lseg2(p, b, c), lseg2(p, c, a)));
	lvec n = lcross(lsub(b, a), lsub(c, a));
	long double n2 = ldot(n, n);
	long double u = ldot(n, lcross(lsub(b, p), lsub(c, p))), v = ldot(n, lcross(lsub(c, p), lsub(a, p)));
	long double w = ldot(n, lcross(lsub(a, p), lsub(b, p)));
	if (u >= 0 && v >= 0 && w >= 0) {
		long double h = ldot(n, lsub(p, a));
		best = fminl(best, h * h / n2);
	}
	return (double)sqrtl(best);
}

static void test_point_triangle_slivers(void)
{
	/* Triangles of height h times their base, down to 1e-16: the distance and the point the
	 * coordinates give stay within max(h, 1e-8) of exact (1e-8: the switch to the edges), and
	 * within 1e-10 for h >= 1e-4. */
	uint64_t s = 17;
	for (int e = 1; e <= 16; ++e) {
		double h = pow(10.0, -e), worst = 0.0;
		for (int k = 0; k < 400; ++k) {
			vec3 a = rnd_v(&s, -1, 1), b = rnd_v(&s, -1, 1), ab = v3_sub(b, a);
			vec3 perp = rnd_v(&s, -1, 1);
			perp = v3_normalize(v3_sub(perp, v3_scale(ab, v3_dot(perp, ab) / v3_len2(ab))));
			vec3 c = v3_add(v3_madd(a, rnd(&s, -0.2, 1.2), ab), v3_scale(perp, h * v3_len(ab)));
			vec3 p = rnd_v(&s, -2, 2);
			double along = rnd(&s, -0.2, 1.2), off = rnd(&s, -2, 2) * h;
			if (k % 2) p = v3_add(v3_madd(a, along, ab), v3_scale(perp, off));
			double w[3];
			double d = sqrt(point_triangle_closest(p, a, b, c, w)), ref = ref_point_triangle(p, a, b, c);
			CHECK(bary_valid(w));
			worst = fmax(worst, fabs(d - ref));
			worst = fmax(worst, fabs(v3_len(v3_sub(p, bary_point(a, b, c, w))) - ref));
		}
		CHECK(worst <= (e <= 4 ? 1e-10 : 2.0 * fmax(h, 1e-8)));
	}
}

/* ---- segment / segment ---- */

static void check_ss(vec3 p0, vec3 p1, vec3 q0, vec3 q1, double want_d2, double want_s, double want_t)
{
	double s, t;
	double d2 = segment_segment_closest(p0, p1, q0, q1, &s, &t);
	CHECK_NEAR(d2, want_d2, 1e-14);
	CHECK_NEAR(s, want_s, 1e-14);
	CHECK_NEAR(t, want_t, 1e-14);
	/* swapping the segments swaps the parameters */
	double s2, t2;
	CHECK_NEAR(segment_segment_closest(q0, q1, p0, p1, &s2, &t2), want_d2, 1e-14);
}

static void test_segment_segment_cases(void)
{
	vec3 o = v3(0, 0, 0), x1 = v3(1, 0, 0), x2 = v3(2, 0, 0);
	check_ss(v3(-1, 0, 0), x1, v3(0, -1, 0), v3(0, 1, 0), 0.0, 0.5, 0.5);   /* crossing */
	check_ss(v3(-1, 0, 0), x1, v3(0, -1, 1), v3(0, 1, 1), 1.0, 0.5, 0.5);   /* skew */
	check_ss(o, x1, v3(2, -1, 1), v3(2, 1, 1), 2.0, 1.0, 0.5);              /* skew, clamped s */
	check_ss(o, x1, v3(0.5, 2, -1), v3(0.5, 2, 1), 4.0, 0.5, 0.5);          /* skew, interior */
	check_ss(o, x2, v3(1, 1, 0), v3(3, 1, 0), 1.0, 0.75, 0.25);             /* parallel, overlapping */
	check_ss(o, x2, v3(3, 1, 0), v3(1, 1, 0), 1.0, 0.75, 0.75);             /* antiparallel, overlapping */
	check_ss(o, x1, v3(2, 1, 0), v3(3, 1, 0), 2.0, 1.0, 0.0);               /* parallel, disjoint */
	check_ss(o, x1, v3(3, 1, 0), v3(2, 1, 0), 2.0, 1.0, 1.0);               /* antiparallel, disjoint */
	check_ss(o, x2, v3(1, 0, 0), v3(3, 0, 0), 0.0, 0.75, 0.25);             /* collinear, overlapping */
	check_ss(o, x1, v3(2, 0, 0), v3(3, 0, 0), 1.0, 1.0, 0.0);               /* collinear, disjoint */
	check_ss(o, x2, v3(0.5, 0, 0), v3(1, 0, 0), 0.0, 0.375, 0.5);           /* collinear, contained */
	check_ss(o, x1, x1, v3(1, 1, 1), 0.0, 1.0, 0.0);                        /* touching at endpoints */
	check_ss(o, x1, v3(0.25, 0, 0), v3(0.25, 1, 1), 0.0, 0.25, 0.0);        /* endpoint on the other */
	check_ss(v3(0, 0, 1), v3(0, 0, 1), v3(-1, 0, 0), x1, 1.0, 0.0, 0.5);    /* zero-length first */
	check_ss(v3(-1, 0, 0), x1, v3(3, 0, 1), v3(3, 0, 1), 5.0, 1.0, 0.0);    /* zero-length second */
	check_ss(v3(1, 2, 3), v3(1, 2, 3), v3(1, 2, 5), v3(1, 2, 5), 4.0, 0.0, 0.0); /* two points */
}

static void test_segment_segment_random_vs_brute(void)
{
	uint64_t s = 23;
	const int N = 300;
	for (int trial = 0; trial < 60; ++trial) {
		vec3 p0 = rnd_v(&s, -1, 1), p1 = rnd_v(&s, -1, 1), q0 = rnd_v(&s, -1, 1), q1 = rnd_v(&s, -1, 1);
		if (trial % 4 == 1) q1 = v3_add(q0, v3_scale(v3_sub(p1, p0), rnd(&s, -1.5, 1.5))); /* parallel */
		if (trial % 4 == 2) { /* coplanar: q in the plane through p0, p1 and a random point */
			vec3 r = rnd_v(&s, -1, 1);
			double u[4];
			for (int i = 0; i < 4; ++i) u[i] = rnd(&s, -1, 1);
			q0 = v3_add(v3_madd(p0, u[0], v3_sub(p1, p0)), v3_scale(v3_sub(r, p0), u[1]));
			q1 = v3_add(v3_madd(p0, u[2], v3_sub(p1, p0)), v3_scale(v3_sub(r, p0), u[3]));
		}
		double sv, tv;
		double d2 = segment_segment_closest(p0, p1, q0, q1, &sv, &tv);
		CHECK(sv >= 0.0 && sv <= 1.0 && tv >= 0.0 && tv <= 1.0);
		vec3 a = v3_madd(p0, sv, v3_sub(p1, p0)), b = v3_madd(q0, tv, v3_sub(q1, q0));
		CHECK_NEAR(v3_len(v3_sub(a, b)), sqrt(d2), 1e-14);
		double best = INFINITY;
		for (int i = 0; i <= N; ++i) {
			vec3 x = at(p0, p1, (double)i / N);
			for (int j = 0; j <= N; ++j) best = fmin(best, v3_len2(v3_sub(x, at(q0, q1, (double)j / N))));
		}
		CHECK(best >= d2 - 1e-12);
		CHECK(sqrt(best) - sqrt(d2) <= 2.0 * 2.0 * sqrt(3.0) / N);
	}
}

/* ---- cubic roots ---- */

/* Roots of k (t - r0)(t - r1)(t - r2), from expanded coefficients. */
static int roots_of(double k, double r0, double r1, double r2, double out[3])
{
	double c3 = k, c2 = -k * (r0 + r1 + r2), c1 = k * (r0 * r1 + r1 * r2 + r0 * r2), c0 = -k * r0 * r1 * r2;
	return cubic_roots_in_unit_interval(c0, c1, c2, c3, out);
}

static void test_cubic_roots_known(void)
{
	double r[3];
	CHECK(cubic_roots_in_unit_interval(1, 0, 1, 0, r) == 0);  /* 1 + t^2 */
	CHECK(roots_of(1, 2, -1, 3, r) == 0);                     /* all outside */
	CHECK(cubic_roots_in_unit_interval(2, 0, 0, 0, r) == 0);  /* nonzero constant */
	CHECK(cubic_roots_in_unit_interval(-0.25, 1, -0.25, 1, r) == 1); /* (t - 1/4)(t^2 + 1) */
	CHECK_NEAR(r[0], 0.25, 1e-15);
	CHECK(roots_of(1, 0.2, 0.7, 5, r) == 2);
	CHECK_NEAR(r[0], 0.2, 1e-14);
	CHECK_NEAR(r[1], 0.7, 1e-14);
	CHECK(roots_of(-3, 0.9, 0.1, 0.5, r) == 3);
	CHECK_NEAR(r[0], 0.1, 1e-14);
	CHECK_NEAR(r[1], 0.5, 1e-14);
	CHECK_NEAR(r[2], 0.9, 1e-14);
	/* linear and quadratic (leading coefficients exactly zero) */
	CHECK(cubic_roots_in_unit_interval(0.5, -1, 0, 0, r) == 1);
	CHECK_NEAR(r[0], 0.5, 1e-15);
	CHECK(cubic_roots_in_unit_interval(0.18, -0.9, 1, 0, r) == 2);
	CHECK_NEAR(r[0], 0.3, 1e-14);
	CHECK_NEAR(r[1], 0.6, 1e-14);
	/* the zero polynomial: every t is a root, reported as -1 */
	CHECK(cubic_roots_in_unit_interval(0, 0, 0, 0, r) == -1);
}

static void test_cubic_roots_tangent_and_ends(void)
{
	double r[3];
	/* (t - 1/2)^2 (t - 2), exact in binary: one (double) root */
	CHECK(cubic_roots_in_unit_interval(-0.5, 2.25, -3, 1, r) == 1);
	CHECK(r[0] == 0.5);
	/* (t - 0.3)^2 (t + 1), inexact: the tangent root is still found, once */
	CHECK(roots_of(1, 0.3, 0.3, -1, r) == 1);
	CHECK_NEAR(r[0], 0.3, 1e-7);
	/* (t - 0.3)^2 (t - 0.8) */
	CHECK(roots_of(2, 0.3, 0.8, 0.3, r) == 2);
	CHECK_NEAR(r[0], 0.3, 1e-7);
	CHECK_NEAR(r[1], 0.8, 1e-14);
	/* (t - 1/2)^2 as a quadratic */
	CHECK(cubic_roots_in_unit_interval(0.25, -1, 1, 0, r) == 1);
	CHECK_NEAR(r[0], 0.5, 1e-15);
	/* roots exactly at both ends */
	CHECK(cubic_roots_in_unit_interval(0, 0.5, -1.5, 1, r) == 3); /* t (t - 1/2)(t - 1) */
	CHECK(r[0] == 0.0 && r[2] == 1.0);
	CHECK_NEAR(r[1], 0.5, 1e-15);
	CHECK(roots_of(1, 1, 0.3, 0.7, r) == 3); /* rounding leaves f(1) a few ulps off */
	CHECK_NEAR(r[2], 1.0, 1e-14);
	CHECK(roots_of(1, 0, -0.5, 2, r) == 1);
	CHECK(r[0] == 0.0);
	/* a triple root */
	CHECK(roots_of(1, 0.5, 0.5, 0.5, r) >= 1);
	CHECK_NEAR(r[0], 0.5, 1e-5);
}

static void test_cubic_roots_scaling(void)
{
	double r[3];
	/* near-quadratic: 1e-18 t^3 + (t - 0.3)(t - 0.6), third root near -1e18 */
	CHECK(cubic_roots_in_unit_interval(0.18, -0.9, 1, 1e-18, r) == 2);
	CHECK_NEAR(r[0], 0.3, 1e-14);
	CHECK_NEAR(r[1], 0.6, 1e-14);
	CHECK(cubic_roots_in_unit_interval(-0.18, 0.9, -1, 1e-18, r) == 2); /* the same, upside down */
	CHECK_NEAR(r[0], 0.3, 1e-14);
	CHECK_NEAR(r[1], 0.6, 1e-14);
	CHECK(cubic_roots_in_unit_interval(0.18, -0.9, 1, -1e-9, r) == 2);
	CHECK_NEAR(r[0], 0.3, 1e-8);
	CHECK_NEAR(r[1], 0.6, 1e-8);
	/* near-linear */
	CHECK(cubic_roots_in_unit_interval(-0.25, 1, 1e-17, 1e-17, r) == 1);
	CHECK_NEAR(r[0], 0.25, 1e-15);
	/* overall scale does not matter, down to subnormal-adjacent and up to huge */
	const double scales[4] = {1e-300, 1e-150, 1e150, 1e300};
	for (int k = 0; k < 4; ++k) {
		double m = scales[k];
		CHECK(cubic_roots_in_unit_interval(-0.027 * m, 0.39 * m, -1.3 * m, m, r) == 3); /* 0.1, 0.3, 0.9 */
		CHECK_NEAR(r[0], 0.1, 1e-13);
		CHECK_NEAR(r[1], 0.3, 1e-13);
		CHECK_NEAR(r[2], 0.9, 1e-13);
	}
}

static void test_cubic_roots_random(void)
{
	uint64_t s = 5;
	int checked = 0;
	for (int trial = 0; trial < 3000; ++trial) {
		double rr[3];
		for (int i = 0; i < 3; ++i) rr[i] = rnd(&s, -0.6, 1.6);
		/* sort, then keep roots well apart and away from the ends of [0, 1] */
		for (int i = 0; i < 3; ++i)
			for (int j = i + 1; j < 3; ++j)
				if (rr[j] < rr[i]) {
					double x = rr[i];
					rr[i] = rr[j];
					rr[j] = x;
				}
		if (rr[1] - rr[0] < 0.05 || rr[2] - rr[1] < 0.05) continue;
		bool near_end = false;
		for (int i = 0; i < 3; ++i) near_end = near_end || fabs(rr[i]) < 1e-6 || fabs(rr[i] - 1.0) < 1e-6;
		if (near_end) continue;
		double k = rnd(&s, 0.1, 10.0) * (trial % 2 ? -1.0 : 1.0);
		double want[3];
		int nw = 0;
		for (int i = 0; i < 3; ++i)
			if (rr[i] >= 0.0 && rr[i] <= 1.0) want[nw++] = rr[i];
		double got[3];
		int ng = roots_of(k, rr[0], rr[1], rr[2], got);
		CHECK(ng == nw);
		if (ng != nw) continue;
		for (int i = 0; i < ng; ++i) CHECK_NEAR(got[i], want[i], 1e-10);
		++checked;
	}
	CHECK(checked > 1000);
	/* two complex roots and one real one */
	for (int trial = 0; trial < 1000; ++trial) {
		double r0 = rnd(&s, 0.001, 0.999), re = rnd(&s, -1, 2), im = rnd(&s, 0.05, 1);
		/* (t - r0)(t^2 - 2 re t + re^2 + im^2) */
		double q1 = -2.0 * re, q0 = re * re + im * im;
		double r[3];
		int n = cubic_roots_in_unit_interval(-r0 * q0, q0 - r0 * q1, q1 - r0, 1.0, r);
		CHECK(n == 1);
		CHECK_NEAR(r[0], r0, 1e-10);
	}
}

/* ---- continuous collision: point / triangle ---- */

static const double EPS = 1e-6;

static void test_ccd_point_through_static_triangle(void)
{
	vec3 a = v3(0, 0, 0), b = v3(1, 0, 0), c = v3(0, 1, 0);
	double t, w[3];
	CHECK(ccd_point_triangle(v3(0.2, 0.3, 1), v3(0.2, 0.3, -3), a, a, b, b, c, c, EPS, &t, w));
	CHECK_NEAR(t, 0.25, 1e-15);
	CHECK_NEAR(w[0], 0.5, 1e-14);
	CHECK_NEAR(w[1], 0.2, 1e-14);
	CHECK_NEAR(w[2], 0.3, 1e-14);
	/* from below, slanted: reaches z = 0 at t = 0.6, at (0.1 + 0.6 * 0.5, 0.1) */
	CHECK(ccd_point_triangle(v3(0.1, 0.1, -0.6), v3(0.6, 0.1, 0.4), a, a, b, b, c, c, EPS, &t, w));
	CHECK_NEAR(t, 0.6, 1e-15);
	CHECK_NEAR(w[1], 0.4, 1e-14);
	CHECK_NEAR(w[2], 0.1, 1e-14);
	/* stops short of the plane */
	CHECK(!ccd_point_triangle(v3(0.2, 0.3, 1), v3(0.2, 0.3, 0.01), a, a, b, b, c, c, EPS, &t, w));
}

static void test_ccd_point_beside_triangle(void)
{
	vec3 a = v3(0, 0, 0), b = v3(1, 0, 0), c = v3(0, 1, 0);
	double t, w[3];
	/* coplanar at t = 0.5, but at (2, 2, 0) */
	CHECK(!ccd_point_triangle(v3(2, 2, 1), v3(2, 2, -1), a, a, b, b, c, c, EPS, &t, w));
	/* 1e-3 outside the hypotenuse: missed with eps 1e-6, caught with eps 1e-2 */
	double o = 0.5 + 1e-3 / sqrt(2.0);
	CHECK(!ccd_point_triangle(v3(o, o, 1), v3(o, o, -1), a, a, b, b, c, c, EPS, &t, w));
	CHECK(ccd_point_triangle(v3(o, o, 1), v3(o, o, -1), a, a, b, b, c, c, 1e-2, &t, w));
	CHECK_NEAR(t, 0.5, 1e-15);
	CHECK_NEAR(w[1], 0.5, 1e-12);
}

static void test_ccd_point_touching_at_start(void)
{
	vec3 a = v3(0, 0, 0), b = v3(1, 0, 0), c = v3(0, 1, 0);
	double t = -1, w[3];
	CHECK(ccd_point_triangle(v3(0.25, 0.25, 0), v3(0.25, 0.25, -1), a, a, b, b, c, c, EPS, &t, w));
	CHECK(t == 0.0);
	/* moving away still touched at t = 0 */
	t = -1;
	CHECK(ccd_point_triangle(v3(0.25, 0.25, 0), v3(0.3, 0.25, 1), a, a, b, b, c, c, EPS, &t, w));
	CHECK(t == 0.0);
	CHECK_NEAR(w[0], 0.5, 1e-15);
	/* touching at the end */
	CHECK(ccd_point_triangle(v3(0.25, 0.25, 1), v3(0.25, 0.25, 0), a, a, b, b, c, c, EPS, &t, w));
	CHECK(t == 1.0);
}

static void test_ccd_point_and_triangle_moving(void)
{
	double t, w[3];
	/* The triangle rises by (0.1, 0, 1) while the point falls from z = 2 to -2 and drifts 0.2 in x:
	 * they meet at t = 0.4, at (0.24, 0.2) relative to corner a. */
	vec3 d = v3(0.1, 0, 1);
	vec3 a0 = v3(0, 0, 0), b0 = v3(1, 0, 0), c0 = v3(0, 1, 0);
	CHECK(ccd_point_triangle(v3(0.2, 0.2, 2), v3(0.4, 0.2, -2), a0, v3_add(a0, d), b0, v3_add(b0, d), c0,
				 v3_add(c0, d), EPS, &t, w));
	CHECK_NEAR(t, 0.4, 1e-14);
	CHECK_NEAR(w[0], 0.56, 1e-13);
	CHECK_NEAR(w[1], 0.24, 1e-13);
	CHECK_NEAR(w[2], 0.2, 1e-13);
	/* A tilting triangle (c swings from z = -1 to 1) sweeps over a resting point: the plane
	 * z = y (2t - 1) reaches (0.2, 0.5, 0) at t = 1/2, where c = (0, 1, 0). */
	vec3 p = v3(0.2, 0.5, 0);
	CHECK(ccd_point_triangle(p, p, a0, a0, b0, b0, v3(0, 1, -1), v3(0, 1, 1), EPS, &t, w));
	CHECK_NEAR(t, 0.5, 1e-14);
	CHECK_NEAR(w[0], 0.3, 1e-13);
	CHECK_NEAR(w[1], 0.2, 1e-13);
	CHECK_NEAR(w[2], 0.5, 1e-13);
	/* the whole configuration translating together never collides */
	vec3 m = v3(3, -2, 5);
	CHECK(!ccd_point_triangle(v3(0.2, 0.2, 0.1), v3_add(v3(0.2, 0.2, 0.1), m), a0, v3_add(a0, m), b0,
				  v3_add(b0, m), c0, v3_add(c0, m), EPS, &t, w));
}

static void test_ccd_point_always_coplanar(void)
{
	double t, w[3];
	const double eps = 1e-3;
	vec3 a = v3(0, 0, 0), b = v3(1, 0, 0), c = v3(0, 1, 0);
	/* sliding in the plane into the triangle: first within eps at x = -eps, t = (1 - eps) / 2 */
	CHECK(ccd_point_triangle(v3(-1, 0.25, 0), v3(1, 0.25, 0), a, a, b, b, c, c, eps, &t, w));
	CHECK_NEAR(t, 0.5 * (1.0 - eps), 1e-12);
	CHECK_NEAR(w[0], 0.75, 1e-12);
	CHECK_NEAR(w[2], 0.25, 1e-12);
	/* sliding past it */
	CHECK(!ccd_point_triangle(v3(-1, 1.5, 0), v3(1, 1.5, 0), a, a, b, b, c, c, eps, &t, w));
	/* inside all along */
	CHECK(ccd_point_triangle(v3(0.1, 0.1, 0), v3(0.2, 0.1, 0), a, a, b, b, c, c, eps, &t, w));
	CHECK(t == 0.0);
	/* oblique approach (60 degrees off the edge normal): the advancement still converges */
	double th = 60.0 * 3.14159265358979323846 / 180.0;
	vec3 start = v3(-1, 0.4 - 1.0 * tan(th), 0), end = v3(1, 0.4 + 1.0 * tan(th), 0);
	CHECK(ccd_point_triangle(start, end, a, a, b, b, c, c, eps, &t, w));
	CHECK(fabs(t - 0.5 * (1.0 - eps)) <= 1e-5);
	/* the same in a tilted plane away from the origin, where the cubic is rounding noise */
	uint64_t s = 3;
	rigid r = rnd_rigid(&s);
	CHECK(ccd_point_triangle(apply(&r, v3(-1, 0.25, 0)), apply(&r, v3(1, 0.25, 0)), apply(&r, a), apply(&r, a),
				 apply(&r, b), apply(&r, b), apply(&r, c), apply(&r, c), eps, &t, w));
	CHECK_NEAR(t, 0.5 * (1.0 - eps), 1e-6);
	/* ... and far from the origin at a small scale (1 cm triangle at 300 m), where rounding of the
	 * coordinates themselves puts the four points 1e-14 off one plane */
	for (int k = 0; k < 20; ++k) {
		rigid q = rnd_rigid(&s);
		q.shift = v3_scale(q.shift, 60.0);
		vec3 x[5] = {v3(-1, 0.25, 0), v3(1, 0.25, 0), a, b, c};
		for (int i = 0; i < 5; ++i) x[i] = apply(&q, v3_scale(x[i], 0.01));
		CHECK(ccd_point_triangle(x[0], x[1], x[2], x[2], x[3], x[3], x[4], x[4], 0.01 * eps, &t, w));
		CHECK_NEAR(t, 0.5 * (1.0 - eps), 1e-6);
	}
	/* the triangle slides onto a resting point, in its plane: relative to it the point moves from
	 * (2, 0.25) to (0, 0.25) and comes within eps of the edge x + y = 1 at x = 0.75 + eps sqrt 2 */
	vec3 p = v3(2, 0.25, 0), d = v3(2, 0, 0);
	CHECK(ccd_point_triangle(p, p, a, v3_add(a, d), b, v3_add(b, d), c, v3_add(c, d), eps, &t, w));
	CHECK_NEAR(t, 0.5 * (1.25 - eps * sqrt(2.0)), 1e-6);
	CHECK_NEAR(w[1], 0.75, 1e-3);
	CHECK_NEAR(w[2], 0.25, 1e-3);
}

/* ---- continuous collision: edge / edge ---- */

static void test_ccd_edge_edge_crossing(void)
{
	double t, s, u;
	/* edge 2 (along y at x = 0.5) falls from z = 1 to z = -3 across edge 1 (along x) */
	vec3 p = v3(-1, 0, 0), q = v3(1, 0, 0);
	CHECK(ccd_edge_edge(p, p, q, q, v3(0.5, -1, 1), v3(0.5, -1, -3), v3(0.5, 2, 1), v3(0.5, 2, -3), EPS, &t, &s, &u));
	CHECK_NEAR(t, 0.25, 1e-15);
	CHECK_NEAR(s, 0.75, 1e-14);
	CHECK_NEAR(u, 1.0 / 3.0, 1e-14);
	/* the same, passing beyond the end of edge 1 */
	CHECK(!ccd_edge_edge(p, p, q, q, v3(1.5, -1, 1), v3(1.5, -1, -3), v3(1.5, 2, 1), v3(1.5, 2, -3), EPS, &t, &s, &u));
	/* both move: edge 1 rises to z = t while edge 2 falls to z = 1 - 2 t and turns; both stay
	 * horizontal and never parallel, so they are coplanar only at the same height, t = 1/3 */
	vec3 up = v3(0, 0, 1);
	CHECK(ccd_edge_edge(p, v3_add(p, up), q, v3_add(q, up), v3(0, -1, 1), v3(0.2, -1, -1), v3(0, 1, 1), v3(-0.2, 1, -1),
			    EPS, &t, &s, &u));
	CHECK_NEAR(t, 1.0 / 3.0, 1e-14);
	CHECK_NEAR(s, 0.5, 1e-14);
	CHECK_NEAR(u, 0.5, 1e-14);
	/* touching at the start */
	CHECK(ccd_edge_edge(p, p, q, q, v3(0, -1, 0), v3(0, -1, 1), v3(0, 1, 0), v3(0, 1, 1), EPS, &t, &s, &u));
	CHECK(t == 0.0);
}

static void test_ccd_edge_edge_parallel(void)
{
	double t, s, u;
	const double eps = 1e-4;
	/* parallel edges (always coplanar) pass through each other: within eps at t = (1 - eps) / 2,
	 * in the middle of their overlap */
	vec3 p = v3(0, 0, 0), q = v3(1, 0, 0);
	CHECK(ccd_edge_edge(p, p, q, q, v3(0.5, 0, 1), v3(0.5, 0, -1), v3(1.5, 0, 1), v3(1.5, 0, -1), eps, &t, &s, &u));
	CHECK_NEAR(t, 0.5 * (1.0 - eps), 1e-12);
	CHECK_NEAR(s, 0.75, 1e-12);
	CHECK_NEAR(u, 0.25, 1e-12);
	/* parallel but not overlapping: they pass at distance 0.5 */
	CHECK(!ccd_edge_edge(p, p, q, q, v3(1.5, 0, 1), v3(1.5, 0, -1), v3(2.5, 0, 1), v3(2.5, 0, -1), eps, &t, &s, &u));
	/* collinear, sliding into each other */
	CHECK(ccd_edge_edge(p, p, q, q, v3(3, 0, 0), v3(0, 0, 0), v3(4, 0, 0), v3(1, 0, 0), eps, &t, &s, &u));
	CHECK_NEAR(t, (2.0 - eps) / 3.0, 1e-12);
	CHECK_NEAR(s, 1.0, 1e-12);
	CHECK_NEAR(u, 0.0, 1e-12);
}

static void test_ccd_fast_motion_never_missed(void)
{
	/* 20 m/s for a 1/30 s step (0.667 m) toward a 1 mm thick slab, whose faces are triangles at
	 * z = +-0.5 mm: the top face is hit at the exact time, for every phase of the step. */
	const double travel = 20.0 / 30.0, half = 0.0005;
	uint64_t s = 77;
	vec3 a = v3(-0.05, -0.05, half), b = v3(0.1, -0.05, half), c = v3(-0.05, 0.1, half);
	vec3 ab = v3(-0.05, -0.05, -half), bb = v3(0.1, -0.05, -half), cb = v3(-0.05, 0.1, -half);
	int caught = 0;
	for (int k = 0; k < 2000; ++k) {
		double z0 = 2.0 * half + (travel - 4.0 * half) * k / 1999.0;
		double x = rnd(&s, -0.04, 0.0), y = rnd(&s, -0.04, 0.0), dx = rnd(&s, -0.005, 0.005), dy = rnd(&s, -0.005, 0.005);
		vec3 p0 = v3(x, y, z0);
		vec3 p1 = v3_add(p0, v3(dx, dy, -travel));
		double t, w[3];
		bool hit = ccd_point_triangle(p0, p1, a, a, b, b, c, c, 1e-6, &t, w);
		caught += hit;
		CHECK_NEAR(hit ? t : -1.0, (z0 - half) / travel, 1e-12);
		hit = ccd_point_triangle(p0, p1, ab, ab, bb, bb, cb, cb, 1e-6, &t, w);
		CHECK_NEAR(hit ? t : -1.0, (z0 + half) / travel, 1e-12);
		/* an edge thrown across another just as fast */
		double u, v;
		hit = ccd_edge_edge(v3(0, -0.01, half), v3(0, -0.01, half), v3(0, 0.01, half), v3(0, 0.01, half),
				    v3(-0.01, 0, z0), v3(-0.01, 0, z0 - travel), v3(0.01, 0, z0), v3(0.01, 0, z0 - travel), 1e-6, &t,
				    &u, &v);
		CHECK_NEAR(hit ? t : -1.0, (z0 - half) / travel, 1e-12);
	}
	CHECK(caught == 2000);
}

/* Parameters of the closest points of the two lines (not segments); false when parallel. */
static bool line_params(vec3 p, vec3 q, vec3 r, vec3 s, double* sp, double* tp)
{
	vec3 d1 = v3_sub(q, p), d2 = v3_sub(s, r), w = v3_sub(p, r);
	double a = v3_dot(d1, d1), b = v3_dot(d1, d2), e = v3_dot(d2, d2), c = v3_dot(d1, w), f = v3_dot(d2, w);
	double den = a * e - b * b;
	if (den <= 1e-12 * a * e) return false;
	*sp = (b * f - c * e) / den;
	*tp = (a * f - b * c) / den;
	return true;
}

/* At time t, is the point's projection well inside the triangle (x[0]; x[1..3]), or do the two
 * lines (x[0]-x[1], x[2]-x[3]) meet well inside both edges? */
static bool well_inside(const vec3* x0, const vec3* x1, double t, bool edges)
{
	vec3 x[4];
	for (int i = 0; i < 4; ++i) x[i] = at(x0[i], x1[i], t);
	if (edges) {
		double sp, tp;
		return line_params(x[0], x[1], x[2], x[3], &sp, &tp) && sp > 0.01 && sp < 0.99 && tp > 0.01 && tp < 0.99;
	}
	double w[3];
	plane_bary(x[0], x[1], x[2], x[3], w);
	return w[0] > 0.01 && w[1] > 0.01 && w[2] > 0.01;
}

/* The first sample time of 2000 at which the sampled coplanarity determinant has clearly changed
 * sign since the previous sample, with the primitives well inside each other at both samples;
 * -1 if none. */
static double first_sampled_crossing(const vec3* x0, const vec3* x1, bool edges)
{
	const int N = 2000;
	double prev = 0.0;
	for (int k = 0; k <= N; ++k) {
		double tk = (double)k / N;
		vec3 x[4];
		for (int i = 0; i < 4; ++i) x[i] = at(x0[i], x1[i], tk);
		/* edges: det(q - p, r - p, s - p); point: det(b - a, c - a, p - a) */
		vec3 o = edges ? x[0] : x[1];
		vec3 u = edges ? x[1] : x[2], v = edges ? x[2] : x[3], w = edges ? x[3] : x[0];
		vec3 du = v3_sub(u, o), dv = v3_sub(v, o), dw = v3_sub(w, o);
		double d = det3(du, dv, dw);
		bool clear = fabs(d) > 1e-9 * v3_len(du) * v3_len(dv) * v3_len(dw);
		if (k > 0 && clear && prev != 0.0 && (d < 0.0) != (prev < 0.0) && well_inside(x0, x1, tk, edges) &&
		    well_inside(x0, x1, (double)(k - 1) / N, edges))
			return tk;
		prev = clear ? d : 0.0;
	}
	return -1.0;
}

/* Random linear motions against 2000 samples of the step: wherever the sampled coplanarity
 * determinant changes sign clearly with the point well inside the triangle (the edges well
 * crossing), the test must report a hit at or before that sample. And every hit is real: the
 * closest points it reports are within eps. */
static void test_ccd_point_triangle_random_vs_sampling(void)
{
	uint64_t s = 99;
	const double eps = 1e-9;
	int events = 0;
	for (int trial = 0; trial < 2000; ++trial) {
		vec3 x0[4], x1[4];
		for (int i = 0; i < 4; ++i) {
			x0[i] = rnd_v(&s, -1, 1);
			x1[i] = v3_add(x0[i], rnd_v(&s, -0.7, 0.7));
		}
		if (trial % 2) {
			/* aimed: the point goes from one side of the triangle's middle to the other */
			vec3 n = v3_normalize(v3_cross(v3_sub(x0[2], x0[1]), v3_sub(x0[3], x0[1])));
			vec3 mid = v3_scale(v3_add(v3_add(x0[1], x0[2]), x0[3]), 1.0 / 3.0);
			double above = rnd(&s, 0.1, 1.0), below = rnd(&s, 0.1, 1.0);
			vec3 side0 = rnd_v(&s, -0.3, 0.3), side1 = rnd_v(&s, -0.3, 0.3);
			x0[0] = v3_add(v3_madd(mid, above, n), side0);
			x1[0] = v3_add(v3_madd(mid, -below, n), side1);
		}
		double t, w[3];
		bool hit = ccd_point_triangle(x0[0], x1[0], x0[1], x1[1], x0[2], x1[2], x0[3], x1[3], eps, &t, w);
		if (hit) {
			vec3 x[4];
			for (int i = 0; i < 4; ++i) x[i] = at(x0[i], x1[i], t);
			CHECK(bary_valid(w));
			CHECK(v3_len(v3_sub(x[0], bary_point(x[1], x[2], x[3], w))) <= 2.0 * eps);
		}
		double tk = first_sampled_crossing(x0, x1, false);
		if (tk >= 0.0) {
			++events;
			CHECK(hit && t <= tk + 1e-12);
		}
	}
	CHECK(events > 400);
}

static void test_ccd_edge_edge_random_vs_sampling(void)
{
	uint64_t s = 123;
	const double eps = 1e-9;
	int events = 0;
	for (int trial = 0; trial < 2000; ++trial) {
		vec3 x0[4], x1[4];
		for (int i = 0; i < 4; ++i) {
			x0[i] = rnd_v(&s, -1, 1);
			x1[i] = v3_add(x0[i], rnd_v(&s, -0.8, 0.8));
		}
		double t, su, tu;
		bool hit = ccd_edge_edge(x0[0], x1[0], x0[1], x1[1], x0[2], x1[2], x0[3], x1[3], eps, &t, &su, &tu);
		if (hit) {
			vec3 x[4];
			for (int i = 0; i < 4; ++i) x[i] = at(x0[i], x1[i], t);
			CHECK(su >= 0.0 && su <= 1.0 && tu >= 0.0 && tu <= 1.0);
			vec3 pa = v3_madd(x[0], su, v3_sub(x[1], x[0])), pb = v3_madd(x[2], tu, v3_sub(x[3], x[2]));
			CHECK(v3_len(v3_sub(pa, pb)) <= 2.0 * eps);
		}
		double tk = first_sampled_crossing(x0, x1, true);
		if (tk >= 0.0) {
			++events;
			CHECK(hit && t <= tk + 1e-12);
		}
	}
	CHECK(events > 120);
}

/* ---- triangle / triangle ---- */

/* Both argument orders and a cyclic relabelling give the same answer. */
static bool tt(vec3 a0, vec3 a1, vec3 a2, vec3 b0, vec3 b1, vec3 b2)
{
	bool r = triangle_triangle_intersect(a0, a1, a2, b0, b1, b2);
	CHECK(triangle_triangle_intersect(b0, b1, b2, a0, a1, a2) == r);
	CHECK(triangle_triangle_intersect(a1, a2, a0, b2, b1, b0) == r);
	return r;
}

static void test_triangle_triangle_cases(void)
{
	vec3 a0 = v3(0, 0, 0), a1 = v3(2, 0, 0), a2 = v3(0, 2, 0);
	/* piercing: an edge of B through A's interior */
	CHECK(tt(a0, a1, a2, v3(0.5, 0.5, -1), v3(0.5, 0.5, 1), v3(3, 3, 0)));
	CHECK(tt(a0, a1, a2, v3(0.5, 0.5, -1), v3(0.6, 0.4, 1), v3(0.4, 0.7, 1)));
	/* touching counts: a vertex of B on A's face, on A's vertex; B's edge across A's edge */
	CHECK(tt(a0, a1, a2, v3(0.5, 0.5, 0), v3(1, 0.5, 1), v3(0.5, 1, 1)));
	CHECK(tt(a0, a1, a2, v3(0, 0, 0), v3(-1, 0, 1), v3(0, -1, 1)));
	CHECK(tt(a0, a1, a2, v3(1, -1, 1), v3(1, 1, -1), v3(1, -1, -1)));
	/* disjoint: far, just above, parallel planes */
	CHECK(!tt(a0, a1, a2, v3(5, 5, 5), v3(6, 5, 5), v3(5, 6, 5)));
	CHECK(!tt(a0, a1, a2, v3(0.5, 0.5, 1e-9), v3(1, 0.5, 1), v3(0.5, 1, 1)));
	CHECK(!tt(a0, a1, a2, v3(0, 0, 0.1), v3(2, 0, 0.1), v3(0, 2, 0.1)));
	/* B's plane cuts A's plane, but outside A */
	CHECK(!tt(a0, a1, a2, v3(1.5, 1.5, -1), v3(1.5, 1.5, 1), v3(3, 3, 0)));
	/* coplanar: overlapping, B inside A, A inside B, disjoint, sharing an edge, a vertex */
	CHECK(tt(a0, a1, a2, v3(0.5, 0.5, 0), v3(3, 0.5, 0), v3(0.5, 3, 0)));
	CHECK(tt(a0, a1, a2, v3(0.2, 0.2, 0), v3(0.5, 0.2, 0), v3(0.2, 0.5, 0)));
	CHECK(tt(a0, a1, a2, v3(-1, -1, 0), v3(5, -1, 0), v3(-1, 5, 0)));
	CHECK(!tt(a0, a1, a2, v3(2, 2, 0), v3(3, 2, 0), v3(2, 3, 0)));
	CHECK(!tt(a0, a1, a2, v3(1.1, 1.1, 0), v3(3, 1.1, 0), v3(1.1, 3, 0)));
	CHECK(tt(a0, a1, a2, v3(2, 0, 0), v3(0, 2, 0), v3(2, 2, 0)));
	CHECK(tt(a0, a1, a2, v3(2, 0, 0), v3(3, 0, 0), v3(3, -1, 0)));
	/* star of David: coplanar, no vertex inside the other, edges crossing */
	CHECK(tt(v3(0, 1, 0), v3(-0.866, -0.5, 0), v3(0.866, -0.5, 0), v3(0, -1, 0), v3(0.866, 0.5, 0), v3(-0.866, 0.5, 0)));
	/* one triangle through the other's edge (B in the plane x = 1 across A's edge y = 0) */
	CHECK(tt(a0, a1, a2, v3(1, -0.5, -1), v3(1, -0.5, 1), v3(1, 0.5, 0)));
	CHECK(!tt(a0, a1, a2, v3(1, -0.5, -1), v3(1, -0.5, 1), v3(1, -0.1, 0)));
	/* zero-area triangles meet nothing */
	CHECK(!triangle_triangle_intersect(a0, a1, a2, v3(0.5, 0.5, -1), v3(0.5, 0.5, 1), v3(0.5, 0.5, 0)));
}

static void test_segment_triangle(void)
{
	vec3 a = v3(0, 0, 0), b = v3(2, 0, 0), c = v3(0, 2, 0);
	double t = -1;
	CHECK(segment_triangle_intersect(v3(0.5, 0.5, 1), v3(0.5, 0.5, -3), a, b, c, &t));
	CHECK_NEAR(t, 0.25, 1e-15);
	CHECK(!segment_triangle_intersect(v3(0.5, 0.5, 1), v3(0.5, 0.5, 0.1), a, b, c, &t));
	CHECK(!segment_triangle_intersect(v3(3, 3, 1), v3(3, 3, -1), a, b, c, &t));
	CHECK(segment_triangle_intersect(v3(1, 1, 1), v3(1, 1, -1), a, b, c, &t)); /* through the hypotenuse */
	CHECK(segment_triangle_intersect(v3(0.5, 0.5, 0), v3(0.5, 0.5, 5), a, b, c, &t));
	CHECK(t == 0.0);
	/* in the plane: entering from outside, passing beside, lying inside */
	CHECK(segment_triangle_intersect(v3(-1, 0.5, 0), v3(1, 0.5, 0), a, b, c, &t));
	CHECK_NEAR(t, 0.5, 1e-15);
	CHECK(!segment_triangle_intersect(v3(-1, 3, 0), v3(3, 3, 0), a, b, c, &t));
	CHECK(segment_triangle_intersect(v3(0.2, 0.2, 0), v3(0.3, 0.3, 0), a, b, c, &t));
	CHECK(t == 0.0);
	/* along an edge, from outside */
	CHECK(segment_triangle_intersect(v3(-1, 0, 0), v3(1, 0, 0), a, b, c, &t));
	CHECK_NEAR(t, 0.5, 1e-15);
	CHECK(segment_triangle_intersect(v3(-1, 0, 0), v3(1, 0, 0), a, b, c, NULL));
}

static void test_triangle_triangle_random_rigid(void)
{
	uint64_t s = 31;
	vec3 a[3] = {v3(0, 0, 0), v3(2, 0, 0), v3(0, 2, 0)};
	vec3 pierce[3] = {v3(0.5, 0.5, -1), v3(0.6, 0.4, 1), v3(0.4, 0.7, 1)};
	vec3 through_edge[3] = {v3(1, -0.5, -1), v3(1, -0.5, 1), v3(1, 0.5, 0)};
	vec3 above[3] = {v3(0.5, 0.5, 0.01), v3(1, 0.5, 1), v3(0.5, 1, 1)};
	vec3 cop_in[3] = {v3(0.25, 0.25, 0), v3(0.5, 0.25, 0), v3(0.25, 0.5, 0)};
	vec3 cop_cross[3] = {v3(0.5, 0.5, 0), v3(3, 0.5, 0), v3(0.5, 3, 0)};
	vec3 cop_apart[3] = {v3(1.25, 1.25, 0), v3(3, 1.25, 0), v3(1.25, 3, 0)};
	for (int trial = 0; trial < 2000; ++trial) {
		rigid r = rnd_rigid(&s);
		vec3 x[3], p[3], e[3], h[3];
		for (int i = 0; i < 3; ++i) {
			x[i] = apply(&r, a[i]);
			p[i] = apply(&r, pierce[i]);
			e[i] = apply(&r, through_edge[i]);
			h[i] = apply(&r, above[i]);
		}
		CHECK(triangle_triangle_intersect(x[0], x[1], x[2], p[0], p[1], p[2]));
		CHECK(triangle_triangle_intersect(x[0], x[1], x[2], e[0], e[1], e[2]));
		CHECK(!triangle_triangle_intersect(x[0], x[1], x[2], h[0], h[1], h[2]));
		/* Coplanar pairs stay exactly coplanar only under exact motions: a signed permutation of
		 * the axes and a translation by multiples of 1/8. */
		int perm = trial % 6, sign = trial / 6 % 8;
		const int axes[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
		vec3 shift = rnd_v(&s, -40, 40);
		shift = v3(floor(shift.x) / 8, floor(shift.y) / 8, floor(shift.z) / 8);
		vec3 y[4][3];
		for (int i = 0; i < 3; ++i) {
			const vec3 src[4] = {a[i], cop_in[i], cop_cross[i], cop_apart[i]};
			for (int k = 0; k < 4; ++k) {
				double c[3];
				for (int j = 0; j < 3; ++j) c[axes[perm][j]] = v3_get(src[k], j) * ((sign >> j) & 1 ? -1.0 : 1.0);
				y[k][i] = v3_add(v3(c[0], c[1], c[2]), shift);
			}
		}
		CHECK(triangle_triangle_intersect(y[0][0], y[0][1], y[0][2], y[1][0], y[1][1], y[1][2]));
		CHECK(triangle_triangle_intersect(y[0][0], y[0][1], y[0][2], y[2][0], y[2][1], y[2][2]));
		CHECK(!triangle_triangle_intersect(y[0][0], y[0][1], y[0][2], y[3][0], y[3][1], y[3][2]));
	}
}

/* Random pairs against an independent reference: an edge crossing the other triangle's plane at a
 * point found by interpolation, inside (or outside) with a margin. */
static void test_triangle_triangle_random_reference(void)
{
	uint64_t s = 47;
	int yes = 0, no = 0;
	for (int trial = 0; trial < 4000; ++trial) {
		vec3 T[2][3];
		for (int k = 0; k < 2; ++k)
			for (int i = 0; i < 3; ++i) T[k][i] = rnd_v(&s, -1, 1);
		int verdict = 0; /* 1 intersect, -1 disjoint, 0 ambiguous */
		bool any_hit = false, ambiguous = false;
		for (int k = 0; k < 2; ++k) {
			vec3* A = T[k];
			vec3* B = T[1 - k];
			vec3 n = v3_normalize(v3_cross(v3_sub(B[1], B[0]), v3_sub(B[2], B[0])));
			for (int i = 0; i < 3; ++i) {
				vec3 p = A[i], q = A[(i + 1) % 3];
				double dp = v3_dot(n, v3_sub(p, B[0])), dq = v3_dot(n, v3_sub(q, B[0]));
				if (fabs(dp) < 1e-6 || fabs(dq) < 1e-6) ambiguous = true;
				if ((dp > 0) == (dq > 0)) continue;
				vec3 x = at(p, q, dp / (dp - dq));
				double w[3];
				plane_bary(x, B[0], B[1], B[2], w);
				double m = fmin(w[0], fmin(w[1], w[2]));
				if (fabs(m) < 1e-6) ambiguous = true;
				if (m > 0) any_hit = true;
			}
		}
		if (!ambiguous) verdict = any_hit ? 1 : -1;
		if (verdict == 0) continue;
		bool r = triangle_triangle_intersect(T[0][0], T[0][1], T[0][2], T[1][0], T[1][1], T[1][2]);
		CHECK(r == (verdict == 1));
		if (verdict == 1) ++yes;
		else ++no;
	}
	CHECK(yes > 300 && no > 300);
}

static void test_triangle_triangle_shared(void)
{
	/* A hinge: a0-a1 shared, the second triangle folded by angle th about it. */
	vec3 v0 = v3(0, 0, 0), v1 = v3(1, 0, 0), w = v3(0.5, 1, 0);
	const double angles[5] = {0.0, 0.5, 1.5, 3.0, 3.14};
	for (int k = 0; k < 5; ++k) {
		double th = angles[k];
		vec3 w2 = v3(0.5, -cos(th), sin(th)); /* th = 0: flat, unfolded */
		CHECK(!triangle_triangle_intersect_shared(v0, v1, w, v0, v1, w2, 2));
	}
	/* folded exactly flat onto each other, and by pi in floating point: sin(pi) = 1.2e-16 is
	 * rounding, so that is the same flat fold */
	CHECK(triangle_triangle_intersect_shared(v0, v1, w, v0, v1, v3(0.3, 0.5, 0), 2));
	const double pi = 3.14159265358979323846;
	CHECK(triangle_triangle_intersect_shared(v0, v1, w, v0, v1, v3(0.5, -cos(pi), sin(pi)), 2));
	/* the unshared test sees the common edge */
	CHECK(triangle_triangle_intersect(v0, v1, w, v0, v1, v3(0.5, -1, 0)));
	/* A shared vertex: a fan around the origin, apart, is not an intersection ... */
	vec3 o = v3(0, 0, 0);
	CHECK(!triangle_triangle_intersect_shared(o, v3(1, 0, 0), v3(1, 1, 0), o, v3(-1, 0, 0), v3(-1, 1, 0.5), 1));
	CHECK(!triangle_triangle_intersect_shared(o, v3(1, 0, 0), v3(1, 1, 0), o, v3(0, 1, 0), v3(-1, 1, 0), 1));
	/* ... one swung through the other is (its opposite edge pierces the first) ... */
	CHECK(triangle_triangle_intersect_shared(o, v3(2, 0, 0), v3(2, 2, 0), o, v3(1, 0.5, -1), v3(1, 0.5, 1), 1));
	/* ... and so is one whose interior crosses the other while its opposite edge is long: then the
	 * first's opposite edge pierces it */
	CHECK(triangle_triangle_intersect_shared(o, v3(1, 0, 0), v3(1, 0.5, 0), o, v3(3, 0.25, -1), v3(3, 0.25, 1), 1));
	/* coplanar, overlapping sectors */
	CHECK(triangle_triangle_intersect_shared(o, v3(1, 0, 0), v3(1, 1, 0), o, v3(2, 0.5, 0), v3(0, 2, 0), 1));
	CHECK(!triangle_triangle_intersect_shared(o, v3(1, 0, 0), v3(1, 1, 0), o, v3(0, 1, 0), v3(0, 2, 0), 1));
	CHECK(!triangle_triangle_intersect_shared(o, v3(1, 0, 0), v3(1, 1, 0), o, v3(1, 0, 0), v3(1, 1, 0), 3));

	/* mesh_triangles_intersect finds the shared vertices whatever the order */
	vec3 x[6] = {v3(0, 0, 0), v3(1, 0, 0), v3(0.5, 1, 0), v3(0.5, -1, 0), v3(0.3, 0.5, 0), v3(0.5, 0.5, -1)};
	int32_t t0[3] = {0, 1, 2}, hinge[3] = {3, 1, 0}, folded[3] = {1, 4, 0};
	CHECK(!mesh_triangles_intersect(x, t0, hinge));
	CHECK(mesh_triangles_intersect(x, t0, folded));
	CHECK(mesh_triangles_intersect(x, folded, t0));
	vec3 y[5] = {v3(0, 0, 0), v3(2, 0, 0), v3(2, 2, 0), v3(1, 0.5, -1), v3(1, 0.5, 1)};
	int32_t f0[3] = {1, 0, 2}, f1[3] = {3, 4, 0}, f2[3] = {2, 0, 1};
	CHECK(mesh_triangles_intersect(y, f0, f1));
	CHECK(!mesh_triangles_intersect(y, f0, f2)); /* the same triangle */
	/* no shared vertex: the plain test */
	vec3 z[6] = {v3(0, 0, 0), v3(2, 0, 0), v3(0, 2, 0), v3(0.5, 0.5, -1), v3(0.5, 0.5, 1), v3(3, 3, 0)};
	int32_t g0[3] = {0, 1, 2}, g1[3] = {3, 4, 5};
	CHECK(mesh_triangles_intersect(z, g0, g1));
}

/* ---- triangle / triangle, (nearly) coplanar in tilted planes ---- */

/* An orthonormal frame in a random orientation with its origin at distance `dist` from the world
 * origin: a generic tilted plane (w = 0), where coplanar points are coplanar up to rounding only. */
typedef struct frame {
	vec3 o, e[3];
} frame;

static frame rnd_frame(uint64_t* s, double dist)
{
	frame f;
	f.e[0] = v3_normalize(rnd_v(s, -1.0, 1.0));
	f.e[1] = v3_normalize(v3_cross(rnd_v(s, -1.0, 1.0), f.e[0]));
	f.e[2] = v3_cross(f.e[0], f.e[1]);
	f.o = v3_scale(v3_normalize(rnd_v(s, -1.0, 1.0)), dist);
	return f;
}

static vec3 in_frame(const frame* f, double u, double v, double w)
{
	return v3_add(f->o, v3_add(v3_add(v3_scale(f->e[0], u), v3_scale(f->e[1], v)), v3_scale(f->e[2], w)));
}

/* Intersecting pairs among all pairs of an n x n grid's triangles (each quad split along its
 * (i, j)-(i+1, j+1) diagonal), by brute force with mesh_triangles_intersect. */
static int grid_intersections(int n, const vec3* x)
{
	int nt = 2 * (n - 1) * (n - 1);
	int32_t* tri = malloc(3 * (size_t)nt * sizeof *tri);
	int m = 0;
	for (int j = 0; j + 1 < n; ++j)
		for (int i = 0; i + 1 < n; ++i) {
			int32_t v00 = i + n * j, v10 = v00 + 1, v01 = v00 + n, v11 = v01 + 1;
			int32_t* t = tri + 3 * m;
			t[0] = v00, t[1] = v10, t[2] = v11;
			t[3] = v00, t[4] = v11, t[5] = v01;
			m += 2;
		}
	int hits = 0;
	for (int a = 0; a < nt; ++a)
		for (int b = a + 1; b < nt; ++b) hits += mesh_triangles_intersect(x, tri + 3 * a, tri + 3 * b);
	free(tri);
	return hits;
}

/* A flat 21 x 21 sheet (cell 5 cm) in generic tilted planes near and 100 m from the origin, on a
 * regular grid (rows and columns collinear up to rounding) and jittered in its plane, and the same
 * sheet folded over itself around a half cylinder, whose layers and fold strips are flat in tilted
 * planes too. No pair of its triangles intersects. Also with every vertex moved off the plane by
 * noise from 1e-14 of the sheet's size (below the rounding bound) to 1e-8 (above it), which only
 * changes which branch decides. Without its rounding bounds the predicate reported hundreds of
 * pairs a whole cell apart here. */
static void test_triangle_triangle_tilted_flat_sheet(void)
{
	uint64_t s = 61;
	const int n = 21;
	const double cell = 0.05, size = cell * (n - 1), r = 0.75 * cell, pi = 3.14159265358979323846;
	const double noise[4] = {0.0, 1e-14, 1e-11, 1e-8};
	vec3 x[21 * 21];
	int total = 0;
	for (int trial = 0; trial < 8; ++trial) {
		frame f = rnd_frame(&s, trial < 2 ? 1.0 : 100.0);
		bool jitter = trial % 2 == 1, fold = trial % 4 >= 2;
		double h = noise[trial % 4] * size;
		for (int i = 0; i < n * n; ++i) {
			double du = rnd(&s, -0.2, 0.2), dv = rnd(&s, -0.2, 0.2), dw = rnd(&s, -1.0, 1.0);
			double u = (i % n + (jitter ? du : 0.0)) * cell, v = (i / n + (jitter ? dv : 0.0)) * cell;
			double w = h * dw;
			/* folded: flat up to a, a half cylinder of radius r, then back over the bottom */
			double a = 0.5 * (size - pi * r);
			if (fold && u > a + pi * r) {
				u = a - (u - a - pi * r) + 0.3 * cell;
				w += 2.0 * r;
			} else if (fold && u > a) {
				double th = (u - a) / r;
				w += r - r * cos(th);
				u = a + r * sin(th);
			}
			x[i] = in_frame(&f, u, v, w);
		}
		int hits = grid_intersections(n, x);
		if (hits)
			printf("         tilted sheet %d (jitter %d, fold %d, noise %g m): %d pairs\n", trial, jitter, fold,
			       h, hits);
		total += hits;
	}
	CHECK(total == 0);
}

/* Coplanar triangles in tilted planes 100 m away still meet when they overlap, contain one another
 * or touch along an edge, and do not when a small gap (1 % of their size) separates them. */
static void test_triangle_triangle_tilted_coplanar(void)
{
	uint64_t s = 67;
	for (int trial = 0; trial < 500; ++trial) {
		frame f = rnd_frame(&s, trial % 5 == 0 ? 0.0 : 100.0);
		double L = trial % 2 ? 0.05 : 1.0;
		vec3 a0 = in_frame(&f, 0, 0, 0), a1 = in_frame(&f, L, 0, 0), a2 = in_frame(&f, 0, L, 0);
		/* overlapping, inside, containing, and edges crossing with every vertex of B outside A */
		CHECK(tt(a0, a1, a2, in_frame(&f, 0.2 * L, 0.2 * L, 0), in_frame(&f, 1.5 * L, 0.3 * L, 0),
			 in_frame(&f, 0.3 * L, 1.2 * L, 0)));
		CHECK(tt(a0, a1, a2, in_frame(&f, 0.2 * L, 0.2 * L, 0), in_frame(&f, 0.4 * L, 0.2 * L, 0),
			 in_frame(&f, 0.2 * L, 0.4 * L, 0)));
		CHECK(tt(a0, a1, a2, in_frame(&f, -L, -L, 0), in_frame(&f, 3 * L, -L, 0), in_frame(&f, -L, 3 * L, 0)));
		CHECK(tt(a0, a1, a2, in_frame(&f, 0.8 * L, 0.8 * L, 0), in_frame(&f, -0.2 * L, 0.5 * L, 0),
			 in_frame(&f, 0.5 * L, -0.2 * L, 0)));
		/* sharing the hypotenuse's points (not its vertices) from the other side: touching */
		CHECK(tt(a0, a1, a2, a1, a2, in_frame(&f, L, L, 0)));
		/* a gap of 1 % beyond the hypotenuse, and beside a leg along its line */
		CHECK(!tt(a0, a1, a2, in_frame(&f, 0.51 * L, 0.51 * L, 0), in_frame(&f, 1.5 * L, 0.6 * L, 0),
			  in_frame(&f, 0.6 * L, 1.5 * L, 0)));
		vec3 beyond = in_frame(&f, 1.01 * L, 0, 0), far = in_frame(&f, 2 * L, 0, 0);
		CHECK(!tt(a0, a1, a2, beyond, far, in_frame(&f, 1.5 * L, -L, 0)));
		/* a segment along a leg's line: beyond the leg, then overlapping it */
		CHECK(!segment_triangle_intersect(beyond, far, a0, a1, a2, NULL));
		CHECK(segment_triangle_intersect(in_frame(&f, 0.5 * L, 0, 0), far, a0, a1, a2, NULL));
	}
}

/* Nearly coplanar triangles that genuinely pierce each other still intersect: B is A's plane
 * turned by 1e-3 rad about a line through A's interior, with or without a shared vertex. Turned
 * about a line that misses A, or lifted 1e-6 of its size off A's plane, it does not. */
static void test_triangle_triangle_nearly_coplanar(void)
{
	uint64_t s = 71;
	const double c = cos(1e-3), sn = sin(1e-3);
	for (int trial = 0; trial < 500; ++trial) {
		frame f = rnd_frame(&s, trial % 5 == 0 ? 0.0 : 100.0);
		double L = trial % 2 ? 0.05 : 1.0;
		vec3 a0 = in_frame(&f, 0, 0, 0), a1 = in_frame(&f, L, 0, 0), a2 = in_frame(&f, 0, L, 0);
		/* B turned about the line v = 0.3 L (along u): w = (v - 0.3 L) tan(1e-3) */
		CHECK(tt(a0, a1, a2, in_frame(&f, 0.1 * L, (0.3 - 0.25 * c) * L, -0.25 * sn * L),
			 in_frame(&f, 0.3 * L, (0.3 + 0.25 * c) * L, 0.25 * sn * L),
			 in_frame(&f, -0.2 * L, (0.3 + 0.2 * c) * L, 0.2 * sn * L)));
		/* the same about the line v = 1.5 L, beyond A: B crosses A's plane outside A */
		CHECK(!tt(a0, a1, a2, in_frame(&f, 0.1 * L, (1.5 - 0.25 * c) * L, -0.25 * sn * L),
			  in_frame(&f, 0.3 * L, (1.5 + 0.25 * c) * L, 0.25 * sn * L),
			  in_frame(&f, -0.2 * L, (1.5 + 0.2 * c) * L, 0.2 * sn * L)));
		/* lifted parallel to A, overlapping it in projection */
		double h = 1e-6 * L;
		CHECK(!tt(a0, a1, a2, in_frame(&f, 0.2 * L, 0.2 * L, h), in_frame(&f, 1.5 * L, 0.3 * L, h),
			  in_frame(&f, 0.3 * L, 1.2 * L, h)));
		/* sharing a0: B's far edge centred on (0.8 L, 0.8 L), beyond A's hypotenuse, and B turned
		 * by 1e-3 about the diagonal u = v through a0, so that A's hypotenuse pierces it */
		vec3 d = v3_scale(v3_add(f.e[0], f.e[1]), 0.8 * L), e = v3_scale(v3_sub(f.e[1], f.e[0]), 0.3 * L);
		vec3 lift = v3_scale(f.e[2], sn * v3_len(e));
		vec3 b1 = v3_add(a0, v3_add(v3_add(d, v3_scale(e, c)), lift));
		vec3 b2 = v3_add(a0, v3_sub(v3_sub(d, v3_scale(e, c)), lift));
		CHECK(triangle_triangle_intersect_shared(a0, a1, a2, a0, b1, b2, 1));
		CHECK(triangle_triangle_intersect_shared(a0, b1, b2, a0, a1, a2, 1));
		/* and that sector mirrored to the far side of a0: only a0 in common */
		vec3 m1 = v3_sub(v3_scale(a0, 2.0), b1), m2 = v3_sub(v3_scale(a0, 2.0), b2);
		CHECK(!triangle_triangle_intersect_shared(a0, a1, a2, a0, m1, m2, 1));
	}
}

const test_case collide_tests[] = {
	{"point_triangle_voronoi_regions", test_point_triangle_voronoi_regions},
	{"point_triangle_random_vs_brute", test_point_triangle_random_vs_brute},
	{"point_triangle_degenerate", test_point_triangle_degenerate},
	{"point_triangle_slivers", test_point_triangle_slivers},
	{"segment_segment_cases", test_segment_segment_cases},
	{"segment_segment_random_vs_brute", test_segment_segment_random_vs_brute},
	{"cubic_roots_known", test_cubic_roots_known},
	{"cubic_roots_tangent_and_ends", test_cubic_roots_tangent_and_ends},
	{"cubic_roots_scaling", test_cubic_roots_scaling},
	{"cubic_roots_random", test_cubic_roots_random},
	{"ccd_point_through_static_triangle", test_ccd_point_through_static_triangle},
	{"ccd_point_beside_triangle", test_ccd_point_beside_triangle},
	{"ccd_point_touching_at_start", test_ccd_point_touching_at_start},
	{"ccd_point_and_triangle_moving", test_ccd_point_and_triangle_moving},
	{"ccd_point_always_coplanar", test_ccd_point_always_coplanar},
	{"ccd_edge_edge_crossing", test_ccd_edge_edge_crossing},
	{"ccd_edge_edge_parallel", test_ccd_edge_edge_parallel},
	{"ccd_fast_motion_never_missed", test_ccd_fast_motion_never_missed},
	{"ccd_point_triangle_random_vs_sampling", test_ccd_point_triangle_random_vs_sampling},
	{"ccd_edge_edge_random_vs_sampling", test_ccd_edge_edge_random_vs_sampling},
	{"segment_triangle", test_segment_triangle},
	{"triangle_triangle_cases", test_triangle_triangle_cases},
	{"triangle_triangle_random_rigid", test_triangle_triangle_random_rigid},
	{"triangle_triangle_random_reference", test_triangle_triangle_random_reference},
	{"triangle_triangle_shared", test_triangle_triangle_shared},
	{"triangle_triangle_tilted_flat_sheet", test_triangle_triangle_tilted_flat_sheet},
	{"triangle_triangle_tilted_coplanar", test_triangle_triangle_tilted_coplanar},
	{"triangle_triangle_nearly_coplanar", test_triangle_triangle_nearly_coplanar},
	{NULL, NULL},
};
