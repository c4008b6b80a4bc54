/* Particle picking and the mouse spring of `drape view` (sec. 4.4, user-controlled forces). */
#include "view_pick.h"

#include "vec3.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A particle whose depth exceeds the front-most candidate's by more than this is taken to lie on
 * a layer of cloth hidden behind it (a fold, the far side of a draped cloth), and is not picked. */
#define LAYER_GAP 0.05

bool view_pick_particle(const drape_world* w, const view_orbit* o, double width, double height, double px,
			double py, double radius_px, view_pick* out)
{
	/* Two passes over the particles: the front-most depth among those near the cursor, then the
	 * nearest to the cursor among those on that front layer. */
	double front = DBL_MAX;
	bool found = false;
	const int32_t clothes = drape_cloth_count(w);
	for (int pass = 0; pass < 2; ++pass) {
		for (int32_t c = 0; c < clothes; ++c) {
			drape_cloth_id id = {c};
			int32_t n = drape_cloth_vertex_count(w, id);
			double* x = malloc(sizeof(double) * 3 * (size_t)(n > 0 ? n : 1));
			if (!x) return found;
			drape_cloth_get_positions(w, id, x);
			for (int32_t i = 0; i < n; ++i) {
				double qx, qy, depth;
				if (!view_project(o, width, height, x + 3 * i, &qx, &qy, &depth)) continue;
				double dist = hypot(qx - px, qy - py);
				if (dist > radius_px) continue;
				if (pass == 0) {
					front = fmin(front, depth);
				} else if (depth <= front + LAYER_GAP && (!found || dist < out->pixel_distance)) {
					found = true;
					out->cloth = c;
					out->vertex = i;
					out->pixel_distance = dist;
					for (int k = 0; k < 3; ++k) out->position[k] = x[3 * i + k];
				}
			}
			free(x);
		}
		if (front == DBL_MAX) break;
	}
	return found;
}

bool view_particle_position(const drape_world* w, int32_t cloth, int32_t vertex, double** scratch, size_t* size,
			    double out[3])
{
	drape_cloth_id id = {cloth};
	if (cloth < 0 || cloth >= drape_cloth_count(w)) return false;
	int32_t n = drape_cloth_vertex_count(w, id);
	if (vertex < 0 || vertex >= n) return false;
	size_t need = 3 * (size_t)n;
	if (need > *size) {
		double* p = realloc(*scratch, need * sizeof(double));
		if (!p) return false;
		*scratch = p;
		*size = need;
	}
	drape_cloth_get_positions(w, id, *scratch);
	memcpy(out, *scratch + 3 * (size_t)vertex, 3 * sizeof(double));
	return true;
}

double view_drag_default_stiffness(const drape_world* w, drape_cloth_id cloth, const double gravity[3])
{
	int32_t n = drape_cloth_vertex_count(w, cloth);
	double* m = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
	double mass = 0.0;
	if (m) {
		drape_cloth_get_masses(w, cloth, m);
		for (int32_t i = 0; i < n; ++i) mass += m[i];
		free(m);
	}
	double g = v3_len(v3_load(gravity));
	if (!(g > 0.0)) g = 9.81; /* weightless scenes pull as if under earth's gravity */
	return fmax(mass * g / 0.05, 1e-3);
}

bool view_drag_begin(view_drag* d, drape_world* w, const view_orbit* o, double width, double height, double px,
		     double py, double stiffness, double damping_time, const double gravity[3])
{
	d->active = false;
	view_pick p;
	if (!view_pick_particle(w, o, width, height, px, py, 12.0, &p)) return false;
	drape_spring_def def = drape_default_spring_def();
	def.cloth.index = p.cloth;
	def.vertex = p.vertex;
	def.stiffness = stiffness > 0.0 ? stiffness : view_drag_default_stiffness(w, def.cloth, gravity);
	def.damping = damping_time * def.stiffness;
	for (int k = 0; k < 3; ++k) def.target[k] = p.position[k];
	drape_spring_id s = drape_spring_add(w, &def);
	if (s.index < 0) return false;
	view_frame f;
	view_orbit_frame(o, &f);
	d->active = true;
	d->spring = s;
	d->grabbed = p;
	d->stiffness = def.stiffness;
	for (int k = 0; k < 3; ++k) {
		d->plane_normal[k] = f.forward[k];
		d->target[k] = p.position[k];
	}
	return true;
}

void view_drag_move(view_drag* d, drape_world* w, const view_orbit* o, double width, double height, double px,
		    double py)
{
	if (!d->active) return;
	double origin[3], dir[3], hit[3];
	view_ray(o, width, height, px, py, origin, dir);
	if (!view_ray_plane(origin, dir, d->grabbed.position, d->plane_normal, hit)) return;
	for (int k = 0; k < 3; ++k) d->target[k] = hit[k];
	drape_spring_set_target(w, d->spring, d->target);
}

void view_drag_end(view_drag* d, drape_world* w)
{
	if (d->active) drape_spring_remove(w, d->spring);
	d->active = false;
}
