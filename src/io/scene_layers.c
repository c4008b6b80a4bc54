/* Layers in scene files (docs/collide.md, "Layers"; docs/garments.md, "Layers"): all garments are
 * sewn at once, so a cloth of an outer layer must start outside each cloth of an inner layer, by
 * at least the cloth thickness; panels that start inside each other the other way round are bad
 * input. The contact response restores the order of small crossings (collide/cloth_layers.c), not
 * of a panel placed wholly on the wrong side. */
#include "scene_internal.h"

#include "core.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The closest point to p on triangle abc when it lies inside the triangle (not on an edge), and
 * its squared distance; false when the closest point is on the boundary. */
static bool project_inside(const double* p, const double* a, const double* b, const double* c, double* d2,
			   double* signed_distance)
{
	double e1[3], e2[3], r[3], n[3];
	for (int k = 0; k < 3; ++k) e1[k] = b[k] - a[k], e2[k] = c[k] - a[k], r[k] = p[k] - a[k];
	n[0] = e1[1] * e2[2] - e1[2] * e2[1];
	n[1] = e1[2] * e2[0] - e1[0] * e2[2];
	n[2] = e1[0] * e2[1] - e1[1] * e2[0];
	const double nn = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
	if (!(nn > 0.0)) return false;
	/* barycentric coordinates of p's projection onto the plane */
	const double d11 = e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2], d22 = e2[0] * e2[0] + e2[1] * e2[1] + e2[2] * e2[2];
	const double d12 = e1[0] * e2[0] + e1[1] * e2[1] + e1[2] * e2[2];
	const double r1 = r[0] * e1[0] + r[1] * e1[1] + r[2] * e1[2], r2 = r[0] * e2[0] + r[1] * e2[1] + r[2] * e2[2];
	const double det = d11 * d22 - d12 * d12;
	const double v = (d22 * r1 - d12 * r2) / det, w = (d11 * r2 - d12 * r1) / det;
	if (!(v > 0.0 && w > 0.0 && v + w < 1.0)) return false;
	const double h = (r[0] * n[0] + r[1] * n[1] + r[2] * n[2]) / sqrt(nn);
	*d2 = h * h;
	*signed_distance = h;
	return true;
}

/* The outer cloth's particle that lies deepest below the inner cloth's outer side, among those
 * no higher than zmax whose nearest point of the inner cloth is inside one of its triangles: its signed distance (the
 * winding normal's side positive) in *least and its index in *at; false when there is none. */
static bool deepest(const drape_mesh* inner, const drape_mesh* outer, double zmax, double* least, int32_t* at)
{
	bool found = false;
	for (int32_t p = 0; p < outer->vertex_count; ++p) {
		const double* x = &outer->positions[3 * (size_t)p];
		if (x[2] > zmax) continue;
		double best = INFINITY, best_sd = 0.0;
		bool inside = false;
		for (int32_t t = 0; t < inner->triangle_count; ++t) {
			const int32_t* v = &inner->triangles[3 * (size_t)t];
			const double *a = &inner->positions[3 * (size_t)v[0]], *b = &inner->positions[3 * (size_t)v[1]],
				     *c = &inner->positions[3 * (size_t)v[2]];
			/* the nearest corner bounds the distance from above; a triangle whose every corner
			 * is farther along some axis than the best so far cannot be nearer */
			double gap = 0.0;
			for (int k = 0; k < 3; ++k) {
				const double lo = fmin(a[k], fmin(b[k], c[k])), hi = fmax(a[k], fmax(b[k], c[k]));
				const double g = x[k] < lo ? lo - x[k] : x[k] > hi ? x[k] - hi : 0.0;
				gap += g * g;
			}
			if (gap >= best) continue;
			double d2, sd;
			if (project_inside(x, a, b, c, &d2, &sd)) {
				if (d2 < best) best = d2, best_sd = sd, inside = true;
			} else {
				/* the boundary's nearest point: its distance is at least the nearest corner's
				 * distance bound, so only the corners are taken (a triangle nearest at an edge
				 * decides nothing about sides) */
				for (const double* q = a; q; q = q == a ? b : q == b ? c : NULL) {
					const double e = (x[0] - q[0]) * (x[0] - q[0]) + (x[1] - q[1]) * (x[1] - q[1]) +
							 (x[2] - q[2]) * (x[2] - q[2]);
					if (e < best) best = e, inside = false;
				}
			}
		}
		if (inside && (!found || best_sd < *least)) {
			*least = best_sd;
			*at = p;
			found = true;
		}
	}
	return found;
}

