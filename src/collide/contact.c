/* Cloth/solid contact. A particle within a solid's thickness, or whose straight path over the
 * step crosses it, becomes subject to a contact constraint (sec. 6): its velocity along the
 * surface normal is set to the surface's (one degree of freedom), or, while static friction
 * holds, its whole velocity (three). Position alteration (sec. 6.2, eq. 17) puts it back on the
 * surface grown by the thickness within the same implicit step, at most `push_speed * h` per
 * step so that a deep start is resolved over a few steps instead of in one jolt. Release and
 * friction follow sec. 5.4, read from the constraint force e / h. docs/collide.md. */
#include "contact.h"

#include "../step/constraints.h"
#include "../world_data.h"
#include "solid.h"

#include <math.h>

/* Below this tangential slip speed a new or sliding contact sticks (m/s). */
#define STICK_SPEED 0.01
/* Sliding friction is linearised as a damping c = mu f_n / max(|slip|, SLIP_FLOOR) (m/s). */
#define SLIP_FLOOR 1e-3
/* Fastest the position alteration moves a particle out of a solid (m/s). */
#define PUSH_SPEED 1.0
/* Where a pinched contact holds its particle: this fraction of the solid's thickness outside its
 * bare surface. Not on it: a target on the boundary leaves the particle a rounding error either
 * side of it, inside the body half the time by a winding-number test (docs/collide.md, "Pinched
 * contacts"). */
#define PINCH_MARGIN 0.01
/* Release's noise floor (docs/collide.md, "Release's noise floor"): a contact whose constraint
 * force pulls the particle onto the solid is released only when the pull exceeds RELEASE_FLOOR
 * times the particle's weight at standard gravity (the world's may be off, as while a garment is
 * sewn). */
#define RELEASE_G 9.81
#define RELEASE_FLOOR 0.1
/* Particles within this many thicknesses of a solid, not in contact, get a free bound: the solve
 * takes it in if the step would carry them onto the solid (docs/solver.md, "Contacts inside the
 * solve"). Beyond it the crossing test after the solve catches them. */
#define NEAR_REACH 3.0
/* A free bound lets its particle into the layer's outer three quarters (the proximity rule lets
 * it into the whole layer, a contact from the next step if it arrived approaching, docs/collide.md;
 * the crossing test after the solve catches a path into an analytic solid's inner half), not
 * further. Stopped in the layer's middle (0.5), the solve took in particles sliding within the
 * layer as contacts, with friction: the coarse blouse's last two seams were still open after 20
 * frames (merged at frame 19 on main and with 0.25). At the bare surface (0) a sheet thrown at a
 * thin wall did not stay against it (tests/test_thin_solids.c); at the layer's edge (1.0) the
 * solve took in 6 times as many contacts (docs/solver.md). */
#define NEAR_DEPTH 0.25

static void tangents(vec3 n, vec3* a, vec3* b)
{
	vec3 t = fabs(n.x) < 0.6 ? v3(1.0, 0.0, 0.0) : v3(0.0, 1.0, 0.0);
	*a = v3_normalize(v3_cross(n, t));
	*b = v3_cross(n, *a);
}

static void set_plane(contact* c, const solid_point* p, double h)
{
	c->normal = p->normal;
	c->point_end = p->point_end;
	c->surface_velocity = v3_scale(v3_sub(p->point_end, p->point), 1.0 / h);
}

/* Starts a contact of particle i with solid k: sticking if it barely slides. */
static void begin_contact(drape_world* w, int32_t i, int32_t k, const solid_point* p, double h)
{
	contact* c = &w->state.contacts[i];
	c->solid = k;
	set_plane(c, p, h);
	vec3 rel = v3_sub(w->state.v[i], c->surface_velocity);
	vec3 slip = v3_sub(rel, v3_scale(c->normal, v3_dot(rel, c->normal)));
	c->slip_speed = v3_len(slip);
	c->slip_growing = false;
	c->break_dir = v3_zero();
	c->sticking = c->slip_speed < STICK_SPEED && w->model.solids[k].friction > 0.0;
	c->pinched = 0;
	c->normal_force = 0.0;
	c->caught = false;
	w->work.contact_trials[i].near = -1;
	w->work.contact_room[i] = INFINITY;
}

