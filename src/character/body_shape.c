/* The mannequin's implicit shape: tapered capsules and ellipsoids on the skeleton's joints, joined
 * by polynomial smooth minima, so that shoulders, armpits, hips and crotch get rounded fillets
 * instead of creases (issue 10 item 3). Sizes are those of a 1.75 m adult with the CMU skeleton's 0.92 m legs, scaled by the
 * skeleton's leg length. See docs/mannequin.md for the proportions. */
#include "character/body_shape.h"

#include "core.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Leg length (hip joint to knee to ankle) for which the sizes below are given, metres. */
#define REFERENCE_LEG 0.92

int body_find_joint(const mannequin_joint* joints, int32_t count, const char* name)
{
	for (int32_t i = 0; i < count; ++i)
		if (joints[i].name && strcmp(joints[i].name, name) == 0) return (int)i;
	return -1;
}

/* Polynomial smooth minimum (Quilez): equal to min(a, b) where they differ by more than k, a
 * rounded fillet of radius about k where they meet. */
static double smin(double a, double b, double k)
{
	if (k <= 0.0) return a < b ? a : b;
	double h = k - fabs(a - b);
	if (h <= 0.0) return a < b ? a : b;
	h /= k;
	return (a < b ? a : b) - 0.25 * h * h * k;
}

static double prim_field(const body_prim* q, vec3 p)
{
	if (q->kind == 0) {
		vec3 ab = v3_sub(q->b, q->a), ap = v3_sub(p, q->a);
		double t = v3_dot(ap, ab) / v3_len2(ab);
		t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
		return v3_len(v3_sub(ap, v3_scale(ab, t))) - (q->ra + t * (q->rb - q->ra));
	}
	/* ellipsoid: the bound k0 (k0 - 1) / k1 of Quilez, exact on the axes, about a distance near
	 * the surface */
	vec3 d = v3_sub(p, q->a);
	double k0 = 0.0, k1 = 0.0;
	for (int i = 0; i < 3; ++i) {
		double x = v3_dot(d, q->e[i]);
		k0 += (x / q->r[i]) * (x / q->r[i]);
		k1 += (x / (q->r[i] * q->r[i])) * (x / (q->r[i] * q->r[i]));
	}
	k0 = sqrt(k0);
	k1 = sqrt(k1);
	if (k1 == 0.0) return -fmin(q->r[0], fmin(q->r[1], q->r[2]));
	return k0 * (k0 - 1.0) / k1;
}

double body_field(const body_shape* s, const double p[3], double part[BODY_PARTS])
{
	double v[BODY_PARTS];
	bool seen[BODY_PARTS] = {false};
	vec3 x = v3_load(p);
	for (int i = 0; i < s->prim_count; ++i) {
		const body_prim* q = &s->prims[i];
		double f = prim_field(q, x);
		v[q->part] = seen[q->part] ? smin(v[q->part], f, q->blend) : f;
		seen[q->part] = true;
	}
	double body = v[BODY_TORSO];
	for (int k = 1; k < BODY_PARTS; ++k) body = smin(body, v[k], s->part_blend[k]);
	if (part)
		for (int k = 0; k < BODY_PARTS; ++k) part[k] = v[k];
	return body;
}

double body_field_cb(const void* shape, const double p[3]) { return body_field(shape, p, NULL); }

static vec3 joint_pos(const mannequin_joint* j, int i) { return v3_load(j[i].pos); }

static vec3 horizontal(vec3 a) { return v3(a.x, a.y, 0.0); }

static void add_capsule(body_shape* s, int part, double blend, vec3 a, vec3 b, double ra, double rb)
{
	body_prim* q = &s->prims[s->prim_count++];
	memset(q, 0, sizeof *q);
	q->kind = 0;
	q->part = part;
	q->blend = blend * s->scale;
	q->a = a;
	q->b = b;
	q->ra = ra * s->scale;
	q->rb = rb * s->scale;
}

