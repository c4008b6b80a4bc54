/* Particle constraints and user springs as API objects (sec. 2.4, 4.4): validation and storage.
 * What they do inside a step is in step/constraints.c and step/implicit.c. */
#include "api_assert.h"
#include "core.h"
#include "drape_limits.h"
#include "world_error.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

drape_constraint_def drape_default_constraint_def(void)
{
	drape_constraint_def d;
	memset(&d, 0, sizeof d);
	d.kind = DRAPE_CONSTRAINT_POINT;
	d.motion = DRAPE_MOTION_FIXED;
	d.axis[2] = 1.0;
	d.start_time = 0.0;
	d.end_time = INFINITY;
	d.cookie = DRAPE_COOKIE;
	return d;
}

drape_spring_def drape_default_spring_def(void)
{
	drape_spring_def d;
	memset(&d, 0, sizeof d);
	d.stiffness = 1.0;
	d.cookie = DRAPE_COOKIE;
	return d;
}

static bool finite3(const double* a) { return isfinite(a[0]) && isfinite(a[1]) && isfinite(a[2]); }

/* Index of a free entry in an array of constraint_data or spring_data (both start with their
 * `alive` flag and generation): a dead one to reuse, or a new one at the end, zeroed (generation 0).
 * -1 if out of memory. */
static int32_t free_slot(void** items, int32_t* count, int32_t* capacity, size_t size)
{
	for (int32_t i = 0; i < *count; ++i)
		if (!*(const bool*)((const char*)*items + (size_t)i * size)) return i;
	if (!core_reserve(items, capacity, *count + 1, size)) return -1;
	memset((char*)*items + (size_t)*count * size, 0, size);
	return (*count)++;
}

/* The generation of a slot's next occupant: never 0, so a zeroed id names nothing. */
static uint16_t next_generation(uint16_t g) { return (uint16_t)(g == UINT16_MAX ? 1 : g + 1); }

/* Whether id names a live constraint (or spring): its slot exists, is in use, and still holds the
 * occupant the id was made for (the generation). */
static bool constraint_live(const drape_world* w, drape_constraint_id id)
{
	return id.index >= 0 && id.index < w->model.constraint_count && w->model.constraints[id.index].alive &&
	       w->model.constraints[id.index].generation == id.generation;
}

static bool spring_live(const drape_world* w, drape_spring_id id)
{
	return id.index >= 0 && id.index < w->model.spring_count && w->model.springs[id.index].alive &&
	       w->model.springs[id.index].generation == id.generation;
}

/* Global particle index of (cloth, vertex), or -1 after setting the error. */
static int32_t particle_of(drape_world* w, drape_cloth_id cloth, int32_t vertex, const char* what)
{
	if (cloth.index < 0 || cloth.index >= w->model.cloth_count) {
		world_fail(w, "%s refers to cloth %d, but the world has %d cloths", what, cloth.index, w->model.cloth_count);
		return -1;
	}
	const cloth_data* c = &w->model.cloths[cloth.index];
	if (vertex < 0 || vertex >= c->mesh.vertex_count) {
		world_fail(w, "%s refers to vertex %d, but cloth '%s' has %d vertices", what, vertex, c->name, c->mesh.vertex_count);
		return -1;
	}
	return c->first_vertex + vertex;
}

