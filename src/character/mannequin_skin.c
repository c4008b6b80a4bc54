/* Linear-blend-skinning weights of the mannequin (issue 10 item 3): each joint's bone is the
 * segment to its children (or, at the end of a chain, a segment of the body part beyond it); a
 * vertex weighs the bones of its body part by inverse distance, and the parts by how close the
 * vertex is to each part's own surface, so that torso vertices never follow an arm while the
 * fillets between parts blend smoothly; a short diffusion over the mesh then evens out the
 * hand-overs. See docs/mannequin.md. */
#include "character/mannequin_skin.h"

#include "core.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Diffusion sweeps over the weights (docs/mannequin.md). */
#define SKIN_SMOOTHING_SWEEPS 10

/* Which of the five parts a joint's bone belongs to, from its CMU name; -1 when the name names no
 * side (the torso's joints, and end sites such as assimp's EndSite_LFingers). */
static int joint_part_by_name(const char* name)
{
	bool left = strncmp(name, "Left", 4) == 0 || (name[0] == 'L' && name[1] >= 'A' && name[1] <= 'Z');
	bool right = strncmp(name, "Right", 5) == 0 || (name[0] == 'R' && name[1] >= 'A' && name[1] <= 'Z');
	if (!left && !right) return -1;
	if (strstr(name, "HipJoint") || strstr(name, "Shoulder")) return BODY_TORSO;
	bool arm = strstr(name, "Arm") || strstr(name, "Hand") || strstr(name, "Finger") || strstr(name, "Thumb");
	if (arm) return left ? BODY_LEFT_ARM : BODY_RIGHT_ARM;
	return left ? BODY_LEFT_LEG : BODY_RIGHT_LEG;
}

/* By name, else the part of the nearest ancestor that names a side, else the torso. */
static int joint_part(const mannequin_joint* joints, int32_t count, int32_t j)
{
	for (int32_t steps = 0; j >= 0 && steps <= count; ++steps) {
		int part = joint_part_by_name(joints[j].name);
		if (part >= 0) return part;
		j = joints[j].parent;
	}
	return BODY_TORSO;
}

/* A bone's segments: from the joint to each child that is elsewhere; a joint with no such child
 * gets a segment along the part beyond it when it ends a chain (head, toes, hand, fingers). */
static int bone_segments(const mannequin_joint* joints, int32_t count, int32_t j, const body_shape* s, vec3* a,
			 vec3* b, int max)
{
	/* the mitten hand has no thumb to follow */
	if (strstr(joints[j].name, "Thumb")) return 0;
	vec3 p = v3_load(joints[j].pos);
	int n = 0;
	for (int32_t c = 0; c < count && n < max; ++c) {
		if (joints[c].parent != j) continue;
		vec3 q = v3_load(joints[c].pos);
		if (v3_len(v3_sub(q, p)) < 1e-3 * s->scale) continue;
		a[n] = p;
		b[n++] = q;
	}
	if (n > 0) return n;
	const char* name = joints[j].name;
	double k = s->scale;
	vec3 from_parent = joints[j].parent >= 0 ? v3_sub(p, v3_load(joints[joints[j].parent].pos)) : v3_zero();
	if (v3_len(from_parent) < 1e-3 * k) {
		/* parent at the same place (LeftHand under a zero-length chain): use the grandparent */
		int32_t gp = joints[j].parent >= 0 ? joints[joints[j].parent].parent : -1;
		from_parent = gp >= 0 ? v3_sub(p, v3_load(joints[gp].pos)) : v3_zero();
	}
	vec3 dir = v3_normalize(from_parent);
	if (strcmp(name, "Head") == 0) {
		a[0] = p;
		b[0] = v3_madd(p, 0.2 * k, s->up);
		return 1;
	}
	if (v3_len(dir) < 0.5) return 0;
	double len = 0.0;
	if (strstr(name, "Toe"))
		len = 0.06;
	else if (strstr(name, "Hand") || strstr(name, "Finger"))
		len = 0.08;
	if (len == 0.0) return 0;
	a[0] = p;
	b[0] = v3_madd(p, len * k, dir);
	return 1;
}

/* Keeps the four largest of w[0..count) (their joints in j4, weights normalised in w4). */
static void top_four(const double* w, int32_t count, int32_t* j4, double* w4)
{
	int32_t best_j[4] = {-1, -1, -1, -1};
	double best_w[4] = {0, 0, 0, 0};
	for (int32_t j = 0; j < count; ++j) {
		for (int slot = 0; slot < 4; ++slot) {
			if (w[j] > best_w[slot]) {
				for (int m = 3; m > slot; --m) {
					best_w[m] = best_w[m - 1];
					best_j[m] = best_j[m - 1];
				}
				best_w[slot] = w[j];
				best_j[slot] = j;
				break;
			}
		}
	}
	double sum = best_w[0] + best_w[1] + best_w[2] + best_w[3];
	for (int slot = 0; slot < 4; ++slot) {
		j4[slot] = best_j[slot] >= 0 ? best_j[slot] : best_j[0];
		w4[slot] = best_w[slot] / sum;
	}
}

