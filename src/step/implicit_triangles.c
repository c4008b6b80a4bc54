/* An implicit plan's triangle terms (paper sec. 4.2-4.5: the stretch and shear conditions' force
 * -k C dC - kd Cdot dC, eq. 7 and 11, their Jacobians, eq. 8 and 12 as JACOBIAN_DEFINITE forms
 * them, the strain limit's stiffening and drag's df/dv), formed four triangles at a time in vector
 * lanes (math/lanes.h), each lane the scalar path's operations in its order (forces/condition.c,
 * condition_terms_component; step/implicit.c, scatter_role), then added into A and b triangle by
 * triangle in tile order. docs/solver.md, "One step", *Element terms in vector lanes*. */
#include "implicit_triangles.h"

#include "strain_limit.h"
#include "triangle_lanes.h"

/* One 9 x 9 element matrix is symmetric bit for bit: every term of dfdx and dfdv is a product
 * g_i[q] g_j[t] (or the Hessians' p[q][t] cw_i cw_j, drag's n_q n_t, the same product either way
 * round), so block (j, i) is block (i, j) transposed and only the upper triangle, row I = 3 i + q
 * and column J = 3 j + t with I <= J, is formed. */
typedef struct lanes_terms {
	d4 m[9][9]; /* I <= J: what scatter_role subtracts from A, h dfdv + h^2 dfdx */
	d4 r[9];    /* row I: b's term, h f + h^2 sum_c dfdx[a][c] yv[c] */
} lanes_terms;

/* The four triangles' inputs, lane l being triangle e[l]. */
typedef struct lanes_input {
	const triangle_elem* e[4];
	const tri_w* tw[4];
} lanes_input;

/* stretch_component_w and stretch_condition_w's Hessian over lanes, for a |w| that is positive in
 * every lane: the gradient g[3 a + q] = w_q / |w| (area cw[a]) and the Hessian's
 * p = (I - wh wh^T) area / |w|, whose block (i, j) is p cw[i] cw[j]. */
LANES_INLINE void stretch_lanes(const d4* areap, const d4 wv[3], const d4* lenp, const d4 cw[3], d4 g[9], d4 p[3][3])
{
	const d4 area = *areap, len = *lenp;
	const d4 inv = 1.0 / len;
	d4 wh[3];
	for (int q = 0; q < 3; ++q) wh[q] = wv[q] * inv;
	for (int a = 0; a < 3; ++a) {
		const d4 s = area * cw[a];
		for (int q = 0; q < 3; ++q) g[3 * a + q] = wh[q] * s;
	}
	const d4 al = area / len;
	for (int q = 0; q < 3; ++q)
		for (int t = 0; t < 3; ++t) p[q][t] = ((q == t ? 1.0 : 0.0) - wh[q] * wh[t]) * al;
}

/* condition_terms_component's scalars for a component whose Hessian is positive semi-definite,
 * under JACOBIAN_DEFINITE: the force's factor fs = -(k C + kd Cdot), and hw, the Hessian's weight
 * -(k C + kd Cdot) with each part dropped (+0) where C (Cdot) is negative. */
LANES_INLINE void psd_weights(const d4* cp, const d4* cdotp, const d4* kp, const d4* kdp, d4* fs, d4* hw)
{
	const d4 c = *cp, cdot = *cdotp, k = *kp, kd = *kdp;
	*fs = -(k * c + kd * cdot);
	const d4 hs = D4_KEEP(k * c, ~(c < 0.0)), hd = D4_KEEP(kd * cdot, ~(cdot < 0.0));
	*hw = -(hs + hd);
}

/* stretch_limit_condition for one component over lanes: its value (+0 within the band) and the
 * lanes beyond it. len = C / area + b is |w| as that function recovers it. */
