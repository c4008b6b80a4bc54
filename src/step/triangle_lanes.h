/* Four triangles' inputs in vector lanes (math/lanes.h), and the pieces of their stretch, shear
 * and drag (paper sec. 4.2-4.3, eq. 7 and 11; drag as forces.h's drag_force) that the explicit and
 * the implicit kernel form alike (step/explicit_triangles.c, step/implicit_triangles.c), each lane
 * the scalar path's operations in its order. docs/solver.md, "One step", *Element terms in vector
 * lanes*. Private to those two kernels: every function is always inlined, so it is compiled into
 * each kernel's AVX and SSE2 clone (a clone calls no function of its own, math/lanes.h). */
#ifndef DRAPE_TRIANGLE_LANES_H
#define DRAPE_TRIANGLE_LANES_H

#include "../forces/forces.h"
#include "../math/lanes.h"

#include <math.h>

/* A lane per triangle: L4(expr) gathers expr(l) of the four. */
#define L4(expr) ((d4){expr(0), expr(1), expr(2), expr(3)})
#define ANY_LANE(m) ((m)[0] || (m)[1] || (m)[2] || (m)[3])

/* Triangle e[l]'s data in lane l: its rest area, the rest weights cu, cv (tri_rest_weights, from
 * dinv), w_u and w_v at the state's x with their lengths, the corners' velocities v[corner][axis],
 * the rest lengths bu, bv and the stretch, shear and drag constants. */
typedef struct triangle_lanes {
	d4 area;
	d4 cu[3], cv[3];
	d4 u[3], wv[3];
	d4 lu, lv;
	d4 v[3][3];
	d4 bu, bv;
	d4 ks, kds, ksh, kdsh;
	d4 drag;
} triangle_lanes;

LANES_INLINE void triangle_lanes_load(const vec3* vs, const triangle_elem* const e[4], const tri_w* const tw[4],
				      triangle_lanes* t)
{
#define AREA(l) e[l]->rest.area
	t->area = L4(AREA);
#undef AREA
#define D00(l) e[l]->rest.dinv[0][0]
#define D10(l) e[l]->rest.dinv[1][0]
#define D01(l) e[l]->rest.dinv[0][1]
#define D11(l) e[l]->rest.dinv[1][1]
	const d4 d00 = L4(D00), d10 = L4(D10), d01 = L4(D01), d11 = L4(D11);
#undef D00
#undef D10
#undef D01
#undef D11
	/* tri_rest_weights */
	t->cu[0] = -(d00 + d10), t->cu[1] = d00, t->cu[2] = d10;
	t->cv[0] = -(d01 + d11), t->cv[1] = d01, t->cv[2] = d11;
#define W4(l, c) tw[l]->c
#define WQ(c) ((d4){W4(0, c), W4(1, c), W4(2, c), W4(3, c)})
	t->u[0] = WQ(u.x), t->u[1] = WQ(u.y), t->u[2] = WQ(u.z);
	t->wv[0] = WQ(v.x), t->wv[1] = WQ(v.y), t->wv[2] = WQ(v.z);
	t->lu = WQ(lu), t->lv = WQ(lv);
#undef WQ
#undef W4
#define VEL(l, a, q) vs[e[l]->v[a]].q
#define VEL4(a, q) ((d4){VEL(0, a, q), VEL(1, a, q), VEL(2, a, q), VEL(3, a, q)})
	for (int a = 0; a < 3; ++a) t->v[a][0] = VEL4(a, x), t->v[a][1] = VEL4(a, y), t->v[a][2] = VEL4(a, z);
#undef VEL4
#undef VEL
#define E4(c) ((d4){e[0]->c, e[1]->c, e[2]->c, e[3]->c})
	t->bu = E4(bu), t->bv = E4(bv);
	t->ks = E4(k_stretch), t->kds = E4(kd_stretch), t->ksh = E4(k_shear), t->kdsh = E4(kd_shear);
	t->drag = E4(drag);
#undef E4
}

/* Cdot = sum_i g_i . v_i (g[3 a + q]: corner a's component q), summed from +0 as
 * condition_terms_component and condition_force sum it. Vectors go by pointer: passed or returned
 * by value their ABI would depend on the target. */
LANES_INLINE void cdot_lanes(const d4 g[9], const d4 v[3][3], d4* cdot)
{
	const d4 zero = {0.0, 0.0, 0.0, 0.0};
#define CORNER_DOT(a) (g[3 * (a)] * v[a][0] + g[3 * (a) + 1] * v[a][1] + g[3 * (a) + 2] * v[a][2])
	*cdot = ((zero + CORNER_DOT(0)) + CORNER_DOT(1)) + CORNER_DOT(2);
#undef CORNER_DOT
}

/* shear_w over lanes: C = area w_u . w_v and its gradient g[3 a + q]. */
LANES_INLINE void shear_lanes(const triangle_lanes* t, d4* c, d4 g[9])
{
	const d4 area = t->area;
	*c = area * (t->u[0] * t->wv[0] + t->u[1] * t->wv[1] + t->u[2] * t->wv[2]);
	for (int a = 0; a < 3; ++a)
		for (int q = 0; q < 3; ++q) g[3 * a + q] = t->wv[q] * (area * t->cu[a]) + t->u[q] * (area * t->cv[a]);
}

/* drag_force over lanes (the lanes dragged, drag > 0): the unit normal n, s = drag area / 3, the
 * force n t on each corner, and the lanes where it acts (dragged, with area); elsewhere n, s and t
 * are whatever the arithmetic gave and must be masked with active. */
LANES_INLINE void drag_lanes(const vec3* xs, const triangle_elem* const e[4], const triangle_lanes* tl, const i4* dragged, vec3 wind,
			     i4* active, d4 n[3], d4* sd, d4* t)
{
#define POS(l, a, q) xs[e[l]->v[a]].q
#define POS4(a, q) ((d4){POS(0, a, q), POS(1, a, q), POS(2, a, q), POS(3, a, q)})
	const d4 x0x = POS4(0, x), x0y = POS4(0, y), x0z = POS4(0, z);
	const d4 d1[3] = {POS4(1, x) - x0x, POS4(1, y) - x0y, POS4(1, z) - x0z};
	const d4 d2[3] = {POS4(2, x) - x0x, POS4(2, y) - x0y, POS4(2, z) - x0z};
#undef POS4
#undef POS
	const d4 cr[3] = {d1[1] * d2[2] - d1[2] * d2[1], d1[2] * d2[0] - d1[0] * d2[2], d1[0] * d2[1] - d1[1] * d2[0]};
	const d4 len2 = cr[0] * cr[0] + cr[1] * cr[1] + cr[2] * cr[2];
	const d4 len = {sqrt(len2[0]), sqrt(len2[1]), sqrt(len2[2]), sqrt(len2[3])};
	*active = *dragged & (len > 0.0);
	const d4 inv = 1.0 / len;
	for (int q = 0; q < 3; ++q) n[q] = cr[q] * inv;
	const d4 dragarea = 0.5 * len;
	*sd = tl->drag * dragarea / 3.0;
	const double wind_c[3] = {wind.x, wind.y, wind.z};
	d4 rel[3];
	for (int q = 0; q < 3; ++q) rel[q] = (tl->v[0][q] + tl->v[1][q] + tl->v[2][q]) * (1.0 / 3.0) - wind_c[q];
	*t = -*sd * (rel[0] * n[0] + rel[1] * n[1] + rel[2] * n[2]);
}

#endif
