/* Tensor bending elements of a triangles cloth (docs/bending.md): for every triangle, its three
 * edge neighbours found through the hinges (sec. 4.3's interior edges), their uv, the quadratic
 * fitted to each triangle and the Morley element that joins a triangle's fit to its
 * neighbours' (forces/bend_tensor.c). */
#include "core.h"
#include "forces/bend_tensor.h"
#include "mesh/topology.h"
#include "cloth_bend.h"
#include "world_error.h"

#include <stdlib.h>
#include <string.h>

static const double* corner_uv(const drape_mesh* m, int32_t t, int corner)
{
	return &m->uvs[2 * m->triangle_uvs[3 * t + corner]];
}

drape_status cloth_bend_tensors(drape_world* w, const drape_cloth_def* def, const void* hinges, int32_t hinge_count,
				int32_t t0, int32_t n0)
{
	const hinge_ref* hr = hinges;
	const drape_mesh* m = def->mesh;
	const int32_t nt = m->triangle_count;
	/* across[3 t + k]: the triangle across edge k (corners k+1, k+2) of triangle t times 3 plus
	 * that edge's index in it, or -1 on a free edge. */
	int32_t* across = malloc(3 * (size_t)nt * sizeof *across);
	bend_tensor_fit* fit = malloc((size_t)nt * sizeof *fit);
	if (!across || !fit || !core_reserve((void**)&w->model.btens, &w->model.btens_capacity, w->model.btens_count + nt, sizeof(bend_tensor_elem))) {
		free(across);
		free(fit);
		return world_fail_status(w, DRAPE_ERROR_MEMORY, "out of memory building bend elements for %d triangles", nt);
	}
	for (int32_t i = 0; i < 3 * nt; ++i) across[i] = -1;
	for (int32_t h = 0; h < hinge_count; ++h)
		for (int s = 0; s < 2; ++s) {
			/* hinge edge j joins corners j, j+1: it is edge k = j + 2 in the opposite-corner naming. */
			int k = (hr[h].edge[s] + 2) % 3, ko = (hr[h].edge[1 - s] + 2) % 3;
			across[3 * hr[h].tri[s] + k] = 3 * hr[h].tri[1 - s] + ko;
		}
	/* Hinge-side convention of docs/model.md: bend_u stiffens hinges along u, i.e. resists
	 * curvature across u lines (along v). */
	const double c_uu = def->material.bend_v, c_vv = def->material.bend_u;
	/* First every triangle's fitted quadratic (its corners and the flaps across its edges). */
	for (int32_t t = 0; t < nt; ++t) {
		bend_tensor_elem* e = &w->model.btens[w->model.btens_count + t];
		memset(e, 0, sizeof *e);
		bend_tensor_input in;
		memset(&in, 0, sizeof in);
		for (int c = 0; c < 3; ++c) {
			memcpy(in.uv[c], corner_uv(m, t, c), sizeof in.uv[c]);
			e->v[c] = n0 + m->triangles[3 * t + c];
		}
		for (int k = 3; k < BEND_TENSOR_NODES; ++k) e->v[k] = e->v[0];
		for (int k = 0; k < 3; ++k) {
			int32_t side = across[3 * t + k];
			if (side < 0) continue;
			int32_t o = side / 3;
			int ko = side % 3;
			/* The neighbour's corners ko+1, ko+2 are this edge's ends in some order; ko is the flap. */
			int32_t va = m->triangles[3 * t + (k + 1) % 3];
			int ca = m->triangles[3 * o + (ko + 1) % 3] == va ? (ko + 1) % 3 : (ko + 2) % 3;
			int cb = ca == (ko + 1) % 3 ? (ko + 2) % 3 : (ko + 1) % 3;
			in.has_flap[k] = true;
			memcpy(in.flap_uv[k][0], corner_uv(m, o, ca), sizeof(double[2]));
			memcpy(in.flap_uv[k][1], corner_uv(m, o, cb), sizeof(double[2]));
			memcpy(in.flap_uv[k][2], corner_uv(m, o, ko), sizeof(double[2]));
			e->v[3 + k] = n0 + m->triangles[3 * o + ko];
		}
		if (!bend_tensor_fit_make(&in, c_uu, c_vv, &fit[t])) {
			free(across);
			free(fit);
			return world_fail(w, "triangle %d (vertices %d, %d, %d) or a neighbour is degenerate in uv: no curvature "
					     "estimate for bend_model 'tensor'",
					  t, m->triangles[3 * t], m->triangles[3 * t + 1], m->triangles[3 * t + 2]);
		}
		e->area = fit[t].area;
		e->c_uu = c_uu;
		e->c_vv = c_vv;
		e->damping = def->material.bend_damping;
	}
	/* Then each element from its own fit and its neighbours': the neighbour across edge k has
	 * the edge's ends (two of this triangle's corners) and the flap 3 + k as corners, this
	 * triangle's corner k as its flap across the edge, and two more flaps (slots 6 + 2k, 7 + 2k). */
	for (int32_t t = 0; t < nt; ++t) {
		bend_tensor_elem* e = &w->model.btens[w->model.btens_count + t];
		const bend_tensor_fit* nb[3] = {NULL, NULL, NULL};
		int nb_edge[3] = {0, 0, 0}, nb_slot[3][6];
		memset(nb_slot, 0, sizeof nb_slot);
		for (int k = 0; k < 3; ++k) {
			int32_t side = across[3 * t + k];
			if (side < 0) continue;
			int32_t o = side / 3;
			int ko = side % 3;
			const bend_tensor_elem* eo = &w->model.btens[w->model.btens_count + o];
			nb[k] = &fit[o];
			nb_edge[k] = ko;
			nb_slot[k][ko] = 3 + k;
			nb_slot[k][3 + ko] = k;
			for (int c = 1; c < 3; ++c) {
				int co = (ko + c) % 3;
				nb_slot[k][co] = eo->v[co] == e->v[(k + 1) % 3] ? (k + 1) % 3 : (k + 2) % 3;
				nb_slot[k][3 + co] = 6 + 2 * k + (c - 1);
				/* A flap the neighbour lacks repeats its v[0]; here it repeats this v[0]. */
				e->v[6 + 2 * k + (c - 1)] = eo->v[3 + co] == eo->v[0] ? e->v[0] : eo->v[3 + co];
			}
		}
		bend_tensor_morley(&fit[t], nb, nb_edge, (const int(*)[6])nb_slot, e->alpha);
	}
	(void)t0;
	w->model.btens_count += nt;
	free(across);
	free(fit);
	return DRAPE_OK;
}

static const char* const bend_names[DRAPE_BEND_MODEL_COUNT] = {"dihedral", "tensor"};

const char* drape_bend_model_name(drape_bend_model model)
{
	return (int)model >= 0 && model < DRAPE_BEND_MODEL_COUNT ? bend_names[model] : NULL;
}

bool drape_bend_model_from_name(const char* name, drape_bend_model* out)
{
	for (int i = 0; name && i < DRAPE_BEND_MODEL_COUNT; ++i)
		if (strcmp(name, bend_names[i]) == 0) {
			*out = (drape_bend_model)i;
			return true;
		}
	return false;
}
