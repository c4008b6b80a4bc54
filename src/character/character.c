/* A character's lifetime and set-up (docs/characters.md): the def's defaults, copies, the skin check,
 * bind matrices from the rest pose, the dressing pose, and the public queries. */
#include "character.h"

#include "core.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

drape_character_def drape_default_character_def(void)
{
	drape_character_def d;
	memset(&d, 0, sizeof d);
	d.animation_index = 0;
	d.time_scale = 1.0;
	d.scale = 0.0; /* automatic for skeleton-only files, 1 otherwise */
	d.up = 'y';
	d.hold = 0.0;
	d.blend = 0.0;
	d.dress_angle = 45.0;
	d.cell_size = 0.022;
	d.cookie = DRAPE_COOKIE;
	return d;
}

static void channel_free(joint_channel* ch)
{
	free(ch->pos_time);
	free(ch->pos);
	free(ch->rot_time);
	free(ch->rot);
	free(ch->scl_time);
	free(ch->scl);
}

void drape_character_destroy(drape_character* c)
{
	if (!c) return;
	for (int32_t i = 0; i < c->joint_count; ++i) {
		free(c->joints[i].name);
		free(c->joints[i].file_name);
		channel_free(&c->joints[i].channel);
		free(c->joints[i].keys.time);
		free(c->joints[i].keys.q);
	}
	free(c->warnings);
	free(c->joints);
	free(c->rest);
	free(c->triangles);
	free(c->skin_joint);
	free(c->skin_weight);
	free(c);
}

static void* dup_array(const void* p, size_t bytes, bool* ok)
{
	if (!p || bytes == 0) return NULL;
	void* q = malloc(bytes);
	if (!q) {
		*ok = false;
		return NULL;
	}
	memcpy(q, p, bytes);
	return q;
}

drape_character* character_clone(const drape_character* c)
{
	drape_character* d = calloc(1, sizeof *d);
	if (!d) return NULL;
	*d = *c;
	d->joints = NULL;
	d->rest = NULL;
	d->triangles = NULL;
	d->skin_joint = NULL;
	d->skin_weight = NULL;
	d->warnings = NULL;
	d->joint_count = 0;
	bool ok = true;
	if (c->warnings && !(d->warnings = strdup(c->warnings))) ok = false;
	d->joints = calloc((size_t)c->joint_count, sizeof *d->joints);
	if (!d->joints) ok = false;
	for (int32_t i = 0; ok && i < c->joint_count; ++i) {
		const character_joint* a = &c->joints[i];
		character_joint* b = &d->joints[i];
		*b = *a;
		memset(&b->channel, 0, sizeof b->channel);
		memset(&b->keys, 0, sizeof b->keys);
		b->name = strdup(a->name);
		b->file_name = a->file_name ? strdup(a->file_name) : NULL;
		d->joint_count = i + 1;
		if (!b->name || (a->file_name && !b->file_name)) ok = false;
		b->keys.count = a->keys.count;
		b->keys.time = dup_array(a->keys.time, (size_t)a->keys.count * sizeof(double), &ok);
		b->keys.q = dup_array(a->keys.q, (size_t)a->keys.count * 4 * sizeof(double), &ok);
		const joint_channel* ca = &a->channel;
		joint_channel* cb = &b->channel;
		cb->pos_count = ca->pos_count;
		cb->rot_count = ca->rot_count;
		cb->scl_count = ca->scl_count;
		cb->pos_time = dup_array(ca->pos_time, (size_t)ca->pos_count * sizeof(double), &ok);
		cb->pos = dup_array(ca->pos, (size_t)ca->pos_count * 3 * sizeof(double), &ok);
		cb->rot_time = dup_array(ca->rot_time, (size_t)ca->rot_count * sizeof(double), &ok);
		cb->rot = dup_array(ca->rot, (size_t)ca->rot_count * 4 * sizeof(double), &ok);
		cb->scl_time = dup_array(ca->scl_time, (size_t)ca->scl_count * sizeof(double), &ok);
		cb->scl = dup_array(ca->scl, (size_t)ca->scl_count * 3 * sizeof(double), &ok);
	}
	size_t nv = (size_t)c->vertex_count;
	d->rest = dup_array(c->rest, 3 * nv * sizeof(double), &ok);
	d->triangles = dup_array(c->triangles, 3 * (size_t)c->triangle_count * sizeof(int32_t), &ok);
	d->skin_joint = dup_array(c->skin_joint, 4 * nv * sizeof(int32_t), &ok);
	d->skin_weight = dup_array(c->skin_weight, 4 * nv * sizeof(double), &ok);
	if (!ok) {
		drape_character_destroy(d);
		return NULL;
	}
	return d;
}