/* The release floor of particle i's bound, as an impulse over a step of h. */
static double release_floor(const drape_world* w, int32_t i, double h)
{
	return w->state.contacts[i].caught ? INFINITY : RELEASE_FLOOR * w->model.mass[i] * RELEASE_G * h;
}

/* The constraint directions of particle i's contact for a step of h: a held bound along the
 * normal (released within the solve when it pulls), and while static friction holds, the two
 * tangents, which a held bound keeps (pcg.h). */
static void constrain(drape_world* w, int32_t i, double h)
{
	const contact* c = &w->state.contacts[i];
	const double thickness = w->model.solids[c->solid].thickness;
	vec3 x = w->state.x[i], vs = c->surface_velocity, n = c->normal;
	/* Target along n: on the grown surface at the step's end, but no further than PUSH_SPEED h
	 * beyond where the surface's own motion would take the particle. */
	double offset = c->pinched ? PINCH_MARGIN * thickness : thickness;
	/* squeezed: its share of the gap, pinched or not (docs/collide.md, "Squeezed cloth") */
	if (w->work.contact_room[i] < offset) offset = w->work.contact_room[i];
	double target = v3_dot(n, c->point_end) + offset;
	double free_end = v3_dot(n, v3_madd(x, h, vs));
	double push = target - free_end;
	if (push > PUSH_SPEED * h) target = free_end + PUSH_SPEED * h;
	/* A pinched particle gives up the thickness (it is held a hair outside the bare surface) no
	 * faster than a deep one is pushed out. */
	if (c->pinched && push < -PUSH_SPEED * h) target = free_end - PUSH_SPEED * h;
	vec3 p = v3_madd(v3_madd(x, h, vs), target - free_end, n);
	/* With contact bounds (drape_world_def.contact_bounds) a held bound along the normal, else
	 * an equality of the filter for the whole solve, released after it (contacts_release_pulling). */
	if (!w->def.contact_bounds) constraints_add_direction(w, i, n, p, vs, h);
	else if (constraints_add_bound(w, i, n, p, vs, h, release_floor(w, i, h), true) < 0) return;
	if (c->sticking && !c->pinched) {
		vec3 a, b;
		tangents(n, &a, &b);
		constraints_add_direction(w, i, a, p, vs, h);
		constraints_add_direction(w, i, b, p, vs, h);
	}
}

/* A free bound for particle i near solid t->near (the plane in its contact): the step may carry it into the
 * layer's outer half, not beyond, and not deeper where it is there already. */
static void constrain_near(drape_world* w, int32_t i, double h)
{
	const contact* c = &w->state.contacts[i];
	const contact_trial* t = &w->work.contact_trials[i];
	vec3 x = w->state.x[i], vs = c->surface_velocity, n = c->normal;
	double target = v3_dot(n, c->point_end) + NEAR_DEPTH * w->model.solids[t->near].thickness;
	vec3 free_end = v3_madd(x, h, vs);
	vec3 p = v3_madd(free_end, target - v3_dot(n, free_end), n);
	constraints_add_bound(w, i, n, p, vs, h, RELEASE_FLOOR * w->model.mass[i] * RELEASE_G * h, false);
}

/* The side of two-sided solid k particle c is known to be on, 0 if none. */
static int known_side(const drape_world* w, const contact* c, int32_t k)
{
	return w->model.solids[k].two_sided && c->side_solid == k ? c->side : 0;
}

/* Remembers the side p was measured from (or, beyond a rim, the side the particle is on). */
static void remember_side(const drape_world* w, contact* c, int32_t k, const solid_point* p)
{
	if (!w->model.solids[k].two_sided) return;
	c->side_solid = k;
	c->side = p->side;
}

/* Forgets the side once the particle is beyond the solid's thickness: there, the side it is on
 * is plain again (continuous detection keeps it from crossing unseen). */
static void forget_side(contact* c, int32_t k)
{
	if (c->side_solid == k) c->side = 0;
}

/* Fully pinned particles need no contact (the pin wins). */
static bool pinned(const drape_world* w, int32_t i)
{
	return w->work.constrained[i] && w->work.S[i].m[0][0] == 0.0 && w->work.S[i].m[1][1] == 0.0 && w->work.S[i].m[2][2] == 0.0;
}

