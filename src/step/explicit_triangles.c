/* An all-explicit plan's triangle forces (paper sec. 4.2-4.4: the stretch and shear conditions'
 * force -k C dC - kd Cdot dC, eq. 7 and 11, and drag), formed four triangles at a time in vector
 * lanes (math/lanes.h), each lane the scalar kernel's operations in its order. */
#include "explicit_triangles.h"

#include "../forces/forces.h"
#include "../math/lanes.h"

#include <math.h>

/* One triangle: the same force from the same pieces (forces.h: stretch_component_w, shear_w,
 * condition_force, drag_force) in the same order as the general assembly, summed in registers
 * rather than through the condition and terms structs. b gets nothing where the general path's
 * terms are unused (a spring cloth's triangle without drag), as there. */
static void triangle_one(drape_world* w, const triangle_elem* e, vec3 wind, double h, const assembly_plan* p)
{
	vec3 x[3], v[3], f[3] = {v3_zero(), v3_zero(), v3_zero()};
	for (int a = 0; a < 3; ++a) {
		x[a] = w->state.x[e->v[a]];
		v[a] = w->state.v[e->v[a]];
	}
	bool used = false;
	if (!e->springs_only) {
		tri_w tw;
		if (w->state.x == w->work.strain_w0_of) tw = w->work.tri_w0[e - w->model.triangles];
		else tri_w_at(&e->rest, x, &tw);
		double cw[2][3], c;
		vec3 g[3], wh;
		tri_rest_weights(&e->rest, cw[0], cw[1]);
		stretch_component_w(&e->rest, &tw, 0, e->bu, cw[0], &c, g, &wh);
		condition_force(g, 3, c, e->k_stretch * p->scale[FAMILY_STRETCH_U], e->kd_stretch * p->scale[FAMILY_STRETCH_U], v, f);
		stretch_component_w(&e->rest, &tw, 1, e->bv, cw[1], &c, g, &wh);
		condition_force(g, 3, c, e->k_stretch * p->scale[FAMILY_STRETCH_V], e->kd_stretch * p->scale[FAMILY_STRETCH_V], v, f);
		shear_w(&e->rest, &tw, cw[0], cw[1], &c, g);
		condition_force(g, 3, c, e->k_shear * p->scale[FAMILY_SHEAR], e->kd_shear * p->scale[FAMILY_SHEAR], v, f);
		used = true;
	}
	if (e->drag > 0.0) {
		vec3 fd, n;
		double sd;
		if (drag_force(x, v, wind, e->drag, &fd, &n, &sd))
			for (int i = 0; i < 3; ++i) f[i] = v3_add(f[i], fd);
		used = true;
	}
	if (!used) return;
	for (int a = 0; a < 3; ++a) w->work.b[e->v[a]] = v3_add(w->work.b[e->v[a]], v3_scale(f[a], h));
}

/* A lane per triangle: L4(expr) gathers expr(l) of the four. */
#define L4(expr) ((d4){expr(0), expr(1), expr(2), expr(3)})

/* condition_force over lanes: g[a][c] is corner a's gradient component c, v the corners'
 * velocities; f[a][c] += fs g[a][c] with fs = -(k C + kd Cdot). Vectors go by pointer: passed by
 * value their ABI would depend on the target. */
LANES_INLINE void force_lanes(const d4 g[3][3], const d4* cp, const d4* kp, const d4* kdp, const d4 v[3][3], d4 f[3][3])
{
	const d4 c = *cp, k = *kp, kd = *kdp;
#define CORNER_DOT(a) (g[a][0] * v[a][0] + g[a][1] * v[a][1] + g[a][2] * v[a][2])
	const d4 zero = {0.0, 0.0, 0.0, 0.0};
	const d4 cdot = ((zero + CORNER_DOT(0)) + CORNER_DOT(1)) + CORNER_DOT(2);
#undef CORNER_DOT
	const d4 fs = -(k * c + kd * cdot);
	for (int a = 0; a < 3; ++a)
		for (int q = 0; q < 3; ++q) f[a][q] = f[a][q] + fs * g[a][q];
}

/* stretch_component_w over lanes: the value and gradient of one stretch component from w, |w|, the
 * rest length b and the weights cw; g is +0 where |w| is not positive, as there. */
LANES_INLINE void stretch_lanes(const d4* areap, const d4 wv[3], const d4* lenp, const d4* bp, const d4 cw[3], d4* c, d4 g[3][3])
{
	const d4 area = *areap, len = *lenp, b = *bp;
	*c = area * (len - b);
	const i4 positive = len > 0.0;
	const d4 inv = 1.0 / len;
	d4 wh[3];
	for (int q = 0; q < 3; ++q) wh[q] = wv[q] * inv;
	for (int a = 0; a < 3; ++a) {
		const d4 s = area * cw[a];
		for (int q = 0; q < 3; ++q) g[a][q] = D4_KEEP(wh[q] * s, positive);
	}
}

