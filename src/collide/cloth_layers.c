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
#include "cloth_pairs.h"
#include "cloth_crossings.h"
#include "cloth_pairs_query.h"
#include "geometry.h"

#include <stdlib.h>
#include <string.h>

void cloth_layers_free(cloth_layers* l)
{
	free(l->layer);
	free(l->normal);
	free(l->pairs);
	free(l->pulls);
	free(l->pulled);
	free(l->role);
	*l = (cloth_layers){0};
}

bool cloth_layers_setup(cloth_layers* l, const drape_world* w)
{
	l->active = false;
	for (int32_t c = 1; c < w->model.cloth_count; ++c)
		if (w->model.cloths[c].layer != w->model.cloths[0].layer) l->active = true;
	if (!l->active) return true;
	const int32_t n = w->model.particle_count;
	if (!l->pairs) l->pairs = malloc(2 * LAYER_PULL_PAIRS * sizeof *l->pairs);
	if (!l->pulls) l->pulls = malloc(6 * LAYER_PULL_PAIRS * sizeof *l->pulls);
	if (!l->pairs || !l->pulls) {
		l->active = false;
		return false;
	}
	if (n > l->capacity) {
		int32_t* layer = realloc(l->layer, (size_t)n * sizeof *layer);
		if (layer) l->layer = layer;
		vec3* normal = realloc(l->normal, (size_t)n * sizeof *normal);
		if (normal) l->normal = normal;
		uint8_t* pulled = realloc(l->pulled, (size_t)n * sizeof *pulled);
		if (pulled) {
			l->pulled = pulled;
			memset(pulled, 0, (size_t)n * sizeof *pulled);
		}
		uint8_t* role = realloc(l->role, (size_t)n * sizeof *role);
		if (role) {
			l->role = role;
			memset(role, 0, (size_t)n * sizeof *role);
		}
		if (!layer || !normal || !pulled || !role) {
			l->active = false;
			return false;
		}
		l->capacity = n;
	}
	/* each cloth's particles are one range from its first_vertex, in cloth order (cloth.c, seam.c) */
	for (int32_t c = 0; c < w->model.cloth_count; ++c) {
		const int32_t end = c + 1 < w->model.cloth_count ? w->model.cloths[c + 1].first_vertex : n;
		for (int32_t i = w->model.cloths[c].first_vertex; i < end; ++i) l->layer[i] = w->model.cloths[c].layer;
	}
	return true;
}

void cloth_layers_normals(cloth_layers* l, const drape_world* w, const vec3* x)
{
	if (!l->active) return;
	const int32_t n = w->model.particle_count;
	for (int32_t i = 0; i < n; ++i) l->normal[i] = v3_zero();
	for (int32_t t = 0; t < w->model.triangle_count; ++t) {
		const int32_t* v = w->model.triangles[t].v;
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
	const int32_t lp = l->layer[p], lt = l->layer[w->model.triangles[t].v[0]];
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

void cloth_layers_clear_roles(cloth_layers* l, const drape_world* w)
{
	if (l->active) memset(l->role, 0, (size_t)w->model.particle_count * sizeof *l->role);
}

void cloth_layers_mark(cloth_layers* l, const int32_t node[4], int near)
{
	if (!l->active) return;
	const int32_t a = l->layer[node[0]], b = l->layer[node[3]];
	if (a == b) return;
	for (int k = 0; k < 4; ++k) l->role[node[k]] |= (k < near) == (a < b) ? LAYER_INNER : LAYER_OUTER;
}

bool cloth_layers_contact_side(const cloth_layers* l, int32_t i, vec3* facing)
{
	/* roles are set only where the normals were computed (cloth_contacts_prepare) */
	if (!l->active || (l->role[i] != LAYER_INNER && l->role[i] != LAYER_OUTER) || v3_len2(l->normal[i]) == 0.0) return false;
	*facing = l->role[i] == LAYER_INNER ? l->normal[i] : v3_neg(l->normal[i]);
	return true;
}

/* Particle p, a corner of a triangle intersecting t, pulled across t when it lies on t's wrong
 * side: the outer side of t for an inner p (outward < 0), the inner side for an outer p (> 0). */
static void pull(cloth_layers* l, const drape_world* w, const vec3* x, int32_t p, int32_t t, double outward)
{
	if (l->pulled[p]) return;
	const int32_t* v = w->model.triangles[t].v;
	vec3 n;
	if (!face_normal(x[v[0]], x[v[1]], x[v[2]], &n)) return;
	n = v3_scale(n, outward);
	/* on the right side already (n . (x_p - x_t) > 0 is the layers' order) */
	if (v3_dot(n, v3_sub(x[p], x[v[0]])) > 0.0) return;
	layer_pull* r = &l->pulls[l->pull_count++];
	r->p = p;
	r->t = t;
	point_triangle_closest(x[p], x[v[0]], x[v[1]], x[v[2]], r->bary);
	r->normal = n;
	l->pulled[p] = 1;
}

int32_t cloth_layers_pulls(cloth_layers* l, const drape_world* w, cloth_pairs* d, const vec3* x)
{
	l->pull_count = 0;
	if (!l->active || w->state.intersections <= 0) return 0;
	const int32_t count = cloth_pairs_intersections(d, x, l->pairs, LAYER_PULL_PAIRS);
	if (count < 0) return -1;
	const int32_t listed = count < LAYER_PULL_PAIRS ? count : LAYER_PULL_PAIRS;
	for (int32_t k = 0; k < listed; ++k) {
		int32_t a = l->pairs[2 * k], b = l->pairs[2 * k + 1];
		const int32_t la = l->layer[w->model.triangles[a].v[0]], lb = l->layer[w->model.triangles[b].v[0]];
		if (la == lb) continue;
		if (la > lb) {
			int32_t tmp = a;
			a = b;
			b = tmp;
		}
		/* a is the inner triangle, b the outer: a's corners belong inside b, b's outside a */
		for (int c = 0; c < 3; ++c) pull(l, w, x, w->model.triangles[a].v[c], b, -1.0);
		for (int c = 0; c < 3; ++c) pull(l, w, x, w->model.triangles[b].v[c], a, 1.0);
	}
	for (int32_t k = 0; k < l->pull_count; ++k) l->pulled[l->pulls[k].p] = 0;
	return l->pull_count;
}

int32_t cloth_layers_between(drape_world* w)
{
	const int32_t n = w->model.cloth_count;
	if (!w->model.layers.active) return 0;
	int32_t* tally = malloc((size_t)n * (size_t)n * sizeof *tally);
	if (!tally) return -1;
	int32_t count = cloth_crossings_tally(w, tally), between = 0;
	for (int32_t a = 0; count > 0 && a < n; ++a)
		for (int32_t b = a + 1; b < n; ++b)
			if (w->model.cloths[a].layer != w->model.cloths[b].layer) between += tally[a * n + b];
	free(tally);
	return count < 0 ? -1 : between;
}
