/* drape: implicit cloth simulation after Baraff & Witkin, "Large Steps in Cloth Simulation" (1998).
 * This header is the whole public API. Worlds are opaque handles; cloths and constraints are small
 * id structs; per-vertex data moves in and out as bulk arrays of doubles (x0 y0 z0 x1 y1 z1 ...).
 * Configuration goes through *_def structs that must first be filled by drape_default_*_def(). */
#ifndef DRAPE_H
#define DRAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DRAPE_VERSION_STRING "0.1.0"

/* Result of calls that can fail on user data. The world keeps a message for the last failure. */
typedef enum drape_status {
	DRAPE_OK = 0,
	DRAPE_ERROR_INVALID = 1,  /* bad input: degenerate triangle, non-finite number, bad index ... */
	DRAPE_ERROR_DIVERGED = 2, /* the step size fell below min_dt: the simulation cannot continue */
	DRAPE_ERROR_MEMORY = 3,
	DRAPE_ERROR_IO = 4,          /* an output file could not be written (drape_run, drape_writer_*) */
	DRAPE_ERROR_INTERRUPTED = 5, /* drape_run stopped early at the caller's request */
} drape_status;

typedef struct drape_world drape_world;

/* Ids are plain values; index < 0 means "none" (a failed add). Cloths, solids and seams are never
 * removed, so their index alone names them (cloth i of a scene file is drape_cloth_id{i}).
 * Constraints and springs can be removed and their slots reused: their ids also carry the slot's
 * generation, so an id kept past its remove is caught (drape_set_assert_fcn) instead of addressing
 * whatever took the slot next. Keep such ids as drape returned them. */
typedef struct drape_cloth_id {
	int32_t index;
} drape_cloth_id;

typedef struct drape_constraint_id {
	int32_t index;
	uint16_t generation;
} drape_constraint_id;

typedef struct drape_spring_id {
	int32_t index;
	uint16_t generation;
} drape_spring_id;

/* ---------------------------------------------------------------------------------------------
 * Meshes: plain bulk data, owned by whoever made it. A triangle corner refers to one position
 * (vertex) and one rest coordinate (uv); a vertex on a seam has several uv (paper footnote 3). */
typedef struct drape_mesh {
	int32_t vertex_count;
	double* positions; /* 3 * vertex_count, metres */
	int32_t uv_count;
	double* uvs; /* 2 * uv_count, rest (u,v) coordinates in metres */
	int32_t triangle_count;
	int32_t* triangles;    /* 3 * triangle_count vertex indices */
	int32_t* triangle_uvs; /* 3 * triangle_count uv indices */
} drape_mesh;

/* A rectangular grid: nu x nv particles spanning size_u x size_v metres of cloth, centred at
 * `center`, with the grid's u and v directions along `u_axis` and `v_axis` in the world. Cells are
 * split into two triangles with alternating diagonals, so the mesh has no preferred shear sense. */
typedef struct drape_grid_def {
	double size[2];
	int32_t resolution[2]; /* particles along u (>= 2) and along v (>= 2; 1 makes a chain along u
				* with no triangles, a mass-spring rod: the grid's v = 0 edge, at
				* center - size[1]/2 along v_axis) */
	double center[3];
	double u_axis[3];
	double v_axis[3];
	int32_t cookie;
} drape_grid_def;

drape_grid_def drape_default_grid_def(void);
/* Fills *out (which the caller frees with drape_mesh_free). Grid vertex (i, j), i along u and j
 * along v, has index j * nu + i. */
drape_status drape_mesh_make_grid(const drape_grid_def* def, drape_mesh* out, char* err, size_t err_size);
/* Reads a Wavefront OBJ: v, vt and f (polygons are fan-triangulated; every corner needs a vt).
 * uv_scale multiplies the vt to give metres. Errors read "path:line: what is wrong". */
drape_status drape_mesh_load_obj(const char* path, double uv_scale, drape_mesh* out, char* err, size_t err_size);
/* Only the geometry (v and f; any vt are checked and dropped, uv_count 0), e.g. an output frame
 * to show or a solid's surface. */
drape_status drape_mesh_load_obj_geometry(const char* path, drape_mesh* out, char* err, size_t err_size);
void drape_mesh_free(drape_mesh* mesh);

/* ---------------------------------------------------------------------------------------------
 * Materials, in SI units and independent of mesh resolution (derivation: docs/model.md). */
typedef struct drape_material {
	double density;         /* areal density, kg/m^2 */
	double stretch;         /* stretch stiffness, N/m (sec. 4.2) */
	double shear;           /* shear stiffness, N/m (sec. 4.3) */
	double bend_u;          /* bending stiffness of hinges whose rest edge runs along u, N*m */
	double bend_v;          /* ... along v, N*m; other hinges blend as in sec. 4.3 */
	double stretch_damping; /* N*s/m (sec. 4.5) */
	double shear_damping;   /* N*s/m */
	double bend_damping;    /* N*m*s */
	double drag;            /* air drag along each triangle's normal, N*s/m^3 (sec. 4.4) */
} drape_material;

drape_material drape_default_material(void);

/* How a cloth's internal forces are modelled. TRIANGLES is Baraff & Witkin's continuum model on a
 * triangle mesh (stretch, shear, bend conditions; sec. 4). MASS_SPRING is the mass-spring model of
 * Boxerman's "ADI Cloth" (sec. 2.1) on a rectangular grid: stretch springs between 4-neighbours
 * (warp along u, weft along v), shear springs on the cell diagonals, bend springs over two-away
 * neighbours, with constants derived from the same SI material (docs/mass-spring.md). */
typedef enum drape_cloth_model {
	DRAPE_MODEL_TRIANGLES = 0,
	DRAPE_MODEL_MASS_SPRING = 1,
} drape_cloth_model;

/* Bending of a TRIANGLES cloth. TENSOR (the default) estimates each triangle's curvature tensor
 * from its three hinges and stores the orthotropic plate energy with bend_v against curvature
 * along u and bend_u against curvature along v: rigidity per unit width on any triangulation,
 * with a constant Hessian. DIHEDRAL is the paper's hinge condition C = theta (sec. 4.3). */
typedef enum drape_bend_model {
	DRAPE_BEND_DIHEDRAL = 0,
	DRAPE_BEND_TENSOR = 1,
	DRAPE_BEND_MODEL_COUNT
} drape_bend_model;

/* "dihedral", "tensor"; NULL if out of range. */
const char* drape_bend_model_name(drape_bend_model model);
/* false if there is no such name. */
bool drape_bend_model_from_name(const char* name, drape_bend_model* out);

