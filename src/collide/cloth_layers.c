/* Layers of cloth (cloth_layers.h; docs/collide.md, "Layers"). Sec. 6 orients a cloth/cloth
 * repulsion by the side the pair is on, which locks in a crossing between two garments as surely
 * as it keeps them apart. Between cloths of different layers the side is decided by the layers,
 * as in Baraff, Witkin and Kass (2003) where the intersection analysis decides which side is
 * wrong, and in layer-per-pattern tools (CLO/Marvelous Designer, Houdini Vellum's layer
 * attribute): the outer cloth belongs on the outer side of the inner one. "Outer side" is the side
 * the triangles' winding faces: placed garment panels are wound counter-clockwise seen from
 * outside (docs/garments.md, "Placing"), and a mesh cloth must be wound the same way. */
#include "cloth_layers.h"

#include "../world_data.h"
#include "cloth_pairs_query.h"

#include <stdlib.h>

void cloth_layers_free(cloth_layers* l)
{
	free(l->layer);
	free(l->normal);
	*l = (cloth_layers){0};
}

bool cloth_layers_setup(cloth_layers* l, const drape_world* w)
{
	l->active = false;
	for (int32_t c = 1; c < w->cloth_count; ++c)
		if (w->cloths[c].layer != w->cloths[0].layer) l->active = true;
	if (!l->active) return true;
	const int32_t n = w->particle_count;
	if (n > l->capacity) {
		int32_t* layer = realloc(l->layer, (size_t)n * sizeof *layer);
		if (layer) l->layer = layer;
		vec3* normal = realloc(l->normal, (size_t)n * sizeof *normal);
		if (normal) l->normal = normal;
		if (!layer || !normal) {
			l->active = false;
			return false;
		}
		l->capacity = n;
	}
	/* each cloth's particles are one range from its first_vertex, in cloth order (cloth.c, seam.c) */
	for (int32_t c = 0; c < w->cloth_count; ++c) {
		const int32_t end = c + 1 < w->cloth_count ? w->cloths[c + 1].first_vertex : n;
		for (int32_t i = w->cloths[c].first_vertex; i < end; ++i) l->layer[i] = w->cloths[c].layer;
	}
	return true;
}

void cloth_layers_normals(cloth_layers* l, const drape_world* w, const vec3* x)
{
	if (!l->active) return;
	const int32_t n = w->particle_count;
	for (int32_t i = 0; i < n; ++i) l->normal[i] = v3_zero();
	for (int32_t t = 0; t < w->triangle_count; ++t) {
		const int32_t* v = w->triangles[t].v;
		/* |cross| is twice the area: area-weighted */
		vec3 m = v3_cross(v3_sub(x[v[1]], x[v[0]]), v3_sub(x[v[2]], x[v[0]]));
		for (int k = 0; k < 3; ++k) l->normal[v[k]] = v3_add(l->normal[v[k]], m);
	}
	for (int32_t i = 0; i < n; ++i) l->normal[i] = v3_normalize(l->normal[i]);
}

void cloth_layers_orient_vf(const cloth_layers* l, const drape_world* w, int32_t p, int32_t t, vec3 a, vec3 b, vec3 c,
			    vec3* normal)
{
	if (!l->active) return;
	const int32_t lp = l->layer[p], lt = l->layer[w->triangles[t].v[0]];
	vec3 n;
	if (lp == lt || !face_normal(a, b, c, &n)) return;
	*normal = lp > lt ? n : v3_neg(n);
}

void cloth_layers_orient_ee(const cloth_layers* l, const int32_t e0[2], const int32_t e1[2], double s, double u,
			    vec3* normal)
{
	if (!l->active) return;
	const int32_t l0 = l->layer[e0[0]], l1 = l->layer[e1[0]];
	if (l0 == l1) return;
	const int32_t* inner = l0 < l1 ? e0 : e1;
	const double t = l0 < l1 ? s : u;
	vec3 r = v3_normalize(v3_lerp(l->normal[inner[0]], l->normal[inner[1]], t));
	if (v3_len2(r) == 0.0) return;
	*normal = l0 > l1 ? r : v3_neg(r);
}
