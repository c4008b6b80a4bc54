/* The CMU skeleton's rest pose, copied from the OFFSET lines of the HIERARCHY of
 * /usr/share/assimp/models/BVH/01_01.bvh (CMU motion-capture database, mocap.cs.cmu.edu, created
 * with funding from NSF EIA-0196217; free for any use). Hard-coded so the tests need no BVH
 * loader; End Sites are left out as a skeleton loader would. */
#include "cmu_skeleton.h"

#include <math.h>
#include <string.h>

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

void cmu_axis_angle(double x, double y, double z, double angle, double r[9])
{
	double l = sqrt(x * x + y * y + z * z);
	x /= l;
	y /= l;
	z /= l;
	double c = cos(angle), s = sin(angle), C = 1.0 - c;
	double m[9] = {c + x * x * C,     x * y * C - z * s, x * z * C + y * s, y * x * C + z * s, c + y * y * C,
		       y * z * C - x * s, z * x * C - y * s, z * y * C + x * s, c + z * z * C};
	memcpy(r, m, sizeof m);
}

static int find(const char* name)
{
	for (int i = 0; i < CMU_JOINT_COUNT; ++i)
		if (strcmp(bvh[i].name, name) == 0) return i;
	return 0;
}

void cmu_test_pose(double (*local)[9])
{
	const double pi = 3.14159265358979323846;
	for (int j = 0; j < CMU_JOINT_COUNT; ++j) cmu_axis_angle(0, 0, 1, 0.0, local[j]);
	/* the left arm points along +x and the body faces -y */
	cmu_axis_angle(0, 1, 0, pi / 4.0, local[find("LeftArm")]);
	cmu_axis_angle(0, 0, 1, -pi / 2.0, local[find("LeftForeArm")]);
	cmu_axis_angle(1, 0, 0, -pi / 2.0, local[find("RightLeg")]);
}

typedef struct rigid {
	double r[9];
	double t[3];
} rigid;

static void rigid_apply(const rigid* g, const double x[3], double y[3])
{
	for (int i = 0; i < 3; ++i) y[i] = g->r[3 * i] * x[0] + g->r[3 * i + 1] * x[1] + g->r[3 * i + 2] * x[2] + g->t[i];
}

void cmu_skin(const mannequin_joint* joints, const double (*local)[9], const mannequin_mesh* m, double* out)
{
	rigid g[CMU_JOINT_COUNT];
	for (int j = 0; j < CMU_JOINT_COUNT; ++j) {
		rigid own;
		memcpy(own.r, local[j], sizeof own.r);
		memset(own.t, 0, sizeof own.t);
		double rp[3];
		rigid_apply(&own, joints[j].pos, rp);
		for (int i = 0; i < 3; ++i) own.t[i] = joints[j].pos[i] - rp[i]; /* rotation about the joint */
		int pa = joints[j].parent;
		if (pa < 0) {
			g[j] = own;
			continue;
		}
		for (int r = 0; r < 3; ++r)
			for (int c = 0; c < 3; ++c) {
				double s = 0.0;
				for (int k = 0; k < 3; ++k) s += g[pa].r[3 * r + k] * own.r[3 * k + c];
				g[j].r[3 * r + c] = s;
			}
		rigid_apply(&g[pa], own.t, g[j].t);
	}
	for (int32_t v = 0; v < m->vertex_count; ++v) {
		double y[3] = {0, 0, 0}, gx[3];
		for (int k = 0; k < 4; ++k) {
			rigid_apply(&g[m->joints[4 * v + k]], m->positions + 3 * v, gx);
			for (int i = 0; i < 3; ++i) y[i] += m->weights[4 * v + k] * gx[i];
		}
		for (int i = 0; i < 3; ++i) out[3 * v + i] = y[i];
	}
}
