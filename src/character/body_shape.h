/* The mannequin's implicit shape (body_shape.c): tapered capsules and ellipsoids placed on the
 * skeleton's joints, joined by smooth minima into five parts (torso with neck and head, two arms
 * with hands, two legs with feet) and the parts into one body. See docs/mannequin.md. */
#ifndef DRAPE_BODY_SHAPE_H
#define DRAPE_BODY_SHAPE_H

#include "character/mannequin.h"
#include "math/vec3.h"

enum { BODY_TORSO, BODY_LEFT_ARM, BODY_RIGHT_ARM, BODY_LEFT_LEG, BODY_RIGHT_LEG, BODY_PARTS };

#define BODY_MAX_PRIMS 48

typedef struct body_prim {
	int kind; /* 0: tapered capsule a-b with radii ra, rb; 1: ellipsoid at a with axes e[] and radii r[] */
	int part;
	double blend; /* smooth-minimum radius with which it joins the part built so far */
	vec3 a, b;
	double ra, rb;
	vec3 e[3];
	double r[3];
} body_prim;

typedef struct body_shape {
	body_prim prims[BODY_MAX_PRIMS];
	int prim_count;
	double part_blend[BODY_PARTS]; /* radius with which each part joins the torso (and the parts before) */
	vec3 up, left, forward; /* the body's frame: +Z, towards its left, the way it faces */
	double scale;           /* 1 for a leg (hip to ankle) of 0.92 m; every size scales with it */
	vec3 lo, hi;            /* a box holding the whole body */
} body_shape;

/* Joint index by name, -1 when absent. */
int body_find_joint(const mannequin_joint* joints, int32_t count, const char* name);

/* Places the primitives; false with a message naming the joint when a needed one is missing,
 * misplaced or degenerate. */
bool body_shape_make(const mannequin_joint* joints, int32_t count, body_shape* s, char* err, size_t err_size);

/* The body's implicit function at p (negative inside, about metres); part, when not NULL, receives
 * each part's own function. */
double body_field(const body_shape* s, const double p[3], double part[BODY_PARTS]);

/* body_field without the parts, in the shape the mesher wants. */
double body_field_cb(const void* shape, const double p[3]);

#endif