/* Ellipsoid centred at c with radii r0, r1, r2 (scaled) along the orthonormal axes e0, e1, e2. */
static void add_ellipsoid(body_shape* s, int part, double blend, vec3 c, vec3 e0, vec3 e1, vec3 e2, double r0,
			  double r1, double r2)
{
	body_prim* q = &s->prims[s->prim_count++];
	memset(q, 0, sizeof *q);
	q->kind = 1;
	q->part = part;
	q->blend = blend * s->scale;
	q->a = c;
	q->e[0] = e0;
	q->e[1] = e1;
	q->e[2] = e2;
	q->r[0] = r0 * s->scale;
	q->r[1] = r1 * s->scale;
	q->r[2] = r2 * s->scale;
}

typedef struct side_joints {
	int up_leg, leg, foot, toe, arm, fore_arm, hand, fingers;
} side_joints;

static bool need(const mannequin_joint* joints, int32_t count, const char* name, int* out, char* err,
		 size_t err_size)
{
	*out = body_find_joint(joints, count, name);
	if (*out < 0) return core_fail(err, err_size, "mannequin: the skeleton has no joint named %s", name);
	return true;
}

static bool find_side(const mannequin_joint* joints, int32_t count, bool left, side_joints* sj, char* err,
		      size_t err_size)
{
	const char* side = left ? "Left" : "Right";
	char name[64];
	static const char* const needed[] = {"UpLeg", "Leg", "Foot", "Arm", "ForeArm", "Hand"};
	int* slots[] = {&sj->up_leg, &sj->leg, &sj->foot, &sj->arm, &sj->fore_arm, &sj->hand};
	for (int i = 0; i < 6; ++i) {
		snprintf(name, sizeof name, "%s%s", side, needed[i]);
		if (!need(joints, count, name, slots[i], err, err_size)) return false;
	}
	snprintf(name, sizeof name, "%sToeBase", side);
	sj->toe = body_find_joint(joints, count, name);
	snprintf(name, sizeof name, "%sHandIndex1", side);
	sj->fingers = body_find_joint(joints, count, name);
	if (sj->fingers < 0) sj->fingers = body_find_joint(joints, count, left ? "LFingers" : "RFingers");
	/* the bones the shape hangs on must have length */
	int chain[][2] = {{sj->up_leg, sj->leg}, {sj->leg, sj->foot}, {sj->arm, sj->fore_arm}, {sj->fore_arm, sj->hand}};
	for (int i = 0; i < 4; ++i) {
		double l = v3_len(v3_sub(joint_pos(joints, chain[i][0]), joint_pos(joints, chain[i][1])));
		if (!(l > 1e-3))
			return core_fail(err, err_size, "mannequin: the bone %s -> %s is %g m long", joints[chain[i][0]].name,
					 joints[chain[i][1]].name, l);
	}
	return true;
}

/* An orthonormal frame whose first axis is along d, second as close to hint as possible. */
static void frame_along(vec3 d, vec3 hint, vec3 e[3])
{
	e[0] = v3_normalize(d);
	vec3 h = v3_madd(hint, -v3_dot(hint, e[0]), e[0]);
	if (v3_len(h) < 1e-6) {
		vec3 alt = fabs(e[0].z) < 0.9 ? v3(0, 0, 1) : v3(1, 0, 0);
		h = v3_madd(alt, -v3_dot(alt, e[0]), e[0]);
	}
	e[1] = v3_normalize(h);
	e[2] = v3_cross(e[0], e[1]);
}

