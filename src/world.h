/* The world's internal state: all particles of all cloths in global arrays, the force elements
 * with their per-element coefficients, constraints, user springs, and the solver's buffers
 * (sized when the topology changes, reused by every step). */
#ifndef DRAPE_WORLD_H
#define DRAPE_WORLD_H

#include "drape.h"
#include "collide/cloth_contact.h"
#include "collide/cloth_pairs.h"
#include "collide/contact.h"
#include "forces/forces.h"
#include "mesh/colouring.h"
#include "solver/bsr.h"
#include "solver/pcg.h"
#include "solver/step_control.h"

/* A triangle: stretch, shear and drag act on it (sec. 4.2-4.4). Coefficients are per element,
 * derived from the SI material (docs/model.md). v must stay the first member (bsr builder). */
typedef struct triangle_elem {
	int32_t v[3];
	tri_rest rest;
	double bu, bv;
	double k_stretch, kd_stretch;
	double k_shear, kd_shear;
	double drag;
	int32_t slot[9]; /* block (a, b) of the element lives at A->blocks[slot[3a + b]] */
} triangle_elem;

/* A hinge: bend acts on the two triangles sharing edge v0-v1 (v2, v3 opposite; sec. 4.3). */
typedef struct hinge_elem {
	int32_t v[4];
	double k, kd;
	int32_t slot[16];
} hinge_elem;

typedef struct solid_data solid_data; /* collide/solid.h */

typedef struct cloth_data {
	char* name;
	int32_t first_vertex;
	int32_t first_triangle;
	drape_mesh mesh; /* a copy of what was given */
} cloth_data;

typedef struct constraint_data {
	bool alive;
	bool active;
	int32_t particle;
	drape_constraint_kind kind;
	vec3 axis; /* unit */
	drape_motion motion;
	bool use_position;
	vec3 position;
	vec3 velocity;
	drape_keyframe* keyframes;
	int32_t keyframe_count;
	double start_time, end_time;
	vec3 origin;         /* p at activation (FIXED, VELOCITY) */
	double origin_time;
	vec3 force;          /* last step's constraint force, N */
} constraint_data;

typedef struct spring_data {
	bool alive;
	int32_t particle;
	vec3 target;
	double stiffness, damping;
	vec3 force;
} spring_data;

struct drape_world {
	drape_world_def def;
	int threads;
	char error[512];
	char* warnings; /* accumulated, newline-separated */
	double time;

	int32_t particle_count, particle_capacity;
	vec3* x;
	vec3* v;
	double* mass;

	triangle_elem* triangles;
	int32_t triangle_count, triangle_capacity;
	hinge_elem* hinges;
	int32_t hinge_count, hinge_capacity;

	cloth_data* cloths;
	int32_t cloth_count, cloth_capacity;
	constraint_data* constraints;
	int32_t constraint_count, constraint_capacity;
	spring_data* springs;
	int32_t spring_count, spring_capacity;
	solid_data* solids;
	int32_t solid_count, solid_capacity;

	/* Cloth/solid contact state per particle (kept from step to step), and BVH query scratch. */
	contact* contacts;
	/* Cloth/cloth contact: the detector over all cloth triangles, this step's repulsions. */
	cloth_pairs pairs;
	bool pairs_ready;
	repulsion* repulsions;
	int32_t repulsion_count, repulsion_capacity;
	int32_t proximity_count;    /* of which found by proximity at the step's start */
	int32_t intersections;      /* intersecting triangle pairs at the current state */
	int32_t* query_hits;
	int32_t query_capacity;
	int32_t* query_stack;
	int32_t query_stack_size;

	/* Built from the topology by world_prepare; valid while !dirty. */
	bool dirty;
	colouring triangle_colours, hinge_colours;
	bsr A;
	pcg_workspace pcg;
	vec3* b;
	vec3* dv;
	vec3* dv_last; /* the last accepted step's dv: the PCG's warm start */
	double h_last;  /* its step size; 0 when there is none */
	vec3* z;
	vec3* y;
	vec3* e;
	vec3* x1;
	vec3* v1;
	mat3* S;
	uint8_t* constrained;
	double* partial; /* reduction scratch, 2 per chunk */

	step_control control;
	drape_stats stats;
	/* Test hook: reject this many upcoming steps as if they had blown up. */
	int32_t fail_next_steps;
};

/* Sets the world's error message (printf-style) and returns DRAPE_ERROR_INVALID. */
drape_status world_fail(drape_world* w, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

/* Appends a line to the world's warnings (printf-style). */
void world_warn(drape_world* w, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

/* (Re)builds colourings, the matrix pattern and all solver buffers after a topology change. */
drape_status world_prepare(drape_world* w);

/* Wind at time t. */
vec3 world_wind(const drape_world* w, double t);

#endif
