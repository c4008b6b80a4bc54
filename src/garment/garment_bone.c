/* Panels placed on a character's bone (docs/garments.md, "Placing on a bone"; issue 29): the axis,
 * front and radii of an `around` placement, or the plane of a `flat` one, computed from the
 * skeleton and the body in the pose it has at time 0 (the dressing pose of sec. 8's sewing), so
 * that garment_wrap places the panel as one placed by hand. */
#include "garment.h"

#include "../character/character.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Slices of a panel's span along the axis whose body cross-sections are measured. */
#define BONE_SLICES 20

/* The arms and legs: a joint belongs to the nearest of these at or above it, or to the trunk (-1). */
static const char* const limb_roots[] = {"LeftArm", "RightArm", "LeftUpLeg", "RightUpLeg"};

static int limb_of(const drape_character* c, const int32_t roots[4], int32_t j)
{
	for (; j >= 0; j = c->joints[j].parent)
		for (int k = 0; k < 4; ++k)
			if (roots[k] == j) return k;
	return -1;
}

/* Whether a vertex skinned mostly to a joint of limb `v` is body around a bone of limb `bone`:
 * its own limb only, or for a trunk bone anything but the arms (the dressing pose holds them away
 * from the body; the legs are under a skirt's hem). */
static bool counts(int bone, int v) { return bone >= 0 ? v == bone : v < 0 || v >= 2; }

