/* Characters as users bring them (docs/characters.md; issue 29 item 1, issue 28 item 2): skin weights
 * normalised on import (a synthetic skin, and the FBX rig of assimp-testmodels), posed bodies without
 * animation as static solids (Collada human.zae under a dropped cloth), the built-in joint maps and
 * the scene's joint_map, the mannequin on a Biovision skeleton (Boxing_Toes.bvh), and keyframed joint
 * rotations against hand-computed transforms, through the library and through a scene file. Part of
 * the "character" suite (test_character.c lists the cases). */
#include "test_character_import.h"

#include "fixtures.h"
#include "test.h"

#include "character/character.h"
#include "io/scene.h"
#include "world.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MODELS "/usr/share/assimp/models"
#define PI 3.14159265358979323846

static bool have(const char* path)
{
	FILE* f = fopen(path, "rb");
	if (f) fclose(f);
	if (!f) printf("  (skipped: %s missing; install assimp-testmodels)\n", path);
	return f != NULL;
}

/* n joints in a chain along x (joint k at local (len, 0, 0) from its parent), one vertex per
 * joint at the joint, skinned to it alone. */
static drape_character* bare_chain(int n, double len)
{
	enum { MAX = 8 };
	double rest[3 * MAX] = {0}, w[4 * MAX] = {0};
	int32_t j[4 * MAX] = {0};
	for (int k = 0; k < n && k < MAX; ++k) {
		rest[3 * k] = k * len;
		j[4 * k] = k;
		w[4 * k] = 1.0;
	}
	return test_chain(n, len, n, rest, j, w);
}

/* A model of assimp-testmodels with the default def; NULL (and a note) when it is not installed. */
static drape_character* load_model(const char* path)
{
	if (!have(path)) return NULL;
	drape_character_def d = drape_default_character_def();
	d.file = path;
	char err[512] = "";
	drape_character* c = drape_character_load(&d, err, sizeof err);
	if (!c) fprintf(stderr, "  %s\n", err);
	CHECK(c != NULL);
	return c;
}

drape_world* cloth_on_character(const drape_grid_def* g, const drape_character* c)
{
	drape_world_def wd = drape_default_world_def();
	wd.threads = 1;
	drape_world* w = drape_world_create(&wd);
	drape_mesh m;
	char err[256];
	CHECK(drape_mesh_make_grid(g, &m, err, sizeof err) == DRAPE_OK);
	drape_cloth_def cd = drape_default_cloth_def();
	cd.mesh = &m;
	drape_cloth_add(w, &cd);
	drape_mesh_free(&m);
	drape_solid_def sd = drape_default_solid_def();
	sd.shape = DRAPE_SOLID_MESH;
	sd.character = c;
	sd.friction = 0.5;
	CHECK(drape_solid_add(w, &sd).index == 0);
	return w;
}

void run_frames(drape_world* w, int frames, int* touched, int* penetrating)
{
	for (int f = 1; f <= frames; ++f) {
		CHECK(drape_world_step(w, 1.0 / 30) == DRAPE_OK);
		drape_stats st = drape_world_get_stats(w);
		*penetrating += st.penetrating;
		*touched += st.solid_contacts > 0;
	}
}

/* The largest coordinate change of a skinned vertex between times t0 and t1 (all finite). */
static double largest_move(const drape_character* c, double t0, double t1)
{
	size_t n = 3 * (size_t)c->vertex_count;
	double* a = malloc(n * sizeof *a);
	double* b = malloc(n * sizeof *b);
	character_pose(c, t0, a);
	character_pose(c, t1, b);
	double moved = 0.0;
	for (size_t i = 0; i < n; ++i) {
		CHECK(isfinite(b[i]));
		moved = fmax(moved, fabs(a[i] - b[i]));
	}
	free(a);
	free(b);
	return moved;
}

/* ---- skin weights ---- */