typedef struct drape_cloth_def {
	const drape_mesh* mesh;      /* copied by drape_cloth_add */
	const double* velocities;    /* optional, 3 * vertex_count, m/s */
	const double* stretch_scale; /* optional, 2 * triangle_count: (b_u, b_v) of eq. 10; default 1 */
	double velocity[3];          /* initial velocity of every particle when velocities is NULL */
	drape_material material;
	const char* name;
	/* DRAPE_MODEL_MASS_SPRING: the mesh's vertices are an nu x nv grid (grid = {nu, nv}), vertex
	 * (i, j) = j * nu + i as drape_mesh_make_grid makes them, and vertex i's rest (u, v) is
	 * uvs[i] (uv_count == vertex_count). nv = 1 is a chain (a rod) along u, which may have no
	 * triangles; a chain is 1 m wide, so density reads as kg/m and stretch as EA in N
	 * (docs/mass-spring.md). Triangles, when present, serve only drag, contact and output. */
	drape_cloth_model model;
	int32_t grid[2];
	/* MASS_SPRING: bend springs stiffen with curvature, M = B kappa (1 + (kappa / bend_kappa1)^2)
	 * (the polynomial bend springs of sec. 2.1); bend_kappa1 in 1/m, > 0. */
	bool nonlinear_bend;
	double bend_kappa1;
	/* TRIANGLES: how bend is modelled (docs/bending.md); default DRAPE_BEND_TENSOR. */
	drape_bend_model bend_model;
	/* TENSOR only: the fold guard, radians in (0, pi); 0 (default) off. Each interior edge also
	 * resists, as a hinge of the paper's stiffness, the part of its fold angle beyond this: the
	 * tensor energy is quadratic in the positions and stops resisting creases pressed flat
	 * (docs/bending.md, "Fold guard"). */
	double fold_guard;
	/* Layer of a garment worn over others (docs/collide.md, "Layers"): 0 (default) next to the
	 * skin, higher further out. Cloth/cloth contact between cloths of different layers keeps the
	 * outer one on the outer side of the inner one's triangles, whose outer side is the one their
	 * winding (counter-clockwise seen from outside) faces. Must be >= 0. */
	int32_t layer;
	int32_t cookie;
} drape_cloth_def;

drape_cloth_def drape_default_cloth_def(void);

/* ---------------------------------------------------------------------------------------------
 * Particle constraints (sec. 5.1): a point pin removes 3 degrees of freedom, a line 2, a plane 1.
 * The constrained directions follow a reference point p(t): fixed, moving at constant velocity, or
 * keyframed (piecewise linear, held before the first and after the last key). */
typedef enum drape_constraint_kind {
	DRAPE_CONSTRAINT_POINT = 0,
	DRAPE_CONSTRAINT_LINE = 1,  /* stays on the line through p(t) along `axis` */
	DRAPE_CONSTRAINT_PLANE = 2, /* stays on the plane through p(t) with normal `axis` */
} drape_constraint_kind;

typedef enum drape_motion {
	DRAPE_MOTION_FIXED = 0,
	DRAPE_MOTION_VELOCITY = 1,
	DRAPE_MOTION_KEYFRAMES = 2,
} drape_motion;

typedef struct drape_keyframe {
	double time;
	double position[3];
} drape_keyframe;

typedef struct drape_constraint_def {
	drape_cloth_id cloth;
	int32_t vertex;
	drape_constraint_kind kind;
	double axis[3]; /* line direction or plane normal; need not be unit length */
	drape_motion motion;
	/* Where p starts. If use_position is false, p starts where the particle is when the
	 * constraint becomes active. */
	bool use_position;
	double position[3];
	double velocity[3];               /* DRAPE_MOTION_VELOCITY */
	const drape_keyframe* keyframes;  /* DRAPE_MOTION_KEYFRAMES, copied, increasing times */
	int32_t keyframe_count;
	double start_time; /* active for start_time <= t < end_time */
	double end_time;
	int32_t cookie;
} drape_constraint_def;

drape_constraint_def drape_default_constraint_def(void);

/* A user point force (sec. 4.4, the interactive "mouse" force): a zero-length spring from a
 * particle to `target`, plus a constant `force`; both enter the implicit system with gradients. */
typedef struct drape_spring_def {
	drape_cloth_id cloth;
	int32_t vertex;
	double target[3];
	double stiffness; /* N/m */
	double damping;   /* N*s/m, on the particle's velocity */
	double force[3];  /* N */
	int32_t cookie;
} drape_spring_def;

drape_spring_def drape_default_spring_def(void);

/* ---------------------------------------------------------------------------------------------
 * Solids (sec. 2.1, 6): bodies the cloth collides with. Each is an analytic shape in its own
 * frame, or a triangle mesh; each has a thickness (particles keep at least this far outside) and
 * a friction coefficient. A solid is static, moves rigidly through keyframed poses, or, for a
 * mesh, deforms through a sequence of vertex positions with fixed topology. */
typedef struct drape_solid_id {
	int32_t index;
} drape_solid_id;

typedef enum drape_solid_shape {
	DRAPE_SOLID_MESH = 0,
	DRAPE_SOLID_PLANE = 1,    /* the plane z = 0 of its frame, outside towards +z */
	DRAPE_SOLID_SPHERE = 2,   /* radius, centred at its frame's origin */
	DRAPE_SOLID_CAPSULE = 3,  /* radius around the segment z in [-half_height, half_height] */
	DRAPE_SOLID_CYLINDER = 4, /* radius around z, capped at z = +-half_height */
	DRAPE_SOLID_BOX = 5,      /* half_extents */
} drape_solid_shape;

/* A rigid pose: the solid's frame at `time` (seconds); rotation is a unit quaternion (w, x, y, z).
 * Between poses the motion is interpolated (position linearly, rotation by normalised lerp). */
/* Which sides of a mesh solid hold cloth (docs/collide.md, "Open meshes: both sides"). OUTSIDE:
 * only where the faces' normals point, the solid being what they enclose. BOTH: the surface is a
 * shell of the solid's thickness on each side, the side a particle is kept on being the one it
 * came from. AUTO: BOTH for an open mesh (some edge belongs to one triangle only), OUTSIDE for a
 * closed one. Analytic shapes have an inside; for them only AUTO and OUTSIDE are valid. */
typedef enum drape_solid_sides {
	DRAPE_SIDES_AUTO = 0,
	DRAPE_SIDES_OUTSIDE = 1,
	DRAPE_SIDES_BOTH = 2,
} drape_solid_sides;

typedef struct drape_pose {
	double time;
	double position[3];
	double rotation[4];
} drape_pose;

typedef struct drape_solid_def {
	drape_solid_shape shape;
	double radius;
	double half_height;
	double half_extents[3];
	/* DRAPE_SOLID_MESH: positions and triangles in the solid's frame (uv unused); copied. The
	 * outside is where the triangles' normals (counter-clockwise winding) point, unless
	 * flip_normals. */
	const drape_mesh* mesh;
	bool flip_normals;
	/* A deforming mesh: frame_count arrays of 3 * vertex_count positions at increasing
	 * frame_times (held before the first and after the last); copied. */
	const double* const* mesh_frames;
	const double* frame_times;
	int32_t frame_count;
	double position[3]; /* the frame's pose when there are no poses */
	double rotation[4];
	const drape_pose* poses; /* keyframed rigid motion, increasing times; copied */
	int32_t pose_count;
	double thickness; /* m, > 0 */
	double friction;  /* Coulomb coefficient mu >= 0 */
	const char* name;
	/* An animated character (drape_character_load): the solid is its skinned mesh, posed at every
	 * time step; shape must be DRAPE_SOLID_MESH and mesh NULL. Copied; placement comes from the
	 * character (position and rotation must stay the identity). */
	const struct drape_character* character;
	drape_solid_sides sides;
	int32_t cookie;
} drape_solid_def;

