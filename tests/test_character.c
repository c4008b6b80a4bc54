/* Animated characters (docs/characters.md): linear blend skinning against poses computed by hand, the
 * glTF specification's skinning math on assimp-testmodels' simple_skin.gltf, BVH forward kinematics
 * against the file's own channels, collider motion per step, `penetrating`, and bad input. */
#include "fixtures.h"
#include "test.h"
#include "test_character_import.h"

#include "character/character.h"
#include "collide/solid.h"
#include "world.h"

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MODELS "/usr/share/assimp/models"
#define PI 3.14159265358979323846

static bool have_file(const char* path)
{
	FILE* f = fopen(path, "rb");
	if (f) fclose(f);
	return f != NULL;
}

/* A chain of joints along x, joint k at local offset (len, 0, 0) from its parent (the root at the
 * origin), with vertex weights given by the caller; identity placement, z up. */
drape_character* test_chain(int joints, double len, int verts, const double* rest, const int32_t* j, const double* w)
{
	drape_character* c = calloc(1, sizeof *c);
	c->joint_count = joints;
	c->joints = calloc((size_t)joints, sizeof *c->joints);
	for (int k = 0; k < joints; ++k) {
		character_joint* jk = &c->joints[k];
		char name[16];
		snprintf(name, sizeof name, "j%d", k);
		jk->name = strdup(name);
		jk->parent = k - 1;
		jk->rest.t[0] = k ? len : 0.0;
		jk->rest.q[0] = 1.0;
		jk->rest.s[0] = jk->rest.s[1] = jk->rest.s[2] = 1.0;
		jk->dress_q[0] = 1.0;
	}
	c->root = -1;
	c->vertex_count = verts;
	c->rest = malloc(3 * (size_t)verts * sizeof *c->rest);
	memcpy(c->rest, rest, 3 * (size_t)verts * sizeof *c->rest);
	c->skin_joint = calloc(4 * (size_t)verts, sizeof *c->skin_joint);
	c->skin_weight = calloc(4 * (size_t)verts, sizeof *c->skin_weight);
	memcpy(c->skin_joint, j, 4 * (size_t)verts * sizeof *j);
	memcpy(c->skin_weight, w, 4 * (size_t)verts * sizeof *w);
	c->to_world = affine_identity();
	c->up[2] = 1.0;
	c->time_scale = 1.0;
	character_bind_rest(c);
	return c;
}

/* Joint k's rotation keys: angle a0 at t = 0 to a1 at t = 1 about z. */
static void rotate_z(drape_character* c, int k, double a0, double a1)
{
	joint_channel* ch = &c->joints[k].channel;
	ch->rot_count = 2;
	ch->rot_time = malloc(2 * sizeof(double));
	ch->rot = malloc(8 * sizeof(double));
	ch->rot_time[0] = 0.0;
	ch->rot_time[1] = 1.0;
	double q[8] = {cos(a0 / 2), 0, 0, sin(a0 / 2), cos(a1 / 2), 0, 0, sin(a1 / 2)};
	memcpy(ch->rot, q, sizeof q);
	c->duration = 1.0;
}

static void test_two_bone_chain(void)
{
	/* Vertex 0 on the upper bone, 1 on the lower, 2 split half and half 0.2 beyond the elbow. */
	double rest[9] = {0.5, 0.1, 0, 1.5, -0.1, 0, 1.2, 0, 0};
	int32_t j[12] = {0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0};
	double w[12] = {1, 0, 0, 0, 1, 0, 0, 0, 0.5, 0.5, 0, 0};
	drape_character* c = test_chain(2, 1.0, 3, rest, j, w);
	rotate_z(c, 1, 0.0, PI / 2); /* the elbow bends 90 degrees over one second */
	rotate_z(c, 0, 0.0, PI / 3); /* while the shoulder turns 60 */
	double p[9];
	for (int step = 0; step <= 4; ++step) {
		double t = 0.25 * step;
		character_pose(c, t, p);
		double a = t * PI / 3, b = t * PI / 2; /* slerp of a rotation about one axis is linear in angle */
		double ca = cos(a), sa = sin(a), cab = cos(a + b), sab = sin(a + b);
		/* upper bone: rotate (0.5, 0.1) by a */
		CHECK_NEAR(p[0], 0.5 * ca - 0.1 * sa, 1e-12);
		CHECK_NEAR(p[1], 0.5 * sa + 0.1 * ca, 1e-12);
		/* lower bone: elbow at R(a)(1, 0), then R(a + b)(0.5, -0.1) */
		CHECK_NEAR(p[3], ca + 0.5 * cab + 0.1 * sab, 1e-12);
		CHECK_NEAR(p[4], sa + 0.5 * sab - 0.1 * cab, 1e-12);
		/* blended: the average of both bones' images of (1.2, 0) */
		double ux = 1.2 * ca, uy = 1.2 * sa, lx = ca + 0.2 * cab, ly = sa + 0.2 * sab;
		CHECK_NEAR(p[6], 0.5 * (ux + lx), 1e-12);
		CHECK_NEAR(p[7], 0.5 * (uy + ly), 1e-12);
		CHECK_NEAR(p[2] + p[5] + p[8], 0.0, 1e-15);
	}
	/* Lead-in: held at the dressing pose (here the rest pose), then blended into the clip. */
	c->hold = 1.0;
	c->blend = 1.0;
	character_pose(c, 0.5, p);
	CHECK_NEAR(p[3], 1.5, 1e-12);
	CHECK_NEAR(p[4], -0.1, 1e-12);
	double q[9];
	character_pose(c, 2.0 + 0.5, p); /* clip time 0.5 after hold and blend */
	c->hold = c->blend = 0.0;
	character_pose(c, 0.5, q);
	CHECK(max_abs_diff(p, q, 9) < 1e-12);
	drape_character_destroy(c);
}