/* Four triangles with stretch and shear (not springs_only), e[0..3]: their f[a] per corner a into
 * f[a][component] (lane l: triangle e[l]). tw: their w at the state's x. */
LANES_INLINE void triangles_four(const drape_world* w, const triangle_elem* const e[4], const tri_w* const tw[4], vec3 wind,
				 const assembly_plan* p, d4 f[3][3])
{
	const vec3* xs = w->state.x;
	const vec3* vs = w->state.v;
#define AREA(l) e[l]->rest.area
	const d4 area = L4(AREA);
#define D00(l) e[l]->rest.dinv[0][0]
#define D10(l) e[l]->rest.dinv[1][0]
#define D01(l) e[l]->rest.dinv[0][1]
#define D11(l) e[l]->rest.dinv[1][1]
	const d4 d00 = L4(D00), d10 = L4(D10), d01 = L4(D01), d11 = L4(D11);
	/* tri_rest_weights */
	const d4 cu[3] = {-(d00 + d10), d00, d10}, cv[3] = {-(d01 + d11), d01, d11};
#define UX(l) tw[l]->u.x
#define UY(l) tw[l]->u.y
#define UZ(l) tw[l]->u.z
#define VX(l) tw[l]->v.x
#define VY(l) tw[l]->v.y
#define VZ(l) tw[l]->v.z
#define LU(l) tw[l]->lu
#define LV(l) tw[l]->lv
	const d4 u[3] = {L4(UX), L4(UY), L4(UZ)}, wv[3] = {L4(VX), L4(VY), L4(VZ)};
	const d4 lu = L4(LU), lv = L4(LV);
#define VEL(l, a, q) vs[e[l]->v[a]].q
#define VEL4(a, q) ((d4){VEL(0, a, q), VEL(1, a, q), VEL(2, a, q), VEL(3, a, q)})
	const d4 v[3][3] = {{VEL4(0, x), VEL4(0, y), VEL4(0, z)}, {VEL4(1, x), VEL4(1, y), VEL4(1, z)}, {VEL4(2, x), VEL4(2, y), VEL4(2, z)}};
	for (int a = 0; a < 3; ++a)
		for (int q = 0; q < 3; ++q) f[a][q] = (d4){0.0, 0.0, 0.0, 0.0};
#define BU(l) e[l]->bu
#define BV(l) e[l]->bv
#define KS(l) e[l]->k_stretch
#define KDS(l) e[l]->kd_stretch
#define KSH(l) e[l]->k_shear
#define KDSH(l) e[l]->kd_shear
	const d4 ks = L4(KS), kds = L4(KDS), bu = L4(BU), bv = L4(BV);
	d4 c, g[3][3], k, kd;
	stretch_lanes(&area, u, &lu, &bu, cu, &c, g);
	k = ks * p->scale[FAMILY_STRETCH_U];
	kd = kds * p->scale[FAMILY_STRETCH_U];
	force_lanes(g, &c, &k, &kd, v, f);
	stretch_lanes(&area, wv, &lv, &bv, cv, &c, g);
	k = ks * p->scale[FAMILY_STRETCH_V];
	kd = kds * p->scale[FAMILY_STRETCH_V];
	force_lanes(g, &c, &k, &kd, v, f);
	/* shear_w */
	c = area * (u[0] * wv[0] + u[1] * wv[1] + u[2] * wv[2]);
	for (int a = 0; a < 3; ++a)
		for (int q = 0; q < 3; ++q) g[a][q] = wv[q] * (area * cu[a]) + u[q] * (area * cv[a]);
	k = L4(KSH) * p->scale[FAMILY_SHEAR];
	kd = L4(KDSH) * p->scale[FAMILY_SHEAR];
	force_lanes(g, &c, &k, &kd, v, f);
	/* drag_force where the triangle has drag and area; adding +0 elsewhere leaves f as it was (a
	 * sum begun at +0 is never -0) */
#define DRAG(l) e[l]->drag
	const d4 drag = L4(DRAG);
	const i4 dragged = drag > 0.0;
	if (!dragged[0] && !dragged[1] && !dragged[2] && !dragged[3]) return;
#define POS(l, a, q) xs[e[l]->v[a]].q
#define POS4(a, q) ((d4){POS(0, a, q), POS(1, a, q), POS(2, a, q), POS(3, a, q)})
	const d4 x0x = POS4(0, x), x0y = POS4(0, y), x0z = POS4(0, z);
	const d4 d1[3] = {POS4(1, x) - x0x, POS4(1, y) - x0y, POS4(1, z) - x0z};
	const d4 d2[3] = {POS4(2, x) - x0x, POS4(2, y) - x0y, POS4(2, z) - x0z};
	const d4 cr[3] = {d1[1] * d2[2] - d1[2] * d2[1], d1[2] * d2[0] - d1[0] * d2[2], d1[0] * d2[1] - d1[1] * d2[0]};
	const d4 len2 = cr[0] * cr[0] + cr[1] * cr[1] + cr[2] * cr[2];
	const d4 len = {sqrt(len2[0]), sqrt(len2[1]), sqrt(len2[2]), sqrt(len2[3])};
	const i4 active = dragged & (len > 0.0);
	const d4 inv = 1.0 / len;
	d4 n[3];
	for (int q = 0; q < 3; ++q) n[q] = cr[q] * inv;
	const d4 dragarea = 0.5 * len;
	const d4 sd = drag * dragarea / 3.0;
	const double wind_c[3] = {wind.x, wind.y, wind.z};
	d4 rel[3];
	for (int q = 0; q < 3; ++q) rel[q] = (v[0][q] + v[1][q] + v[2][q]) * (1.0 / 3.0) - wind_c[q];
	const d4 t = -sd * (rel[0] * n[0] + rel[1] * n[1] + rel[2] * n[2]);
	for (int q = 0; q < 3; ++q) {
		const d4 fd = D4_KEEP(n[q] * t, active);
		for (int a = 0; a < 3; ++a) f[a][q] = f[a][q] + fd;
	}
}