/* Pinched layers (docs/collide.md): the closest point, over all solids, of the surfaces facing
 * `facing` within `reach` times each solid's thickness of particle i; the solid, or -1 if none. */
static int32_t facing_point(drape_world* w, int32_t i, vec3 facing, double reach, solid_point* out)
{
	int32_t found = -1;
	solid_point p;
	for (int32_t k = 0; k < w->model.solid_count; ++k)
		if (solid_closest_facing(w, k, w->state.x[i], reach * w->model.solids[k].thickness, facing, &p) &&
		    (found < 0 || p.distance < out->distance)) {
			*out = p;
			found = k;
		}
	return found;
}

/* Squeezed cloth (docs/collide.md): where another surface of the solids faces particle i's
 * contact surface across a gap that its share would not fill with a whole thickness, the
 * contact's target lies at that share of the gap instead of a thickness (or, pinched, the margin)
 * off its surface: a quarter for a particle between two layers (the other layer takes a quarter
 * from the other surface, and half the gap lies between them), half for a particle alone. So no
 * target lies inside the other surface however close the two come. Only in worlds with layers,
 * where two garments fill such gaps; single garments keep the plain contact, frame for frame. */
static void squeeze(drape_world* w, int32_t i, double h)
{
	const contact* c = &w->state.contacts[i];
	w->work.contact_room[i] = INFINITY;
	if (!w->model.layers.active) return;
	vec3 facing;
	const double share = cloth_layers_contact_side(&w->model.layers, i, &facing) ? 0.25 : 0.5;
	/* the point under the particle on the contact's plane at the step's end */
	const vec3 n = c->normal, end = v3_madd(w->state.x[i], h, c->surface_velocity);
	const vec3 a = v3_madd(end, v3_dot(n, v3_sub(c->point_end, end)), n);
	solid_point p;
	if (facing_point(w, i, v3_neg(n), 1.0 / share, &p) < 0) return;
	/* along n from a to the other surface's plane at the step's end; a surface behind the
	 * contact's (a limb's far side) or across it (a side wall) is no squeeze */
	const double across = v3_dot(p.normal, n);
	if (across > -0.5) return;
	const double gap = v3_dot(p.normal, v3_sub(p.point_end, a)) / across;
	if (gap > 0.0) w->work.contact_room[i] = share * gap;
}