drape_solid_def drape_default_solid_def(void);

/* ---------------------------------------------------------------------------------------------
 * Animated characters (docs/characters.md): a skeleton with one animation clip and a mesh skinned
 * to it, read with assimp from glTF 2.0, FBX, Collada or BVH. A skeleton-only file (BVH motion
 * capture) gets a generated human body (docs/mannequin.md). Before the clip plays, the character
 * holds a dressing pose (the rest pose with the upper arms lowered by dress_angle) for `hold`
 * seconds, then blends into the clip's pose at `start` over `blend` seconds. */
typedef struct drape_character drape_character;

/* One entry of a joint map: the file's joint `file_joint` is the joint drape calls `name` (a CMU
 * name: Hips, Spine1, LeftArm ...; docs/characters.md, "Joint names"). */
typedef struct drape_joint_name {
	const char* name;
	const char* file_joint;
} drape_joint_name;

/* A keyframed joint rotation (docs/characters.md, "Keyframes"): at `time` (simulation seconds) the
 * joint (a drape name, or the file's name) is turned by `rotation` degrees about x, then y, then z
 * (the world's axes, z up, as they lie at the joint in the rest pose), on top of the clip. A joint's
 * keys are interpolated as clip keys are (slerp) and held before its first and after its last. */
typedef struct drape_joint_key {
	double time;
	const char* joint;
	double rotation[3];
} drape_joint_key;

/* How the skin follows the joints (docs/characters.md, "Skinning"). Linear blend skinning averages
 * the joints' matrices, which shrinks a joint twisted or bent far (the "candy wrapper" of a turned
 * wrist, a knee's inside collapsing); dual quaternion skinning (Kavan et al. 2008) blends the
 * joints' rigid motions and keeps the limb's thickness. */
typedef enum drape_skinning {
	DRAPE_SKINNING_LINEAR = 0,
	DRAPE_SKINNING_DUAL_QUATERNION,
} drape_skinning;

typedef struct drape_character_def {
	const char* file;
	const char* animation;   /* by name; NULL: by animation_index */
	int32_t animation_index;
	double time_scale;       /* clip seconds per simulated second, > 0 */
	double start;            /* s into the clip where the motion begins */
	bool loop;               /* wrap the clip instead of holding its last pose */
	double scale;            /* file units -> metres; 0: 1, or automatic for a skeleton-only file */
	char up;                 /* the file's up axis, 'y' or 'z' (drape is z up) */
	bool keep_root_motion;   /* false: the root's horizontal travel is removed */
	bool mannequin;          /* build the body around the skeleton even if the file has meshes */
	double hold, blend;      /* s */
	double dress_angle;      /* degrees the upper arms are lowered from the rest pose */
	double position[3];      /* added after scaling and turning z up */
	double cell_size;        /* m, the mannequin's grid (docs/mannequin.md) */
	/* Dual quaternion skinning needs joints that only turn, move and scale evenly (refused
	 * otherwise, naming the joint). */
	drape_skinning skinning;
	/* The file's joints under drape's names; none (count 0): the built-in map (CMU, Biovision or
	 * Mixamo) that the names present match. Copied. */
	const drape_joint_name* joint_map;
	int32_t joint_map_count;
	/* Joint rotations by keyframes, on top of the clip; each joint's keys in increasing time. */
	const drape_joint_key* keyframes;
	int32_t keyframe_count;
	int32_t cookie;
} drape_character_def;

drape_character_def drape_default_character_def(void);
/* NULL on failure, with "file: reason" in err. */
drape_character* drape_character_load(const drape_character_def* def, char* err, size_t err_size);
void drape_character_destroy(drape_character* character);
int32_t drape_character_vertex_count(const drape_character* character);
int32_t drape_character_triangle_count(const drape_character* character);
const int32_t* drape_character_triangles(const drape_character* character);
double drape_character_duration(const drape_character* character); /* the clip's length, s */
/* Doubtful but accepted input, "" if none (skin weights normalised: the largest correction). A
 * solid made from the character adds it to drape_world_warnings. */
const char* drape_character_warnings(const drape_character* character);
/* Holds the dressing pose until `hold` s, then blends into the clip as the def's hold did: a run
 * starts the motion once a garment has relaxed (docs/garments.md). Times already past are not
 * posed again, so call it with hold >= the current time. Ignored unless finite and >= 0. */
void drape_character_set_hold(drape_character* character, double hold);
/* The skinned mesh at simulation time t, in metres, z up: 3 * vertex_count doubles. */
void drape_character_pose(const drape_character* character, double t, double* positions);
/* A joint's segment at time t: its origin and its first child's (the bone garments wrap around). */
bool drape_character_joint(const drape_character* character, const char* name, double t, double head[3],
			   double tail[3]);
drape_solid_id drape_solid_add(drape_world* world, const drape_solid_def* def);
int32_t drape_solid_count(const drape_world* world);
/* A mesh solid's (or character's) vertices and triangles; 0 for the analytic shapes. */
int32_t drape_solid_vertex_count(const drape_world* world, drape_solid_id solid);
int32_t drape_solid_triangle_count(const drape_world* world, drape_solid_id solid);
/* A character solid holds its dressing pose until `hold` s, then blends into its clip (the world's
 * copy of the character, drape_character_set_hold): a run starts the motion once a garment has
 * relaxed (docs/garments.md). DRAPE_ERROR_INVALID for a solid that is not a character. */
drape_status drape_solid_set_hold(drape_world* world, drape_solid_id solid, double hold);
/* Whether the solid is a character (drape_character_def, or a scene's "shape": "character"). */
bool drape_solid_is_character(const drape_world* world, drape_solid_id solid);

/* ---------------------------------------------------------------------------------------------
 * Time integrators (Boxerman, "ADI Cloth", sec. 2.2, 2.3, 5; docs/integrators.md). Force terms
 * belong to families: stretch-warp (u), stretch-weft (v), shear, bend and other (drag, contact,
 * user springs). BACKWARD_EULER is Baraff & Witkin's implicit step with everything implicit.
 * The IMEX schemes keep it but move bend (and shear) to the right-hand side. CN_ADI, ONOFF_ADI and
 * SPLIT solve grid lines (block-tridiagonal, O(n)) and need every cloth to be MASS_SPRING; the
 * explicit and line schemes do not support cloth/cloth contact (self_collision must be off). */