/* ---- glTF: the specification's skinning, computed from the file's own accessors ---- */

static int b64(int ch)
{
	if (ch >= 'A' && ch <= 'Z') return ch - 'A';
	if (ch >= 'a' && ch <= 'z') return ch - 'a' + 26;
	if (ch >= '0' && ch <= '9') return ch - '0' + 52;
	return ch == '+' ? 62 : ch == '/' ? 63 : -1;
}

static unsigned char* decode_uri(const char* uri, size_t* n)
{
	const char* s = strchr(uri, ',') + 1;
	size_t len = strlen(s);
	unsigned char* out = malloc(len);
	size_t k = 0;
	unsigned acc = 0;
	int bits = 0;
	for (size_t i = 0; i < len; ++i) {
		int v = b64(s[i]);
		if (v < 0) continue;
		acc = (acc << 6) | (unsigned)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[k++] = (unsigned char)((acc >> bits) & 0xff);
		}
	}
	*n = k;
	return out;
}

typedef struct gltf {
	cJSON* root;
	unsigned char* buffers[8];
} gltf;

/* Pointer to element i of accessor a (no strides other than the view's). */
static const unsigned char* element(const gltf* g, int a, int i, int size)
{
	cJSON* acc = cJSON_GetArrayItem(cJSON_GetObjectItem(g->root, "accessors"), a);
	cJSON* view = cJSON_GetArrayItem(cJSON_GetObjectItem(g->root, "bufferViews"), cJSON_GetObjectItem(acc, "bufferView")->valueint);
	cJSON* stride = cJSON_GetObjectItem(view, "byteStride");
	cJSON* aoff = cJSON_GetObjectItem(acc, "byteOffset");
	cJSON* voff = cJSON_GetObjectItem(view, "byteOffset");
	size_t off = (size_t)(aoff ? aoff->valueint : 0) + (size_t)(voff ? voff->valueint : 0) +
		     (size_t)i * (size_t)(stride ? stride->valueint : size);
	return g->buffers[cJSON_GetObjectItem(view, "buffer")->valueint] + off;
}

static float f32(const unsigned char* p, int k)
{
	float f;
	memcpy(&f, p + 4 * k, 4);
	return f;
}

/* Column-major 4x4 products, as glTF stores matrices. */
static void m4_mul(const double* a, const double* b, double* r)
{
	for (int c = 0; c < 4; ++c)
		for (int rr = 0; rr < 4; ++rr) {
			double s = 0;
			for (int k = 0; k < 4; ++k) s += a[4 * k + rr] * b[4 * c + k];
			r[4 * c + rr] = s;
		}
}

static void m4_trs(const double* t, const double* q, double* m)
{
	double x = q[0], y = q[1], z = q[2], w = q[3]; /* glTF quaternions are (x, y, z, w) */
	double r[16] = {1 - 2 * (y * y + z * z), 2 * (x * y + w * z),     2 * (x * z - w * y),     0,
			2 * (x * y - w * z),     1 - 2 * (x * x + z * z), 2 * (y * z + w * x),     0,
			2 * (x * z + w * y),     2 * (y * z - w * x),     1 - 2 * (x * x + y * y), 0,
			t[0],                    t[1],                    t[2],                    1};
	memcpy(m, r, sizeof r);
}

