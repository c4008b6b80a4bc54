/* Skinning (src/character/skin.c, docs/characters.md "Skinning"): dual quaternion skinning against
 * closed forms (a blend of two rigid motions is the screw motion half way; a twisted limb keeps its
 * radius where linear blend skinning collapses it), agreement with linear blend skinning where a
 * vertex follows one joint, and the refusal of a rig that scales unevenly. */
#include "test.h"
#include "test_character_import.h"

#include "character/character.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

/* Joint k turned by angle a (radians) about the unit axis, from t = 0 on (held). */
static void turn(drape_character* c, int k, const double axis[3], double a)
{
	joint_channel* ch = &c->joints[k].channel;
	ch->rot_count = 1;
	ch->rot_time = calloc(1, sizeof(double));
	ch->rot = malloc(4 * sizeof(double));
	ch->rot[0] = cos(a / 2);
	for (int i = 0; i < 3; ++i) ch->rot[1 + i] = sin(a / 2) * axis[i];
	c->duration = 1.0;
}

/* A ring of n vertices of radius r round the x axis at x = x0, each half on joint 0, half on 1. */
static drape_character* ring_chain(int n, double r, double x0, double* rest)
{
	int32_t* j = calloc(4 * (size_t)n, sizeof *j);
	double* w = calloc(4 * (size_t)n, sizeof *w);
	for (int v = 0; v < n; ++v) {
		double phi = 2.0 * PI * v / n;
		rest[3 * v] = x0, rest[3 * v + 1] = r * cos(phi), rest[3 * v + 2] = r * sin(phi);
		j[4 * v] = 0, j[4 * v + 1] = 1;
		w[4 * v] = 0.5, w[4 * v + 1] = 0.5;
	}
	drape_character* c = test_chain(2, 1.0, n, rest, j, w);
	free(j);
	free(w);
	return c;
}

/* A wrist twisted about the forearm's axis: linear blend skinning averages the two rotations and
 * the ring at the joint shrinks to r cos(a / 2) (to the axis at 180 degrees, the "candy wrapper");
 * dual quaternion skinning turns it by a / 2 and keeps its radius. */
static void test_twisted_limb_keeps_its_radius(void)
{
	enum { N = 12 };
	const double r = 0.04, x[3] = {1, 0, 0};
	double rest[3 * N], p[3 * N];
	for (int deg = 60; deg <= 180; deg += 60) {
		double a = deg * PI / 180.0;
		drape_character* c = ring_chain(N, r, 1.0, rest);
		turn(c, 1, x, a);
		character_pose(c, 0.5, p);
		for (int v = 0; v < N; ++v) CHECK_NEAR(hypot(p[3 * v + 1], p[3 * v + 2]), r * fabs(cos(a / 2)), 1e-12);
		c->skinning = DRAPE_SKINNING_DUAL_QUATERNION;
		character_pose(c, 0.5, p);
		for (int v = 0; v < N; ++v) {
			double phi = 2.0 * PI * v / N + a / 2;
			CHECK_NEAR(p[3 * v], 1.0, 1e-12);
			CHECK_NEAR(p[3 * v + 1], r * cos(phi), 1e-12);
			CHECK_NEAR(p[3 * v + 2], r * sin(phi), 1e-12);
		}
		drape_character_destroy(c);
	}
}

/* An elbow bent by a about z: a vertex weighted half and half is carried by the screw motion half
 * way, a rotation by a / 2 about the elbow (the dual quaternions' blend of two motions about one
 * axis), where linear blend skinning takes the chord's midpoint, nearer the joint. */