typedef enum drape_integrator {
	DRAPE_INTEGRATOR_BACKWARD_EULER = 0,
	DRAPE_INTEGRATOR_FORWARD_EULER,    /* v += h M^-1 f(x, v); x += h v_old */
	DRAPE_INTEGRATOR_SYMPLECTIC_EULER, /* v += h M^-1 f(x, v); x += h v_new */
	DRAPE_INTEGRATOR_IMEX_BEND,        /* backward Euler with bend explicit (sec. 2.3) */
	DRAPE_INTEGRATOR_IMEX_BEND_SHEAR,  /* ... bend and shear explicit */
	DRAPE_INTEGRATOR_CN_ADI,           /* sec. 5.2: one stretch family implicit, the other explicit, alternating */
	DRAPE_INTEGRATOR_ONOFF_ADI,        /* sec. 5.3: one family implicit with onoff_c1 x stiffness, the other off */
	DRAPE_INTEGRATOR_SPLIT,            /* sec. 5.5, eq. 19: warp lines then weft lines, each implicit */
	DRAPE_INTEGRATOR_BDF2,             /* second-order backward differentiation, variable steps (docs/integrators.md) */
	DRAPE_INTEGRATOR_COUNT
} drape_integrator;

/* The scene-file name of an integrator ("backward_euler", "forward_euler", "symplectic_euler",
 * "imex_bend", "imex_bend_shear", "cn_adi", "onoff_adi", "split", "bdf2"); NULL if out of range. */
const char* drape_integrator_name(drape_integrator integrator);
/* The integrator with that name; false if there is none. */
bool drape_integrator_from_name(const char* name, drape_integrator* out);

/* The modified PCG's preconditioner (sec. 5.3; docs/solver.md, "Preconditioners"). BLOCK_JACOBI
 * inverts A's 3x3 diagonal blocks; TWO_LEVEL adds a coarse solve on aggregates of particles;
 * MULTIGRID is a smoothed-aggregation multigrid V-cycle; CHOLESKY factors the whole filtered
 * matrix and may reuse the factor across steps. All but BLOCK_JACOBI need a build with CHOLMOD
 * (libcholmod). */
typedef enum drape_preconditioner {
	DRAPE_PRECONDITIONER_BLOCK_JACOBI = 0,
	DRAPE_PRECONDITIONER_CHOLESKY,
	DRAPE_PRECONDITIONER_TWO_LEVEL, /* block Jacobi + a CHOLMOD coarse solve on aggregates */
	DRAPE_PRECONDITIONER_MULTIGRID, /* a smoothed-aggregation V-cycle, CHOLMOD on the coarsest level */
	DRAPE_PRECONDITIONER_COUNT
} drape_preconditioner;

/* "block_jacobi", "cholesky", "two_level", "multigrid"; NULL if out of range. */
const char* drape_preconditioner_name(drape_preconditioner preconditioner);
bool drape_preconditioner_from_name(const char* name, drape_preconditioner* out);
/* Whether this build can use it (CHOLESKY, TWO_LEVEL and MULTIGRID need CHOLMOD). */
bool drape_preconditioner_available(drape_preconditioner preconditioner);

/* ---------------------------------------------------------------------------------------------
 * The world: all cloths step together in one implicit system (sec. 3). */
typedef struct drape_world_def {
	double gravity[3];          /* m/s^2 */
	double air_velocity[3];     /* wind that drag acts against, m/s */
	double gust_amplitude[3];   /* wind adds gust_amplitude * sin(2 pi gust_frequency t) */
	double gust_frequency;      /* Hz */
	double max_dt;              /* largest step, s (sec. 7: at most one frame) */
	double min_dt;              /* below this the step fails with DRAPE_ERROR_DIVERGED */
	double cg_tolerance;        /* epsilon of the modified PCG's stopping rule (sec. 5.3) */
	int32_t cg_max_iterations;
	/* Start each PCG solve from the previous step's velocity change (scaled to the new step)
	 * instead of the paper's dv = z. Same answer, fewer iterations; docs/solver.md. */
	bool warm_start;
	bool adaptive;              /* adaptive step control (sec. 7) */
	double stretch_change_limit; /* reject a step if some |w_u| or |w_v| changes by more */
	/* Strain limiting (default 0.01): warp and weft stretch beyond [1 - strain_limit,
	 * 1 + strain_limit] (of the pattern; b_u, b_v < 1 may stretch to it, > 1 be squeezed to it)
	 * stiffens the stretch in the solve and is projected back after it; a mass-spring cloth's
	 * stretch springs are projected likewise. 0 turns it off. Inactive while a seam is open.
	 * Scenes default it to 0 for integrators with explicit stretch and for garments.
	 * docs/solver.md, "Strain limiting". */
	double strain_limit;
	int32_t threads;            /* 0: OpenMP's default */
	/* Cloth/cloth contact (sec. 6): self-collision and collisions between cloths. Pairs closer
	 * than cloth_thickness are pushed apart by springs of cloth_repulsion (N/m) with damping
	 * cloth_repulsion_damping (N*s/m) along the contact normal and cloth_friction_damping
	 * (N*s/m) against sliding. */
	bool self_collision;
	double cloth_thickness;
	double cloth_repulsion;
	double cloth_repulsion_damping;
	double cloth_friction_damping;
	drape_integrator integrator;
	/* ONOFF_ADI: the "on" family's stiffness and damping factor c1 (sec. 5.3). 2 makes the impulse
	 * over an on/off pair right; docs/integrators.md explains why 3 does not. */
	double onoff_c1;
	/* Default TWO_LEVEL where the build has CHOLMOD, else BLOCK_JACOBI (docs/solver.md). A
	 * Cholesky factor (CHOLESKY) is reused until a solve takes refactor_iterations CG iterations or more (default 1: every
	 * solve refactors) or the step size changes. */
	drape_preconditioner preconditioner;
	int32_t refactor_iterations;
	/* Newton iterations per step on the step's nonlinear system (backward_euler and bdf2 only):
	 * 1 is Baraff & Witkin's single linearised step (eq. 18); more re-linearise at the new
	 * state until the velocity correction is small. The swinging sheet keeps BDF2's second
	 * order at 1/30 s steps only with them (docs/integrators.md, "Where the swing's energy goes"). */
	int32_t newton_iterations;
	/* The strain guarantee from the limiter (default false; needs strain_limit > 0): sec. 7's
	 * test reads the strain change of the limited proposal, not the integrator's own; a triangle
	 * whose every particle is held by a contact or constraint fails the step not by its strain
	 * change (the body, not the step, moves it) but by the solve's residual on its particles; and
	 * the strain limiter slides contacts held by static friction along their surfaces to bound
	 * the strain of such cloth, and keeps the step's cloth/cloth pairs from closing below their
	 * gap (or the thickness) as it corrects. docs/solver.md, "The strain guarantee from the
	 * limiter". */
	bool strain_from_limiter;
	/* Contacts as bounds inside the solve (default false): cloth/solid contacts are inequalities
	 * of one modified PCG (an MPRGP iteration) that takes them in and releases them within the
	 * solve, instead of equalities released after it and solved again (sec. 5.4); particles within
	 * three thicknesses of a solid get a free bound. Fewer linear solves per step attempt (skirt
	 * 3.2 -> 1.0); docs/solver.md, "Contacts inside the solve", says what else changes. */
	bool contact_bounds;
	int32_t cookie;
} drape_world_def;

drape_world_def drape_default_world_def(void);