static double dot3(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* The body's front: its left (right hip to left hip) turned a quarter about the vertical. */
static bool body_front(const drape_character* c, pattern_panel* p, char* err, size_t err_size)
{
	double l[3], r[3], t[3];
	if (!drape_character_joint(c, "LeftUpLeg", 0.0, l, t) || !drape_character_joint(c, "RightUpLeg", 0.0, r, t) ||
	    !(hypot(l[0] - r[0], l[1] - r[1]) > 1e-6)) {
		snprintf(err, err_size,
			 "panel '%s': the body's front is found from its hip joints LeftUpLeg and RightUpLeg, which "
			 "this character lacks (or has at one place); give 'front' [x, y, z]",
			 p->name);
		return false;
	}
	const double w = hypot(l[0] - r[0], l[1] - r[1]);
	p->front[0] = (l[1] - r[1]) / w, p->front[1] = -(l[0] - r[0]) / w, p->front[2] = 0.0;
	return true;
}

/* The joint of a vertex's largest skin weight. */
static int32_t main_joint(const drape_character* c, int32_t v)
{
	const int32_t* sj = &c->skin_joint[4 * (size_t)v];
	const double* sw = &c->skin_weight[4 * (size_t)v];
	int best = 0;
	for (int k = 1; k < 4; ++k)
		if (sw[k] > sw[best]) best = k;
	return sj[best];
}

/* The body in the dressing pose, and which of its vertices count as body around bone j (counts). */
typedef struct body_around {
	double* x; /* vertex positions, 3 per vertex (free it) */
	int32_t roots[4];
	int bone_limb;
} body_around;

static bool body_around_bone(const drape_character* c, int32_t j, body_around* b, char* err, size_t err_size)
{
	b->x = malloc(3 * (size_t)c->vertex_count * sizeof *b->x);
	if (!b->x) {
		snprintf(err, err_size, "out of memory");
		return false;
	}
	character_pose(c, 0.0, b->x);
	for (int k = 0; k < 4; ++k) b->roots[k] = character_find_joint(c, limb_roots[k]);
	b->bone_limb = limb_of(c, b->roots, j);
	return true;
}

static bool body_around_counts(const drape_character* c, const body_around* b, int32_t v)
{
	return counts(b->bone_limb, limb_of(c, b->roots, main_joint(c, v)));
}

/* The pattern's bounding box: lo and hi corners. */
static bool panel_box(const pattern_panel* p, double lo[2], double hi[2], char* err, size_t err_size)
{
	double* xy = NULL;
	int32_t count = 0;
	int32_t* starts = NULL;
	if (!pattern_flatten(p, &xy, &count, &starts, err, err_size)) return false;
	lo[0] = lo[1] = 1e300, hi[0] = hi[1] = -1e300;
	for (int32_t i = 0; i < count; ++i)
		for (int k = 0; k < 2; ++k) lo[k] = fmin(lo[k], xy[2 * i + k]), hi[k] = fmax(hi[k], xy[2 * i + k]);
	free(xy);
	free(starts);
	return true;
}

bool garment_place_on_bone(pattern_panel* p, const drape_character* c, const char* bone, const bone_fit* fit, char* err,
			   size_t err_size)
{
	const int32_t j = character_find_joint(c, bone);
	if (j < 0) {
		snprintf(err, err_size, "panel '%s': the character has no bone '%s'", p->name, bone);
		return false;
	}
	double head[3], tail[3];
	drape_character_joint(c, bone, 0.0, head, tail);
	double a[3] = {tail[0] - head[0], tail[1] - head[1], tail[2] - head[2]};
	double length = sqrt(dot3(a, a));
	if (fit->vertical) {
		/* The vertical through the bone's joint: a skirt or a yoke hangs straight from the hips
		 * whatever the lumbar bone's lean (10.9 deg for the CMU body in its dressing pose, which
		 * puts a skirt's hem 9 cm further back), and every skeleton has a Hips joint, where CMU's
		 * LowerBack and Biovision's Ab differ. The axis' midpoint is the joint, so `offset` is
		 * measured from it; its length does not matter (garment_wrap). */
		for (int k = 0; k < 3; ++k) p->axis[0][k] = p->axis[1][k] = head[k], a[k] = 0.0;
		p->axis[0][2] -= 0.5, p->axis[1][2] += 0.5;
		a[2] = 1.0;
	} else {
		if (!(length > 1e-6)) {
			int32_t child = -1;
			for (int32_t k = j + 1; k < c->joint_count && child < 0; ++k)
				if (c->joints[k].parent == j) child = k;
			snprintf(err, err_size,
				 "panel '%s': bone '%s' has no length in the dressing pose (%s%s%s); name a bone whose first "
				 "child joint lies away from it, or give 'vertical': true for the vertical through its joint",
				 p->name, bone, child < 0 ? "it has no child joint" : "its first child '",
				 child < 0 ? "" : c->joints[child].name, child < 0 ? "" : "' is at its head");
			return false;
		}
		/* By default pattern y runs up the axis, as patterns are drawn (waist above hem, sleeve
		 * cap above cuff); `direction` names the bone's own sense for patterns drawn otherwise. */
		const bool flip = fit->direction == BONE_UP ? a[2] < 0.0 : fit->direction == BONE_TAIL_TO_HEAD;
		for (int k = 0; k < 3; ++k) {
			p->axis[0][k] = flip ? tail[k] : head[k];
			p->axis[1][k] = flip ? head[k] : tail[k];
			a[k] = (p->axis[1][k] - p->axis[0][k]) / length;
		}
	}
	if (!fit->front_given && !body_front(c, p, err, err_size)) return false;
	if (fit->forward != 0.0) {
		/* Moved towards the body's front (the front square to the axis, as garment_wrap takes it):
		 * the shipped skirt's axis is 1.5 cm in front of the hips joint. A front along the axis is
		 * reported by garment_check_placement. */
		double f[3], fa = dot3(p->front, a);
		for (int k = 0; k < 3; ++k) f[k] = p->front[k] - fa * a[k];
		const double fl = sqrt(dot3(f, f));
		if (fl > 1e-12)
			for (int k = 0; k < 3; ++k) p->axis[0][k] += fit->forward * f[k] / fl, p->axis[1][k] += fit->forward * f[k] / fl;
	}
	double lo[2], hi[2];
	if (!panel_box(p, lo, hi, err, err_size)) return false;
	/* The panel's span along the axis, from the axis' midpoint (garment_wrap). */
	const double s0 = p->offset - 0.5 * (hi[1] - lo[1]), s1 = p->offset + 0.5 * (hi[1] - lo[1]);
	body_around b;
	if (!body_around_bone(c, j, &b, err, err_size)) return false;
	const double* x = b.x;
	/* The body's cross-section along the span: its largest distance from the axis in each slice. */
	double mid[3], extent[BONE_SLICES];
	for (int k = 0; k < 3; ++k) mid[k] = 0.5 * (p->axis[0][k] + p->axis[1][k]);
	for (int i = 0; i < BONE_SLICES; ++i) extent[i] = -1.0;
	for (int32_t v = 0; v < c->vertex_count; ++v) {
		double d[3] = {x[3 * v] - mid[0], x[3 * v + 1] - mid[1], x[3 * v + 2] - mid[2]};
		const double s = dot3(d, a);
		if (s < s0 || s > s1) continue;
		if (!body_around_counts(c, &b, v)) continue;
		int i = (int)((s - s0) / (s1 - s0) * BONE_SLICES);
		i = i < 0 ? 0 : i >= BONE_SLICES ? BONE_SLICES - 1 : i;
		extent[i] = fmax(extent[i], sqrt(fmax(0.0, dot3(d, d) - s * s)));
	}
	free(b.x);
	/* Ends past the body's end (a sleeve longer than the arm) take the nearest cross-section. */
	int first = 0, last = BONE_SLICES - 1;
	while (first < BONE_SLICES && extent[first] < 0.0) ++first;
	if (first == BONE_SLICES) {
		snprintf(err, err_size,
			 "panel '%s': no part of the body lies along bone '%s' within the panel's span (%.3g m to %.3g m "
			 "from the bone's midpoint); check around.offset",
			 p->name, bone, s0, s1);
		return false;
	}
	while (extent[last] < 0.0) --last;
	const double bottom = extent[first], top = extent[last];
	/* The cone through the end cross-sections plus the clearances, raised where the body between
	 * bulges past it (hips under a skirt's waist and hem), so no vertex of the span is inside it. */
	const double rb = bottom + fit->clearance, rt = top + fit->top_clearance;
	const double gap = fmin(fit->clearance, fit->top_clearance);
	double lift = 0.0;
	for (int i = 0; i < BONE_SLICES; ++i) {
		const double f0 = (double)i / BONE_SLICES, f1 = (double)(i + 1) / BONE_SLICES;
		const double cone = fmin(rb + f0 * (rt - rb), rb + f1 * (rt - rb));
		if (extent[i] >= 0.0) lift = fmax(lift, extent[i] + gap - cone);
	}
	p->radius = rb + lift;
	p->top_radius = rt + lift;
	return true;
}

bool garment_place_flat_on_bone(pattern_panel* p, const drape_character* c, const char* bone, const bone_fit* fit,
				double angle, char* err, size_t err_size)
{
	const int32_t j = character_find_joint(c, bone);
	if (j < 0) {
		snprintf(err, err_size, "panel '%s': the character has no bone '%s'", p->name, bone);
		return false;
	}
	double head[3], tail[3];
	drape_character_joint(c, bone, 0.0, head, tail);
	if (!fit->front_given && !body_front(c, p, err, err_size)) return false;
	/* The panel faces the side: the body's front turned by `angle` counter-clockwise about the
	 * vertical (as around.side), level; pattern y runs up, pattern x along up x normal. */
	const double fl = hypot(p->front[0], p->front[1]);
	if (!(fl > 1e-12)) {
		snprintf(err, err_size, "panel '%s': flat.front must not be vertical", p->name);
		return false;
	}
	const double f[3] = {p->front[0] / fl, p->front[1] / fl, 0.0}, left[3] = {-f[1], f[0], 0.0};
	double n[3], r[3];
	for (int k = 0; k < 3; ++k) n[k] = cos(angle) * f[k] + sin(angle) * left[k];
	r[0] = -n[1], r[1] = n[0], r[2] = 0.0; /* up x normal */
	double lo[2], hi[2];
	if (!panel_box(p, lo, hi, err, err_size)) return false;
	const double zc = head[2] + p->offset, half_w = 0.5 * (hi[0] - lo[0]), half_h = 0.5 * (hi[1] - lo[1]);
	body_around b;
	if (!body_around_bone(c, j, &b, err, err_size)) return false;
	const double* x = b.x;
	/* The body's extent towards the side within the panel's footprint, from the joint. */
	double extent = -1e300;
	for (int32_t v = 0; v < c->vertex_count; ++v) {
		const double d[3] = {x[3 * v] - head[0], x[3 * v + 1] - head[1], x[3 * v + 2] - head[2]};
		if (fabs(d[2] - p->offset) > half_h || fabs(dot3(d, r)) > half_w) continue;
		if (!body_around_counts(c, &b, v)) continue;
		extent = fmax(extent, dot3(d, n));
	}
	free(b.x);
	if (extent == -1e300) {
		snprintf(err, err_size,
			 "panel '%s': no part of the body lies behind the panel placed on bone '%s' (%.3g m to %.3g m "
			 "above its joint); check flat.offset",
			 p->name, bone, p->offset - half_h, p->offset + half_h);
		return false;
	}
	p->flat = true;
	for (int k = 0; k < 3; ++k) {
		p->plane_center[k] = head[k] + (extent + fit->clearance) * n[k];
		p->plane_normal[k] = n[k];
		p->plane_up[k] = k == 2 ? 1.0 : 0.0;
	}
	p->plane_center[2] = zc;
	return true;
}