void contacts_prepare(drape_world* w, double h)
{
	if (w->model.solid_count == 0) return;
	const int32_t n = w->model.particle_count;
	const bool bounds = w->def.contact_bounds;
	for (int32_t i = 0; i < n; ++i) {
		contact* c = &w->state.contacts[i];
		contact_trial* t = &w->work.contact_trials[i];
		c->caught = false;
		/* The last attempt was rejected: its solve's takes and releases are undone. */
		if (t->attempt_taken_in) c->solid = -1;
		else if (t->attempt_released) c->solid = t->attempt_solid;
		t->attempt_taken_in = t->attempt_released = false;
		if (pinned(w, i)) {
			c->solid = -1;
			t->near = -1;
			continue;
		}
		solid_point p;
		/* A particle between two layers of cloth takes its contact from the surface on its own
		 * side when there is one: an inner layer's from behind it, an outer one's from in front
		 * (docs/collide.md, "Pinched layers"). Where an arm presses two layers against the hip,
		 * the nearest surface alone would hold some of the inner layer's particles to the arm
		 * and some of the outer's to the hip: the layers swapped. */
		vec3 facing;
		const bool sided = cloth_layers_contact_side(&w->model.layers, i, &facing);
		int32_t kf = sided && c->solid >= 0 ? facing_point(w, i, facing, 2.0, &p) : -1;
		if (kf >= 0) {
			if (kf != c->solid) {
				const uint8_t pinched = c->pinched;
				begin_contact(w, i, kf, &p, h);
				c->pinched = pinched;
			} else {
				set_plane(c, &p, h);
			}
		} else if (c->solid >= 0) {
			/* An existing contact holds while the particle stays near the surface. */
			const int32_t k = c->solid;
			double reach = 2.0 * w->model.solids[k].thickness;
			if (solid_closest(w, k, w->state.x[i], reach, known_side(w, c, k), &p)) {
				set_plane(c, &p, h);
				remember_side(w, c, k, &p);
			} else {
				c->solid = -1;
				forget_side(c, k);
			}
		}
		t->near = -1;
		if (c->solid < 0) {
			/* Within a thickness and approaching (or well inside): a new contact. Particles that
			 * just released and drift away, and particles a little further out, get a free
			 * bound: the solve makes them contacts if the step carries them onto the solid. A
			 * surface on the particle's own side (above) decides alone. */
			kf = sided ? facing_point(w, i, facing, 1.0, &p) : -1;
			if (kf >= 0) {
				vec3 vs = v3_scale(v3_sub(p.point_end, p.point), 1.0 / h);
				bool approaching = v3_dot(v3_sub(w->state.v[i], vs), p.normal) < 0.0;
				if (approaching || p.distance < 0.5 * w->model.solids[kf].thickness) {
					begin_contact(w, i, kf, &p, h);
				} else if (bounds) {
					set_plane(c, &p, h);
					t->near = kf;
				}
			}
			/* The first solid within reach gives the free bound; a later one within its
			 * thickness may still give a contact. */
			for (int32_t k = 0; kf < 0 && k < w->model.solid_count && c->solid < 0; ++k) {
				double thickness = w->model.solids[k].thickness;
				if (!solid_closest(w, k, w->state.x[i], (bounds ? NEAR_REACH : 1.0) * thickness, known_side(w, c, k), &p)) {
					forget_side(c, k);
					continue;
				}
				if (bounds && p.distance > thickness) {
					forget_side(c, k);
					if (t->near < 0) {
						set_plane(c, &p, h);
						t->near = k;
					}
					continue;
				}
				remember_side(w, c, k, &p);
				vec3 vs = v3_scale(v3_sub(p.point_end, p.point), 1.0 / h);
				bool approaching = v3_dot(v3_sub(w->state.v[i], vs), p.normal) < 0.0;
				if (approaching || p.distance < 0.5 * thickness) {
					begin_contact(w, i, k, &p, h);
				} else if (bounds && t->near < 0) {
					set_plane(c, &p, h);
					t->near = k;
				}
			}
			/* Fast particles: does the free path cross a solid this step? */
			vec3 end = v3_madd(w->state.x[i], h, w->state.v[i]);
			for (int32_t k = 0; k < w->model.solid_count && c->solid < 0; ++k)
				if (solid_path_hit(w, k, w->state.x[i], end, known_side(w, c, k), &p)) {
					begin_contact(w, i, k, &p, h);
					remember_side(w, c, k, &p);
				}
		}
		if (c->solid >= 0) {
			squeeze(w, i, h);
			constrain(w, i, h);
		} else if (t->near >= 0) {
			constrain_near(w, i, h);
		}
	}
}

bool contact_pinch(drape_world* w, int32_t i)
{
	if (w->model.solid_count == 0) return false;
	contact* c = &w->state.contacts[i];
	if (c->solid < 0 || c->pinched) return false;
	c->pinched = PINCH_PRESSED;
	c->sticking = false;
	return true;
}

void contacts_constrain(drape_world* w, double h)
{
	for (int32_t i = 0; w->model.solid_count > 0 && i < w->model.particle_count; ++i)
		if (w->state.contacts[i].solid >= 0) constrain(w, i, h);
		else if (w->work.contact_trials[i].near >= 0) constrain_near(w, i, h);
}

/* How hard particle i's contact pulls it onto the solid (> 0: attractive), read from the
 * constraint impulse e of the last solve (sec. 5.4), in units of the particle's weight. */
static double pull_in_weights(const drape_world* w, int32_t i, double h)
{
	const double weight = w->model.mass[i] * RELEASE_G;
	return -v3_dot(w->work.e[i], w->state.contacts[i].normal) / (h * weight);
}