/* NULL when def fails drape_world_def_check (which says why) or when out of memory. */
drape_world* drape_world_create(const drape_world_def* def);
void drape_world_destroy(drape_world* world);

/* Message for the last failed call on this world ("" if none). */
const char* drape_world_error(const drape_world* world);
/* Warnings about accepted but doubtful input so far (one per line; "" if none), e.g. a collider
 * mesh that is open or inconsistently oriented. */
const char* drape_world_warnings(const drape_world* world);

/* ---------------------------------------------------------------------------------------------
 * Errors (docs/api.md, "Errors"). Two kinds, as in CHOLMOD and Box2D:
 * - bad user data (settings, meshes, files) is reported: a drape_status and a message naming the
 *   field, element or file; the library never prints. drape_world_error holds the message of the
 *   last failed call on a world and drape_world_status its status (DRAPE_ERROR_MEMORY when an
 *   allocation failed), calls without a world fill an err buffer.
 * - programmer errors (a NULL world, an id that is out of range or stale) call the assert
 *   function, then the call does nothing and returns its "none" value (-1 index, 0, "", NaN). */

/* What drape_world_def_check found wrong: the drape_world_def member at fault ("min_dt",
 * "gravity"; NULL when the def is valid) and the rule it breaks with the value it has ("must be
 * > 0 and <= max_dt (0.0333333 s), got 0"). A caller prints "field: reason"; the scene loader puts
 * "file:line: json.path: " before the reason. */
typedef struct drape_def_error {
	const char* field;
	char reason[256];
} drape_def_error;

/* Checks every rule drape_world_create applies: DRAPE_OK, or DRAPE_ERROR_INVALID with the first
 * broken rule in *error (optional). The scene loader checks a scene's world settings with it. */
drape_status drape_world_def_check(const drape_world_def* def, drape_def_error* error);

/* The status of the last failed call on this world (DRAPE_OK if none), with drape_world_error's
 * message; what a call that returns an id or a value rather than a status failed with. */
drape_status drape_world_status(const drape_world* world);

/* Called on a programmer error with the failed check, its file and line. The default prints
 * "file:line: drape: assertion failed: expression" to stderr and aborts. A replacement that returns
 * lets the call go on to do nothing (tests record the calls; a binding may raise). NULL restores
 * the default. Process-wide: set it before any world is made. */
typedef void drape_assert_fcn(const char* expression, const char* file, int line);
void drape_set_assert_fcn(drape_assert_fcn* fcn);

/* The "did you mean" of drape's messages about an unknown name (a scene key, an integrator, a
 * preconditioner): the nearest of names[0..count) to word when it is a plausible typo (within 3
 * edits, and fewer edits than that name is long), else NULL. For a caller's own names too (the
 * drape command's commands and options), so that every such message suggests alike. */
const char* drape_closest_name(const char* word, const char* const* names, int32_t count);

drape_cloth_id drape_cloth_add(drape_world* world, const drape_cloth_def* def);
int32_t drape_cloth_count(const drape_world* world);
int32_t drape_cloth_vertex_count(const drape_world* world, drape_cloth_id cloth);
int32_t drape_cloth_triangle_count(const drape_world* world, drape_cloth_id cloth);
const char* drape_cloth_name(const drape_world* world, drape_cloth_id cloth);
/* The cloth's part in the contacts after the last accepted step (drape_stats' solid_contacts and
 * cloth_contacts, per cloth): its particles in contact with a solid, and the cloth/cloth repulsion
 * pairs with a node on it (a pair between two cloths counts for each). `drape bench --garments`
 * shares an outfit's collision time by them (docs/benchmarks.md). Either pointer may be NULL. */
void drape_cloth_contact_counts(const drape_world* world, drape_cloth_id cloth, int32_t* solid_contacts,
				int32_t* cloth_pairs);
/* Copies out / in 3 * vertex_count doubles. */
void drape_cloth_get_positions(const drape_world* world, drape_cloth_id cloth, double* out);
void drape_cloth_get_velocities(const drape_world* world, drape_cloth_id cloth, double* out);
drape_status drape_cloth_set_positions(drape_world* world, drape_cloth_id cloth, const double* in);
drape_status drape_cloth_set_velocities(drape_world* world, drape_cloth_id cloth, const double* in);
/* Sets eq. 10's (b_u, b_v) of every triangle (2 * triangle_count values; NULL: all 1), e.g. a
 * garment's cuffs and waistbands once it is sewn (paper sec. 8, docs/garments.md). */
drape_status drape_cloth_set_stretch_scale(drape_world* world, drape_cloth_id cloth, const double* scale);
/* The cloth's mesh as given (positions are the rest positions given at creation). */
const drape_mesh* drape_cloth_mesh(const drape_world* world, drape_cloth_id cloth);
/* Particle masses, vertex_count doubles, kg. */
void drape_cloth_get_masses(const drape_world* world, drape_cloth_id cloth, double* out);

drape_constraint_id drape_constraint_add(drape_world* world, const drape_constraint_def* def);
void drape_constraint_remove(drape_world* world, drape_constraint_id id);
/* The force the constraint exerted on its particle during the last step, N (sec. 5.4). */
void drape_constraint_get_force(const drape_world* world, drape_constraint_id id, double out[3]);

drape_spring_id drape_spring_add(drape_world* world, const drape_spring_def* def);
void drape_spring_set_target(drape_world* world, drape_spring_id id, const double target[3]);
void drape_spring_remove(drape_world* world, drape_spring_id id);

/* ---------------------------------------------------------------------------------------------
 * Seams (sec. 8: garments are planar panels "topologically seamed"; docs/garments.md). A seam
 * pairs particles of one cloth: while open, each pair is joined by a stiff zero-length damped
 * spring inside the implicit system; drape_world_close_seams then merges every pair of a seam
 * whose gap has fallen under its tolerance into one particle (mass-weighted position and
 * velocity, so momentum is conserved) that keeps the rest uv of all its triangles (footnote 3).
 * Merging renumbers the cloth's vertices: read drape_cloth_mesh again afterwards. */
typedef struct drape_seam_id {
	int32_t index;
} drape_seam_id;

typedef struct drape_seam_def {
	drape_cloth_id cloth;
	const int32_t* pairs; /* 2 * pair_count vertex indices of the cloth: a0 b0 a1 b1 ...; copied */
	int32_t pair_count;
	double stiffness; /* N/m per pair */
	double damping;   /* N*s/m per pair */
	double tolerance; /* m: the seam may close once every pair is closer than this */
	/* Sewing at a bounded speed (docs/garments.md): once a pair has been farther apart than
	 * free_gap (m, > 0), its spring's pull is damped until the merge so that it cannot close the
	 * pair faster than max_speed (m/s, > 0); pairs that stay within free_gap sew with the plain
	 * spring. INFINITY turns the cap off. */
	double max_speed;
	double free_gap;
	const char* name;
	int32_t cookie;
} drape_seam_def;