bool character_check_skin(const drape_character* c, char* err, size_t err_size)
{
	for (int32_t v = 0; v < c->vertex_count; ++v) {
		double sum = 0.0;
		for (int k = 0; k < 4; ++k) {
			int32_t j = c->skin_joint[4 * v + k];
			double w = c->skin_weight[4 * v + k];
			if (j < 0 || j >= c->joint_count || !(w >= 0.0)) {
				core_fail(err, err_size, "vertex %d has a bad skin influence (joint %d, weight %g)", (int)v, (int)j, w);
				return false;
			}
			sum += w;
		}
		/* Importers renormalise after limiting influences to four; a sum far from one is a broken
		 * skin, not rounding. */
		if (fabs(sum - 1.0) > 1e-3) {
			core_fail(err, err_size, "vertex %d: skin weights sum to %g, not 1", (int)v, sum);
			return false;
		}
	}
	return true;
}

/* A vertex's skin weights are normalised to sum to one; a correction larger than this is reported
 * (drape_character_warnings), smaller ones are the rounding of the file's numbers. */
#define WEIGHT_SUM_TOLERANCE 1e-3

static bool add_warning(drape_character* c, const char* line)
{
	char* joined = c->warnings ? core_concat(c->warnings, "; ") : NULL;
	char* all = core_concat(joined ? joined : "", line);
	free(joined);
	if (!all) return false;
	free(c->warnings);
	c->warnings = all;
	return true;
}

bool character_normalise_skin(drape_character* c, char* err, size_t err_size)
{
	int32_t corrected = 0, worst_vertex = -1;
	double worst = 0.0, worst_sum = 1.0;
	for (int32_t v = 0; v < c->vertex_count; ++v) {
		double* w = &c->skin_weight[4 * (size_t)v];
		double sum = 0.0;
		for (int k = 0; k < 4; ++k) {
			if (!isfinite(w[k]) || w[k] < 0.0)
				return core_fail(err, err_size, "vertex %d: skin weight %g is %s", (int)v, w[k],
						 isfinite(w[k]) ? "negative" : "not finite");
			sum += w[k];
		}
		if (!(sum > 0.0)) return core_fail(err, err_size, "vertex %d has no skin weight: every weight is zero", (int)v);
		double error = fabs(sum - 1.0);
		if (error > WEIGHT_SUM_TOLERANCE) ++corrected;
		if (error > worst) worst = error, worst_sum = sum, worst_vertex = v;
		for (int k = 0; k < 4; ++k) w[k] /= sum;
	}
	if (corrected == 0) return true;
	char line[256];
	snprintf(line, sizeof line,
		 "skin weights normalised: %d of %d vertices did not sum to 1; the largest correction is at vertex %d, "
		 "whose weights summed to %g",
		 (int)corrected, (int)c->vertex_count, (int)worst_vertex, worst_sum);
	if (!add_warning(c, line)) return core_fail(err, err_size, "out of memory");
	return true;
}

void character_bind_rest(drape_character* c)
{
	affine* globals = malloc((size_t)(c->joint_count > 0 ? c->joint_count : 1) * sizeof *globals);
	if (!globals) return;
	character_rest_globals(c, globals);
	for (int32_t i = 0; i < c->joint_count; ++i) c->joints[i].inverse_bind = affine_inverse(globals[i]);
	free(globals);
}