int32_t contacts_release_pulling(drape_world* w, double h)
{
	int32_t released = 0;
	for (int32_t i = 0; w->model.solid_count > 0 && i < w->model.particle_count; ++i) {
		contact* c = &w->state.contacts[i];
		/* A particle caught crossing in this step keeps its contact for the rest of it, so the
		 * passes cannot alternate between releasing and catching it. */
		if (c->solid < 0 || c->caught || !(pull_in_weights(w, i, h) > RELEASE_FLOOR)) continue;
		c->solid = -1;
		released++;
	}
	return released;
}

int32_t contacts_settle_bounds(drape_world* w)
{
	int32_t released = 0;
	const pcg_bounds* bs = &w->work.bounds;
	for (int32_t k = 0; w->model.solid_count > 0 && k < bs->count; ++k) {
		const int32_t i = bs->items[k].particle;
		contact* c = &w->state.contacts[i];
		contact_trial* t = &w->work.contact_trials[i];
		if (bs->items[k].held && c->solid < 0 && t->near >= 0) {
			/* Taken in by the solve: a contact on this step's plane, slid over this step (its
			 * tangents were free in the solve), sticking from the next one if it arrived with
			 * little slip, as begin_contact decides. */
			c->solid = t->near;
			t->near = -1;
			vec3 rel = v3_sub(w->state.v[i], c->surface_velocity);
			c->slip_speed = v3_len(v3_sub(rel, v3_scale(c->normal, v3_dot(rel, c->normal))));
			c->sticking = c->slip_speed < STICK_SPEED && w->model.solids[c->solid].friction > 0.0;
			c->slip_growing = false;
			c->break_dir = v3_zero();
			c->pinched = 0;
			c->normal_force = 0.0;
			t->attempt_taken_in = true;
		} else if (!bs->items[k].held && c->solid >= 0) {
			/* Released by the solve (its constraint force pulled beyond the noise floor). */
			t->near = c->solid;
			c->solid = -1;
			if (!t->attempt_taken_in && !t->attempt_released) {
				t->attempt_released = true;
				t->attempt_solid = t->near;
			}
			t->attempt_taken_in = false;
			released++;
		}
	}
	return released;
}

int32_t contacts_catch_sunk(drape_world* w, double h)
{
	int32_t replaced = 0;
	for (int32_t i = 0; w->model.solid_count > 0 && i < w->model.particle_count; ++i) {
		contact* c = &w->state.contacts[i];
		/* A two-sided solid has no inside; the side its particle belongs on is the contact's
		 * memory, and a held particle that got through it crosses it back on purpose. */
		if (c->solid < 0 || w->model.solids[c->solid].two_sided) continue;
		const int32_t k = c->solid;
		const double thickness = w->model.solids[k].thickness;
		const vec3 x = w->state.x[i], x1 = w->work.x1[i];
		/* A path longer than the thickness, relative to the surface, may have crossed a part of
		 * the solid (a sheet sliding fast into a wall, or through one); a shorter one only ends
		 * inside where it ends inside (no part of a body is thinner). */
		const bool far = v3_len2(v3_sub(v3_sub(x1, x), v3_scale(c->surface_velocity, h))) > thickness * thickness;
		solid_point p;
		bool found = far && solid_path_hit(w, k, x, x1, 0, &p);
		if (!found) {
			if (!solid_inside_end(w, k, x1, 0.0)) continue;
			/* where its path entered the surface (off the plane into a curved surface), else,
			 * where the surface closed over it, the surface closest to where it would end */
			found = (!far && solid_path_hit(w, k, x, x1, 0, &p)) || solid_closest_end(w, k, x1, thickness, &p);
		}
		if (!found) continue;
		set_plane(c, &p, h);
		c->caught = true;
		squeeze(w, i, h);
		replaced++;
	}
	return replaced;
}

int32_t contacts_catch_crossings(drape_world* w, double h)
{
	int32_t added = 0;
	for (int32_t i = 0; w->model.solid_count > 0 && i < w->model.particle_count; ++i) {
		contact* c = &w->state.contacts[i];
		if (c->solid >= 0 || pinned(w, i)) continue;
		solid_point p;
		for (int32_t k = 0; k < w->model.solid_count && c->solid < 0; ++k)
			if (solid_path_hit(w, k, w->state.x[i], w->work.x1[i], known_side(w, c, k), &p)) {
				begin_contact(w, i, k, &p, h);
				remember_side(w, c, k, &p);
				c->caught = true;
				squeeze(w, i, h);
				constrain(w, i, h);
				added++;
			}
	}
	return added;
}

