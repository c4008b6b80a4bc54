/* Constraints on single particles (sec. 5.1). Each active constraint contributes orthonormal
 * constrained directions d; a particle's filter is S = I - sum d d^T (eq. 13), its velocity change
 * along d is z = d (d . (p'(t+h) - v0)), and the position alteration y = d (d . (p(t+h) - x0 -
 * h p'(t+h))) of eq. 17 removes any drift, so pinned particles never creep. Several constraints on
 * one particle merge: a direction already constrained by an earlier one is skipped. */
#include "constraints.h"

#include <math.h>

static void keyframe_target(const constraint_data* c, double t, vec3* p, vec3* pv)
{
	const drape_keyframe* k = c->keyframes;
	int32_t n = c->keyframe_count;
	*pv = v3_zero();
	if (t <= k[0].time) {
		*p = v3_load(k[0].position);
		return;
	}
	if (t > k[n - 1].time) {
		*p = v3_load(k[n - 1].position);
		return;
	}
	/* The segment (t_j, t_j+1] holding t: the velocity at the end of a step is the slope of the
	 * segment the step ends in. */
	int32_t j = 0;
	while (j + 1 < n && k[j + 1].time < t) ++j;
	vec3 a = v3_load(k[j].position), b = v3_load(k[j + 1].position);
	double span = k[j + 1].time - k[j].time;
	double s = (t - k[j].time) / span;
	*p = v3_add(a, v3_scale(v3_sub(b, a), s));
	*pv = v3_scale(v3_sub(b, a), 1.0 / span);
}

void constraint_target(const constraint_data* c, double t, vec3* p, vec3* pv)
{
	switch (c->motion) {
	case DRAPE_MOTION_KEYFRAMES:
		keyframe_target(c, t, p, pv);
		return;
	case DRAPE_MOTION_VELOCITY:
		*pv = c->velocity;
		*p = v3_madd(c->origin, t - c->origin_time, c->velocity);
		return;
	case DRAPE_MOTION_FIXED:
	default:
		*pv = v3_zero();
		*p = c->origin;
		return;
	}
}

/* Two unit vectors perpendicular to the unit vector a. */
static void perpendiculars(vec3 a, vec3* p, vec3* q)
{
	vec3 t = fabs(a.x) < 0.6 ? v3(1.0, 0.0, 0.0) : (fabs(a.y) < 0.6 ? v3(0.0, 1.0, 0.0) : v3(0.0, 0.0, 1.0));
	*p = v3_normalize(v3_cross(a, t));
	*q = v3_cross(a, *p);
}

void constraints_add_direction(drape_world* w, int32_t i, vec3 d, vec3 p, vec3 pv, double h)
{
	vec3 r = w->work.constrained[i] ? m3_mulv(w->work.S[i], d) : d;
	double len = v3_len(r);
	if (len < 1e-6) return; /* already constrained by an earlier constraint */
	if (len != 1.0) r = v3_scale(r, 1.0 / len);
	w->work.S[i] = m3_sub(w->work.S[i], m3_outer(r, r));
	w->work.constrained[i] = 1;
	w->work.z[i] = v3_madd(w->work.z[i], v3_dot(r, v3_sub(pv, w->state.v[i])), r);
	vec3 drift = v3_sub(v3_sub(p, w->state.x[i]), v3_scale(pv, h));
	/* Sets y's r component (zero before, unless BDF2's offset is already in y: bdf2.c). */
	w->work.y[i] = v3_madd(w->work.y[i], v3_dot(r, drift) - v3_dot(r, w->work.y[i]), r);
}