drape_seam_def drape_default_seam_def(void);
drape_seam_id drape_seam_add(drape_world* world, const drape_seam_def* def);
int32_t drape_seam_count(const drape_world* world);
const char* drape_seam_name(const drape_world* world, drape_seam_id seam);
/* The largest distance between paired particles now, m (0 once merged). */
double drape_seam_gap(const drape_world* world, drape_seam_id seam);
/* The seam's widest pair now: returns its gap (as drape_seam_gap) and, when not NULL, its index
 * among the seam's pairs and the two particles' positions; -1 and no positions once merged. */
double drape_seam_widest_pair(const drape_world* world, drape_seam_id seam, int32_t* pair, double a[3], double b[3]);
bool drape_seam_merged(const drape_world* world, drape_seam_id seam);
/* Between steps: merges every open seam whose gap is under its tolerance; *closed (optional)
 * counts them. Fails (DRAPE_ERROR_INVALID, naming the seam) if a merge would make a triangle
 * degenerate or an edge shared by more than two triangles. */
drape_status drape_world_close_seams(drape_world* world, int32_t* closed);
/* Merges one open seam now, whatever its gap (tools that replay a run's frames use it). */
drape_status drape_seam_merge(drape_world* world, drape_seam_id seam);

/* Advances by `duration` seconds in adaptive steps of at most max_dt that end exactly at
 * t + duration. On DRAPE_ERROR_DIVERGED the state is the last accepted one. */
drape_status drape_world_step(drape_world* world, double duration);
double drape_world_time(const drape_world* world);

/* The stages of drape_world_step, in their order (docs/architecture.md): topology changes, posing
 * the solids, contacts and constraints, assembly, the linear solve and proposal, the judge, and
 * committing (or retrying) the step. */
typedef enum drape_stage {
	DRAPE_STAGE_PREPARE = 0,
	DRAPE_STAGE_POSE,
	DRAPE_STAGE_CONTACTS,
	DRAPE_STAGE_ASSEMBLE,
	DRAPE_STAGE_SOLVE,
	DRAPE_STAGE_JUDGE,
	DRAPE_STAGE_COMMIT,
	DRAPE_STAGE_COUNT
} drape_stage;

/* Table 1 instrumentation, accumulated since creation or the last reset. */
typedef struct drape_stats {
	double eval_ms; /* forming the linear system (forces, Jacobians, assembly) */
	double cg_ms;   /* modified PCG */
	double cc_ms;   /* cloth/cloth collision detection and response */
	double cs_ms;   /* cloth/solid collision detection and response */
	int64_t steps;  /* accepted steps */
	int64_t rejected;
	int64_t cg_iterations;
	double min_dt; /* smallest and largest accepted step; 0 when no step was taken */
	double max_dt;
	/* After the last accepted step: particles in contact with solids, cloth/cloth repulsion
	 * pairs, and pairs of cloth triangles that intersect (0 unless a step could not avoid it). */
	int32_t solid_contacts;
	int32_t cloth_contacts;
	int32_t self_intersections;
	/* After the last accepted step: the largest gap of the open seams, m (0 when none is open). */
	double seam_gap;
	/* After the last step of the call: cloth particles inside a solid by more than its thickness. */
	int32_t penetrating;
	int64_t factorizations; /* numeric Cholesky factorisations (preconditioner CHOLESKY) */
	/* Rejected steps by reason; they sum to `rejected` (docs/solver.md, "Adaptive time stepping"):
	 * strain (sec. 7's stretch-change test, the strain limiter's residual, a diverging explicit
	 * part), particles still crossing into solids, a new cloth self-intersection, and the rest
	 * (CG breakdown, NaN or Inf, a contact search over its budget, the test hook). */
	int64_t rejected_strain;
	int64_t rejected_penetration;
	int64_t rejected_intersection;
	int64_t rejected_other;
	/* Wall time of each stage of the step (drape_stage), ms; they cover the time of the calls. */
	double stage_ms[DRAPE_STAGE_COUNT];
	/* Linear solves of eq. 18 in all step attempts (accepted and rejected): a step is solved again
	 * when its contact set changes (sec. 5.4), and once per Newton iteration. Of them,
	 * release_solves were solved again because contacts were released (their constraint force
	 * pulled); contacts_released counts the releases, within steps and at their ends
	 * (docs/collide.md, "Release"). */
	int64_t solves;
	int64_t release_solves;
	int64_t contacts_released;
} drape_stats;

drape_stats drape_world_get_stats(const drape_world* world);
void drape_world_reset_stats(drape_world* world);

/* Total kinetic energy of all particles, J. */
double drape_world_kinetic_energy(const drape_world* world);
/* Interrupts: while *flag is non-zero, drape_world_step stops between steps (also between a
 * rejected step and its retry) and returns DRAPE_ERROR_INTERRUPTED, the world at the last accepted
 * step. NULL: none. The flag may be set from a signal handler. */
void drape_world_set_cancel(drape_world* world, const volatile int* flag);
/* Changes gravity (m/s^2) from the next step on, e.g. off while a garment is sewn
 * (docs/garments.md). DRAPE_ERROR_INVALID if a component is not finite. */
drape_status drape_world_set_gravity(drape_world* world, const double gravity[3]);
/* Elastic energy stored in all cloths' internal forces (both models, stretch + shear + bend), J.
 * With the kinetic energy it lets tools test boundedness. */
double drape_world_elastic_energy(const drape_world* world);

/* ---------------------------------------------------------------------------------------------
 * Debug drawing (as Box2D's b2World_Draw with b2DebugDraw): the world hands what there is to see
 * to the caller's callbacks, and the caller draws it with whatever it likes (`drape render` and
 * `drape view` use OpenGL). Every pointer a callback gets is valid during that call only.
 * Callbacks left NULL are skipped. */

/* What a contact point is. */
typedef enum drape_debug_point {
	DRAPE_DEBUG_SOLID_CONTACT, /* a particle in contact with a solid */
	DRAPE_DEBUG_CLOTH_CONTACT  /* a particle of a cloth/cloth repulsion (each of its 4 nodes) */
} drape_debug_point;

typedef struct drape_debug_draw {
	/* A cloth as it is now: positions (3 doubles per vertex, the cloth's own numbering, possibly
	 * not finite after a failed step) and triangles (3 vertex indices each). */
	void (*draw_cloth)(drape_cloth_id cloth, const double* positions, int32_t vertex_count, const int32_t* triangles,
			   int32_t triangle_count, void* context);
	/* A solid posed at `time`, tessellated: positions and unit normals (3 floats per vertex) and
	 * triangles (3 indices each, counter-clockwise seen from outside). Analytic shapes get smooth
	 * normals (flat on box faces and cylinder caps); meshes keep creases sharper than 40 degrees.
	 * An infinite plane (plane true) is a square patch of half size plane_half centred on its
	 * point nearest plane_focus. */
	void (*draw_solid)(drape_solid_id solid, bool plane, const float* positions, const float* normals, int32_t vertex_count,
			   const uint32_t* indices, int32_t index_count, void* context);
	/* An infinite plane's frame at `time`: its origin and its rotation as a unit quaternion
	 * (w, x, y, z); the plane is z = 0 of that frame, +z its outside. */
	void (*draw_plane)(drape_solid_id solid, const double origin[3], const double rotation[4], void* context);
	/* A particle in contact (draw_contacts). */
	void (*draw_point)(const double point[3], drape_debug_point kind, void* context);
	double time;           /* when solids are posed, s (cloths are drawn as they are now) */
	double plane_focus[3]; /* where plane patches are centred */
	double plane_half;     /* their half size, m */
	bool draw_cloths;      /* draw_cloth for every cloth */
	bool draw_solids;      /* draw_solid for every solid */
	bool draw_planes;      /* draw_plane for every infinite plane */
	bool draw_contacts;    /* draw_point: solid contacts, then cloth/cloth repulsion nodes */
	void* context;         /* handed to every callback */
} drape_debug_draw;

