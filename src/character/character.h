/* An animated character (issue 10, docs/characters.md): a joint hierarchy with rest transforms, one
 * animation clip, a lead-in that holds a dressing pose and blends into the clip, and a mesh skinned to
 * the joints by linear blend skinning. Posed at any time t, so a solid made from it is evaluated at
 * every time step (src/collide/solid_query.c), not only at frames. */
#ifndef DRAPE_CHARACTER_H
#define DRAPE_CHARACTER_H

#include "drape.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An affine map as a row-major 3x4 matrix: y = M[0..2] x + M[3] etc. */
typedef struct affine {
	double m[12];
} affine;

/* One joint's local transform: translation, rotation (unit quaternion w, x, y, z), scale. */
typedef struct joint_trs {
	double t[3];
	double q[4];
	double s[3];
} joint_trs;

/* Keys of one joint's channel in the clip, times in seconds from the clip's start. A joint without
 * keys of a kind keeps its rest value of that kind. */
typedef struct joint_channel {
	int32_t pos_count, rot_count, scl_count;
	double *pos_time, *pos;   /* 3 per key */
	double *rot_time, *rot;   /* 4 per key (w, x, y, z) */
	double *scl_time, *scl;   /* 3 per key */
} joint_channel;

typedef struct character_joint {
	char* name;
	int32_t parent; /* parents come before their children; -1 for a root */
	joint_trs rest; /* local rest transform */
	affine inverse_bind; /* file space -> joint space in the bind pose */
	joint_channel channel;
	double dress_q[4]; /* the dressing pose's local rotation */
} character_joint;

struct drape_character {
	int32_t joint_count;
	character_joint* joints;
	int32_t root; /* the joint whose translation is the root motion (-1: none) */
	double duration; /* s, the clip's length */
	/* The skinned mesh in file coordinates, 4 influences per vertex. */
	int32_t vertex_count, triangle_count;
	double* rest;
	int32_t* triangles;
	int32_t* skin_joint;
	double* skin_weight;
	/* File coordinates -> drape's (metres, z up, placed). */
	affine to_world;
	double up[3]; /* the file's up axis, in file coordinates */
	/* Timing (docs/characters.md): hold the dressing pose, blend into the clip, play it. */
	double hold, blend, start, time_scale;
	bool loop, keep_root_motion;
};

/* The transform of every joint at time t (global, file space), written into globals (joint_count). */
void character_globals(const drape_character* c, double t, affine* globals);

/* Skinned vertex positions at time t in drape's world frame, 3 * vertex_count doubles. */
void character_pose(const drape_character* c, double t, double* positions);

/* A deep copy (solids own theirs); NULL when out of memory. */
drape_character* character_clone(const drape_character* c);

/* Checks the skin (joint indices, weights >= 0 summing to one): false with a message naming the
 * first bad vertex. */
bool character_check_skin(const drape_character* c, char* err, size_t err_size);

/* Computes each joint's inverse bind matrix from the rest pose (the mesh was made in it). */
void character_bind_rest(drape_character* c);

/* Dressing pose: the rest pose with the upper arms (CMU names LeftArm, RightArm, or any joint named
 * *Arm but not *ForeArm) rotated down by angle (radians) towards the file's up axis' opposite. False when out of memory. */
bool character_set_dress_pose(drape_character* c, double angle);

/* Affine helpers shared by the character files. */
affine affine_identity(void);
affine affine_mul(affine a, affine b);
affine affine_from_trs(const joint_trs* x);
affine affine_inverse(affine a);
void affine_apply(const affine* a, const double p[3], double out[3]);

#endif