int32_t constraints_add_bound(drape_world* w, int32_t i, vec3 n, vec3 p, vec3 pv, double h, double floor, bool held)
{
	pcg_bounds* bs = &w->work.bounds;
	int32_t k = bs->of_particle[i];
	if (k >= 0) {
		/* A free bound gives way to the new one (a particle caught crossing after the solve);
		 * a held one stays. */
		if (bs->items[k].held) return -1;
	} else if (bs->count == bs->capacity) {
		return -1;
	}
	vec3 r = w->work.constrained[i] ? m3_mulv(w->work.S[i], n) : n;
	double len = v3_len(r);
	if (len < 1e-6) return -1; /* the particle's pins fix that direction already */
	r = v3_scale(r, 1.0 / len);
	if (k < 0) {
		k = bs->count++;
		bs->of_particle[i] = k;
	}
	/* As constraints_add_direction: dv's part along r is r . (pv - v), and a held bound's y moves
	 * the particle onto p, out or in (docs/solver.md, "Contacts inside the solve": coming in by
	 * velocity instead kicked the cloth at the body). A free bound has no y: a particle short of
	 * p (drift < 0, moving with the surface it would stay beyond p) may approach p by its
	 * velocity, not pass it, and one already beyond p may not go further in. */
	const double drift = v3_dot(r, v3_sub(v3_sub(p, w->state.x[i]), v3_scale(pv, h)));
	double lower = v3_dot(r, v3_sub(pv, w->state.v[i]));
	if (!held && drift < 0.0) lower += drift / h;
	bs->items[k] = (pcg_bound){.particle = i,
				   .normal = r,
				   .lower = lower,
				   .floor = floor,
				   .S_free = w->work.constrained[i] ? w->work.S[i] : m3_identity(),
				   .z_free = w->work.z[i],
				   .constrained_free = w->work.constrained[i],
				   .held = held};
	if (held) {
		w->work.S[i] = m3_sub(bs->items[k].S_free, m3_outer(r, r));
		w->work.z[i] = v3_madd(w->work.z[i], lower, r);
		w->work.constrained[i] = 1;
		w->work.y[i] = v3_madd(w->work.y[i], drift - v3_dot(r, w->work.y[i]), r);
	}
	return k;
}

void constraints_prepare(drape_world* w, double t, double h)
{
	const int32_t n = w->model.particle_count;
	for (int32_t k = 0; k < w->work.bounds.count; ++k) w->work.bounds.of_particle[w->work.bounds.items[k].particle] = -1;
	w->work.bounds.count = 0;
	for (int32_t i = 0; i < n; ++i) {
		w->work.constrained[i] = 0;
		w->work.S[i] = m3_identity();
		w->work.z[i] = v3_zero();
		w->work.y[i] = v3_zero();
	}
	for (int32_t k = 0; k < w->model.constraint_count; ++k) {
		constraint_data* c = &w->model.constraints[k];
		if (!c->alive) continue;
		bool active = t >= c->start_time && t < c->end_time;
		if (!active) {
			c->active = false;
			c->force = v3_zero();
			continue;
		}
		if (!c->active) {
			/* Becoming active: the reference point starts at the given position (moving from
			 * start_time) or where the particle is now. */
			c->active = true;
			c->origin = c->use_position ? c->position : w->state.x[c->particle];
			c->origin_time = c->use_position ? c->start_time : t;
		}
		vec3 p, pv;
		constraint_target(c, t + h, &p, &pv);
		int32_t i = c->particle;
		if (c->kind == DRAPE_CONSTRAINT_POINT) {
			/* The coordinate axes, so that S becomes exactly zero and dv exactly z. */
			constraints_add_direction(w, i, v3(1.0, 0.0, 0.0), p, pv, h);
			constraints_add_direction(w, i, v3(0.0, 1.0, 0.0), p, pv, h);
			constraints_add_direction(w, i, v3(0.0, 0.0, 1.0), p, pv, h);
		} else if (c->kind == DRAPE_CONSTRAINT_LINE) {
			vec3 a, b;
			perpendiculars(c->axis, &a, &b);
			constraints_add_direction(w, i, a, p, pv, h);
			constraints_add_direction(w, i, b, p, pv, h);
		} else {
			constraints_add_direction(w, i, c->axis, p, pv, h);
		}
	}
}

void constraints_store_forces(drape_world* w, double h)
{
	for (int32_t k = 0; k < w->model.constraint_count; ++k) {
		constraint_data* c = &w->model.constraints[k];
		if (c->alive && c->active) c->force = v3_scale(w->work.e[c->particle], 1.0 / h);
	}
}