LANES_INLINE void limit_lanes(const d4* areap, const d4* cp, const d4* bp, const d4* hip, const d4* lop, d4* cl, i4* beyond)
{
	const d4 area = *areap, b = *bp, hi = *hip, lo = *lop;
	const d4 len = *cp / area + b;
	const i4 over = len > hi, under = (len < lo) & ~over;
	*cl = (d4)((i4)D4_KEEP(area * (len - hi), over) | (i4)D4_KEEP(area * (len - lo), under));
	*beyond = over | under;
}

/* The terms of four triangles whose w_u and w_v have positive lengths, as assemble_triangle forms
 * them into one group of implicit terms and scatter_role turns them into A's and b's parts: the
 * element terms accumulate per entry in the order the scalar path adds them (stretch u, v, their
 * strain-limit stiffening u, v, shear, drag), each sum from +0. A term a lane does not have is
 * added as +0 (D4_KEEP), which leaves such a sum as it was (a sum begun at +0 is never -0). */
LANES_INLINE void terms_four(const drape_world* w, const lanes_input* in, vec3 wind, double h, const assembly_plan* p,
			     bool limit, lanes_terms* out)
{
	const triangle_elem* const* e = in->e;
	const tri_w* const* tw = in->tw;
	const vec3* xs = w->state.x;
	const vec3* vs = w->state.v;
	const vec3* ys = w->work.y;
	const d4 zero = {0.0, 0.0, 0.0, 0.0};
	triangle_lanes tl;
	triangle_lanes_load(vs, e, tw, &tl);
	const d4 area = tl.area, lu = tl.lu, lv = tl.lv, ks = tl.ks, kds = tl.kds, bu = tl.bu, bv = tl.bv;
	const d4* cu = tl.cu;
	const d4* cv = tl.cv;
	const d4* u = tl.u;
	const d4* wv = tl.wv;
	const d4(*v)[3] = tl.v;

	/* stretch, u (warp) and v (weft): stretch_condition_w, then condition_terms_component */
	d4 gu[9], gv[9], pu[3][3], pv[3][3];
	stretch_lanes(&area, u, &lu, cu, gu, pu);
	stretch_lanes(&area, wv, &lv, cv, gv, pv);
	const d4 cs_u = area * (lu - bu), cs_v = area * (lv - bv);
	const d4 ku = ks * p->scale[FAMILY_STRETCH_U], kdu = kds * p->scale[FAMILY_STRETCH_U];
	const d4 kv = ks * p->scale[FAMILY_STRETCH_V], kdv = kds * p->scale[FAMILY_STRETCH_V];
	d4 cdot_u, cdot_v;
	cdot_lanes(gu, v, &cdot_u);
	cdot_lanes(gv, v, &cdot_v);
	d4 fs_u, hw_u, fs_v, hw_v;
	psd_weights(&cs_u, &cdot_u, &ku, &kdu, &fs_u, &hw_u);
	psd_weights(&cs_v, &cdot_v, &kv, &kdv, &fs_v, &hw_v);
	const i4 hess_u = hw_u != 0.0, hess_v = hw_v != 0.0;

	/* the strain limit's stiffening (stretch_limit_condition): the same gradient and Hessian, its
	 * own value, stiffness (F - 1) k and no damping */
	i4 beyond_u = {0, 0, 0, 0}, beyond_v = beyond_u, lhess_u = beyond_u, lhess_v = beyond_u;
	d4 fs_lu = zero, hw_lu = zero, fs_lv = zero, hw_lv = zero, nk_lu = zero, nk_lv = zero;
	const d4 kd_l = zero, nkd_l = -kd_l;
	if (limit) {
		const double s = w->def.strain_limit;
#define HI_U(l) stretch_limit_hi(e[l]->bu) * (1.0 + s)
#define LO_U(l) stretch_limit_lo(e[l]->bu) * (1.0 - s)
#define HI_V(l) stretch_limit_hi(e[l]->bv) * (1.0 + s)
#define LO_V(l) stretch_limit_lo(e[l]->bv) * (1.0 - s)
		const d4 hi_u = L4(HI_U), lo_u = L4(LO_U), hi_v = L4(HI_V), lo_v = L4(LO_V);
		d4 cl_u, cl_v;
		limit_lanes(&area, &cs_u, &bu, &hi_u, &lo_u, &cl_u, &beyond_u);
		limit_lanes(&area, &cs_v, &bv, &hi_v, &lo_v, &cl_v, &beyond_v);
		const d4 kl = (STRETCH_LIMIT_STIFFENING - 1.0) * ks;
		const d4 kl_u = kl * p->scale[FAMILY_STRETCH_U], kl_v = kl * p->scale[FAMILY_STRETCH_V];
		psd_weights(&cl_u, &cdot_u, &kl_u, &kd_l, &fs_lu, &hw_lu);
		psd_weights(&cl_v, &cdot_v, &kl_v, &kd_l, &fs_lv, &hw_lv);
		nk_lu = -kl_u, nk_lv = -kl_v;
		lhess_u = beyond_u & (hw_lu != 0.0);
		lhess_v = beyond_v & (hw_lv != 0.0);
	}
	const bool any_u = ANY_LANE(beyond_u), any_v = ANY_LANE(beyond_v);

	/* shear: shear_w, and condition_terms_component without its (indefinite) Hessian */
	d4 gs[9], cs_s;
	shear_lanes(&tl, &cs_s, gs);
	const d4 ksh = tl.ksh * p->scale[FAMILY_SHEAR], kdsh = tl.kdsh * p->scale[FAMILY_SHEAR];
	d4 cdot_s;
	cdot_lanes(gs, v, &cdot_s);
	const d4 fs_s = -(ksh * cs_s + kdsh * cdot_s);

	/* drag (drag_force, drag_terms) where the triangle has drag and area */
	const i4 dragged = tl.drag > 0.0;
	i4 active = {0, 0, 0, 0};
	d4 fd[3] = {zero, zero, zero}, dd[3][3];
	if (ANY_LANE(dragged)) {
		d4 n[3], sd, t;
		drag_lanes(xs, e, &tl, &dragged, wind, &active, n, &sd, &t);
		for (int q = 0; q < 3; ++q) fd[q] = D4_KEEP(n[q] * t, active);
		const d4 sv = -sd / 3.0;
		for (int q = 0; q < 3; ++q)
			for (int r = 0; r < 3; ++r) dd[q][r] = D4_KEEP((n[q] * n[r]) * sv, active);
	}
	const bool any_drag = ANY_LANE(active);

	/* f per corner: the force's parts in the scalar path's order */
	d4 f[9];
	for (int i = 0; i < 9; ++i) {
		d4 s = zero + fs_u * gu[i];
		s = s + fs_v * gv[i];
		if (any_u) s = s + D4_KEEP(fs_lu * gu[i], beyond_u);
		if (any_v) s = s + D4_KEEP(fs_lv * gv[i], beyond_v);
		s = s + fs_s * gs[i];
		if (any_drag) s = s + fd[i % 3];
		f[i] = s;
	}

	/* dfdx and dfdv, entry (I, J), I <= J: each a sum from +0 in the order condition_terms_component
	 * and drag_terms add to it; then scatter_role's h dfdv + h^2 dfdx */
	const d4 nku = -ku, nkdu = -kdu, nkv = -kv, nkdv = -kdv, nksh = -ksh, nkdsh = -kdsh;
	const double h2 = h * h;
	d4 dx[9][9];
	for (int I = 0; I < 9; ++I) {
		const int i = I / 3, q = I % 3;
		for (int J = I; J < 9; ++J) {
			const int j = J / 3, t = J % 3;
			const d4 ggu = gu[I] * gu[J], ggv = gv[I] * gv[J], ggs = gs[I] * gs[J];
			const d4 hu = pu[q][t] * (cu[i] * cu[j]), hv = pv[q][t] * (cv[i] * cv[j]);
			d4 x = zero + nku * ggu;
			x = x + D4_KEEP(hw_u * hu, hess_u);
			d4 dv = zero + nkdu * ggu;
			x = x + nkv * ggv;
			x = x + D4_KEEP(hw_v * hv, hess_v);
			dv = dv + nkdv * ggv;
			if (any_u) {
				x = x + D4_KEEP(nk_lu * ggu, beyond_u);
				x = x + D4_KEEP(hw_lu * hu, lhess_u);
				dv = dv + D4_KEEP(nkd_l * ggu, beyond_u);
			}
			if (any_v) {
				x = x + D4_KEEP(nk_lv * ggv, beyond_v);
				x = x + D4_KEEP(hw_lv * hv, lhess_v);
				dv = dv + D4_KEEP(nkd_l * ggv, beyond_v);
			}
			x = x + nksh * ggs;
			dv = dv + nkdsh * ggs;
			if (any_drag) dv = dv + dd[q][t];
			dx[I][J] = x;
			out->m[I][J] = dv * h + h2 * x;
		}
	}

	/* b's term of corner a: h f_a + h^2 sum_c dfdx[a][c] (v_c + y_c / h), as scatter_role */
	const double inv_h = 1.0 / h;
#define YV(l, a, q) (vs[e[l]->v[a]].q + inv_h * ys[e[l]->v[a]].q)
#define YV4(a, q) ((d4){YV(0, a, q), YV(1, a, q), YV(2, a, q), YV(3, a, q)})
	const d4 yv[3][3] = {{YV4(0, x), YV4(0, y), YV4(0, z)}, {YV4(1, x), YV4(1, y), YV4(1, z)}, {YV4(2, x), YV4(2, y), YV4(2, z)}};
	for (int a = 0; a < 3; ++a)
		for (int q = 0; q < 3; ++q) {
			const int I = 3 * a + q;
			d4 r = f[I] * h;
			for (int c = 0; c < 3; ++c) {
#define DX(J) (I <= (J) ? dx[I][J] : dx[J][I])
				const d4 mv = (DX(3 * c) * yv[c][0] + DX(3 * c + 1) * yv[c][1]) + DX(3 * c + 2) * yv[c][2];
#undef DX
				r = r + h2 * mv;
			}
			out->r[I] = r;
		}
}