/* Everything off, time 0, plane_half 1. */
drape_debug_draw drape_default_debug_draw(void);
/* Calls the callbacks that draw asks for: cloths in order, then solids, then planes, then
 * contacts. DRAPE_ERROR_MEMORY when a solid could not be tessellated (the solids before it were
 * drawn). */
drape_status drape_world_draw(const drape_world* world, const drape_debug_draw* draw);
/* The box around every cloth's finite positions and every solid except infinite planes posed at
 * `time` (lo = +inf, hi = -inf when there is nothing). */
void drape_world_get_bounds(const drape_world* world, double time, double lo[3], double hi[3]);
/* Gravity now, m/s^2. */
void drape_world_get_gravity(const drape_world* world, double gravity[3]);

/* ---------------------------------------------------------------------------------------------
 * Benchmark kernels (docs/benchmarks.md): parts of a step that `drape bench` times alone, on a
 * world made as usual. */

/* Poses every solid at `time` for a step of h, as each step does first: a character's skeleton
 * and skin, a deforming mesh's frames, the solids' bounding volumes refitted. The cloth is left as
 * it is; the next step poses the solids again at its own time. */
void drape_world_pose_solids(drape_world* world, double time, double h);
/* The memory bandwidth, bytes per second, of the product y = A x on the world's last assembled
 * matrix (on one thread, the best of `repeats`, counting the least traffic it needs: blocks,
 * column indices and row starts, the scalar part's values, columns and row starts, x and y each
 * once), and of memcpy over a buffer as large (its read and its write) for scale. Both 0 before
 * the first step or when out of memory. */
void drape_world_measure_bandwidth(const drape_world* world, int32_t repeats, double* product, double* copy);

/* ---------------------------------------------------------------------------------------------
 * Whole jobs: scene files, output files and runs, as the `drape run` command does them (the
 * command is a thin user of these calls; docs/api.md, docs/scene-format.md, docs/caches.md).
 * Messages go into err (at most err_size bytes, always terminated) and name the file, line and
 * JSON path of bad input. */

/* A scene file, loaded and validated: world settings, cloths, pins, solids and output settings. */
typedef struct drape_scene drape_scene;

/* Loads and validates a scene file (JSON, docs/scene-format.md); relative mesh paths are found
 * next to it. A path "<built-in>/NAME" is a scene built into drape (what a run of one records in
 * summary.json; DRAPE_DEFAULT_SCENE is the one `drape run` and `drape view` run when given no
 * scene). NULL with a message on failure. */
#define DRAPE_DEFAULT_SCENE "<built-in>/figure1_drape.json"
drape_scene* drape_scene_load(const char* path, char* err, size_t err_size);
/* The same with overrides "key.path=value" applied to the file's JSON before validation, so each
 * is checked exactly like the file (array indices as numbers: "cloths.0.material.stretch=5000";
 * the value is JSON, or a string when it does not parse as JSON). An unknown key is refused with
 * the closest valid key, an index past the end of an array or a wrong type with the path. The
 * overrides are recorded in summary.json ("overrides"). docs/batch.md. */
drape_scene* drape_scene_load_overrides(const char* path, const char* const* overrides, int32_t override_count,
					char* err, size_t err_size);
/* The same from JSON text (no overrides): path (NULL: "<text>") names the scene in messages and
 * anchors its relative mesh paths, "<built-in>/NAME" finding drape's built-in files. For tools
 * that make variants of a scene without writing files, as `drape bench` varies the built-in
 * scenes' resolution and stiffness (docs/benchmarks.md). */
drape_scene* drape_scene_load_text(const char* text, const char* path, char* err, size_t err_size);
/* The text of a file built into drape, by NAME as "<built-in>/NAME" addresses it
 * ("figure1_drape.json", its "cylinder.obj", "figure2_sheet.json"), or NULL. */
const char* drape_builtin_file(const char* name);
void drape_scene_destroy(drape_scene* scene);
/* The scene's output.camera: false when it sets none (a renderer then frames the scene itself). */
bool drape_scene_camera(const drape_scene* scene, double eye[3], double target[3], double up[3], double* fov_y_deg);
/* Characters held until the garment relaxed ("hold": "relaxed") start moving at `time`: what
 * drape_run does when sewing ends, for a tool that replays a run (`drape render` reads the time
 * from summary.json's sewing.motion_start). The solids are the scene's, in order. */
void drape_scene_start_motion(const drape_scene* scene, drape_world* world, double time);

/* A run's sewing (docs/garments.md) for a caller that steps a scene's world itself, frame by frame,
 * as `drape view` does: before each frame, gravity as the scene has it (scaled by sewing.gravity
 * while a seam is open); after it, the seams that have closed merge, a seam still open past
 * sewing.time_limit is an error (DRAPE_ERROR_DIVERGED, naming it), and once the garment has
 * relaxed the held characters start moving. The scene must outlive it. */
typedef struct drape_sewing drape_sewing;
typedef struct drape_sewing_info {
	int32_t seam_count;
	int32_t open;        /* seams not yet merged */
	double sewn_at;      /* s: when the last seam merged; < 0 while some are open */
	double motion_start; /* s: when the garment had relaxed after sewing; < 0 until then */
} drape_sewing_info;
/* For a world just made by drape_scene_create_world; NULL when out of memory. */
drape_sewing* drape_sewing_create(const drape_scene* scene, const drape_world* world);
void drape_sewing_destroy(drape_sewing* sewing);
void drape_sewing_before_frame(const drape_sewing* sewing, drape_world* world);
drape_status drape_sewing_after_frame(drape_sewing* sewing, drape_world* world, char* err, size_t err_size);
drape_sewing_info drape_sewing_get_info(const drape_sewing* sewing);
/* The scene's "name", and its output settings: frames per second and number of frames. */
const char* drape_scene_name(const drape_scene* scene);
double drape_scene_fps(const drape_scene* scene);
int32_t drape_scene_frames(const drape_scene* scene);
/* The world settings the scene asks for (gravity, wind, solver, threads ...). */
drape_world_def drape_scene_world_def(const drape_scene* scene);
/* Creates a world with every cloth, pin and solid of the scene, in file order (cloth i of the
 * file is drape_cloth_id{i}, solid j is drape_solid_id{j}). world_def NULL: the scene's own
 * settings; otherwise these (e.g. drape_scene_world_def() with threads changed). NULL with a
 * message naming the cloth or solid on failure. The world does not refer to the scene. */
