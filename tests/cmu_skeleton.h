/* The rest pose of the CMU motion-capture skeleton (BVH/01_01.bvh of Debian's assimp-testmodels),
 * as mannequin joints: a fixture for the mannequin tests and tools that needs no BVH loader. */
#ifndef DRAPE_TEST_CMU_SKELETON_H
#define DRAPE_TEST_CMU_SKELETON_H

#include "character/mannequin.h"

#define CMU_JOINT_COUNT 31

/* The CMU database's usual factor from its BVH units to metres (1/0.45 inch per unit). */
#define CMU_METRES_PER_UNIT 0.056444

/* The scale of the tests: a body 1.75 m tall (docs/mannequin.md). */
#define CMU_TEST_SCALE 0.0618

/* Fills out[CMU_JOINT_COUNT] with the joints of 01_01.bvh's HIERARCHY in file order, positions
 * in metres (scale metres per file unit) with Z up: the file's y up, z forward become z up,
 * -y forward. The root (Hips) lands at (0, 0, hips_height). */
void cmu_skeleton(double scale, double hips_height, mannequin_joint out[CMU_JOINT_COUNT]);

/* Row-major rotation by angle (radians) about the axis (x, y, z). */
void cmu_axis_angle(double x, double y, double z, double angle, double r[9]);

/* Identity rotations, then the test pose of docs/mannequin.md: the left upper arm 45 degrees
 * down, the left elbow bent 90 degrees forward, the right knee bent 90 degrees back. */
void cmu_test_pose(double (*local)[9]);

/* Linear blend skinning: the joints' world transforms for local rotations about their rest
 * positions (parents first, as in the file: G_j = G_parent o rotation R_j about joint j), and the
 * mesh's vertices blended by its weights into out (3 per vertex). */
void cmu_skin(const mannequin_joint* joints, const double (*local)[9], const mannequin_mesh* m, double* out);

#endif