void test_character_weights_normalised(void)
{
	drape_character* c = bare_chain(2, 1.0);
	/* vertex 0: 0.6 + 0.6 = 1.2 -> 0.5, 0.5; vertex 1: 0.9995 (rounding: normalised, not reported) */
	c->skin_joint[1] = 1;
	c->skin_weight[0] = 0.6;
	c->skin_weight[1] = 0.6;
	c->skin_weight[4] = 0.9995;
	char err[256] = "";
	CHECK(character_normalise_skin(c, err, sizeof err));
	CHECK_NEAR(c->skin_weight[0], 0.5, 1e-15);
	CHECK_NEAR(c->skin_weight[1], 0.5, 1e-15);
	CHECK_NEAR(c->skin_weight[4], 1.0, 1e-15);
	CHECK(strstr(drape_character_warnings(c), "1 of 2 vertices did not sum to 1") != NULL);
	CHECK(strstr(drape_character_warnings(c), "vertex 0, whose weights summed to 1.2") != NULL);
	/* posed halfway between its two joints */
	double p[6];
	character_pose(c, 0.0, p);
	CHECK_NEAR(p[0], 0.0, 1e-15);
	/* sums within 1e-3 give no warning */
	drape_character* quiet = bare_chain(1, 1.0);
	quiet->skin_weight[0] = 1.0004;
	CHECK(character_normalise_skin(quiet, err, sizeof err));
	CHECK(strcmp(drape_character_warnings(quiet), "") == 0);
	CHECK_NEAR(quiet->skin_weight[0], 1.0, 1e-15);
	/* refused, naming the vertex: all zero, not finite, negative */
	quiet->skin_weight[0] = 0.0;
	CHECK(!character_normalise_skin(quiet, err, sizeof err));
	CHECK(strstr(err, "vertex 0 has no skin weight: every weight is zero") != NULL);
	drape_character* nan = bare_chain(3, 1.0);
	nan->skin_weight[8] = NAN;
	CHECK(!character_normalise_skin(nan, err, sizeof err));
	CHECK(strstr(err, "vertex 2: skin weight nan is not finite") != NULL);
	nan->skin_weight[8] = -0.5;
	CHECK(!character_normalise_skin(nan, err, sizeof err));
	CHECK(strstr(err, "vertex 2: skin weight -0.5 is negative") != NULL);
	drape_character_destroy(c);
	drape_character_destroy(quiet);
	drape_character_destroy(nan);
}

/* The FBX rig of assimp-testmodels: weights summing to 0.94-1.38 (refused before), now normalised
 * with a warning, skinned, and moving with its clip; its warning reaches the world's. */
void test_character_fbx_rig(void)
{
	drape_character* c = load_model(MODELS "/FBX/animation_with_skeleton.fbx");
	if (!c) return;
	printf("  %d vertices, %d triangles, %.3f s clip; %s\n", (int)c->vertex_count, (int)c->triangle_count, c->duration,
	       drape_character_warnings(c));
	CHECK(c->vertex_count > 1000 && c->duration > 0.5);
	CHECK(strstr(drape_character_warnings(c), "skin weights normalised") != NULL);
	CHECK(strstr(drape_character_warnings(c), "summed to 1.37") != NULL);
	for (int32_t v = 0; v < c->vertex_count; ++v) {
		double s = 0.0;
		for (int k = 0; k < 4; ++k) s += c->skin_weight[4 * v + k];
		if (fabs(s - 1.0) > 1e-12) {
			CHECK_NEAR(s, 1.0, 1e-12);
			break;
		}
	}
	double moved = largest_move(c, 0.0, 0.5 * c->duration);
	printf("  largest displacement at mid-clip: %.3f\n", moved);
	CHECK(moved > 0.1);
	/* the warning goes where a world's warnings go */
	drape_world_def wd = drape_default_world_def();
	drape_world* w = drape_world_create(&wd);
	drape_solid_def sd = drape_default_solid_def();
	sd.shape = DRAPE_SOLID_MESH;
	sd.character = c;
	sd.name = "rig";
	CHECK(drape_solid_add(w, &sd).index == 0);
	CHECK(strstr(drape_world_warnings(w), "solid 'rig': skin weights normalised") != NULL);
	drape_world_destroy(w);
	drape_character_destroy(c);
}

/* ---- posed bodies without animation ---- */

/* The MakeHuman body of human.zae (no bones, no clip) as a static character: a 0.3 m cloth dropped
 * on its head and shoulders rests on it with no particle inside; keyframes on its root node turn it
 * rigidly. */
