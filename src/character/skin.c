/* Skinning (docs/characters.md, "Skinning"): the rest mesh moved by its joints.
 *
 * Linear blend skinning averages the joints' matrices: x = sum_k w_k K_k x_rest. The average of two
 * rotations is not a rotation, so a joint turned far shrinks the skin around it (a wrist twisted
 * by 180 degrees collapses to its axis, the "candy wrapper"; the inside of a bent knee or elbow
 * caves in), and a body can pass into itself there.
 *
 * Dual quaternion skinning (Kavan, Collins, Zara and O'Sullivan 2008, "Geometric skinning with
 * approximate dual quaternion blending", sec. 4, "DLB") blends the joints' rigid motions instead:
 * each K_k = [s_k R_k | t_k] as a unit dual quaternion q_k + eps q0_k, the weighted sum normalised,
 * and applied to the point scaled by sum_k w_k s_k. The blend of rigid motions is rigid, so the
 * limb keeps its thickness through a twist. Joints must only turn, move and scale evenly: a
 * similarity per joint (character_check_rigid refuses the rest). */
#include "character.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Relative tolerance of "a rotation times a scale": rounding of products of a few dozen
 * matrices, far below any shear an exporter would mean. */
#define SIMILARITY_TOL 1e-6

static void linear_blend(const drape_character* c, const affine* k, double* out)
{
	for (int32_t v = 0; v < c->vertex_count; ++v) {
		double p[3] = {0.0, 0.0, 0.0};
		for (int i = 0; i < 4; ++i) {
			double w = c->skin_weight[4 * v + i];
			if (w == 0.0) continue;
			double q[3];
			affine_apply(&k[c->skin_joint[4 * v + i]], &c->rest[3 * v], q);
			for (int a = 0; a < 3; ++a) p[a] += w * q[a];
		}
		memcpy(&out[3 * v], p, sizeof p);
	}
}

static double det3(const double* m)
{
	return m[0] * (m[5] * m[10] - m[6] * m[9]) - m[1] * (m[4] * m[10] - m[6] * m[8]) + m[2] * (m[4] * m[9] - m[5] * m[8]);
}

/* a's even scale s = cbrt(|det|), rotation R = A / s as a unit quaternion, and translation. */
static void similarity_parts(const affine* a, double* scale, double q[4], double t[3])
{
	const double* m = a->m;
	double s = cbrt(fabs(det3(m)));
	double r[9];
	for (int i = 0; i < 3; ++i)
		for (int j = 0; j < 3; ++j) r[3 * i + j] = m[4 * i + j] / s;
	quat_from_matrix(r, q);
	*scale = s;
	t[0] = m[3], t[1] = m[7], t[2] = m[11];
}

bool affine_is_similarity(const affine* a)
{
	const double* m = a->m;
	double det = det3(m);
	if (!(det > 0.0) || !isfinite(det)) return false;
	double s = cbrt(det);
	/* R^T R = I within the tolerance, R = A / s: no shear, no uneven scale, no mirror. */
	for (int i = 0; i < 3; ++i) {
		for (int j = 0; j < 3; ++j) {
			double d = (m[i] * m[j] + m[4 + i] * m[4 + j] + m[8 + i] * m[8 + j]) / (s * s);
			if (fabs(d - (i == j ? 1.0 : 0.0)) > SIMILARITY_TOL) return false;
		}
	}
	return true;
}

/* A joint's skinning transform as a dual quaternion: real part q (its rotation), dual part
 * d = (0, t) q / 2, and its even scale. */
typedef struct dual_quat {
	double q[4], d[4], scale;
} dual_quat;

/* Every joint's transform is a similarity (character_check_rigid; products of similarities stay
 * ones, to rounding). */
static dual_quat dual_of(const affine* k)
{
	dual_quat x;
	double t[3];
	similarity_parts(k, &x.scale, x.q, t);
	double p[4] = {0.0, t[0], t[1], t[2]};
	quat_mul(p, x.q, x.d);
	for (int i = 0; i < 4; ++i) x.d[i] *= 0.5;
	return x;
}