static void add_leg(body_shape* s, const mannequin_joint* j, const side_joints* sj, int part)
{
	vec3 hip = joint_pos(j, sj->up_leg), knee = joint_pos(j, sj->leg), ankle = joint_pos(j, sj->foot);
	double k = s->scale;
	add_capsule(s, part, 0.0, hip, knee, 0.085, 0.054);
	add_capsule(s, part, 0.02, knee, ankle, 0.052, 0.034);
	/* the calf: an ellipsoid behind the upper shin */
	vec3 shin[3];
	frame_along(v3_sub(ankle, knee), v3_neg(s->forward), shin);
	vec3 calf = v3_madd(v3_add(v3_scale(knee, 0.68), v3_scale(ankle, 0.32)), 0.014 * k, shin[1]);
	add_ellipsoid(s, part, 0.05, calf, shin[0], shin[1], shin[2], 0.13, 0.05, 0.048);
	/* the foot: heel, arch and forefoot ellipsoids along the foot's direction, on a flat-ish sole */
	vec3 toe = sj->toe >= 0 ? joint_pos(j, sj->toe) : v3_madd(ankle, 0.14 * k, s->forward);
	vec3 fd = v3_normalize(horizontal(v3_sub(toe, ankle)));
	if (v3_len(fd) < 0.5) fd = s->forward;
	vec3 e[3];
	frame_along(fd, s->up, e); /* e[0] along the foot, e[1] up, e[2] across */
	double sole = fmin(ankle.z - 0.075 * k, toe.z - 0.03 * k);
	vec3 heel = horizontal(v3_madd(ankle, 0.005 * k, fd));
	vec3 ball = horizontal(v3_madd(toe, 0.0, fd));
	heel.z = sole + 0.046 * k;
	ball.z = sole + 0.024 * k;
	vec3 arch = v3_scale(v3_add(heel, ball), 0.5);
	arch.z = sole + 0.036 * k;
	add_ellipsoid(s, part, 0.03, heel, e[0], e[1], e[2], 0.062, 0.05, 0.038);
	add_ellipsoid(s, part, 0.03, arch, e[0], e[1], e[2], 0.075, 0.038, 0.043);
	add_ellipsoid(s, part, 0.03, ball, e[0], e[1], e[2], 0.062, 0.025, 0.046);
}

static void add_arm(body_shape* s, const mannequin_joint* j, const side_joints* sj, int part)
{
	vec3 shoulder = joint_pos(j, sj->arm), elbow = joint_pos(j, sj->fore_arm), wrist = joint_pos(j, sj->hand);
	add_capsule(s, part, 0.0, shoulder, elbow, 0.05, 0.038);
	add_capsule(s, part, 0.02, elbow, wrist, 0.039, 0.028);
	/* the hand: a mitten, flat across the palm, pointing along the fingers (or the forearm) */
	vec3 dir = v3_sub(wrist, elbow);
	if (sj->fingers >= 0 && v3_len(v3_sub(joint_pos(j, sj->fingers), wrist)) > 0.01 * s->scale)
		dir = v3_sub(joint_pos(j, sj->fingers), wrist);
	vec3 e[3];
	frame_along(dir, s->forward, e); /* e[1]: across the palm, e[2]: its normal */
	vec3 c = v3_madd(wrist, 0.085 * s->scale, e[0]);
	add_ellipsoid(s, part, 0.025, c, e[0], e[1], e[2], 0.095, 0.045, 0.022);
}

