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

/* Per-particle layers and outward vertex normals, kept by the world between steps. */
typedef struct cloth_layers {
	bool active;         /* some two cloths have different layers (set by cloth_layers_update) */
	int32_t* layer;      /* particle_count: its cloth's layer */
	vec3* normal;        /* particle_count: area-weighted winding normal at the step's start */
	int32_t capacity;
} cloth_layers;

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

#endif