drape_world* drape_scene_create_world(const drape_scene* scene, const drape_world_def* world_def, char* err,
				      size_t err_size);

/* ---------------------------------------------------------------------------------------------
 * Scene entries added to a world (docs/python.md, "Garments, characters and mesh solids"): one
 * element of a scene file's "cloths" or "solids" array, as JSON text, with the keys of
 * docs/scene-format.md, loaded by the scene loader itself: a garment (panels, seams or a pattern
 * file, meshed and placed, its seams added as drape_seam_add does), a character (file, clip,
 * mannequin) or a mesh solid (OBJ, frames, poses), a grid or mesh cloth with its pins. Why JSON
 * rather than C structs: these entries are a vocabulary of nested, optional keys that the loader
 * already validates key by key with a message per key; one text in, validated once, keeps one
 * definition of each key and its checks for files, `--set`, C and Python alike.
 * Relative file names are found in base_dir (NULL: the working directory). Messages name the key
 * within the entry ("garment.panels[1].outline: ..."; a pattern file's problems name that file).
 * A seam merges when drape_world_close_seams finds it closed; sewing.time_limit, relax_energy and
 * gravity, and a character's "hold": "relaxed", belong to a run's sewing (drape_run): here they
 * add a warning (drape_world_warnings) and sewing.regions "after_sewing" is refused. An index < 0
 * means failure; the world then holds nothing of the entry unless the failure came from the world
 * itself after the cloth was added (its pins or seams refused). */
drape_cloth_id drape_world_add_scene_cloth(drape_world* world, const char* json, const char* base_dir, char* err,
					   size_t err_size);
drape_solid_id drape_world_add_scene_solid(drape_world* world, const char* json, const char* base_dir, char* err,
					   size_t err_size);

/* Output formats (docs/caches.md), combinable as bits. */
typedef enum drape_format {
	DRAPE_FORMAT_OBJ = 1, /* frame_0000.obj ...: one OBJ per frame, each cloth an object, uv as vt */
	DRAPE_FORMAT_PC2 = 2, /* cache_NAME.pc2 per cloth plus its rest mesh cache_NAME.obj */
	DRAPE_FORMAT_GLB = 4, /* animation.glb: binary glTF 2.0, motion as morph targets */
	DRAPE_FORMAT_USDA = 8, /* animation.usda: USD text, time-sampled points with uv per cloth */
} drape_format;

/* Creates `dir` and its parents where missing (mkdir -p), as the writers do for their folder;
 * DRAPE_ERROR_IO with a message naming the folder that could not be made. */
drape_status drape_make_dirs(const char* dir, char* err, size_t err_size);

/* "obj,pc2,glb,usda" (any non-empty subset) into DRAPE_FORMAT_* bits. */
drape_status drape_parse_formats(const char* text, unsigned* formats, char* err, size_t err_size);

/* Writes a world's cloths frame by frame into a folder that exists, in the chosen formats. Files
 * appear atomically (written aside and renamed), so a reader never sees half a file. */
typedef struct drape_writer drape_writer;

/* Prepares to write frame 0 and up to max_frames more at fps. Creates no file yet. */
drape_writer* drape_writer_create(const char* dir, unsigned formats, const drape_world* world, double fps,
				  int32_t max_frames, char* err, size_t err_size);
/* Writes the world's current state as frame `frame` (0, 1, 2 ... in order). */
drape_status drape_writer_add_frame(drape_writer* writer, int32_t frame, const drape_world* world, char* err,
				    size_t err_size);
/* Completes the caches (PC2 sample counts, the GLB) with the frames added and frees the writer. */
drape_status drape_writer_finish(drape_writer* writer, char* err, size_t err_size);

/* What drape_run reports after each frame it has written (frame 0 is the initial state). */
typedef struct drape_run_progress {
	int32_t frame;
	int32_t frames; /* the last frame */
	double time;    /* simulated seconds */
	const drape_world* world;
} drape_run_progress;

/* Called after each frame is written; return false to stop (the run ends as interrupted, with
 * complete files for the frames written). */
typedef bool drape_run_callback(const drape_run_progress* progress, void* user);
/* Called once per warning about doubtful but accepted input (an open collider mesh ...). */
typedef void drape_warning_callback(const char* warning, void* user);

typedef struct drape_run_def {
	const char* scene_path;   /* the scene file */
	const char* const* overrides; /* with scene_path: as drape_scene_load_overrides */
	int32_t override_count;
	const drape_scene* scene; /* or an already loaded scene (then scene_path is ignored) */
	const char* out_dir;      /* created with its parents; must be empty unless force */
	bool force;               /* reuse a non-empty out_dir, replacing drape's own files in it */
	unsigned formats;         /* DRAPE_FORMAT_* bits; default DRAPE_FORMAT_OBJ */
	int32_t frames;           /* < 0: the scene's output.frames */
	int32_t threads;          /* <= 0: the scene's solver.threads */
	drape_run_callback* progress;
	drape_warning_callback* warning;
	void* user;
	/* Checked before each frame: non-zero stops the run as interrupted (settable from a signal
	 * handler). NULL: never. */
	const volatile int* cancel;
	/* Continue the run whose folder is out_dir from its checkpoint.bin (`drape resume`): the scene,
	 * overrides, frames and formats come from there and every other field but threads, progress,
	 * warning, user and cancel is ignored. The frames come out bit-identical to an uninterrupted
	 * run's (docs/reliability.md, "Resume"). */
	bool resume;
	/* Crossed cloth after sewing (intersecting triangles, docs/reliability.md, "Crossings are
	 * reported") stops the run as DRAPE_ERROR_DIVERGED (exit 3) at its first frame instead of a
	 * warning. Kept by a resumed run. */
	bool strict;
	int32_t cookie;
} drape_run_def;

drape_run_def drape_default_run_def(void);

/* The outcome of drape_run. summary_json (malloc'd, free with drape_run_result_free) is the
 * content of summary.json plus "out", unformatted; NULL when the run never started. */
typedef struct drape_run_result {
	drape_status status;
	int exit_status;     /* what the drape command exits with: 0, 1 I/O, 2 input, 3 diverged, 130 */
	bool started;        /* false: nothing was written (bad scene, options or output folder) */
	int32_t failed_frame; /* the frame whose step failed, else -1 */
	int32_t frames_written;
	double simulated_time;
	double wall_seconds;
	drape_stats totals; /* summed over frames; min_dt/max_dt over frames */
	char error[1024];   /* "" when status is DRAPE_OK */
	char* summary_json;
} drape_run_result;

/* Loads the scene (unless def->scene), checks everything, prepares out_dir, then steps frame by
 * frame writing the chosen formats, stats.csv and summary.json (docs/caches.md). Bad input is
 * reported before anything is written. Fills *result (always). */
drape_status drape_run(const drape_run_def* def, drape_run_result* result);
void drape_run_result_free(drape_run_result* result);

#ifdef __cplusplus
}
#endif
#endif
