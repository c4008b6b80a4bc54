/* A smooth human mannequin generated around a motion-capture skeleton and skinned to it (issue 10,
 * item 3): blended tapered capsules and ellipsoids (mannequin_shape.c) meshed into one closed
 * surface (mesh/isosurface.h), with linear-blend-skinning weights (mannequin_skin.c). See
 * docs/mannequin.md. */
#ifndef DRAPE_MANNEQUIN_H
#define DRAPE_MANNEQUIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Rest-pose joint positions, metres, world frame, Z UP, parent -1 for the root; CMU BVH joint names
 * (Hips, LHipJoint, LeftUpLeg, LeftLeg, LeftFoot, LeftToeBase, RHipJoint, RightUpLeg, ...,
 * LowerBack, Spine, Spine1, Neck, Neck1, Head, LeftShoulder, LeftArm, LeftForeArm, LeftHand,
 * LeftFingerBase, LeftHandIndex1 or LFingers, LThumb, Right* ...). */
typedef struct mannequin_joint {
	const char* name;
	int parent;
	double pos[3];
} mannequin_joint;

typedef struct mannequin_mesh {
	int32_t vertex_count, triangle_count;
	double* positions;  /* 3 per vertex */
	int32_t* triangles; /* 3 per triangle: outward, counter-clockwise */
	/* 4 influences per vertex, weights sum to 1; a weight on joint j means the vertex follows joint
	 * j's transform: the segment from joint j to its child is moved by j's rotation */
	int32_t* joints;
	double* weights;
} mannequin_mesh;

/* The cell size that gives about 8,000 vertices for a 1.75 m adult (docs/mannequin.md). */
#define MANNEQUIN_DEFAULT_CELL 0.022

/* Builds the body around the skeleton in its rest pose (any pose of the arms, standing up along
 * +Z). cell_size (metres) is the grid spacing of the implicit surface: between 0.004 and 0.03.
 * The joints needed: Hips, Spine or Spine1, Head, and for both sides UpLeg, Leg, Foot, Arm,
 * ForeArm, Hand; the others refine the shape when present. False, with a message naming the
 * joint or value, on bad input; *out is then zeroed. */
bool mannequin_build(const mannequin_joint* joints, int32_t joint_count, double cell_size, mannequin_mesh* out,
		     char* err, size_t err_size);

void mannequin_free(mannequin_mesh* m);

#endif
