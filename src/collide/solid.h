/* Solids the cloth collides with (sec. 2.1, 6): analytic shapes and triangle meshes, static,
 * rigidly keyframed or deforming, with their placement at the start and end of each step and the
 * queries contact detection needs. */
#ifndef DRAPE_SOLID_H
#define DRAPE_SOLID_H

#include "drape.h"

#include "aabb.h"
#include "bvh.h"
#include "shapes.h"
#include "transform.h"

typedef struct solid_data {
	char* name;
	drape_solid_shape kind;
	shape shape; /* analytic solids, in the solid's frame */
	double thickness;
	double friction;
	/* rigid placement: poses (keyframed) or one static pose */
	drape_pose* poses;
	int32_t pose_count;
	xform pose;
	/* meshes */
	int32_t vertex_count, triangle_count;
	int32_t* triangles;   /* oriented so that normals point outside */
	/* Cloth is held on both sides of the surface (drape_solid_sides), each particle on the side it
	 * came from; open_edges has, per face, bit k set when its edge from corner k to k + 1 belongs
	 * to no other face, and bit 3 + k when its corner k lies on such an edge: where a particle may
	 * go round from one side to the other. */
	bool two_sided;
	uint8_t* open_edges;
	/* Closed one-sided meshes only (else NULL): the outer surface (docs/collide.md, "Where the body
	 * overlaps itself"). A skinned body's mesh may overlap itself (a wrist bent into the forearm);
	 * what lies inside another part of it is no surface cloth can touch. Per face, what is known at
	 * the step's start: 0 not yet asked, FACE_EXPOSED, FACE_BURIED (wholly inside) or FACE_CUT (cut
	 * by another face: asked at each point found on it); reset when the mesh deforms. */
	uint8_t* face_kinds;
	double* rest;         /* 3 * vertex_count, the mesh in the solid's frame */
	double* frames;       /* frame_count * 3 * vertex_count, deforming meshes */
	double* frame_times;
	int32_t frame_count;
	/* an animated character (src/character/): skinned at every step, into pose0 (at time posed0)
	 * and pose1 (posed1), so a step that follows an accepted one skins only its end */
	struct drape_character* character;
	double *pose0, *pose1;
	double posed0, posed1;
	vec3* v0;             /* world vertex positions at the step's start */
	vec3* v1;             /* ... and end */
	aabb* boxes;          /* per face: swept over the step, grown by the thickness */
	bvh tree;
	bool tree_built;
	/* placement at the step's start and end */
	xform x0, x1;
	double t0, t1;
} solid_data;

enum { FACE_EXPOSED = 1, FACE_BURIED = 2, FACE_CUT = 3 };

/* A point of contact with a solid: where, which way is out, and how the surface point moves. */
typedef struct solid_point {
	double distance; /* signed, from the surface (not the thickness layer); < 0 inside */
	vec3 point;      /* closest surface point at the step's start */
	vec3 point_end;  /* the same material point of the solid at the step's end */
	vec3 normal;     /* outward unit normal at the step's end */
	/* Two-sided solids: the side of the surface the particle is held on (+1 where the face's
	 * normal points, -1 behind it; the normal above already points to it). `free_side`: the
	 * closest point is on a boundary edge or corner and the particle is beyond it, where it may
	 * pass from one side to the other without crossing the surface. One-sided: +1 and false. */
	signed char side;
	bool free_side;
} solid_point;

/* Places every solid at t and t + h (poses, mesh vertices, bounding boxes). */
void solids_begin_step(drape_world* w, double t, double h);

/* The closest surface point of solid s to x (a particle's position at the step's start), if
 * within `reach` of the surface (outside) or inside it. For a two-sided solid, `side` (+1 or -1)
 * is the side the particle is known to be on (0: none known, then the side x is on): distance
 * and normal are measured from that side, so a particle that got through the surface is pushed
 * back to where it came from (docs/collide.md, "Open meshes: both sides"). */
bool solid_closest(drape_world* w, int32_t s, vec3 x, double reach, int side, solid_point* out);

/* As solid_closest, but only the surface that faces `facing` counts: the closest point among the
 * faces whose outward normal has a positive component along it (an analytic solid's closest point
 * if its normal does). For cloth pinched between two surfaces of solids, whose layers must each be
 * held by the surface on their own side (collide/contact.c, docs/collide.md "Pinched layers").
 * One-sided solids only: false for a two-sided one. */
bool solid_closest_facing(drape_world* w, int32_t s, vec3 x, double reach, vec3 facing, solid_point* out);

/* As solid_closest for a point x at the step's end (a particle's proposed position), measured
 * from the surface as it is placed there (`point` is the same material point at the step's start).
 * One-sided solids only: false for a two-sided one. For a contact that would end its step inside
 * the solid all the same (collide/contact.c, docs/collide.md "Contacts end outside"). */
bool solid_closest_end(drape_world* w, int32_t s, vec3 x, double reach, solid_point* out);

/* Whether x lies inside solid s, deeper than `depth` below its surface, at the step's end (a closed
 * mesh by its winding number, so also where two parts of it overlap; planes never: their far side
 * is contact's business). For the `penetrating` count (docs/characters.md) and, with depth 0,
 * contacts that end a step inside (collide/contact.c). */
bool solid_inside_end(drape_world* w, int32_t s, vec3 x, double depth);

/* The first point where the straight path a -> b over the step meets solid s's surface grown by
 * its thickness (continuous detection: fast particles cannot tunnel). Two-sided solids: the
 * path's first crossing of a face, or its entry into the thickness around a boundary edge; `side`
 * as for solid_closest, the side a is on when 0. */
bool solid_path_hit(drape_world* w, int32_t s, vec3 a, vec3 b, int side, solid_point* out);

/* The solid's placement at time t (keyframes interpolated as the steps do), and vertex v of a mesh
 * solid in the world at time t (deforming frames too): for drawing a world at any time. */
xform solid_pose_at(const solid_data* s, double t);
vec3 solid_mesh_vertex_at(const solid_data* s, int32_t v, double t);
/* Every vertex of a mesh solid in the world at time t (characters are skinned once for all). */
void solid_mesh_vertices_at(const solid_data* s, double t, vec3* out);

void solid_free(solid_data* s);

#endif