static void test_gltf_simple_skin(void)
{
	const char* path = MODELS "/glTF2/simple_skin/simple_skin.gltf";
	if (!have_file(path)) {
		printf("  (skipped: %s missing; install assimp-testmodels)\n", path);
		return;
	}
	FILE* f = fopen(path, "rb");
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, 0, SEEK_SET);
	char* text = malloc((size_t)len + 1);
	CHECK(fread(text, 1, (size_t)len, f) == (size_t)len);
	text[len] = 0;
	fclose(f);
	gltf g = {cJSON_Parse(text), {0}};
	free(text);
	cJSON* bufs = cJSON_GetObjectItem(g.root, "buffers");
	for (int b = 0; b < cJSON_GetArraySize(bufs) && b < 8; ++b) {
		size_t n;
		g.buffers[b] = decode_uri(cJSON_GetObjectItem(cJSON_GetArrayItem(bufs, b), "uri")->valuestring, &n);
	}
	cJSON* prim = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(g.root, "meshes"), 0), "primitives"), 0);
	cJSON* attr = cJSON_GetObjectItem(prim, "attributes");
	int a_pos = cJSON_GetObjectItem(attr, "POSITION")->valueint, a_j = cJSON_GetObjectItem(attr, "JOINTS_0")->valueint,
	    a_w = cJSON_GetObjectItem(attr, "WEIGHTS_0")->valueint;
	cJSON* skin = cJSON_GetArrayItem(cJSON_GetObjectItem(g.root, "skins"), 0);
	int a_ibm = cJSON_GetObjectItem(skin, "inverseBindMatrices")->valueint;
	cJSON* sampler = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(g.root, "animations"), 0), "samplers"), 0);
	int a_in = cJSON_GetObjectItem(sampler, "input")->valueint, a_out = cJSON_GetObjectItem(sampler, "output")->valueint;
	int keys = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(g.root, "accessors"), a_in), "count")->valueint;
	int nv = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(g.root, "accessors"), a_pos), "count")->valueint;
	/* Node 1 (joint 0) is translated, node 2 (joint 1) its child, rotated by the animation. */
	double t1[3] = {0, 0, 0}, t2[3] = {0, 0, 0}, q1[4] = {0, 0, 0, 1};
	cJSON* nodes = cJSON_GetObjectItem(g.root, "nodes");
	cJSON* tr = cJSON_GetObjectItem(cJSON_GetArrayItem(nodes, 1), "translation");
	for (int k = 0; tr && k < 3; ++k) t1[k] = cJSON_GetArrayItem(tr, k)->valuedouble;
	tr = cJSON_GetObjectItem(cJSON_GetArrayItem(nodes, 2), "translation");
	for (int k = 0; tr && k < 3; ++k) t2[k] = cJSON_GetArrayItem(tr, k)->valuedouble;

	drape_character_def d = drape_default_character_def();
	d.file = path;
	d.up = 'z'; /* compare in the file's own frame */
	char err[512];
	drape_character* c = drape_character_load(&d, err, sizeof err);
	CHECK(c != NULL);
	if (!c) {
		fprintf(stderr, "%s\n", err);
		return;
	}
	CHECK(drape_character_vertex_count(c) == nv);
	double* got = malloc(3 * (size_t)nv * sizeof *got);
	double t_first = f32(element(&g, a_in, 0, 4), 0);
	double t_last = f32(element(&g, a_in, keys - 1, 4), 0);
	int checked = 0;
	for (int s = 0; s <= 6; ++s) {
		double t = t_first + (t_last - t_first) * s / 6.0;
		/* The sampler: LINEAR rotations are slerped between the keys around t. */
		int k = 0;
		while (k + 2 < keys && f32(element(&g, a_in, k + 1, 4), 0) <= t) ++k;
		double ta = f32(element(&g, a_in, k, 4), 0), tb = f32(element(&g, a_in, k + 1, 4), 0);
		double u = fmin(fmax((t - ta) / (tb - ta), 0.0), 1.0);
		double qa[4], qb[4], q2[4];
		for (int e = 0; e < 4; ++e) qa[e] = f32(element(&g, a_out, k, 16), e), qb[e] = f32(element(&g, a_out, k + 1, 16), e);
		/* The file's quaternions are rounded to 3 decimals; the specification's rotations are unit. */
		double na = sqrt(qa[0] * qa[0] + qa[1] * qa[1] + qa[2] * qa[2] + qa[3] * qa[3]);
		double nb = sqrt(qb[0] * qb[0] + qb[1] * qb[1] + qb[2] * qb[2] + qb[3] * qb[3]);
		for (int e = 0; e < 4; ++e) qa[e] /= na, qb[e] /= nb;
		double dot = qa[0] * qb[0] + qa[1] * qb[1] + qa[2] * qb[2] + qa[3] * qb[3];
		double sign = dot < 0 ? -1 : 1, th = acos(fmin(1.0, fabs(dot)));
		double wa = th > 1e-9 ? sin((1 - u) * th) / sin(th) : 1 - u, wb = th > 1e-9 ? sin(u * th) / sin(th) : u;
		for (int e = 0; e < 4; ++e) q2[e] = wa * qa[e] + sign * wb * qb[e];
		double G1[16], L2[16], G2[16];
		m4_trs(t1, q1, G1);
		m4_trs(t2, q2, L2);
		m4_mul(G1, L2, G2);
		const double* G[2] = {G1, G2};
		double J[2][16];
		for (int jj = 0; jj < 2; ++jj) {
			double ibm[16];
			for (int e = 0; e < 16; ++e) ibm[e] = f32(element(&g, a_ibm, jj, 64), e);
			m4_mul(G[jj], ibm, J[jj]);
		}
		drape_character_pose(c, t - t_first, got);
		for (int v = 0; v < nv; ++v) {
			const unsigned char* P = element(&g, a_pos, v, 12);
			const unsigned char* Jv = element(&g, a_j, v, 8);
			double p[4] = {f32(P, 0), f32(P, 1), f32(P, 2), 1}, want[3] = {0, 0, 0};
			for (int e = 0; e < 4; ++e) {
				unsigned short ji;
				memcpy(&ji, Jv + 2 * e, 2);
				double wgt = f32(element(&g, a_w, v, 16), e);
				if (wgt == 0.0) continue;
				for (int r = 0; r < 3; ++r)
					want[r] += wgt * (J[ji][r] * p[0] + J[ji][4 + r] * p[1] + J[ji][8 + r] * p[2] + J[ji][12 + r]);
			}
			for (int r = 0; r < 3; ++r) CHECK_NEAR(got[3 * v + r], want[r], 1e-6);
			++checked;
		}
	}
	CHECK(checked == 7 * nv);
	free(got);
	drape_character_destroy(c);
	for (int b = 0; b < 8; ++b) free(g.buffers[b]);
	cJSON_Delete(g.root);
}

