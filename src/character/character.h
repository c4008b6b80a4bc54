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

/* A joint's keyframed rotations (keyframes.c): times in simulation seconds and, per key, the
 * rotation as it acts in the joint's own frame (w, x, y, z). */
typedef struct joint_keys {
	int32_t count;
	double* time;
	double* q;
} joint_keys;

typedef struct character_joint {
	char* name;      /* drape's name (joint_map.c), the file's when no map names it */
	char* file_name; /* the name in the file */
	int32_t parent; /* parents come before their children; -1 for a root */
	joint_trs rest; /* local rest transform */
	affine inverse_bind; /* file space -> joint space in the bind pose */
	joint_channel channel;
	double dress_q[4]; /* the dressing pose's local rotation */
	joint_keys keys;
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
	drape_skinning skinning;
	char* warnings; /* NULL or "; "-separated (drape_character_warnings) */
};

/* Which part of a def a load error is about (character_load), so that a scene file can point at
 * the entry: the file itself, joint_map[index]'s name or file joint, keyframes[index]'s joint or
 * time. */
typedef enum character_input {
	CHARACTER_INPUT_FILE = 0,
	CHARACTER_INPUT_MAP_NAME,
	CHARACTER_INPUT_MAP_JOINT,
	CHARACTER_INPUT_KEY_JOINT,
	CHARACTER_INPUT_KEY_TIME,
} character_input;

typedef struct character_error_at {
	character_input what;
	int32_t index;
} character_error_at;

/* drape_character_load, saying in *at (may be NULL) which input a failure is about. */
drape_character* character_load(const drape_character_def* def, character_error_at* at, char* err, size_t err_size);

/* Joint names (joint_map.c, docs/characters.md "Joint names"). drape's names are CMU's; the file's
 * joints are renamed by def's joint_map, else by the built-in map (CMU, Biovision, Mixamo) that
 * matches the names present, else kept. False with a message (and *at) on a bad map. */
bool character_map_joints(drape_character* c, const drape_character_def* def, character_error_at* at, char* err,
			  size_t err_size);
/* drape's joint names (CMU's), for messages and tests. */
extern const char* const character_drape_joint_names[];
extern const int32_t character_drape_joint_count;
/* The name of the built-in map the names match ("CMU", "Biovision", "Mixamo"), or NULL; in
 * *renamed (count entries) each name's drape name, or NULL when the map leaves it alone. */
const char* character_detect_map(const char* const* names, int32_t count, const char** renamed);
/* The joint called name (drape's name first, then the file's), or -1. */
int32_t character_find_joint(const drape_character* c, const char* name);

/* Keyframes (keyframes.c): checks def's keyframes against the joints and stores them per joint;
 * false with a message naming the key (and *at). */
bool character_set_keyframes(drape_character* c, const drape_joint_key* keys, int32_t count, character_error_at* at,
			     char* err, size_t err_size);
/* The rotation [rx, ry, rz] degrees about the fixed x, then y, then z axes: q = qz qy qx
 * (transform.c). */
void character_euler_quat(const double deg[3], double q[4]);
/* Joint j's keyframed rotation at simulation time t (identity without keys). */
void character_key_rotation(const character_joint* j, double t, double q[4]);

/* Quaternions (w, x, y, z) shared by the character files (transform.c). */
void quat_mul(const double* a, const double* b, double* q);
void quat_slerp(const double* a, const double* b, double s, double* out);
/* The rotation matrix (row-major 3x3) of a unit quaternion, and the unit quaternion of a rotation
 * matrix (by the largest of its four candidates, so no division by a small number). */
void quat_matrix(const double q[4], double r[9]);
void quat_from_matrix(const double* r, double q[4]);
/* The key interval holding t: keys i and i + 1 with weight *s of the second (held at the ends). */
int32_t character_find_key(const double* times, int32_t n, double t, double* s);

/* The transform of every joint at time t (global, file space), written into globals (joint_count). */
void character_globals(const drape_character* c, double t, affine* globals);

/* Skinned vertex positions at time t in drape's world frame, 3 * vertex_count doubles. */
void character_pose(const drape_character* c, double t, double* positions);

/* Skinning (skin.c): every vertex of the rest mesh moved by its joints' skinning transforms K_j
 * (world <- joint <- bind pose, one per joint), by the character's skinning. */
void character_skin(const drape_character* c, const affine* k, double* positions);
/* Whether a = [s R | t] with s > 0 and R a rotation, to rounding: false when a shears, scales
 * unevenly or mirrors (skin.c). */
bool affine_is_similarity(const affine* a);
/* Dual quaternion skinning is refused for a rig whose joints shear or scale unevenly: false with
 * the offending joint's name in err (skin.c). */
bool character_check_rigid(const drape_character* c, char* err, size_t err_size);

/* A deep copy (solids own theirs); NULL when out of memory. */
drape_character* character_clone(const drape_character* c);

/* Checks the skin (joint indices, weights >= 0 summing to one): false with a message naming the
 * first bad vertex. */
bool character_check_skin(const drape_character* c, char* err, size_t err_size);

/* Scales every vertex's skin weights to sum to one, and adds a warning with the largest correction
 * when any sum was off by more than 1e-3 (exporters write sums such as 1.2). False, naming the
 * vertex, when a vertex's weights are all zero or one is negative or not finite. */
bool character_normalise_skin(drape_character* c, char* err, size_t err_size);

/* Computes each joint's inverse bind matrix from the rest pose (the mesh was made in it). */
void character_bind_rest(drape_character* c);

/* Dressing pose: the rest pose with the upper arms (CMU names LeftArm, RightArm, or any joint named
 * *Arm but not *ForeArm) rotated down by angle (radians) towards the file's up axis' opposite. False when out of memory. */
bool character_set_dress_pose(drape_character* c, double angle);

/* Each joint's global transform (file space) in the rest pose, parents before children: g holds
 * joint_count (transform.c). */
void character_rest_globals(const drape_character* c, affine* g);

/* Affine helpers shared by the character files (transform.c). */
affine affine_identity(void);
affine affine_mul(affine a, affine b);
affine affine_from_trs(const joint_trs* x);
affine affine_inverse(affine a);
void affine_apply(const affine* a, const double p[3], double out[3]);

#endif