bool scene_check_layer_order(loader* L, const jnode* n, int32_t index)
{
	const scene* s = L->s;
	const scene_cloth* me = &s->cloths[index];
	const double thickness = s->world.cloth_thickness;
	if (!s->world.self_collision) return true;
	for (int32_t k = 0; k < index; ++k) {
		const scene_cloth* other = &s->cloths[k];
		if (other->layer == me->layer) continue;
		const scene_cloth* inner = other->layer < me->layer ? other : me;
		const scene_cloth* outer = other->layer < me->layer ? me : other;
		double least = 0.0;
		int32_t at = -1;
		if (!deepest(&inner->mesh, &outer->mesh, INFINITY, &least, &at) || least >= thickness) continue;
		const cJSON* layer = json_get(n, "layer");
		jnode ln = json_node(n, layer);
		return json_fail(&L->c, layer ? &ln : n,
				 "cloth '%s' (layer %d) starts %s%.1f mm %s cloth '%s' (layer %d) at its vertex %d: all "
				 "layers are sewn at once, so place an outer layer's panels outside the inner ones by "
				 "at least the cloth thickness (%.1f mm)",
				 outer->name, (int)outer->layer, least < 0.0 ? "" : "only ", 1e3 * fabs(least), least < 0.0 ? "inside" : "outside",
				 inner->name, (int)inner->layer, (int)at, 1e3 * thickness);
	}
	return true;
}

/* The band above a cloth's lowest particle that is its hem (m): the hem ring of a placed panel is
 * at one height, and a band of a centimetre keeps a hem that the placement tilted. */
#define HEM_BAND 0.01

bool scene_check_tucks(loader* L, const jnode* cloths)
{
	const scene* s = L->s;
	int32_t i = 0;
	for (const cJSON* item = cloths->item->child; item; item = item->next, ++i) {
		jnode n = json_node(cloths, item);
		const cJSON* tuck = json_get(&n, "tucked_into");
		if (!tuck) continue;
		jnode tn = json_node(&n, tuck);
		const char* name;
		if (!json_string(&L->c, &tn, &name)) return false;
		const scene_cloth* me = &s->cloths[i];
		const scene_cloth* over = NULL;
		const char* names[64];
		int32_t name_count = 0;
		for (int32_t k = 0; k < s->cloth_count; ++k) {
			if (k == i) continue;
			if (strcmp(s->cloths[k].name, name) == 0) over = &s->cloths[k];
			if (name_count < 64) names[name_count++] = s->cloths[k].name;
		}
		if (strcmp(name, me->name) == 0)
			return json_fail(&L->c, &tn, "cloth '%s' cannot be tucked into itself: name the garment its hem goes into", name);
		if (!over) {
			const char* near = drape_closest_name(name, names, name_count);
			return json_fail(&L->c, &tn, "no cloth named '%s' to tuck cloth '%s' into%s%s%s", name, me->name,
					 near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
		}
		if (over->layer <= me->layer)
			return json_fail(&L->c, &tn,
					 "cloth '%s' is tucked into cloth '%s', so it is worn under it: give it a lower layer "
					 "than '%s' (layers %d and %d now; docs/garments.md, \"Tucked and untucked\")",
					 me->name, over->name, over->name, (int)me->layer, (int)over->layer);
		double zmin = INFINITY;
		for (int32_t p = 0; p < me->mesh.vertex_count; ++p) zmin = fmin(zmin, me->mesh.positions[3 * (size_t)p + 2]);
		double least = 0.0;
		int32_t at = -1;
		if (!deepest(&over->mesh, &me->mesh, zmin + HEM_BAND, &least, &at) || least >= 0.0)
			return json_fail(&L->c, &tn,
					 "cloth '%s' is tucked into cloth '%s', but no part of '%s' lies over its hem (its "
					 "particles up to %.1f cm above its lowest, z = %.3f m): a tucked hem needs a garment "
					 "over it; place '%s' over the hem, or wear '%s' untucked (no 'tucked_into')",
					 me->name, over->name, over->name, 1e2 * HEM_BAND, zmin, over->name, me->name);
	}
	return true;
}