void test_character_static_body(void)
{
	drape_character* c = load_model(MODELS "/Collada/human.zae");
	if (!c) return;
	CHECK(c->duration == 0.0);
	int32_t n = c->vertex_count;
	double* p = malloc(3 * (size_t)n * sizeof *p);
	double* q = malloc(3 * (size_t)n * sizeof *q);
	character_pose(c, 0.0, p);
	character_pose(c, 1.0, q);
	double lo = INFINITY, hi = -INFINITY, top[3] = {0, 0, -INFINITY};
	for (int32_t v = 0; v < n; ++v) {
		CHECK(p[3 * v] == q[3 * v] && p[3 * v + 2] == q[3 * v + 2]); /* it stands still */
		lo = fmin(lo, p[3 * v + 2]);
		hi = fmax(hi, p[3 * v + 2]);
		if (p[3 * v + 2] > top[2]) memcpy(top, &p[3 * v], sizeof top);
	}
	printf("  %d vertices, %d triangles, %.3f m tall (y up turned to z up)\n", (int)n, (int)c->triangle_count, hi - lo);
	CHECK(hi - lo > 1.5 && hi - lo < 1.8);
	drape_grid_def g = drape_default_grid_def();
	g.size[0] = g.size[1] = 0.3;
	g.resolution[0] = g.resolution[1] = 13;
	g.center[0] = top[0];
	g.center[1] = top[1];
	g.center[2] = top[2] + 0.05;
	drape_world* w = cloth_on_character(&g, c);
	int touched = 0, penetrating = 0;
	run_frames(w, 30, &touched, &penetrating);
	double low = INFINITY;
	for (int32_t i = 0; i < 169; ++i) low = fmin(low, w->state.x[i].z);
	printf("  %d of 30 frames touching, the cloth's lowest point %.3f m below the head's top\n", touched, top[2] - low);
	CHECK(touched > 20);
	CHECK(penetrating == 0);
	CHECK(top[2] - low > 0.05); /* it drapes down around the head */
	drape_world_destroy(w);
	drape_character_destroy(c);
	/* Rigidly keyframed: the file's root node ("Scene") turned 90 degrees about the vertical over a
	 * second turns every vertex about the world's z axis through that node (the origin). */
	drape_character_def d = drape_default_character_def();
	d.file = MODELS "/Collada/human.zae";
	drape_joint_key turn[2] = {{0.0, "Scene", {0, 0, 0}}, {1.0, "Scene", {0, 0, 90}}};
	d.keyframes = turn;
	d.keyframe_count = 2;
	char err[512] = "";
	c = drape_character_load(&d, err, sizeof err);
	CHECK(c != NULL);
	if (c) {
		character_pose(c, 0.5, q);
		double s = sqrt(0.5), worst = 0.0;
		for (int32_t v = 0; v < n; ++v) {
			worst = fmax(worst, fabs(q[3 * v] - s * (p[3 * v] - p[3 * v + 1])));
			worst = fmax(worst, fabs(q[3 * v + 1] - s * (p[3 * v] + p[3 * v + 1])));
			worst = fmax(worst, fabs(q[3 * v + 2] - p[3 * v + 2]));
		}
		CHECK(worst < 1e-12);
		drape_character_destroy(c);
	}
	free(p);
	free(q);
}

static int cmp_edge(const void* a, const void* b)
{
	int64_t x = *(const int64_t*)a, y = *(const int64_t*)b;
	return (x > y) - (x < y);
}

/* Edges used by one triangle only. */
static int32_t open_edges(const drape_character* c)
{
	int32_t n = 3 * c->triangle_count, open = 0;
	int64_t* e = malloc((size_t)n * sizeof *e);
	for (int32_t t = 0; t < c->triangle_count; ++t)
		for (int k = 0; k < 3; ++k) {
			int64_t a = c->triangles[3 * t + k], b = c->triangles[3 * t + (k + 1) % 3];
			e[3 * t + k] = a < b ? (a << 32) | b : (b << 32) | a;
		}
	qsort(e, (size_t)n, sizeof *e, cmp_edge);
	for (int32_t i = 0; i < n;) {
		int32_t j = i + 1;
		while (j < n && e[j] == e[i]) ++j;
		open += j - i == 1;
		i = j;
	}
	free(e);
	return open;
}

/* HUMAN.blend comes as two meshes split by material, and meshes repeat vertices along uv seams:
 * welded, the body is closed; human.zae is open only at its eye sockets; the FBX rig closes. */
