/* Posing a character at any time (docs/characters.md): the clip sampled with rotations interpolated
 * on the sphere (slerp) and translations and scales linearly, the lead-in (dressing pose held, then
 * blended into the clip), a looped clip's crossfade from its end into its start, keyframed
 * rotations on top, forward kinematics down the hierarchy, and the skinning transforms (skin.c). */
#include "character.h"

#include <math.h>
#include <string.h>

static void sample_vec3(const double* times, const double* v, int32_t n, double t, double out[3])
{
	double s;
	int32_t i = character_find_key(times, n, t, &s);
	for (int k = 0; k < 3; ++k) out[k] = s > 0.0 ? v[3 * i + k] + s * (v[3 * i + 3 + k] - v[3 * i + k]) : v[3 * i + k];
}

/* Joint j's local transform in the clip at clip time tc. */
static joint_trs clip_local(const character_joint* j, double tc)
{
	joint_trs x = j->rest;
	const joint_channel* ch = &j->channel;
	if (ch->pos_count > 0) sample_vec3(ch->pos_time, ch->pos, ch->pos_count, tc, x.t);
	if (ch->scl_count > 0) sample_vec3(ch->scl_time, ch->scl, ch->scl_count, tc, x.s);
	if (ch->rot_count > 0) {
		double s;
		int32_t i = character_find_key(ch->rot_time, ch->rot_count, tc, &s);
		if (s > 0.0) quat_slerp(&ch->rot[4 * i], &ch->rot[4 * i + 4], s, x.q);
		else memcpy(x.q, &ch->rot[4 * i], sizeof x.q);
	}
	return x;
}

/* Clip seconds over which a looped clip's end fades into its start (a quarter of the looped span
 * when that is shorter). */
#define LOOP_FADE 0.5

/* a's transform moved towards b's by s in [0, 1]: rotations on the sphere, the rest linearly. */
static joint_trs trs_blend(const joint_trs* a, const joint_trs* b, double s)
{
	joint_trs x;
	quat_slerp(a->q, b->q, s, x.q);
	for (int k = 0; k < 3; ++k) {
		x.t[k] = a->t[k] + s * (b->t[k] - a->t[k]);
		x.s[k] = a->s[k] + s * (b->s[k] - a->s[k]);
	}
	return x;
}

/* Clip time and the weight of the clip against the dressing pose at simulation time t. A looped
 * clip plays from `start` to its end once, then repeats the span start ... end - W, W = LOOP_FADE:
 * each repeat's first W seconds are the clip's last W (clip time *tc) faded by *fade (smoothstep,
 * 0 -> 1) into its first W after start (*tc2). The pose is thus continuous at the wrap, where a
 * clip that does not end as it begins (a walk, a dance) would jump from its last pose to its first,
 * and the wrap returns to `start`, not to 0 (CMU clips open with a calibration pose). */
static double clip_time(const drape_character* c, double t, double* alpha, double* tc2, double* fade)
{
	*fade = 0.0;
	*tc2 = 0.0;
	if (t < c->hold) {
		*alpha = 0.0;
		return c->start;
	}
	if (t < c->hold + c->blend) {
		double s = (t - c->hold) / c->blend;
		*alpha = s * s * (3.0 - 2.0 * s); /* smoothstep: the body starts and ends the blend at rest */
		return c->start;
	}
	*alpha = 1.0;
	double tc = c->start + (t - c->hold - c->blend) * c->time_scale;
	if (!(c->duration > 0.0 && c->loop)) return tc;
	const double span = c->duration - c->start;
	if (!(span > 0.0)) return fmod(tc, c->duration);
	const double w = fmin(LOOP_FADE, 0.25 * span);
	if (tc <= c->duration - w) return tc;
	const double u = fmod(tc - (c->duration - w), span - w);
	if (u >= w) return c->start + u;
	const double s = u / w;
	*fade = s * s * (3.0 - 2.0 * s);
	*tc2 = c->start + u;
	return c->duration - w + u;
}

/* The root's horizontal travel removed (docs/characters.md, root motion): the translation keeps
 * its component along the file's up axis and its horizontal part at the clip's start. */
static void pin_root(const drape_character* c, const character_joint* j, double t[3])
{
	double at_start[3];
	const joint_channel* ch = &j->channel;
	sample_vec3(ch->pos_time, ch->pos, ch->pos_count, c->start, at_start);
	double d[3] = {t[0] - at_start[0], t[1] - at_start[1], t[2] - at_start[2]};
	double up = d[0] * c->up[0] + d[1] * c->up[1] + d[2] * c->up[2];
	for (int k = 0; k < 3; ++k) t[k] = at_start[k] + up * c->up[k];
}

void character_globals(const drape_character* c, double t, affine* g)
{
	double alpha, tc2, fade;
	double tc = clip_time(c, t, &alpha, &tc2, &fade);
	for (int32_t i = 0; i < c->joint_count; ++i) {
		const character_joint* j = &c->joints[i];
		joint_trs x = clip_local(j, tc);
		if (fade > 0.0) {
			const joint_trs y = clip_local(j, tc2);
			x = trs_blend(&x, &y, fade);
		}
		if (i == c->root && !c->keep_root_motion && j->channel.pos_count > 0) pin_root(c, j, x.t);
		if (alpha < 1.0) {
			/* The dressing pose keeps the clip's root placement (where the motion begins) and the
			 * rest pose elsewhere, with the arms lowered (character_set_dress_pose). */
			joint_trs d = j->rest;
			memcpy(d.q, j->dress_q, sizeof d.q);
			if (i == c->root) {
				memcpy(d.t, x.t, sizeof d.t);
				memcpy(d.q, x.q, sizeof d.q);
			}
			x = trs_blend(&d, &x, alpha);
		}
		if (j->keys.count > 0) {
			/* Keyframes turn the joint in its own frame, after the clip's (or the lead-in's)
			 * rotation and before its scale (keyframes.c). */
			double k[4], q[4];
			character_key_rotation(j, t, k);
			quat_mul(x.q, k, q);
			memcpy(x.q, q, sizeof q);
		}
		affine local = affine_from_trs(&x);
		g[i] = j->parent >= 0 ? affine_mul(g[j->parent], local) : local;
	}
}

void character_pose(const drape_character* c, double t, double* out)
{
	/* A character has tens of joints: the per-joint matrices fit on the stack. */
	enum { MAX_STACK = 256 };
	affine gbuf[MAX_STACK], kbuf[MAX_STACK];
	int32_t n = c->joint_count < MAX_STACK ? c->joint_count : MAX_STACK;
	character_globals(c, t, gbuf);
	for (int32_t i = 0; i < n; ++i) kbuf[i] = affine_mul(c->to_world, affine_mul(gbuf[i], c->joints[i].inverse_bind));
	character_skin(c, kbuf, out);
}