static void dual_quaternion_blend(const drape_character* c, const affine* k, double* out)
{
	enum { MAX_STACK = 256 };
	dual_quat dq[MAX_STACK];
	int32_t n = c->joint_count < MAX_STACK ? c->joint_count : MAX_STACK;
	for (int32_t j = 0; j < n; ++j) dq[j] = dual_of(&k[j]);
	for (int32_t v = 0; v < c->vertex_count; ++v) {
		const double* w = &c->skin_weight[4 * v];
		const int32_t* jn = &c->skin_joint[4 * v];
		/* Antipodality: q and -q are the same rotation; each joint's sign is taken on the side
		 * of the heaviest influence's, so the blend goes the short way. */
		int pivot = 0;
		for (int i = 1; i < 4; ++i)
			if (w[i] > w[pivot]) pivot = i;
		const double* q0 = dq[jn[pivot]].q;
		double bq[4] = {0.0, 0.0, 0.0, 0.0}, bd[4] = {0.0, 0.0, 0.0, 0.0}, s = 0.0;
		for (int i = 0; i < 4; ++i) {
			if (w[i] == 0.0) continue;
			const dual_quat* x = &dq[jn[i]];
			double dot = x->q[0] * q0[0] + x->q[1] * q0[1] + x->q[2] * q0[2] + x->q[3] * q0[3];
			double ws = dot < 0.0 ? -w[i] : w[i];
			for (int a = 0; a < 4; ++a) {
				bq[a] += ws * x->q[a];
				bd[a] += ws * x->d[a];
			}
			s += w[i] * x->scale;
		}
		double len = sqrt(bq[0] * bq[0] + bq[1] * bq[1] + bq[2] * bq[2] + bq[3] * bq[3]);
		for (int a = 0; a < 4; ++a) {
			bq[a] /= len;
			bd[a] /= len;
		}
		/* t = 2 vec(d conj(q)) */
		double t[3] = {2.0 * (bq[0] * bd[1] - bd[0] * bq[1] + bq[2] * bd[3] - bq[3] * bd[2]),
			       2.0 * (bq[0] * bd[2] - bd[0] * bq[2] + bq[3] * bd[1] - bq[1] * bd[3]),
			       2.0 * (bq[0] * bd[3] - bd[0] * bq[3] + bq[1] * bd[2] - bq[2] * bd[1])};
		double r[9];
		quat_matrix(bq, r);
		const double* p = &c->rest[3 * v];
		for (int a = 0; a < 3; ++a) out[3 * v + a] = s * (r[3 * a] * p[0] + r[3 * a + 1] * p[1] + r[3 * a + 2] * p[2]) + t[a];
	}
}

void character_skin(const drape_character* c, const affine* k, double* out)
{
	if (c->skinning == DRAPE_SKINNING_DUAL_QUATERNION) dual_quaternion_blend(c, k, out);
	else linear_blend(c, k, out);
}

static bool even(const double s[3])
{
	return s[0] > 0.0 && fabs(s[1] - s[0]) <= SIMILARITY_TOL * s[0] && fabs(s[2] - s[0]) <= SIMILARITY_TOL * s[0];
}

bool character_check_rigid(const drape_character* c, char* err, size_t err_size)
{
	if (!affine_is_similarity(&c->to_world)) {
		snprintf(err, err_size, "dual_quaternion skinning: the file's axes are not a rotation and an even scale");
		return false;
	}
	for (int32_t i = 0; i < c->joint_count; ++i) {
		const character_joint* j = &c->joints[i];
		bool ok = even(j->rest.s) && affine_is_similarity(&j->inverse_bind);
		for (int32_t k = 0; ok && k < j->channel.scl_count; ++k) ok = even(&j->channel.scl[3 * k]);
		if (!ok) {
			snprintf(err, err_size,
				 "dual_quaternion skinning: joint '%s' shears or scales unevenly (rest, bind or clip); "
				 "use linear skinning for this rig", j->name);
			return false;
		}
	}
	return true;
}