bool body_shape_make(const mannequin_joint* joints, int32_t count, body_shape* s, char* err, size_t err_size)
{
	memset(s, 0, sizeof *s);
	int hips, chest, head;
	side_joints L, R;
	if (!need(joints, count, "Hips", &hips, err, err_size)) return false;
	chest = body_find_joint(joints, count, "Spine1");
	if (chest < 0 && !need(joints, count, "Spine", &chest, err, err_size)) return false;
	head = body_find_joint(joints, count, "Head");
	if (head < 0 && !need(joints, count, "Head", &head, err, err_size)) return false;
	if (!find_side(joints, count, true, &L, err, err_size) || !find_side(joints, count, false, &R, err, err_size))
		return false;
	/* The torso's top is where the neck and the clavicles branch: CMU's Spine1 is there, but
	 * Biovision's Chest (mapped to Spine1, joint_map.c) and Mixamo's Spine2 lie lower, with the Neck
	 * above them; the Neck's base is the same place in every scheme (CMU's Neck sits on Spine1). */
	int neck = body_find_joint(joints, count, "Neck");
	if (neck >= 0 && joint_pos(joints, neck).z > joint_pos(joints, chest).z &&
	    joint_pos(joints, neck).z < joint_pos(joints, head).z)
		chest = neck;
	vec3 p_hips = joint_pos(joints, hips), p_chest = joint_pos(joints, chest), p_head = joint_pos(joints, head);
	if (!(p_head.z > p_chest.z && p_chest.z > p_hips.z && p_hips.z > joint_pos(joints, L.foot).z &&
	      p_hips.z > joint_pos(joints, R.foot).z))
		return core_fail(err, err_size,
				 "mannequin: the skeleton does not stand up along +Z (Head, %s, Hips and feet should "
				 "be in that order from the top)",
				 joints[chest].name);
	s->up = v3(0, 0, 1);
	s->left = v3_normalize(horizontal(v3_sub(joint_pos(joints, L.up_leg), joint_pos(joints, R.up_leg))));
	if (v3_len(s->left) < 0.5)
		s->left = v3_normalize(horizontal(v3_sub(joint_pos(joints, L.arm), joint_pos(joints, R.arm))));
	if (v3_len(s->left) < 0.5)
		return core_fail(err, err_size, "mannequin: LeftUpLeg and RightUpLeg (and the arms) are at the same place");
	/* facing: where the toes point, else left x up (a right-handed frame) */
	s->forward = v3_cross(s->left, s->up);
	if (L.toe >= 0 && R.toe >= 0) {
		vec3 f = v3_add(horizontal(v3_sub(joint_pos(joints, L.toe), joint_pos(joints, L.foot))),
				horizontal(v3_sub(joint_pos(joints, R.toe), joint_pos(joints, R.foot))));
		f = v3_madd(f, -v3_dot(f, s->left), s->left);
		if (v3_len(f) > 1e-6) s->forward = v3_normalize(f);
	}
	double leg = 0.5 * (v3_len(v3_sub(joint_pos(joints, L.up_leg), joint_pos(joints, L.leg))) +
			    v3_len(v3_sub(joint_pos(joints, L.leg), joint_pos(joints, L.foot))) +
			    v3_len(v3_sub(joint_pos(joints, R.up_leg), joint_pos(joints, R.leg))) +
			    v3_len(v3_sub(joint_pos(joints, R.leg), joint_pos(joints, R.foot))));
	s->scale = leg / REFERENCE_LEG;
	if (!(s->scale > 0.2 && s->scale < 5.0))
		return core_fail(err, err_size,
				 "mannequin: legs of %g m are not a human's in metres (the skeleton needs scaling)", leg);
	double k = s->scale;
	vec3 U = s->up, F = s->forward, Lf = s->left;

	/* torso: pelvis, belly and chest ellipsoids (wider than deep), a shoulder girdle, the neck and
	 * the head, blended generously so that the outline is smooth */
	vec3 shoulder_l = joint_pos(joints, L.arm), shoulder_r = joint_pos(joints, R.arm);
	/* The pelvis hangs from the hip joints: CMU's Hips joint is 11 cm above them, Biovision's and
	 * Mixamo's at or near their height, where a pelvis placed from the Hips joint would sit too low.
	 * Their torsos are also longer than CMU's (hip joints to neck 53 cm in Boxing_Toes.bvh, 36 cm
	 * in CMU): the belly grows to reach from the pelvis to the chest. Neither changes CMU's body. */
	vec3 hip_mid = v3_scale(v3_add(joint_pos(joints, L.up_leg), joint_pos(joints, R.up_leg)), 0.5);
	vec3 pelvis = p_hips;
	double raise = hip_mid.z + 0.10 * k - p_hips.z;
	if (raise > 0.0) pelvis = v3_madd(p_hips, raise, U);
	add_ellipsoid(s, BODY_TORSO, 0.0, v3_madd(v3_madd(pelvis, -0.05 * k, U), 0.005 * k, F), Lf, F, U, 0.158, 0.095,
		      0.12);
	vec3 belly = v3_add(v3_scale(pelvis, 0.55), v3_scale(p_chest, 0.45));
	double reach = fmax(belly.z - (pelvis.z + 0.07 * k), p_chest.z - 0.18 * k - belly.z) + 0.05 * k;
	add_ellipsoid(s, BODY_TORSO, 0.08, v3_madd(belly, 0.005 * k, F), Lf, F, U, 0.138, 0.098, fmax(0.13, reach / k));
	add_ellipsoid(s, BODY_TORSO, 0.08, v3_madd(v3_madd(p_chest, -0.05 * k, U), 0.012 * k, F), Lf, F, U, 0.155,
		      0.105, 0.13);
	vec3 girdle_l = v3_madd(v3_madd(shoulder_l, -0.035 * k, Lf), -0.02 * k, U);
	vec3 girdle_r = v3_madd(v3_madd(shoulder_r, 0.035 * k, Lf), -0.02 * k, U);
	add_capsule(s, BODY_TORSO, 0.06, girdle_l, girdle_r, 0.055, 0.055);
	/* the trapezius: from the base of the neck down to each shoulder, so the shoulder line slopes */
	vec3 nape = v3_madd(v3_madd(p_chest, 0.075 * k, U), -0.015 * k, F);
	add_capsule(s, BODY_TORSO, 0.05, nape, v3_madd(girdle_l, -0.03 * k, Lf), 0.05, 0.04);
	add_capsule(s, BODY_TORSO, 0.05, nape, v3_madd(girdle_r, 0.03 * k, Lf), 0.05, 0.04);
	/* buttocks */
	for (int side = 0; side < 2; ++side) {
		vec3 hj = joint_pos(joints, side ? R.up_leg : L.up_leg);
		vec3 c = v3_madd(hj, -0.04 * k, F);
		add_ellipsoid(s, BODY_TORSO, 0.05, c, Lf, F, U, 0.08, 0.075, 0.09);
	}
	vec3 neck_lo = v3_madd(p_chest, 0.04 * k, U), neck_hi = v3_madd(p_head, 0.02 * k, U);
	add_capsule(s, BODY_TORSO, 0.04, neck_lo, neck_hi, 0.06, 0.054);
	add_ellipsoid(s, BODY_TORSO, 0.03, v3_madd(v3_madd(p_head, 0.085 * k, U), 0.02 * k, F), Lf, F, U, 0.078, 0.1,
		      0.115);

	add_arm(s, joints, &L, BODY_LEFT_ARM);
	add_arm(s, joints, &R, BODY_RIGHT_ARM);
	add_leg(s, joints, &L, BODY_LEFT_LEG);
	add_leg(s, joints, &R, BODY_RIGHT_LEG);
	s->part_blend[BODY_LEFT_ARM] = s->part_blend[BODY_RIGHT_ARM] = 0.04 * k;
	s->part_blend[BODY_LEFT_LEG] = s->part_blend[BODY_RIGHT_LEG] = 0.05 * k;

	/* a box around every primitive, grown by the largest blend (a smooth minimum only adds
	 * within its radius of both shapes) */
	vec3 lo = v3(1e300, 1e300, 1e300), hi = v3(-1e300, -1e300, -1e300);
	for (int i = 0; i < s->prim_count; ++i) {
		const body_prim* q = &s->prims[i];
		double r = q->kind == 0 ? fmax(q->ra, q->rb) : fmax(q->r[0], fmax(q->r[1], q->r[2]));
		vec3 ends[2] = {q->a, q->kind == 0 ? q->b : q->a};
		for (int e = 0; e < 2; ++e) {
			lo = v3(fmin(lo.x, ends[e].x - r), fmin(lo.y, ends[e].y - r), fmin(lo.z, ends[e].z - r));
			hi = v3(fmax(hi.x, ends[e].x + r), fmax(hi.y, ends[e].y + r), fmax(hi.z, ends[e].z + r));
		}
	}
	double grow = 0.1 * k;
	s->lo = v3_sub(lo, v3(grow, grow, grow));
	s->hi = v3_add(hi, v3(grow, grow, grow));
	return true;
}