/* One tile's triangles in tile order, four at a time where four in a row have stretch and shear;
 * each triangle's b += h f in that order, as the scalar kernel adds them. */
LANES_INLINE void tile_body(drape_world* w, const int32_t* order, int32_t count, vec3 wind, double h, const assembly_plan* p)
{
	const bool kept = w->state.x == w->work.strain_w0_of;
	int32_t j = 0;
	while (j < count) {
		const triangle_elem* e[4];
		bool four = j + 4 <= count;
		for (int l = 0; l < 4; ++l) {
			e[l] = &w->model.triangles[order[four ? j + l : j]];
			four = four && !e[l]->springs_only;
		}
		if (!four) {
			triangle_one(w, &w->model.triangles[order[j]], wind, h, p);
			++j;
			continue;
		}
		tri_w formed[4];
		const tri_w* tw[4];
		for (int l = 0; l < 4; ++l) {
			if (kept) tw[l] = &w->work.tri_w0[order[j + l]];
			else {
				vec3 x[3];
				for (int a = 0; a < 3; ++a) x[a] = w->state.x[e[l]->v[a]];
				tri_w_at(&e[l]->rest, x, &formed[l]);
				tw[l] = &formed[l];
			}
		}
		d4 f[3][3];
		triangles_four(w, e, tw, wind, p, f);
		for (int l = 0; l < 4; ++l)
			for (int a = 0; a < 3; ++a) {
				vec3* b = &w->work.b[e[l]->v[a]];
				*b = v3_add(*b, v3_scale(v3(f[a][0][l], f[a][1][l], f[a][2][l]), h));
			}
		j += 4;
	}
}

LANES_AVX static void tile_avx(drape_world* w, const int32_t* order, int32_t count, vec3 wind, double h, const assembly_plan* p)
{
	tile_body(w, order, count, wind, h, p);
}

static void tile_plain(drape_world* w, const int32_t* order, int32_t count, vec3 wind, double h, const assembly_plan* p)
{
	tile_body(w, order, count, wind, h, p);
}

void explicit_triangles_assemble(drape_world* w, vec3 wind, double h, const assembly_plan* p)
{
	/* Only b is formed: without it there is nothing to do. */
	if (!p->rhs) return;
	const colouring* col = &w->work.triangle_colours;
	const int threads = w->threads;
	const bool avx = lanes_avx() && !w->work.lanes_plain;
	/* The tiles of one colour in parallel, each tile's triangles in order on one thread, colours
	 * in order (mesh/colouring.h), as the assembly's ASSEMBLE_COLOURED goes. */
	for (int32_t k = 0; k < col->count; ++k) {
		const int32_t lo = col->start[k], hi = col->start[k + 1];
		const bool par = k != COLOURING_SERIAL && hi - lo > 1 && col->tile[hi] - col->tile[lo] > 256;
#pragma omp parallel for num_threads(threads) schedule(static) if (par)
		for (int32_t t = lo; t < hi; ++t) {
			const int32_t* order = col->order + col->tile[t];
			const int32_t count = col->tile[t + 1] - col->tile[t];
			if (avx) tile_avx(w, order, count, wind, h, p);
			else tile_plain(w, order, count, wind, h, p);
		}
	}
}