drape_constraint_id drape_constraint_add(drape_world* w, const drape_constraint_def* def)
{
	drape_constraint_id none = {-1, 0};
	API_REQUIRE(w != NULL, none);
	if (!def || def->cookie != DRAPE_COOKIE) {
		world_fail(w, "constraint def not initialised with drape_default_constraint_def()");
		return none;
	}
	int32_t p = particle_of(w, def->cloth, def->vertex, "constraint");
	if (p < 0) return none;
	if (def->kind != DRAPE_CONSTRAINT_POINT && def->kind != DRAPE_CONSTRAINT_LINE && def->kind != DRAPE_CONSTRAINT_PLANE) {
		world_fail(w, "constraint on vertex %d has an unknown kind %d", def->vertex, (int)def->kind);
		return none;
	}
	vec3 axis = v3_load(def->axis);
	if (def->kind != DRAPE_CONSTRAINT_POINT && !(v3_isfinite(axis) && v3_len(axis) > 0.0)) {
		world_fail(w, "constraint on vertex %d needs a finite, non-zero axis", def->vertex);
		return none;
	}
	if (!finite3(def->position) || !finite3(def->velocity) || isnan(def->start_time) || isnan(def->end_time) ||
	    !(def->end_time > def->start_time)) {
		world_fail(w, "constraint on vertex %d: position and velocity must be finite and end_time > start_time",
			   def->vertex);
		return none;
	}
	/* drape_limits.h: scripted motion at most LIMIT_SCRIPTED_SPEED (docs/reliability.md, "Limits") */
	if (def->motion == DRAPE_MOTION_VELOCITY && !(v3_len(v3_load(def->velocity)) <= LIMIT_SCRIPTED_SPEED)) {
		world_fail(w, "constraint on vertex %d moves at %g m/s, beyond drape's range of %g m/s", def->vertex,
			   v3_len(v3_load(def->velocity)), LIMIT_SCRIPTED_SPEED);
		return none;
	}
	if (!limits_positions(def->position, 1, NULL, 0)) {
		world_fail(w, "constraint on vertex %d: position beyond drape's range of +-%g m", def->vertex,
			   LIMIT_COORDINATE);
		return none;
	}
	if (def->motion == DRAPE_MOTION_KEYFRAMES) {
		if (!def->keyframes || def->keyframe_count < 1) {
			world_fail(w, "keyframed constraint on vertex %d has no keyframes", def->vertex);
			return none;
		}
		for (int32_t k = 0; k < def->keyframe_count; ++k) {
			if (!isfinite(def->keyframes[k].time) || !finite3(def->keyframes[k].position) ||
			    (k > 0 && !(def->keyframes[k].time > def->keyframes[k - 1].time))) {
				world_fail(w, "constraint on vertex %d: keyframe %d must be finite and later than the one before",
					   def->vertex, k);
				return none;
			}
			const drape_keyframe* a = &def->keyframes[k > 0 ? k - 1 : 0];
			const drape_keyframe* b = &def->keyframes[k];
			double speed = k > 0 ? v3_len(v3_sub(v3_load(b->position), v3_load(a->position))) / (b->time - a->time) : 0.0;
			if (!limits_positions(b->position, 1, NULL, 0) || !(speed <= LIMIT_SCRIPTED_SPEED)) {
				world_fail(w,
					   "constraint on vertex %d: keyframe %d is beyond drape's range (+-%g m, reached "
					   "at up to %g m/s; here %g m/s)",
					   def->vertex, k, LIMIT_COORDINATE, LIMIT_SCRIPTED_SPEED, speed);
				return none;
			}
		}
	} else if (def->motion != DRAPE_MOTION_FIXED && def->motion != DRAPE_MOTION_VELOCITY) {
		world_fail(w, "constraint on vertex %d has an unknown motion %d", def->vertex, (int)def->motion);
		return none;
	}

	_Static_assert(offsetof(constraint_data, alive) == 0, "free_slot reads alive first");
	int32_t slot = free_slot((void**)&w->model.constraints, &w->model.constraint_count, &w->model.constraint_capacity, sizeof(constraint_data));
	if (slot < 0) {
		world_fail_status(w, DRAPE_ERROR_MEMORY, "out of memory adding a constraint");
		return none;
	}
	constraint_data* c = &w->model.constraints[slot];
	const uint16_t generation = next_generation(c->generation);
	memset(c, 0, sizeof *c);
	c->generation = generation;
	if (def->motion == DRAPE_MOTION_KEYFRAMES) {
		c->keyframes = malloc((size_t)def->keyframe_count * sizeof *c->keyframes);
		if (!c->keyframes) {
			world_fail_status(w, DRAPE_ERROR_MEMORY, "out of memory adding a constraint");
			return none;
		}
		memcpy(c->keyframes, def->keyframes, (size_t)def->keyframe_count * sizeof *c->keyframes);
		c->keyframe_count = def->keyframe_count;
	}
	c->alive = true;
	c->particle = p;
	c->kind = def->kind;
	c->axis = v3_normalize(axis);
	c->motion = def->motion;
	c->use_position = def->use_position;
	c->position = v3_load(def->position);
	c->velocity = v3_load(def->velocity);
	c->start_time = def->start_time;
	c->end_time = def->end_time;
	drape_constraint_id id = {slot, generation};
	return id;
}

