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

#endif