static void test_bent_elbow_is_half_the_screw(void)
{
	const double z[3] = {0, 0, 1};
	double rest[6] = {1.0, 0.1, 0.0, 1.3, -0.05, 0.02};
	int32_t j[8] = {0, 1, 0, 0, 0, 1, 0, 0};
	double w[8] = {0.5, 0.5, 0, 0, 0.5, 0.5, 0, 0};
	for (int deg = 30; deg <= 150; deg += 60) {
		double a = deg * PI / 180.0, p[6], lin[6];
		drape_character* c = test_chain(2, 1.0, 2, rest, j, w);
		turn(c, 1, z, a);
		character_pose(c, 0.5, lin);
		c->skinning = DRAPE_SKINNING_DUAL_QUATERNION;
		character_pose(c, 0.5, p);
		double h = a / 2;
		for (int v = 0; v < 2; ++v) {
			double dx = rest[3 * v] - 1.0, dy = rest[3 * v + 1];
			CHECK_NEAR(p[3 * v], 1.0 + cos(h) * dx - sin(h) * dy, 1e-12);
			CHECK_NEAR(p[3 * v + 1], sin(h) * dx + cos(h) * dy, 1e-12);
			CHECK_NEAR(p[3 * v + 2], rest[3 * v + 2], 1e-12);
			/* the distance to the elbow is kept; linear blending loses it */
			double keep = hypot(dx, dy);
			CHECK_NEAR(hypot(p[3 * v] - 1.0, p[3 * v + 1]), keep, 1e-12);
			CHECK(hypot(lin[3 * v] - 1.0, lin[3 * v + 1]) < keep * (1.0 - 0.01));
		}
		drape_character_destroy(c);
	}
}

/* A vertex on one joint moves rigidly either way, and an even scale is kept: dual quaternion and
 * linear blend skinning agree to rounding (the shoulder turned, the elbow bent, the chain scaled
 * by 1.5 at its root). */
static void test_one_joint_vertices_agree(void)
{
	const double axis[3] = {0.36, 0.48, 0.8};
	const double z[3] = {0, 0, 1};
	double rest[9] = {0.5, 0.1, 0.05, 1.5, -0.1, 0.0, 1.9, 0.2, -0.1};
	int32_t j[12] = {0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
	double w[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
	drape_character* c = test_chain(2, 1.0, 3, rest, j, w);
	turn(c, 0, axis, 1.1);
	turn(c, 1, z, 2.5);
	for (int k = 0; k < 3; ++k) c->joints[0].rest.s[k] = 1.5;
	double lin[9], dq[9];
	character_pose(c, 0.5, lin);
	c->skinning = DRAPE_SKINNING_DUAL_QUATERNION;
	character_pose(c, 0.5, dq);
	for (int k = 0; k < 9; ++k) CHECK_NEAR(dq[k], lin[k], 1e-12);
	char err[256];
	CHECK(character_check_rigid(c, err, sizeof err));
	drape_character_destroy(c);
}

/* A joint scaled unevenly is not a rigid motion and a scale: refused, naming it. */
static void test_uneven_scale_refused(void)
{
	double rest[3] = {0, 0, 0};
	int32_t j[4] = {0, 0, 0, 0};
	double w[4] = {1, 0, 0, 0};
	drape_character* c = test_chain(2, 1.0, 1, rest, j, w);
	c->joints[1].rest.s[1] = 2.0;
	char err[256] = "";
	CHECK(!character_check_rigid(c, err, sizeof err));
	CHECK(strstr(err, "joint 'j1' shears or scales unevenly") != NULL);
	c->joints[1].rest.s[1] = 1.0;
	c->joints[0].inverse_bind.m[1] = 0.3; /* a shear in the bind */
	CHECK(!character_check_rigid(c, err, sizeof err));
	CHECK(strstr(err, "joint 'j0'") != NULL);
	drape_character_destroy(c);
	/* Through the library: a skinning that is neither is refused before the file is read. */
	drape_character_def d = drape_default_character_def();
	d.file = "/nonexistent.bvh";
	d.skinning = (drape_skinning)7;
	CHECK(drape_character_load(&d, err, sizeof err) == NULL);
	CHECK(strstr(err, "skinning must be linear or dual_quaternion") != NULL);
}

const test_case skinning_tests[] = {
	{"twisted_limb_keeps_its_radius", test_twisted_limb_keeps_its_radius},
	{"bent_elbow_is_half_the_screw", test_bent_elbow_is_half_the_screw},
	{"one_joint_vertices_agree", test_one_joint_vertices_agree},
	{"uneven_scale_refused", test_uneven_scale_refused},
	{NULL, NULL},
};
