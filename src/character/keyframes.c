/* Keyframed joint rotations (docs/characters.md, "Keyframes"; issue 28 item 2): a scene poses a
 * body, or makes a test motion such as the paper's figure 3 twist, by turning named joints at given
 * times, on top of the clip or of a body without one. A key [rx, ry, rz] (degrees) is the rotation
 * Rz Ry Rx about the world's axes (z up) through the joint, as the joint lies in the rest pose; it is
 * stored as the same rotation in the joint's own frame, Q = Rg^-1 (Rz Ry Rx) Rg with Rg the joint's
 * rest orientation in the world, and applied after the clip's rotation (pose.c), so with a clip
 * playing the axes turn with the joint. Between keys Q is interpolated as clip rotations are: slerp
 * on the shorter arc (conjugation by Rg commutes with slerp, so this is the slerp of the world-axis
 * rotations too); held before the first and after the last key. */
#include "character.h"

#include "core.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* Each joint's rest orientation in drape's world (the file-to-world map included, scale removed).
 * False when out of memory. */
static bool rest_world_orientations(const drape_character* c, double* q)
{
	affine* g = malloc((size_t)(c->joint_count > 0 ? c->joint_count : 1) * sizeof *g);
	if (!g) return false;
	character_rest_globals(c, g);
	for (int32_t i = 0; i < c->joint_count; ++i) {
		affine w = affine_mul(c->to_world, g[i]);
		double r[9];
		for (int col = 0; col < 3; ++col) {
			double n = sqrt(w.m[col] * w.m[col] + w.m[4 + col] * w.m[4 + col] + w.m[8 + col] * w.m[8 + col]);
			for (int row = 0; row < 3; ++row) r[3 * row + col] = n > 0.0 ? w.m[4 * row + col] / n : (row == col);
		}
		quat_from_matrix(r, &q[4 * i]);
	}
	free(g);
	return true;
}

static bool key_fail(character_error_at* at, character_input what, int32_t index, char* err, size_t err_size,
		     const char* msg)
{
	if (at) at->what = what, at->index = index;
	return core_fail(err, err_size, "%s", msg);
}

/* Every key names a joint of the character, at a finite time >= 0 after its joint's previous key. */
static bool check_keys(const drape_character* c, const drape_joint_key* keys, int32_t count, int32_t* joint,
		       character_error_at* at, char* err, size_t err_size)
{
	char msg[512];
	for (int32_t k = 0; k < count; ++k) {
		const drape_joint_key* e = &keys[k];
		joint[k] = e->joint ? character_find_joint(c, e->joint) : -1;
		if (joint[k] < 0) {
			const char** names = malloc((size_t)(c->joint_count > 0 ? c->joint_count : 1) * sizeof *names);
			if (!names) return core_fail(err, err_size, "out of memory");
			for (int32_t i = 0; i < c->joint_count; ++i) names[i] = c->joints[i].name;
			const char* near = e->joint ? drape_closest_name(e->joint, names, c->joint_count) : NULL;
			int n = snprintf(msg, sizeof msg, "the character has no joint named '%s'", e->joint ? e->joint : "");
			if (n > 0 && near) snprintf(msg + n, sizeof msg - (size_t)n, " (did you mean '%s'?)", near);
			free(names);
			return key_fail(at, CHARACTER_INPUT_KEY_JOINT, k, err, err_size, msg);
		}
		if (!(isfinite(e->time) && e->time >= 0.0)) {
			snprintf(msg, sizeof msg, "a keyframe's time must be >= 0 s, got %g", e->time);
			return key_fail(at, CHARACTER_INPUT_KEY_TIME, k, err, err_size, msg);
		}
		for (int a = 0; a < 3; ++a)
			if (!isfinite(e->rotation[a])) {
				snprintf(msg, sizeof msg, "the rotation of joint %s is not finite", e->joint);
				return key_fail(at, CHARACTER_INPUT_KEY_JOINT, k, err, err_size, msg);
			}
		for (int32_t m = k - 1; m >= 0; --m) {
			if (joint[m] != joint[k]) continue;
			if (!(e->time > keys[m].time)) {
				snprintf(msg, sizeof msg, "keyframe times must increase: %s has a key at %g s after one at %g s",
					 e->joint, e->time, keys[m].time);
				return key_fail(at, CHARACTER_INPUT_KEY_TIME, k, err, err_size, msg);
			}
			break;
		}
	}
	return true;
}

bool character_set_keyframes(drape_character* c, const drape_joint_key* keys, int32_t count, character_error_at* at,
			     char* err, size_t err_size)
{
	if (count <= 0) return true;
	if (!keys) return core_fail(err, err_size, "keyframe_count is %d but keyframes is NULL", (int)count);
	int32_t* joint = malloc((size_t)count * sizeof *joint);
	double* rest_q = malloc(4 * (size_t)(c->joint_count > 0 ? c->joint_count : 1) * sizeof *rest_q);
	if (!joint || !rest_q) {
		free(joint), free(rest_q);
		return core_fail(err, err_size, "out of memory");
	}
	bool ok = check_keys(c, keys, count, joint, at, err, err_size);
	if (ok && !rest_world_orientations(c, rest_q)) ok = core_fail(err, err_size, "out of memory");
	for (int32_t i = 0; ok && i < c->joint_count; ++i) {
		int32_t n = 0;
		for (int32_t k = 0; k < count; ++k) n += joint[k] == i;
		if (n == 0) continue;
		joint_keys* jk = &c->joints[i].keys;
		free(jk->time), free(jk->q);
		jk->count = 0;
		jk->time = malloc((size_t)n * sizeof *jk->time);
		jk->q = malloc(4 * (size_t)n * sizeof *jk->q);
		if (!jk->time || !jk->q) {
			ok = core_fail(err, err_size, "out of memory");
			break;
		}
		const double* rg = &rest_q[4 * i];
		double rg_inv[4] = {rg[0], -rg[1], -rg[2], -rg[3]};
		for (int32_t k = 0; k < count; ++k) {
			if (joint[k] != i) continue;
			double rw[4], a[4];
			character_euler_quat(keys[k].rotation, rw);
			quat_mul(rg_inv, rw, a);
			quat_mul(a, rg, &jk->q[4 * jk->count]);
			jk->time[jk->count++] = keys[k].time;
		}
	}
	free(joint);
	free(rest_q);
	return ok;
}

void character_key_rotation(const character_joint* j, double t, double q[4])
{
	const joint_keys* k = &j->keys;
	if (k->count == 0) {
		q[0] = 1.0, q[1] = q[2] = q[3] = 0.0;
		return;
	}
	double s;
	int32_t i = character_find_key(k->time, k->count, t, &s);
	if (s > 0.0) quat_slerp(&k->q[4 * i], &k->q[4 * i + 4], s, q);
	else memcpy(q, &k->q[4 * i], 4 * sizeof *q);
}
