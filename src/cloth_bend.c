/* Tensor bending elements of a triangles cloth (docs/bending.md): for every triangle, its three
 * edge neighbours found through the hinges (sec. 4.3's interior edges), their uv, and the
 * per-triangle Hessian weights of forces/bend_tensor.c. */
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
	/* flap[3 t + k]: the hinge across edge k (corners k+1, k+2) of triangle t, and which side. */
	int32_t* across = malloc(3 * (size_t)nt * sizeof *across);
	if (!across || !core_reserve((void**)&w->btens, &w->btens_capacity, w->btens_count + nt, sizeof(bend_tensor_elem))) {
		free(across);
		return world_fail(w, "out of memory building bend elements for %d triangles", nt);
	}
	for (int32_t i = 0; i < 3 * nt; ++i) across[i] = -1;
	for (int32_t h = 0; h < hinge_count; ++h)
		for (int s = 0; s < 2; ++s) {
			/* hinge edge j joins corners j, j+1: it is edge k = j + 2 in the opposite-corner naming. */
			int k = (hr[h].edge[s] + 2) % 3;
			across[3 * hr[h].tri[s] + k] = 2 * h + s;
		}
	/* Hinge-side convention of docs/model.md: bend_u stiffens hinges along u, i.e. resists
	 * curvature across u lines (along v). */
	const double c_uu = def->material.bend_v, c_vv = def->material.bend_u;
	for (int32_t t = 0; t < nt; ++t) {
		bend_tensor_elem* e = &w->btens[w->btens_count + t];
		memset(e, 0, sizeof *e);
		bend_tensor_input in;
		memset(&in, 0, sizeof in);
		for (int c = 0; c < 3; ++c) {
			memcpy(in.uv[c], corner_uv(m, t, c), sizeof in.uv[c]);
			e->v[c] = n0 + m->triangles[3 * t + c];
		}
		for (int k = 0; k < 3; ++k) {
			e->v[3 + k] = e->v[0];
			int32_t side = across[3 * t + k];
			if (side < 0) continue;
			const hinge_ref* h = &hr[side / 2];
			int32_t o = h->tri[1 - side % 2];
			int j = h->edge[1 - side % 2];
			/* The neighbour's corners j, j+1 are this edge's ends in some order; j+2 is the flap. */
			int32_t va = m->triangles[3 * t + (k + 1) % 3];
			int ca = m->triangles[3 * o + j] == va ? j : (j + 1) % 3;
			int cb = ca == j ? (j + 1) % 3 : j;
			in.has_flap[k] = true;
			memcpy(in.flap_uv[k][0], corner_uv(m, o, ca), sizeof(double[2]));
			memcpy(in.flap_uv[k][1], corner_uv(m, o, cb), sizeof(double[2]));
			memcpy(in.flap_uv[k][2], corner_uv(m, o, (j + 2) % 3), sizeof(double[2]));
			e->v[3 + k] = n0 + m->triangles[3 * o + (j + 2) % 3];
		}
		if (!bend_tensor_element(&in, c_uu, c_vv, e->alpha, &e->area)) {
			free(across);
			return world_fail(w, "triangle %d (vertices %d, %d, %d) or a neighbour is degenerate in uv: no curvature "
					     "estimate for bend_model 'tensor'",
					  t, m->triangles[3 * t], m->triangles[3 * t + 1], m->triangles[3 * t + 2]);
		}
		e->c_uu = c_uu;
		e->c_vv = c_vv;
		e->damping = def->material.bend_damping;
	}
	(void)t0;
	w->btens_count += nt;
	free(across);
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