/* Triangle e, lane l of t, into A (and b where the plan forms it, rec where recorded): the
 * additions scatter_role makes, in any order within the triangle (each touches its own entry). */
LANES_INLINE void scatter_lane(drape_world* w, const triangle_elem* e, const lanes_terms* t, int l, bool rhs, vec3* rec)
{
	mat3* blocks = w->work.A.blocks;
#pragma GCC unroll 3
	for (int a = 0; a < 3; ++a)
#pragma GCC unroll 3
		for (int c = 0; c < 3; ++c) {
			mat3* blk = &blocks[e->slot[3 * a + c]];
#pragma GCC unroll 3
			for (int q = 0; q < 3; ++q)
#pragma GCC unroll 3
				for (int s = 0; s < 3; ++s) {
					const int I = 3 * a + q, J = 3 * c + s;
					blk->m[q][s] -= I <= J ? t->m[I][J][l] : t->m[J][I][l];
				}
		}
	for (int a = 0; a < 3; ++a) {
		const vec3 r = v3(t->r[3 * a][l], t->r[3 * a + 1][l], t->r[3 * a + 2][l]);
		if (rhs) w->work.b[e->v[a]] = v3_add(w->work.b[e->v[a]], r);
		if (rec) rec[a] = r;
	}
}

/* Four triangles (tile order idx[0..3]) formed and added in that order. */
LANES_INLINE void four_body(drape_world* w, const lanes_input* in, const int32_t* idx, vec3 wind, double h,
			    const assembly_plan* p, bool limit, vec3* rec, uint8_t* used)
{
	/* The blocks the four will add to, fetched while their terms are formed: they lie scattered
	 * over A, and the additions waited on them. */
	for (int l = 0; l < 4; ++l)
		for (int k = 0; k < 9; ++k) {
			const char* blk = (const char*)&w->work.A.blocks[in->e[l]->slot[k]];
			__builtin_prefetch(blk, 1);
			__builtin_prefetch(blk + sizeof(mat3) - 1, 1);
		}
	lanes_terms t;
	terms_four(w, in, wind, h, p, limit, &t);
	for (int l = 0; l < 4; ++l) {
		scatter_lane(w, in->e[l], &t, l, p->rhs, rec ? rec + 3 * (size_t)idx[l] : NULL);
		if (used) used[idx[l]] = 1;
	}
}