/* ---- BVH: forward kinematics from the file's text, channel by channel ---- */

typedef struct bvh_joint {
	char name[64];
	int parent;
	double offset[3];
	int channels, first; /* channel count and index of its first value in a frame line */
	char order[6][12];
} bvh_joint;

static void rot_axis(char axis, double deg, double* m)
{
	double a = deg * PI / 180.0, c = cos(a), s = sin(a);
	double r[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
	int i = axis == 'X' ? 1 : axis == 'Y' ? 2 : 0, j = axis == 'X' ? 2 : axis == 'Y' ? 0 : 1; /* plane of rotation */
	r[3 * i + i] = c, r[3 * i + j] = -s, r[3 * j + i] = s, r[3 * j + j] = c;
	memcpy(m, r, sizeof r);
}

static void bvh_m3_mul(const double* a, const double* b, double* r)
{
	double t[9];
	for (int i = 0; i < 3; ++i)
		for (int j = 0; j < 3; ++j) t[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
	memcpy(r, t, sizeof t);
}

static void test_bvh_joint_positions(void)
{
	const char* path = MODELS "/BVH/01_01.bvh";
	if (!have_file(path)) {
		printf("  (skipped: %s missing; install assimp-testmodels)\n", path);
		return;
	}
	FILE* f = fopen(path, "r");
	bvh_joint js[64];
	int n = 0, stack[64], depth = 0, values = 0, frames = 0;
	double frame_time = 0;
	char word[128];
	bool end_site = false;
	while (fscanf(f, "%127s", word) == 1) {
		if (!strcmp(word, "ROOT") || !strcmp(word, "JOINT")) {
			CHECK(fscanf(f, "%63s", js[n].name) == 1);
			js[n].parent = depth ? stack[depth - 1] : -1;
			js[n].channels = 0;
			stack[depth++] = n++;
			end_site = false;
		} else if (!strcmp(word, "End")) {
			CHECK(fscanf(f, "%127s", word) == 1);
			end_site = true;
		} else if (!strcmp(word, "OFFSET")) {
			double o[3];
			CHECK(fscanf(f, "%lf %lf %lf", &o[0], &o[1], &o[2]) == 3);
			if (!end_site) memcpy(js[stack[depth - 1]].offset, o, sizeof o);
		} else if (!strcmp(word, "CHANNELS")) {
			bvh_joint* j = &js[stack[depth - 1]];
			CHECK(fscanf(f, "%d", &j->channels) == 1);
			j->first = values;
			values += j->channels;
			for (int k = 0; k < j->channels; ++k) CHECK(fscanf(f, "%11s", j->order[k]) == 1);
		} else if (!strcmp(word, "}")) {
			if (end_site) end_site = false;
			else --depth;
		} else if (!strcmp(word, "Frames:")) {
			CHECK(fscanf(f, "%d", &frames) == 1);
		} else if (!strcmp(word, "Time:")) {
			CHECK(fscanf(f, "%lf", &frame_time) == 1);
			break;
		}
	}
	CHECK(n == 31 && frames > 500);
	const int want_frame = 437;
	double* line = malloc((size_t)values * sizeof *line);
	for (int fr = 0; fr <= want_frame; ++fr)
		for (int k = 0; k < values; ++k) CHECK(fscanf(f, "%lf", &line[k]) == 1);
	fclose(f);
	/* Forward kinematics: local = T(offset + position channels) R(channels in file order). */
	double R[64][9], P[64][3];
	for (int i = 0; i < n; ++i) {
		double r[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, t[3];
		memcpy(t, js[i].offset, sizeof t);
		for (int k = 0; k < js[i].channels; ++k) {
			const char* ch = js[i].order[k];
			double v = line[js[i].first + k];
			if (strstr(ch, "position")) t[ch[0] - 'X'] += v;
			else {
				double m[9];
				rot_axis(ch[0], v, m);
				bvh_m3_mul(r, m, r);
			}
		}
		int p = js[i].parent;
		if (p < 0) {
			memcpy(R[i], r, sizeof r);
			memcpy(P[i], t, sizeof t);
		} else {
			bvh_m3_mul(R[p], r, R[i]);
			for (int a = 0; a < 3; ++a) P[i][a] = P[p][a] + R[p][3 * a] * t[0] + R[p][3 * a + 1] * t[1] + R[p][3 * a + 2] * t[2];
		}
	}
	drape_character_def d = drape_default_character_def();
	d.file = path;
	d.scale = 0.0618;
	d.keep_root_motion = true;
	d.cell_size = 0.029;
	char err[512];
	drape_character* c = drape_character_load(&d, err, sizeof err);
	CHECK(c != NULL);
	if (!c) {
		fprintf(stderr, "%s\n", err);
		free(line);
		return;
	}
	for (int i = 0; i < n; ++i) {
		double head[3], tail[3];
		CHECK(drape_character_joint(c, js[i].name, want_frame * frame_time, head, tail));
		/* drape is z up: file (x, y, z) -> 0.0618 (x, -z, y). */
		CHECK_NEAR(head[0], 0.0618 * P[i][0], 1e-6);
		CHECK_NEAR(head[1], -0.0618 * P[i][2], 1e-6);
		CHECK_NEAR(head[2], 0.0618 * P[i][1], 1e-6);
	}
	free(line);
	drape_character_destroy(c);
}

/* ---- the character as a collider ---- */

/* A closed box arm, 0.6 m along x from the shoulder at the origin, swinging about y by +-30 degrees
 * per second: rigidly skinned to one joint. */
static drape_character* box_arm(void)
{
	double rest[24];
	for (int k = 0; k < 8; ++k) {
		rest[3 * k] = (k & 1) ? 0.6 : 0.0;
		rest[3 * k + 1] = (k & 2) ? 0.05 : -0.05;
		rest[3 * k + 2] = (k & 4) ? 0.05 : -0.05;
	}
	int32_t j[32] = {0};
	double w[32] = {0};
	for (int k = 0; k < 8; ++k) w[4 * k] = 1.0;
	drape_character* c = test_chain(1, 0.0, 8, rest, j, w);
	static const int32_t tris[36] = {0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4,
					 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5};
	c->triangle_count = 12;
	c->triangles = malloc(sizeof tris);
	memcpy(c->triangles, tris, sizeof tris);
	joint_channel* ch = &c->joints[0].channel;
	ch->rot_count = 3;
	ch->rot_time = malloc(3 * sizeof(double));
	ch->rot = malloc(12 * sizeof(double));
	double a = PI / 12; /* half of 30 degrees */
	double times[3] = {0, 0.5, 1.0}, q[12] = {cos(a), 0, sin(a), 0, 1, 0, 0, 0, cos(a), 0, -sin(a), 0};
	memcpy(ch->rot_time, times, sizeof times);
	memcpy(ch->rot, q, sizeof q);
	c->duration = 1.0;
	c->loop = true;
	return c;
}

static void test_collider_motion_per_step(void)
{
	drape_character* arm = box_arm();
	drape_world_def wd = drape_default_world_def();
	drape_cloth_id cl;
	drape_world* w = make_sheet(&wd, NULL, 3, 0.1, false, &cl);
	drape_solid_def sd = drape_default_solid_def();
	sd.shape = DRAPE_SOLID_MESH;
	sd.character = arm;
	drape_solid_id id = drape_solid_add(w, &sd);
	CHECK(id.index == 0);
	solid_data* s = &w->model.solids[0];
	double p0[24], p1[24], pm[24], pp[24];
	const double t = 0.3;
	for (int k = 0; k < 3; ++k) {
		double h = 0.01 / (1 << k);
		solids_begin_step(w, t, h);
		character_pose(arm, t, p0);
		character_pose(arm, t + h, p1);
		for (int v = 0; v < 8; ++v) {
			CHECK_NEAR(s->v0[v].x, p0[3 * v], 0.0);
			CHECK_NEAR(s->v1[v].z, p1[3 * v + 2], 0.0);
		}
		/* The collider's velocity over the step, (v1 - v0)/h, is the motion's: it matches the
		 * central difference at t + h/2 to O(h^2) (the arm's tip moves at about 0.3 m/s). */
		character_pose(arm, t + 0.5 * h - 1e-6, pm);
		character_pose(arm, t + 0.5 * h + 1e-6, pp);
		double tip_step = (s->v1[7].z - s->v0[7].z) / h, tip_fd = (pp[23] - pm[23]) / 2e-6;
		CHECK(fabs(tip_fd) > 0.1);
		CHECK_NEAR(tip_step, tip_fd, 1e-3 * fabs(tip_fd));
	}
	/* The step after an accepted one re-uses the skinned start. */
	solids_begin_step(w, t + 0.0025, 0.0025);
	CHECK(s->posed0 == t + 0.0025);
	drape_character_destroy(arm);
	drape_world_destroy(w);
}

static void test_strip_on_swinging_arm(void)
{
	drape_character* arm = box_arm();
	drape_grid_def g = drape_default_grid_def();
	g.size[0] = 0.4;
	g.size[1] = 0.08;
	g.resolution[0] = 21;
	g.resolution[1] = 5;
	g.center[0] = 0.35;
	g.center[2] = 0.12;
	drape_world* w = cloth_on_character(&g, arm);
	int touched = 0, penetrating = 0;
	run_frames(w, 45, &touched, &penetrating);
	CHECK(touched > 20); /* the strip lies on the arm and rides its swing */
	CHECK(penetrating == 0);
	/* The count itself: a particle put inside the arm (at its posed box's centre) is counted. */
	double box[24];
	character_pose(arm, drape_world_time(w), box);
	vec3 centre = v3(0.0, 0.0, 0.0);
	for (int k = 0; k < 8; ++k) centre = v3_add(centre, v3_scale(v3(box[3 * k], box[3 * k + 1], box[3 * k + 2]), 1.0 / 8.0));
	w->state.x[0] = centre;
	CHECK(solid_inside_end(w, 0, w->state.x[0], 0.005));
	w->state.x[0] = v3(0.3, 0.0, 0.3);
	CHECK(!solid_inside_end(w, 0, w->state.x[0], 0.005));
	drape_character_destroy(arm);
	drape_world_destroy(w);
}

/* A looped clip that does not end as it begins (the box arm swings about y from +15 to -15 degrees
 * and stops) crossfades its last LOOP_FADE into its start (pose.c): the arm's tip moves
 * continuously through every wrap, never faster than the fade's few m/s (a wrap without the fade
 * jumps 0.31 m in one sample), and a repeat returns to `start`, not to 0: from start 0.5 s the arm
 * stays within the swing of clip times 0.5 ... 1 (one axis, so a fade between two of its poses does
 * too), never reaching the poses before 0.5 s. */
static double tip_z(const drape_character* arm, double t, double tip[3])
{
	double p[24];
	character_pose(arm, t, p);
	memcpy(tip, &p[3 * 7], 3 * sizeof(double)); /* the corner at x = 0.6, y = z = +0.05 */
	return tip[2];
}

static void test_loop_fades_across_the_wrap(void)
{
	drape_character* arm = box_arm();
	double tip[3], prev[3], largest_step = 0.0;
	for (int k = 0; k <= 5000; ++k) {
		tip_z(arm, 1e-3 * k, tip);
		if (k > 0) largest_step = fmax(largest_step, sqrt((tip[0] - prev[0]) * (tip[0] - prev[0]) + (tip[1] - prev[1]) * (tip[1] - prev[1]) +
								  (tip[2] - prev[2]) * (tip[2] - prev[2])));
		memcpy(prev, tip, sizeof prev);
	}
	CHECK(largest_step > 1e-4); /* it moves */
	CHECK(largest_step < 3e-3); /* under 3 m/s at every ms, across five wraps */
	/* the swing of clip times 0.5 ... 1 played once, then looped from start 0.5 */
	arm->start = 0.5;
	arm->loop = false;
	double lo = INFINITY, hi = -INFINITY;
	for (int k = 0; k <= 500; ++k) {
		const double z = tip_z(arm, 1e-3 * k, tip);
		lo = fmin(lo, z), hi = fmax(hi, z);
	}
	arm->start = 0.0;
	const double z0 = tip_z(arm, 0.0, tip); /* the pose at clip time 0, +15 degrees */
	CHECK(z0 < lo - 0.05 || z0 > hi + 0.05);
	arm->start = 0.5;
	arm->loop = true;
	double looped_lo = INFINITY, looped_hi = -INFINITY;
	for (int k = 0; k <= 5000; ++k) {
		const double z = tip_z(arm, 1e-3 * k, tip);
		looped_lo = fmin(looped_lo, z), looped_hi = fmax(looped_hi, z);
	}
	CHECK(looped_lo > lo - 1e-9 && looped_hi < hi + 1e-9);
	drape_character_destroy(arm);
}

/* ---- bad input ---- */

static void expect_load_error(const drape_character_def* d, const char* want)
{
	char err[1024] = "";
	drape_character* c = drape_character_load(d, err, sizeof err);
	CHECK(c == NULL);
	if (!strstr(err, want)) fprintf(stderr, "  got '%s', wanted '%s'\n", err, want);
	CHECK(strstr(err, want) != NULL);
	drape_character_destroy(c);
}

static void test_bad_input(void)
{
	drape_character_def d = drape_default_character_def();
	d.file = "/nonexistent/walk.glb";
	expect_load_error(&d, "/nonexistent/walk.glb: cannot read");
	/* An animation channel without a target node: assimp 5.2 crashed reading it (fuzzing,
	 * finding 14), so it is refused before assimp reads the file. */
	d.file = DRAPE_SOURCE_DIR "/tests/fuzz_regressions/character/gltf_channel_without_target_node.gltf";
	expect_load_error(&d, "gltf_channel_without_target_node.gltf: animations[0].channels[0] has no target node");
	/* A .gltf that is not glTF: assimp offered it to its other importers, and OpenGEX's ran past
	 * its buffer (finding 16). */
	d.file = DRAPE_SOURCE_DIR "/tests/fuzz_regressions/character/gltf_not_json_opengex_overrun.gltf";
	expect_load_error(&d, "gltf_not_json_opengex_overrun.gltf: is not a glTF file: its JSON does not parse");
	/* The same bytes as an .ogex file, or under an extension no importer lists: assimp offered
	 * them to the importers that recognise content, OpenGEX's claimed them and ran past its buffer
	 * (ASan), then failed without a reason. That reader is left out (assimp_read.h); no other
	 * claims them. (.fbx, .obj or .dae: the importer for the extension reads and refuses it.) */
	const char* not_ogex[] = {"/tmp/drape_test_metric.ogex", "/tmp/drape_test_metric.txt", "/tmp/drape_test_metric"};
	for (int k = 0; k < 3; ++k) {
		FILE* f = fopen(not_ogex[k], "wb");
		CHECK(f && fwrite("metric-,", 1, 8, f) == 8);
		if (f) fclose(f);
		d.file = not_ogex[k];
		char want[256];
		snprintf(want, sizeof want, "%s: assimp cannot read it: No suitable reader found", not_ogex[k]);
		expect_load_error(&d, want);
		remove(not_ogex[k]);
	}
	/* An inverse bind matrix read as NaN posed the body to NaN (finding 17). */
	d.file = DRAPE_SOURCE_DIR "/tests/fuzz_regressions/character/gltf_inverse_bind_nan.gltf";
	expect_load_error(&d, "gltf_inverse_bind_nan.gltf: bone 'nodes[2]' has an inverse bind matrix that is not finite");
	/* Two joints of one name: both channels found the first joint, and the second's keys replaced
	 * the first's, which leaked (finding 18; the ASan build's leak check fails without the refusal). */
	d.file = DRAPE_SOURCE_DIR "/tests/fuzz_regressions/character/bvh_two_joints_named_rightfoot.bvh";
	expect_load_error(&d, "bvh_two_joints_named_rightfoot.bvh: animation '");
	expect_load_error(&d, "' has two channels for joint 'RightFoot' (two nodes share the name");
	/* A BVH frame count assimp allocates by before it reads a value: -2 asked for 2^32 - 2 keys a
	 * node (96 GB, finding 19), and a count the file's values do not cover. */
	d.file = DRAPE_SOURCE_DIR "/tests/fuzz_regressions/character/bvh_frames_minus_2.bvh";
	expect_load_error(&d, "bvh_frames_minus_2.bvh: MOTION's frame count '-2' is not a whole number");
	{
		FILE* in = fopen(DRAPE_SOURCE_DIR "/tests/alloc/skeleton.bvh", "r");
		const char* many = "/tmp/drape_test_many_frames.bvh";
		FILE* out = fopen(many, "w");
		CHECK(in && out);
		char line[4096];
		while (in && out && fgets(line, sizeof line, in))
			fputs(strncmp(line, "Frames:", 7) == 0 ? "Frames: 40000000\n" : line, out);
		if (in) fclose(in);
		if (out) fclose(out);
		drape_character_def m = drape_default_character_def();
		m.file = many;
		expect_load_error(&m, "drape_test_many_frames.bvh: MOTION declares 40000000 frames of 96 channels, 3840000000 "
				      "values, but the file holds 192 after 'Frame Time'");
		remove(many);
	}
	if (!have_file(MODELS "/BVH/01_01.bvh")) return;
	/* A mesh without animation is a static body, unless a clip is asked for. */
	d.file = MODELS "/OBJ/box.obj";
	d.animation = "walk";
	expect_load_error(&d, "box.obj: has no animation, so none named 'walk'");
	d.animation = NULL;
	d.animation_index = 1;
	expect_load_error(&d, "animation index 1 does not exist (it has no animation)");
	d.animation_index = 0;
	char err[512] = "";
	drape_character* box = drape_character_load(&d, err, sizeof err);
	CHECK(box && box->vertex_count == 8 && box->triangle_count == 12 && box->duration == 0.0);
	drape_character_destroy(box);
	d.file = MODELS "/glTF2/simple_skin/simple_skin.gltf";
	d.animation_index = 3;
	expect_load_error(&d, "animation index 3 does not exist (it has 1 animation)");
	d.animation_index = 0;
	d.animation = "walk";
	expect_load_error(&d, "no animation named 'walk'");
	/* A BVH whose MOTION has no frames. */
	const char* empty = "/tmp/drape_test_empty.bvh";
	FILE* f = fopen(empty, "w");
	fprintf(f, "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation\n"
		   " End Site\n {\n  OFFSET 0 1 0\n }\n}\nMOTION\nFrames: 0\nFrame Time: 0.0083333\n");
	fclose(f);
	drape_character_def e = drape_default_character_def();
	e.file = empty;
	drape_character* c = drape_character_load(&e, err, sizeof err);
	CHECK(c == NULL && strstr(err, empty) == err);
	drape_character_destroy(c);
	remove(empty);
	/* Weights that do not sum to one. */
	double rest[3] = {0, 0, 0};
	int32_t j[4] = {0, 0, 0, 0};
	double w[4] = {0.7, 0, 0, 0};
	drape_character* bad = test_chain(1, 0.0, 1, rest, j, w);
	CHECK(!character_check_skin(bad, err, sizeof err));
	CHECK(strstr(err, "vertex 0: skin weights sum to 0.7") != NULL);
	drape_character_destroy(bad);
	/* Settings. */
	drape_character_def s = drape_default_character_def();
	s.file = MODELS "/BVH/01_01.bvh";
	s.time_scale = 0.0;
	expect_load_error(&s, "time_scale must be > 0");
}

const test_case character_tests[] = {
	{"two_bone_chain", test_two_bone_chain},
	{"gltf_simple_skin", test_gltf_simple_skin},
	{"bvh_joint_positions", test_bvh_joint_positions},
	{"collider_motion_per_step", test_collider_motion_per_step},
	{"strip_on_swinging_arm", test_strip_on_swinging_arm},
	{"loop_fades_across_the_wrap", test_loop_fades_across_the_wrap},
	{"bad_input", test_bad_input},
	{"weights_normalised", test_character_weights_normalised},
	{"fbx_rig", test_character_fbx_rig},
	{"static_body", test_character_static_body},
	{"static_weld", test_character_static_weld},
	{"joint_maps", test_character_joint_maps},
	{"biovision_mannequin", test_character_biovision_mannequin},
	{"keyframe_interpolation", test_character_keyframe_interpolation},
	{"scene_keyframes", test_character_scene_keyframes},
	{NULL, NULL},
};