void test_character_static_weld(void)
{
	if (!have(MODELS "/BLEND/HUMAN.blend") || !have(MODELS "/Collada/human.zae")) return;
	drape_character_def d = drape_default_character_def();
	d.file = MODELS "/BLEND/HUMAN.blend";
	d.up = 'z';
	d.scale = 0.16;
	char err[512] = "";
	drape_character* c = drape_character_load(&d, err, sizeof err);
	CHECK(c != NULL);
	if (!c) return;
	printf("  HUMAN.blend: %d vertices (4,414 before welding), %d triangles, %d open edges\n", (int)c->vertex_count,
	       (int)c->triangle_count, (int)open_edges(c));
	CHECK(c->triangle_count == 8560);
	CHECK(open_edges(c) == 0);
	drape_character_destroy(c);
	c = load_model(MODELS "/Collada/human.zae");
	if (!c) return;
	printf("  human.zae: %d vertices, %d open edges\n", (int)c->vertex_count, (int)open_edges(c));
	CHECK(open_edges(c) == 80);
	drape_character_destroy(c);
	/* skinned vertices weld when their skins agree too: the FBX rig repeats every vertex per face */
	c = load_model(MODELS "/FBX/animation_with_skeleton.fbx");
	if (!c) return;
	printf("  animation_with_skeleton.fbx: %d vertices (2,464 before welding), %d open edges\n", (int)c->vertex_count,
	       (int)open_edges(c));
	CHECK(c->triangle_count == 2112 && open_edges(c) == 0);
	drape_character_destroy(c);
}

/* ---- joint names ---- */

static void expect_map(const char* const* names, int32_t n, const char* scheme, const char* const* expect)
{
	const char* renamed[64];
	const char* got = character_detect_map(names, n, renamed);
	CHECK(got && strcmp(got, scheme) == 0);
	for (int32_t i = 0; i < n; ++i) {
		bool same = expect[i] ? renamed[i] && strcmp(renamed[i], expect[i]) == 0 : renamed[i] == NULL;
		if (!same) fprintf(stderr, "  %s: %s -> %s, want %s\n", scheme, names[i], renamed[i] ? renamed[i] : "(kept)",
				   expect[i] ? expect[i] : "(kept)");
		CHECK(same);
	}
}

void test_character_joint_maps(void)
{
	/* BVH/01_01.bvh (CMU) */
	static const char* const cmu[] = {"Hips", "LHipJoint", "LeftUpLeg", "LeftLeg", "LeftFoot", "LeftToeBase",
					  "RHipJoint", "RightUpLeg", "RightLeg", "RightFoot", "RightToeBase", "LowerBack",
					  "Spine", "Spine1", "Neck", "Neck1", "Head", "LeftShoulder", "LeftArm",
					  "LeftForeArm", "LeftHand", "LeftFingerBase", "LFingers", "LThumb",
					  "RightShoulder", "RightArm", "RightForeArm", "RightHand", "RightFingerBase",
					  "RFingers", "RThumb", "EndSite_LFingers"};
	const char* cmu_expect[32];
	for (int i = 0; i < 31; ++i) cmu_expect[i] = cmu[i];
	cmu_expect[31] = NULL;
	expect_map(cmu, 32, "CMU", cmu_expect);
	/* BVH/Boxing_Toes.bvh (Biovision / MotionBuilder), as its HIERARCHY names them */
	static const char* const bio[] = {"Hips", "Ab", "Chest", "Neck", "Head", "EndSite_Head", "LeftCollar",
					  "LeftShoulder", "LeftElbow", "LeftWrist", "EndSite_LeftWrist", "RightCollar",
					  "RightShoulder", "RightElbow", "RightWrist", "LeftHip", "LeftKnee", "LeftAnkle",
					  "LeftToes", "RightHip", "RightKnee", "RightAnkle", "RightToes"};
	static const char* const bio_expect[] = {
		"Hips",      "Spine",     "Spine1",   "Neck",          "Head",       NULL,          "LeftShoulder",
		"LeftArm",   "LeftForeArm", "LeftHand", NULL,          "RightShoulder", "RightArm", "RightForeArm",
		"RightHand", "LeftUpLeg", "LeftLeg",  "LeftFoot",      "LeftToeBase", "RightUpLeg", "RightLeg",
		"RightFoot", "RightToeBase"};
	expect_map(bio, 23, "Biovision", bio_expect);
	/* Mixamo's rig (its names as Mixamo exports them) */
	static const char* const mix[] = {
		"mixamorig:Hips",         "mixamorig:Spine",          "mixamorig:Spine1",        "mixamorig:Spine2",
		"mixamorig:Neck",         "mixamorig:Head",           "mixamorig:HeadTop_End",   "mixamorig:LeftShoulder",
		"mixamorig:LeftArm",      "mixamorig:LeftForeArm",    "mixamorig:LeftHand",      "mixamorig:LeftHandThumb1",
		"mixamorig:LeftHandThumb2", "mixamorig:LeftHandIndex1", "mixamorig:LeftHandIndex2", "mixamorig:RightShoulder",
		"mixamorig:RightArm",     "mixamorig:RightForeArm",   "mixamorig:RightHand",     "mixamorig:RightHandIndex1",
		"mixamorig:LeftUpLeg",    "mixamorig:LeftLeg",        "mixamorig:LeftFoot",      "mixamorig:LeftToeBase",
		"mixamorig:LeftToe_End",  "mixamorig:RightUpLeg",     "mixamorig:RightLeg",      "mixamorig:RightFoot",
		"mixamorig:RightToeBase"};
	static const char* const mix_expect[] = {
		"Hips",     "LowerBack",   "Spine",        "Spine1",    "Neck",           "Head",     NULL,
		"LeftShoulder", "LeftArm", "LeftForeArm",  "LeftHand",  "LThumb",         NULL,       "LeftHandIndex1",
		NULL,       "RightShoulder", "RightArm",   "RightForeArm", "RightHand",    "RightHandIndex1", "LeftUpLeg",
		"LeftLeg",  "LeftFoot",    "LeftToeBase",  NULL,        "RightUpLeg",     "RightLeg", "RightFoot",
		"RightToeBase"};
	expect_map(mix, 29, "Mixamo", mix_expect);
	/* a rig of another scheme matches none */
	static const char* const other[] = {"Bone", "Bone.001", "Bone.002"};
	const char* renamed[3];
	CHECK(character_detect_map(other, 3, renamed) == NULL);
	CHECK(!renamed[0] && !renamed[1] && !renamed[2]);
}