bool mannequin_skin(const mannequin_joint* joints, int32_t count, const body_shape* s, const double* positions,
		    int32_t vertex_count, const int32_t* triangles, int32_t triangle_count, int32_t* out_joints,
		    double* out_weights, char* err, size_t err_size)
{
	enum { MAX_SEG = 4 };
	vec3* sa = malloc((size_t)count * MAX_SEG * sizeof *sa);
	vec3* sb = malloc((size_t)count * MAX_SEG * sizeof *sb);
	int* nseg = malloc((size_t)count * sizeof *nseg);
	int* part = malloc((size_t)count * sizeof *part);
	/* every vertex's weight on every joint: small (thousands of vertices, tens of joints) */
	double* w = malloc((size_t)vertex_count * (size_t)count * sizeof *w + 1);
	double* next = malloc((size_t)vertex_count * (size_t)count * sizeof *next + 1);
	int32_t* degree = calloc((size_t)vertex_count + 1, sizeof *degree);
	bool ok = sa && sb && nseg && part && w && next && degree;
	if (!ok) ok = core_fail(err, err_size, "mannequin: out of memory for the weights");
	for (int32_t j = 0; j < count && ok; ++j) {
		nseg[j] = bone_segments(joints, count, j, s, sa + MAX_SEG * j, sb + MAX_SEG * j, MAX_SEG);
		part[j] = joint_part(joints, count, j);
	}
	/* A part's affinity falls from 1 on its own surface to 0 at `reach` outside it, so only the
	 * blended fillets (within the smooth-minimum radius) see two parts: 3 cm for the arms, which
	 * the torso must never follow, 6 cm for the torso and legs, so that the crotch, where both
	 * thighs and the pelvis meet, blends over a few edges instead of one. */
	double reach[BODY_PARTS];
	for (int k = 0; k < BODY_PARTS; ++k)
		reach[k] = (k == BODY_LEFT_ARM || k == BODY_RIGHT_ARM ? 0.03 : 0.06) * s->scale;
	double floor2 = (0.01 * s->scale) * (0.01 * s->scale);
	for (int32_t v = 0; v < vertex_count && ok; ++v) {
		double pv[BODY_PARTS];
		body_field(s, positions + 3 * v, pv);
		double dmin = pv[0];
		for (int k = 1; k < BODY_PARTS; ++k) dmin = fmin(dmin, pv[k]);
		double affinity[BODY_PARTS];
		for (int k = 0; k < BODY_PARTS; ++k) {
			double t = 1.0 - (pv[k] - dmin) / reach[k];
			t = t < 0.0 ? 0.0 : t;
			affinity[k] = t * t * (3.0 - 2.0 * t);
		}
		vec3 x = v3_load(positions + 3 * v);
		double* wv = w + (size_t)v * (size_t)count;
		double sum = 0.0;
		for (int32_t j = 0; j < count; ++j) {
			wv[j] = 0.0;
			if (nseg[j] == 0 || affinity[part[j]] <= 0.0) continue;
			double d2 = 1e300;
			for (int g = 0; g < nseg[j]; ++g) {
				vec3 ab = v3_sub(sb[MAX_SEG * j + g], sa[MAX_SEG * j + g]), ax = v3_sub(x, sa[MAX_SEG * j + g]);
				double t = v3_dot(ax, ab) / v3_len2(ab);
				t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
				d2 = fmin(d2, v3_len2(v3_sub(ax, v3_scale(ab, t))));
			}
			/* inverse fourth power of the distance: a bone dominates its own segment and hands
			 * over to the next within about a limb's radius of the joint (the eighth power makes
			 * the hand-overs too sharp: a bent elbow pinches to a quarter of its edge lengths) */
			wv[j] = affinity[part[j]] / ((d2 + floor2) * (d2 + floor2));
			sum += wv[j];
		}
		if (!(sum > 0.0) || !isfinite(sum)) {
			ok = core_fail(err, err_size, "mannequin: vertex %d is near no bone", v);
			break;
		}
		for (int32_t j = 0; j < count; ++j) wv[j] /= sum;
	}
	/* Diffusion along the surface (Jacobi, half to the neighbours' mean each sweep) spreads each
	 * hand-over between bones over a few edges, so that the weights change gently from vertex to
	 * vertex even where a bone runs close under the skin (feet, hands). A weight that started at
	 * zero stays zero: the torso still never follows an arm. */
	for (int64_t i = 0; ok && i < 3 * (int64_t)triangle_count; ++i) ++degree[triangles[i]];
	for (int sweep = 0; ok && sweep < SKIN_SMOOTHING_SWEEPS; ++sweep) {
		memset(next, 0, (size_t)vertex_count * (size_t)count * sizeof *next);
		/* each undirected edge of the closed mesh is one directed edge a -> b of a triangle, and
		 * its reverse in the neighbour */
		for (int32_t t = 0; t < triangle_count; ++t)
			for (int c = 0; c < 3; ++c) {
				int32_t a = triangles[3 * t + c], b = triangles[3 * t + (c + 1) % 3];
				const double* wb = w + (size_t)b * (size_t)count;
				double* na = next + (size_t)a * (size_t)count;
				for (int32_t j = 0; j < count; ++j) na[j] += wb[j];
			}
		for (int32_t v = 0; v < vertex_count; ++v) {
			double* wv = w + (size_t)v * (size_t)count;
			double* nv = next + (size_t)v * (size_t)count;
			double sum = 0.0;
			for (int32_t j = 0; j < count; ++j) {
				nv[j] = wv[j] > 0.0 ? 0.5 * wv[j] + 0.5 * nv[j] / degree[v] : 0.0;
				sum += nv[j];
			}
			for (int32_t j = 0; j < count; ++j) nv[j] /= sum;
		}
		double* swap = w;
		w = next;
		next = swap;
	}
	for (int32_t v = 0; v < vertex_count && ok; ++v)
		top_four(w + (size_t)v * (size_t)count, count, out_joints + 4 * v, out_weights + 4 * v);
	free(sa);
	free(sb);
	free(nseg);
	free(part);
	free(w);
	free(next);
	free(degree);
	return ok;
}