LANES_AVX static void four_avx(drape_world* w, const lanes_input* in, const int32_t* idx, vec3 wind, double h,
			       const assembly_plan* p, bool limit, vec3* rec, uint8_t* used)
{
	four_body(w, in, idx, wind, h, p, limit, rec, used);
	LANES_AVX_END();
}

static void four_plain(drape_world* w, const lanes_input* in, const int32_t* idx, vec3 wind, double h, const assembly_plan* p,
		       bool limit, vec3* rec, uint8_t* used)
{
	four_body(w, in, idx, wind, h, p, limit, rec, used);
}

/* One tile's triangles in tile order, four at a time where four in a row have stretch and shear
 * and both |w| positive (the scalar path's zero gradient where |w| is not positive is left to it). */
static void tile(drape_world* w, const int32_t* order, int32_t count, vec3 wind, double h, const assembly_plan* p, bool avx,
		 bool limit, vec3* rec, uint8_t* used, implicit_triangle_fn one)
{
	const bool kept = w->state.x == w->work.strain_w0_of;
	int32_t j = 0;
	while (j < count) {
		lanes_input in;
		tri_w formed[4];
		bool four = j + 4 <= count;
		for (int l = 0; four && l < 4; ++l) {
			const int32_t idx = order[j + l];
			const triangle_elem* e = &w->model.triangles[idx];
			in.e[l] = e;
			if (e->springs_only) {
				four = false;
				break;
			}
			if (kept) in.tw[l] = &w->work.tri_w0[idx];
			else {
				vec3 x[3];
				for (int a = 0; a < 3; ++a) x[a] = w->state.x[e->v[a]];
				tri_w_at(&e->rest, x, &formed[l]);
				in.tw[l] = &formed[l];
			}
			four = in.tw[l]->lu > 0.0 && in.tw[l]->lv > 0.0;
		}
		if (!four) {
			one(w, &w->model.triangles[order[j]], wind, h, p);
			++j;
			continue;
		}
		if (avx) four_avx(w, &in, order + j, wind, h, p, limit, rec, used);
		else four_plain(w, &in, order + j, wind, h, p, limit, rec, used);
		j += 4;
	}
}

bool implicit_triangles_lanes(const drape_world* w, const assembly_plan* p)
{
	return p->role[FAMILY_STRETCH_U] == ROLE_IMPLICIT && p->role[FAMILY_STRETCH_V] == ROLE_IMPLICIT &&
	       p->role[FAMILY_SHEAR] == ROLE_IMPLICIT && p->role[FAMILY_OTHER] == ROLE_IMPLICIT &&
	       !w->work.fused_disabled;
}

void implicit_triangles_assemble(drape_world* w, vec3 wind, double h, const assembly_plan* p, vec3* rec, uint8_t* used,
				 implicit_triangle_fn one)
{
	const colouring* col = &w->work.triangle_colours;
	const int threads = w->threads;
	const bool avx = lanes_avx() && !w->work.lanes_plain;
	const bool limit = strain_limit_active(w);
	/* each tile's triangles in order on one thread, as the assembly's ASSEMBLE_COLOURED goes */
	COLOURING_TILES(col, t, tile(w, col->order + col->tile[t], col->tile[t + 1] - col->tile[t], wind, h, p, avx, limit, rec, used, one));
}