static drape_character* load_boxing(const drape_joint_name* map, int32_t map_count, char* err, size_t size)
{
	drape_character_def d = drape_default_character_def();
	d.file = MODELS "/BVH/Boxing_Toes.bvh";
	d.scale = 0.01; /* centimetres */
	d.joint_map = map;
	d.joint_map_count = map_count;
	return drape_character_load(&d, err, size);
}

/* Boxing_Toes.bvh's Biovision skeleton gets the mannequin without renaming: a body of the CMU
 * mannequin's size, whose left arm is the file's LeftShoulder; and a scene's joint_map. */
void test_character_biovision_mannequin(void)
{
	if (!have(MODELS "/BVH/Boxing_Toes.bvh")) return;
	char err[512] = "";
	drape_character* c = load_boxing(NULL, 0, err, sizeof err);
	if (!c) fprintf(stderr, "  %s\n", err);
	CHECK(c != NULL);
	if (!c) return;
	int32_t n = c->vertex_count;
	double* p = malloc(3 * (size_t)n * sizeof *p);
	character_pose(c, 0.0, p);
	double lo = INFINITY, hi = -INFINITY;
	for (int32_t v = 0; v < n; ++v) lo = fmin(lo, p[3 * v + 2]), hi = fmax(hi, p[3 * v + 2]);
	printf("  %d vertices, %.3f m tall, %.1f s of motion\n", (int)n, hi - lo, c->duration);
	CHECK(n > 6000 && n < 10000);
	CHECK(hi - lo > 1.6 && hi - lo < 1.85);
	/* the clip drives it: five seconds in, the boxer's guard is up and its feet have moved */
	double moved = largest_move(c, 0.0, 5.0);
	printf("  largest displacement at 5 s: %.3f m\n", moved);
	CHECK(moved > 0.3);
	int32_t arm = character_find_joint(c, "LeftArm");
	CHECK(arm >= 0 && strcmp(c->joints[arm].file_name, "LeftShoulder") == 0);
	CHECK(character_find_joint(c, "LeftCollar") == character_find_joint(c, "LeftShoulder"));
	double head[3], tail[3];
	CHECK(drape_character_joint(c, "LeftForeArm", 0.0, head, tail));
	/* the forearm of the file is 23.45 cm */
	CHECK_NEAR(sqrt((tail[0] - head[0]) * (tail[0] - head[0]) + (tail[1] - head[1]) * (tail[1] - head[1]) +
			(tail[2] - head[2]) * (tail[2] - head[2])),
		   0.2345179, 1e-6);
	free(p);
	drape_character_destroy(c);
	/* A joint_map replaces the built-in one: the same body from the scheme spelled out. */
	static const drape_joint_name spelled[] = {
		{"Hips", "Hips"},           {"Spine", "Ab"},           {"Spine1", "Chest"},         {"Neck", "Neck"},
		{"Head", "Head"},           {"LeftShoulder", "LeftCollar"}, {"LeftArm", "LeftShoulder"},
		{"LeftForeArm", "LeftElbow"}, {"LeftHand", "LeftWrist"}, {"LeftUpLeg", "LeftHip"},  {"LeftLeg", "LeftKnee"},
		{"LeftFoot", "LeftAnkle"},  {"LeftToeBase", "LeftToes"}, {"RightShoulder", "RightCollar"},
		{"RightArm", "RightShoulder"}, {"RightForeArm", "RightElbow"}, {"RightHand", "RightWrist"},
		{"RightUpLeg", "RightHip"}, {"RightLeg", "RightKnee"}, {"RightFoot", "RightAnkle"},
		{"RightToeBase", "RightToes"}};
	c = load_boxing(spelled, 21, err, sizeof err);
	CHECK(c != NULL && c->vertex_count == n);
	drape_character_destroy(c);
	/* bad maps: an unknown drape name, an unknown file joint (did you mean), a joint named twice */
	drape_joint_name bad[2] = {{"Spine1", "Chest"}, {"LeftFoerArm", "LeftElbow"}};
	CHECK(load_boxing(bad, 2, err, sizeof err) == NULL);
	CHECK(strstr(err, "Boxing_Toes.bvh: joint_map[1]: drape has no joint named 'LeftFoerArm' (did you mean "
			  "'LeftForeArm'?)"));
	bad[1] = (drape_joint_name){"Spine", "Chst"};
	CHECK(load_boxing(bad, 2, err, sizeof err) == NULL);
	CHECK(strstr(err, "joint_map[1]: the file has no joint named 'Chst' (did you mean 'Chest'?)"));
	bad[1] = (drape_joint_name){"Spine", "Chest"};
	CHECK(load_boxing(bad, 2, err, sizeof err) == NULL);
	CHECK(strstr(err, "joint_map[1]: the file's joint 'Chest' is named twice (as Spine1 and as Spine)"));
	bad[1] = (drape_joint_name){"Spine1", "Ab"};
	CHECK(load_boxing(bad, 2, err, sizeof err) == NULL);
	CHECK(strstr(err, "joint_map[1]: Spine1 is mapped twice"));
	/* a partial map leaves the body without its joints: the message says how to name them */
	CHECK(load_boxing(bad, 1, err, sizeof err) == NULL);
	CHECK(strstr(err, "give a joint_map for others"));
}