int32_t contacts_commit(drape_world* w, double h)
{
	int32_t released = 0;
	for (int32_t i = 0; i < w->model.particle_count; ++i) {
		contact* c = &w->state.contacts[i];
		contact_trial* t = &w->work.contact_trials[i];
		t->attempt_taken_in = t->attempt_released = false;
		if (c->solid < 0) continue;
		vec3 f = v3_scale(w->work.e[i], 1.0 / h);
		double fn = v3_dot(f, c->normal);
		if (pull_in_weights(w, i, h) > RELEASE_FLOOR) {
			/* The constraint pulled the cloth onto the solid beyond the noise floor: release
			 * (sec. 5.4). */
			c->solid = -1;
			released++;
			continue;
		}
		/* A pull under the floor holds, and presses with no force (friction reads it). */
		if (fn < 0.0) fn = 0.0;
		const double mu = w->model.solids[c->solid].friction;
		if (c->sticking) {
			vec3 tangential = v3_sub(f, v3_scale(c->normal, fn));
			double ft = v3_len(tangential);
			if (ft > mu * fn) {
				c->sticking = false;
				c->slip_speed = 0.0;
				c->slip_growing = true;
				c->break_dir = v3_scale(tangential, -1.0 / ft);
			}
		} else {
			/* Stick again only when slow and slowing down: a particle that just broke away
			 * from rest is slow too, but speeding up. */
			vec3 rel = v3_sub(w->state.v[i], c->surface_velocity);
			vec3 slip = v3_sub(rel, v3_scale(c->normal, v3_dot(rel, c->normal)));
			double speed = v3_len(slip);
			c->slip_growing = speed > c->slip_speed;
			if (mu > 0.0 && speed < STICK_SPEED && !c->slip_growing && !c->pinched) c->sticking = true;
			c->slip_speed = speed;
		}
		c->normal_force = fn;
	}
	return released;
}

bool contact_friction(const drape_world* w, int32_t i, double h, vec3* f, mat3* dfdv)
{
	const contact* c = &w->state.contacts[i];
	if (c->solid < 0 || c->sticking) return false;
	const double mu = w->model.solids[c->solid].friction;
	if (mu <= 0.0 || c->normal_force <= 0.0) return false;
	const double limit = mu * c->normal_force;
	vec3 n = c->normal;
	vec3 rel = v3_sub(w->state.v[i], c->surface_velocity);
	vec3 slip = v3_sub(rel, v3_scale(n, v3_dot(rel, n)));
	double speed = v3_len(slip);
	mat3 tangent = m3_sub(m3_identity(), m3_outer(n, n));
	if (speed <= SLIP_FLOOR && c->slip_growing) {
		/* Just broke away from sticking: the driving force beats static friction, so the slip
		 * will grow along break_dir; Coulomb's force opposes it at full strength. */
		vec3 d = v3_sub(c->break_dir, v3_scale(n, v3_dot(c->break_dir, n)));
		*f = v3_scale(v3_normalize(d), -limit);
		*dfdv = m3_zero();
		return true;
	}
	if (speed <= SLIP_FLOOR || (!c->slip_growing && limit * h >= w->model.mass[i] * speed)) {
		/* Friction alone could stop the slip within this step: a damping force c (v - v_s)
		 * with c = limit / |slip|, implicit in v, brings the slip to rest without reversing it
		 * (its force never exceeds limit while the slip shrinks). */
		double cf = limit / (speed > SLIP_FLOOR ? speed : SLIP_FLOOR);
		*f = v3_scale(slip, -cf);
		*dfdv = m3_scale(tangent, -cf);
		return true;
	}
	/* Sliding on: Coulomb's force -limit s_hat, linearised exactly. Along the slip its magnitude is
	 * constant; across it, d s_hat / dv = (P - s_hat s_hat^T) / |slip| turns it with the slip. */
	vec3 s = v3_scale(slip, 1.0 / speed);
	*f = v3_scale(s, -limit);
	*dfdv = m3_scale(m3_sub(tangent, m3_outer(s, s)), -limit / speed);
	return true;
}