void drape_constraint_remove(drape_world* w, drape_constraint_id id)
{
	API_REQUIRE_VOID(w != NULL);
	API_REQUIRE_VOID(constraint_live(w, id));
	constraint_data* c = &w->model.constraints[id.index];
	const uint16_t generation = c->generation;
	free(c->keyframes);
	memset(c, 0, sizeof *c);
	c->generation = generation;
}

void drape_constraint_get_force(const drape_world* w, drape_constraint_id id, double out[3])
{
	v3_store(v3_zero(), out);
	API_REQUIRE_VOID(w != NULL);
	API_REQUIRE_VOID(constraint_live(w, id));
	v3_store(w->model.constraints[id.index].force, out);
}

drape_spring_id drape_spring_add(drape_world* w, const drape_spring_def* def)
{
	drape_spring_id none = {-1, 0};
	API_REQUIRE(w != NULL, none);
	if (!def || def->cookie != DRAPE_COOKIE) {
		world_fail(w, "spring def not initialised with drape_default_spring_def()");
		return none;
	}
	int32_t p = particle_of(w, def->cloth, def->vertex, "spring");
	if (p < 0) return none;
	if (!finite3(def->target) || !finite3(def->force) || !isfinite(def->stiffness) || !isfinite(def->damping) ||
	    def->stiffness < 0.0 || def->damping < 0.0) {
		world_fail(w, "spring on vertex %d: target and force must be finite, stiffness and damping finite and >= 0",
			   def->vertex);
		return none;
	}
	_Static_assert(offsetof(spring_data, alive) == 0, "free_slot reads alive first");
	int32_t slot = free_slot((void**)&w->model.springs, &w->model.spring_count, &w->model.spring_capacity, sizeof(spring_data));
	if (slot < 0) {
		world_fail_status(w, DRAPE_ERROR_MEMORY, "out of memory adding a spring");
		return none;
	}
	spring_data* s = &w->model.springs[slot];
	const uint16_t generation = next_generation(s->generation);
	memset(s, 0, sizeof *s);
	s->generation = generation;
	s->alive = true;
	s->particle = p;
	s->target = v3_load(def->target);
	s->stiffness = def->stiffness;
	s->damping = def->damping;
	s->force = v3_load(def->force);
	drape_spring_id id = {slot, generation};
	return id;
}

/* A target that is not finite is user data, not a programmer error: it is ignored (the spring
 * keeps its last target), as the viewer's mouse may produce one off screen. */
void drape_spring_set_target(drape_world* w, drape_spring_id id, const double target[3])
{
	API_REQUIRE_VOID(w != NULL);
	API_REQUIRE_VOID(spring_live(w, id));
	if (!finite3(target)) return;
	w->model.springs[id.index].target = v3_load(target);
}

void drape_spring_remove(drape_world* w, drape_spring_id id)
{
	API_REQUIRE_VOID(w != NULL);
	API_REQUIRE_VOID(spring_live(w, id));
	w->model.springs[id.index].alive = false;
}