/* ---- keyframes ---- */

static void rotate(const double* q, const double* v, double* out)
{
	double p[4] = {0, v[0], v[1], v[2]}, qc[4] = {q[0], -q[1], -q[2], -q[3]}, a[4], b[4];
	quat_mul(q, p, a);
	quat_mul(a, qc, b);
	memcpy(out, &b[1], 3 * sizeof *out);
}

/* Euler angles, slerp between keys and the world-axis convention, against rotations written out by
 * hand. */
void test_character_keyframe_interpolation(void)
{
	/* [90, 0, 90]: x first (y -> z), then z (x -> y): x -> y, y -> z, z -> x */
	double q[4], v[3];
	character_euler_quat((double[3]){90, 0, 90}, q);
	rotate(q, (double[3]){1, 0, 0}, v);
	CHECK_NEAR(v[0], 0, 1e-15);
	CHECK_NEAR(v[1], 1, 1e-15);
	CHECK_NEAR(v[2], 0, 1e-15);
	rotate(q, (double[3]){0, 1, 0}, v);
	CHECK_NEAR(v[0], 0, 1e-15);
	CHECK_NEAR(v[1], 0, 1e-15);
	CHECK_NEAR(v[2], 1, 1e-15);
	rotate(q, (double[3]){0, 0, 1}, v);
	CHECK_NEAR(v[0], 1, 1e-15);
	CHECK_NEAR(v[1], 0, 1e-15);
	CHECK_NEAR(v[2], 0, 1e-15);

	/* Three joints along x, 1 m apart; the middle one turns about z: 0 at t = 1, 90 degrees at
	 * t = 3, then -30 at t = 4. */
	drape_character* c = bare_chain(3, 1.0);
	drape_joint_key keys[3] = {{1.0, "j1", {0, 0, 0}}, {3.0, "j1", {0, 0, 90}}, {4.0, "j1", {0, 0, -30}}};
	char err[256];
	CHECK(character_set_keyframes(c, keys, 3, NULL, err, sizeof err));
	double p[9], h[3], t[3];
	struct {
		double time, angle; /* degrees */
	} expect[] = {{0.0, 0}, {1.0, 0}, {1.5, 22.5}, {2.0, 45}, {3.0, 90}, {3.5, 30}, {4.0, -30}, {9.0, -30}};
	for (size_t k = 0; k < sizeof expect / sizeof expect[0]; ++k) {
		character_pose(c, expect[k].time, p);
		double a = expect[k].angle * PI / 180;
		/* joint 2 (and its vertex) swings about joint 1 at (1, 0, 0) */
		CHECK_NEAR(p[6], 1 + cos(a), 1e-12);
		CHECK_NEAR(p[7], sin(a), 1e-12);
		CHECK_NEAR(p[8], 0, 1e-12);
		CHECK_NEAR(p[3], 1, 1e-12);
		CHECK(drape_character_joint(c, "j1", expect[k].time, h, t));
		CHECK_NEAR(t[0], 1 + cos(a), 1e-12);
	}
	/* On top of a clip: j0 turns about z by the clip (0 -> 90 degrees over 1 s), j1 by keys. At
	 * t = 1, j1's own frame has turned 90 degrees, and its key turns it 45 further about the
	 * same (vertical) axis: the tip is at j1 (0, 1, 0) plus (cos 135, sin 135, 0). */
	joint_channel* ch = &c->joints[0].channel;
	ch->rot_count = 2;
	ch->rot_time = malloc(2 * sizeof(double));
	ch->rot = malloc(8 * sizeof(double));
	ch->rot_time[0] = 0.0, ch->rot_time[1] = 1.0;
	double clip[8] = {1, 0, 0, 0, cos(PI / 4), 0, 0, sin(PI / 4)};
	memcpy(ch->rot, clip, sizeof clip);
	c->duration = 1.0;
	drape_joint_key over[1] = {{0.0, "j1", {0, 0, 45}}};
	CHECK(character_set_keyframes(c, over, 1, NULL, err, sizeof err));
	character_pose(c, 1.0, p);
	CHECK_NEAR(p[3], 0, 1e-12);
	CHECK_NEAR(p[4], 1, 1e-12);
	CHECK_NEAR(p[6], cos(0.75 * PI), 1e-12);
	CHECK_NEAR(p[7], 1 + sin(0.75 * PI), 1e-12);
	drape_character_destroy(c);

	/* The axes are the world's at the joint's rest orientation: a file with y up (drape's z is the
	 * file's y) and a joint whose rest rotation is 90 degrees about the file's x. A key [0, 0, 90]
	 * still turns the child about the world's vertical through the joint. */
	c = bare_chain(2, 1.0);
	affine yup = {{1, 0, 0, 0, 0, 0, -1, 0, 0, 1, 0, 0}};
	c->to_world = yup;
	c->up[1] = 1.0, c->up[2] = 0.0;
	double rx[4] = {cos(PI / 4), sin(PI / 4), 0, 0};
	memcpy(c->joints[0].rest.q, rx, sizeof rx);
	memcpy(c->joints[0].dress_q, rx, sizeof rx);
	character_bind_rest(c);
	drape_joint_key turn[2] = {{0.0, "j0", {0, 0, 0}}, {2.0, "j0", {0, 0, 90}}};
	CHECK(character_set_keyframes(c, turn, 2, NULL, err, sizeof err));
	character_pose(c, 0.0, p);
	CHECK_NEAR(p[3], 1, 1e-12);
	CHECK_NEAR(p[4], 0, 1e-12);
	CHECK_NEAR(p[5], 0, 1e-12);
	character_pose(c, 1.0, p); /* 45 degrees about world z */
	CHECK_NEAR(p[3], sqrt(0.5), 1e-12);
	CHECK_NEAR(p[4], sqrt(0.5), 1e-12);
	CHECK_NEAR(p[5], 0, 1e-12);
	/* bad keys: an unknown joint (did you mean), times that do not increase */
	drape_joint_key bad[2] = {{0.0, "j0", {0, 0, 0}}, {1.0, "jj0", {0, 0, 0}}};
	character_error_at at;
	CHECK(!character_set_keyframes(c, bad, 2, &at, err, sizeof err));
	CHECK(at.what == CHARACTER_INPUT_KEY_JOINT && at.index == 1);
	CHECK(strstr(err, "the character has no joint named 'jj0' (did you mean 'j0'?)"));
	bad[1] = (drape_joint_key){0.0, "j0", {0, 0, 0}};
	CHECK(!character_set_keyframes(c, bad, 2, &at, err, sizeof err));
	CHECK(at.what == CHARACTER_INPUT_KEY_TIME && at.index == 1);
	CHECK(strstr(err, "keyframe times must increase: j0 has a key at 0 s after one at 0 s"));
	drape_character_destroy(c);
}

