/* Layers of cloth (docs/collide.md, "Layers"): each cloth has a layer, 0 next to the skin, higher
 * further out. A cloth/cloth pair between cloths of different layers gets its repulsion normal
 * from the layers, not from where the two happen to be: the outer feature belongs on the outer
 * side of the inner cloth, which is the side its triangles' winding faces. */
#ifndef DRAPE_CLOTH_LAYERS_H
#define DRAPE_CLOTH_LAYERS_H

#include <stdbool.h>
#include <stdint.h>

#include "../math/vec3.h"

typedef struct drape_world drape_world;
typedef struct cloth_pairs cloth_pairs;

/* The most intersecting triangle pairs between layers looked at per step (cloth_layers_pulls). */
#define LAYER_PULL_PAIRS 512

/* A particle found on the wrong side of a triangle of another layer, to be pulled back across:
 * a vertex/triangle repulsion element (p, t at barycentric bary) with the layers' normal. */
typedef struct layer_pull {
	int32_t p, t;
	double bary[3];
	vec3 normal;
} layer_pull;

/* Per-particle layers and outward vertex normals, kept by the world between steps. */
typedef struct cloth_layers {
	bool active;         /* some two cloths have different layers (set by cloth_layers_update) */
	int32_t* layer;      /* particle_count: its cloth's layer */
	vec3* normal;        /* particle_count: area-weighted winding normal at the step's start */
	int32_t capacity;
	int32_t* pairs;      /* 2 LAYER_PULL_PAIRS: intersecting triangle pairs (scratch) */
	layer_pull* pulls;   /* 6 LAYER_PULL_PAIRS: this step's pulls */
	int32_t pull_count;
	uint8_t* pulled;     /* particle_count: taken by a pull this step (scratch, all zero between calls) */
	uint8_t* role;       /* particle_count: LAYER_INNER and/or LAYER_OUTER, its part in this step's
			      * pairs between layers (cloth_layers_mark) */
} cloth_layers;

/* A particle's part in pairs between layers at the step's start: the inner side of some pair (a
 * cloth of a higher layer lies on its outer side) and/or the outer side of one. */
enum { LAYER_INNER = 1, LAYER_OUTER = 2 };

void cloth_layers_free(cloth_layers* l);

/* Fills l from w's cloths (after each topology change): whether any two layers differ and, if
 * so, each particle's layer. Returns false on allocation failure. */
bool cloth_layers_setup(cloth_layers* l, const drape_world* w);

/* Each particle's outward normal at positions x (the step's start), when l is active. */
void cloth_layers_normals(cloth_layers* l, const drape_world* w, const vec3* x);

/* Vertex p and triangle t (its corners at a, b, c): when their layers differ, *normal becomes
 * t's unit winding normal, negated when p is the inner one, so that n . (x_p - x_t) > 0 is the
 * order of the layers. Left as it is for equal layers or a degenerate triangle. */
void cloth_layers_orient_vf(const cloth_layers* l, const drape_world* w, int32_t p, int32_t t, vec3 a, vec3 b, vec3 c,
			    vec3* normal);

/* Edges e0 (at parameter s) and e1 (at u), normal from e1 toward e0: when their layers differ,
 * *normal becomes the inner edge's outward normal at its contact point (from the vertex
 * normals), negated when e0 is the inner edge. Left as it is otherwise. */
void cloth_layers_orient_ee(const cloth_layers* l, const int32_t e0[2], const int32_t e1[2], double s, double u,
			    vec3* normal);

/* Clears every particle's role (call once per step before cloth_layers_mark). */
void cloth_layers_clear_roles(cloth_layers* l, const drape_world* w);

/* A repulsion element over node[0..3], of which the first `near` are one side (a vertex, or an
 * edge) and the rest the other: when the two sides' layers differ, the lower side's particles
 * get LAYER_INNER and the higher side's LAYER_OUTER. */
void cloth_layers_mark(cloth_layers* l, const int32_t node[4], int near);

/* Where particle i of a pair between layers should take its solid contact from: the surface
 * behind it (its inner side) when it is only an inner one, the surface in front of it when only
 * an outer one (docs/collide.md, "Pinched layers"). Writes the direction the wanted surface's
 * outward normal points along (the particle's outward normal, or its opposite) and returns true;
 * false when l is inactive or the particle has no single role. */
bool cloth_layers_contact_side(const cloth_layers* l, int32_t i, vec3* facing);

/* Where cloths of different layers intersect at x (the step's start), the particles on the wrong
 * side of the other cloth's intersecting triangle, each pulled back across it (Baraff, Witkin and
 * Kass 2003 decide which side of an intersection is wrong by a global analysis; between layers
 * the layers decide). Sec. 6's proximity pairs reach only particles within the thickness, so a
 * fold of an inner garment caught outside an outer one (a seam closing over it) would otherwise
 * stay there. Fills l->pulls and returns their count, or -1 when the count failed (allocation,
 * budget, interrupted). Nothing when l is inactive or w has no intersection. */
int32_t cloth_layers_pulls(cloth_layers* l, const drape_world* w, cloth_pairs* d, const vec3* x);

/* How many triangle pairs of cloths of different layers intersect at w's positions (between
 * steps), 0 when the layers are inactive; -1 when the count failed (allocation, budget,
 * interrupted). */
int32_t cloth_layers_between(drape_world* w);

#endif
