/* An all-explicit plan's triangle forces (paper sec. 4.2-4.4: the stretch and shear conditions'
 * force -k C dC - kd Cdot dC, eq. 7 and 11, and drag), formed four triangles at a time in vector
 * lanes (math/lanes.h), each lane the scalar kernel's operations in its order. */
#include "explicit_triangles.h"

#include "triangle_lanes.h"

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

/* condition_force over lanes: g[3 a + c] is corner a's gradient component c, v the corners'
 * velocities; f[a][c] += fs g[3 a + c] with fs = -(k C + kd Cdot). Vectors go by pointer: passed by
 * value their ABI would depend on the target. */
LANES_INLINE void force_lanes(const d4 g[9], const d4* cp, const d4* kp, const d4* kdp, const d4 v[3][3], d4 f[3][3])
{
	const d4 c = *cp, k = *kp, kd = *kdp;
	d4 cdot;
	cdot_lanes(g, v, &cdot);
	const d4 fs = -(k * c + kd * cdot);
	for (int a = 0; a < 3; ++a)
		for (int q = 0; q < 3; ++q) f[a][q] = f[a][q] + fs * g[3 * a + q];
}

/* stretch_component_w over lanes: the value and gradient of one stretch component from w, |w|, the
 * rest length b and the weights cw; g is +0 where |w| is not positive, as there. */
LANES_INLINE void stretch_lanes(const d4* areap, const d4 wv[3], const d4* lenp, const d4* bp, const d4 cw[3], d4* c, d4 g[9])
{
	const d4 area = *areap, len = *lenp, b = *bp;
	*c = area * (len - b);
	const i4 positive = len > 0.0;
	const d4 inv = 1.0 / len;
	d4 wh[3];
	for (int q = 0; q < 3; ++q) wh[q] = wv[q] * inv;
	for (int a = 0; a < 3; ++a) {
		const d4 s = area * cw[a];
		for (int q = 0; q < 3; ++q) g[3 * a + q] = D4_KEEP(wh[q] * s, positive);
	}
}

/* Four triangles with stretch and shear (not springs_only), e[0..3]: their f[a] per corner a into
 * f[a][component] (lane l: triangle e[l]). tw: their w at the state's x. */
LANES_INLINE void triangles_four(const drape_world* w, const triangle_elem* const e[4], const tri_w* const tw[4], vec3 wind,
				 const assembly_plan* p, d4 f[3][3])
{
	triangle_lanes tl;
	triangle_lanes_load(w->state.v, e, tw, &tl);
	for (int a = 0; a < 3; ++a)
		for (int q = 0; q < 3; ++q) f[a][q] = (d4){0.0, 0.0, 0.0, 0.0};
	d4 c, g[9], k, kd;
	stretch_lanes(&tl.area, tl.u, &tl.lu, &tl.bu, tl.cu, &c, g);
	k = tl.ks * p->scale[FAMILY_STRETCH_U];
	kd = tl.kds * p->scale[FAMILY_STRETCH_U];
	force_lanes(g, &c, &k, &kd, tl.v, f);
	stretch_lanes(&tl.area, tl.wv, &tl.lv, &tl.bv, tl.cv, &c, g);
	k = tl.ks * p->scale[FAMILY_STRETCH_V];
	kd = tl.kds * p->scale[FAMILY_STRETCH_V];
	force_lanes(g, &c, &k, &kd, tl.v, f);
	/* shear_w */
	shear_lanes(&tl, &c, g);
	k = tl.ksh * p->scale[FAMILY_SHEAR];
	kd = tl.kdsh * p->scale[FAMILY_SHEAR];
	force_lanes(g, &c, &k, &kd, tl.v, f);
	/* drag_force where the triangle has drag and area; adding +0 elsewhere leaves f as it was (a
	 * sum begun at +0 is never -0) */
	const i4 dragged = tl.drag > 0.0;
	if (!ANY_LANE(dragged)) return;
	i4 active;
	d4 n[3], sd, t;
	drag_lanes(w->state.x, e, &tl, &dragged, wind, &active, n, &sd, &t);
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
	/* each tile's triangles in order on one thread, as the assembly's ASSEMBLE_COLOURED goes */
	COLOURING_TILES(col, t, {
		const int32_t* order = col->order + col->tile[t];
		const int32_t count = col->tile[t + 1] - col->tile[t];
		if (avx) tile_avx(w, order, count, wind, h, p);
		else tile_plain(w, order, count, wind, h, p);
	});
}