static bool is_upper_arm(const char* name)
{
	size_t n = strlen(name);
	if (n < 3 || strcmp(name + n - 3, "Arm") != 0) return false;
	return !(n >= 7 && strcmp(name + n - 7, "ForeArm") == 0);
}

bool character_set_dress_pose(drape_character* c, double angle)
{
	affine* g = malloc((size_t)(c->joint_count > 0 ? c->joint_count : 1) * sizeof *g);
	if (!g) return false;
	character_rest_globals(c, g);
	for (int32_t i = 0; i < c->joint_count; ++i) memcpy(c->joints[i].dress_q, c->joints[i].rest.q, sizeof c->joints[i].dress_q);
	for (int32_t i = 0; i < c->joint_count; ++i) {
		character_joint* j = &c->joints[i];
		if (!is_upper_arm(j->name)) continue;
		/* The arm's direction: to its first child (the elbow) in the rest pose. */
		int32_t child = -1;
		for (int32_t k = i + 1; k < c->joint_count && child < 0; ++k)
			if (c->joints[k].parent == i) child = k;
		if (child < 0) continue;
		double d[3];
		for (int k = 0; k < 3; ++k) d[k] = g[child].m[4 * k + 3] - g[i].m[4 * k + 3];
		/* axis = d x down turns d towards down; expressed in the parent's frame it becomes a
		 * rotation applied before the joint's own rest rotation. */
		double down[3] = {-c->up[0], -c->up[1], -c->up[2]};
		double ax[3] = {d[1] * down[2] - d[2] * down[1], d[2] * down[0] - d[0] * down[2], d[0] * down[1] - d[1] * down[0]};
		double n = sqrt(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]);
		if (n == 0.0) continue;
		double local_axis[3] = {ax[0] / n, ax[1] / n, ax[2] / n};
		if (j->parent >= 0) {
			/* The parent's rotation part is orthogonal up to scale: its transpose, normalised,
			 * takes world directions into the parent's frame. */
			const double* m = g[j->parent].m;
			double v[3];
			for (int a = 0; a < 3; ++a) v[a] = m[a] * local_axis[0] + m[4 + a] * local_axis[1] + m[8 + a] * local_axis[2];
			double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
			if (l == 0.0) continue;
			for (int a = 0; a < 3; ++a) local_axis[a] = v[a] / l;
		}
		double s = sin(0.5 * angle);
		double r[4] = {cos(0.5 * angle), s * local_axis[0], s * local_axis[1], s * local_axis[2]};
		quat_mul(r, j->rest.q, j->dress_q);
	}
	free(g);
	return true;
}

int32_t drape_character_vertex_count(const drape_character* c) { return c->vertex_count; }
int32_t drape_character_triangle_count(const drape_character* c) { return c->triangle_count; }
const int32_t* drape_character_triangles(const drape_character* c) { return c->triangles; }
double drape_character_duration(const drape_character* c) { return c->duration; }
const char* drape_character_warnings(const drape_character* c) { return c && c->warnings ? c->warnings : ""; }

void drape_character_set_hold(drape_character* c, double hold)
{
	if (isfinite(hold) && hold >= 0.0) c->hold = hold;
}

void drape_character_pose(const drape_character* c, double t, double* positions) { character_pose(c, t, positions); }

bool drape_character_joint(const drape_character* c, const char* name, double t, double head[3], double tail[3])
{
	int32_t i = character_find_joint(c, name);
	if (i < 0) return false;
	affine* g = malloc((size_t)c->joint_count * sizeof *g);
	if (!g) return false;
	character_globals(c, t, g);
	int32_t child = -1;
	for (int32_t k = i + 1; k < c->joint_count && child < 0; ++k)
		if (c->joints[k].parent == i) child = k;
	double h[3] = {g[i].m[3], g[i].m[7], g[i].m[11]};
	double e[3] = {h[0], h[1], h[2]};
	if (child >= 0) {
		e[0] = g[child].m[3];
		e[1] = g[child].m[7];
		e[2] = g[child].m[11];
	}
	affine_apply(&c->to_world, h, head);
	affine_apply(&c->to_world, e, tail);
	free(g);
	return true;
}