static const char* scene_with(const char* character, char* buf, size_t size)
{
	snprintf(buf, size,
		 "{\"cloths\": [{\"grid\": {\"size\": [0.2, 0.2], \"resolution\": [3, 3], \"center\": [0, 0, 3]}}],\n"
		 " \"solids\": [{\"shape\": \"character\",\n  \"character\": %s}]}",
		 character);
	return buf;
}

/* Keyframes through a scene file: the CMU body, held in its dressing pose, twists its chest 90
 * degrees to the left over a second: the left shoulder swings about the vertical through Spine1. */
void test_character_scene_keyframes(void)
{
	if (!have(MODELS "/BVH/01_01.bvh")) return;
	char text[2048], err[1024];
	scene s;
	const char* twist = "{\"file\": \"" MODELS "/BVH/01_01.bvh\", \"hold\": 100, \"cell_size\": 0.028,\n"
			    "   \"keyframes\": [{\"time\": 1, \"joints\": {\"Spine1\": [0, 0, 0]}},\n"
			    "                 {\"time\": 2, \"joints\": {\"Spine1\": [0, 0, 90]}}]}";
	bool ok = scene_load_text(scene_with(twist, text, sizeof text), "test.json", &s, err, sizeof err);
	if (!ok) fprintf(stderr, "  %s\n", err);
	CHECK(ok);
	if (!ok) return;
	const drape_character* c = s.solids[0].def.character;
	double spine[3], arm0[3], arm1[3], tail[3];
	CHECK(drape_character_joint(c, "Spine1", 1.0, spine, tail));
	CHECK(drape_character_joint(c, "LeftArm", 1.0, arm0, tail));
	CHECK(drape_character_joint(c, "LeftArm", 2.0, arm1, tail));
	double d0[3] = {arm0[0] - spine[0], arm0[1] - spine[1], arm0[2] - spine[2]};
	CHECK_NEAR(arm1[0] - spine[0], -d0[1], 1e-9);
	CHECK_NEAR(arm1[1] - spine[1], d0[0], 1e-9);
	CHECK_NEAR(arm1[2], arm0[2], 1e-9);
	CHECK(hypot(d0[0], d0[1]) > 0.1);
	scene_free(&s);
	/* bad input: file:line: json.path: message */
	static const struct {
		const char* character;
		const char* want;
	} bad[] = {
		{"{\"file\": \"" MODELS "/BVH/01_01.bvh\",\n \"keyframes\": [{\"time\": 0, \"joints\": {\"Spinee1\": [0, 0, 5]}}]}",
		 "test.json:4: solids[0].character.keyframes[0].joints.Spinee1: the character has no joint named 'Spinee1' "
		 "(did you mean 'Spine1'?)"},
		{"{\"file\": \"" MODELS "/BVH/01_01.bvh\",\n \"keyframes\": [{\"time\": 1, \"joints\": {\"Head\": [0, 0, 5]}},\n"
		 "  {\"time\": 0.5, \"joints\": {\"Head\": [0, 0, 5]}}]}",
		 "test.json:5: solids[0].character.keyframes[1].time: keyframe times must increase: 0.5 after 1"},
		{"{\"file\": \"" MODELS "/BVH/Boxing_Toes.bvh\",\n \"joint_map\": {\"Spine1\": \"Chest\",\n  \"Spine\": \"Chest\"}}",
		 "test.json:5: solids[0].character.joint_map.Spine: the file's joint 'Chest' is named twice (as "
		 "Spine1 and as Spine)"},
		{"{\"file\": \"" MODELS "/BVH/Boxing_Toes.bvh\",\n \"joint_map\": {\"Spine\": \"Abb\"}}",
		 "test.json:4: solids[0].character.joint_map.Spine: the file has no joint named 'Abb' (did "
		 "you mean 'Ab'?)"},
	};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
		CHECK(!scene_load_text(scene_with(bad[k].character, text, sizeof text), "test.json", &s, err, sizeof err));
		if (!strstr(err, bad[k].want)) fprintf(stderr, "  got '%s'\n  want '%s'\n", err, bad[k].want);
		CHECK(strstr(err, bad[k].want) != NULL);
	}
}
