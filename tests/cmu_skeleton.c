/* The CMU skeleton's rest pose, copied from the OFFSET lines of the HIERARCHY of
 * /usr/share/assimp/models/BVH/01_01.bvh (CMU motion-capture database, mocap.cs.cmu.edu, created
 * with funding from NSF EIA-0196217; free for any use). Hard-coded so the tests need no BVH
 * loader; End Sites are left out as a skeleton loader would. */
#include "cmu_skeleton.h"

static const struct {
	const char* name;
	int parent;
	double offset[3]; /* file units, y up, z forward */
} bvh[CMU_JOINT_COUNT] = {
	{"Hips", -1, {0, 0, 0}},
	{"LHipJoint", 0, {0, 0, 0}},
	{"LeftUpLeg", 1, {1.36306, -1.79463, 0.83929}},
	{"LeftLeg", 2, {2.44811, -6.72613, 0}},
	{"LeftFoot", 3, {2.56220, -7.03959, 0}},
	{"LeftToeBase", 4, {0.15764, -0.43311, 2.32255}},
	{"RHipJoint", 0, {0, 0, 0}},
	{"RightUpLeg", 6, {-1.30552, -1.79463, 0.83929}},
	{"RightLeg", 7, {-2.54253, -6.98555, 0}},
	{"RightFoot", 8, {-2.56826, -7.05623, 0}},
	{"RightToeBase", 9, {-0.16473, -0.45259, 2.36315}},
	{"LowerBack", 0, {0, 0, 0}},
	{"Spine", 11, {0.02827, 2.03559, -0.19338}},
	{"Spine1", 12, {0.05672, 2.04885, -0.04275}},
	{"Neck", 13, {0, 0, 0}},
	{"Neck1", 14, {-0.05417, 1.74624, 0.17202}},
	{"Head", 15, {0.10407, 1.76136, -0.12397}},
	{"LeftShoulder", 13, {0, 0, 0}},
	{"LeftArm", 17, {3.36241, 1.20089, -0.31121}},
	{"LeftForeArm", 18, {4.98300, 0, 0}},
	{"LeftHand", 19, {3.48356, 0, 0}},
	{"LeftFingerBase", 20, {0, 0, 0}},
	{"LFingers", 21, {0.71526, 0, 0}},
	{"LThumb", 20, {0, 0, 0}},
	{"RightShoulder", 13, {0, 0, 0}},
	{"RightArm", 24, {-3.13660, 1.37405, -0.40465}},
	{"RightForeArm", 25, {-5.24190, 0, 0}},
	{"RightHand", 26, {-3.44417, 0, 0}},
	{"RightFingerBase", 27, {0, 0, 0}},
	{"RFingers", 28, {-0.62253, 0, 0}},
	{"RThumb", 27, {0, 0, 0}},
};

void cmu_skeleton(double scale, double hips_height, mannequin_joint out[CMU_JOINT_COUNT])
{
	for (int i = 0; i < CMU_JOINT_COUNT; ++i) {
		int p = bvh[i].parent;
		out[i].name = bvh[i].name;
		out[i].parent = p;
		/* parents come first in the file, so their positions are known */
		double base[3] = {0.0, 0.0, hips_height};
		if (p >= 0)
			for (int d = 0; d < 3; ++d) base[d] = out[p].pos[d];
		const double* o = bvh[i].offset;
		out[i].pos[0] = base[0] + scale * o[0];
		out[i].pos[1] = base[1] - scale * o[2];
		out[i].pos[2] = base[2] + scale * o[1];
	}
}
