/* libFuzzer target: a character solid's entry in a scene file (src/io/scene_character.c), above
 * all its `joint_map` and `keyframes` (src/character/joint_map.c, keyframes.c; docs/characters.md):
 * the input is the text of the `character` object, put into a scene with one small sheet and
 * loaded by scene_load_text as a file would be. */
#include "character/character.h"
#include "io/scene.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The scene is named as if it sat in a directory of this process's own that holds the rigs the
 * seeds use: assimp-testmodels' simple_skin.gltf (two joints, a skinned strip), rig.gltf (the same
 * with a dozen joints under CMU's names, written at start-up, for maps and keys by drape's names
 * without building a mannequin at every input) and tests/alloc/skeleton.bvh (01_01.bvh cut to 2
 * frames: CMU's 31 joints, built into a mannequin, 0.15 s). Inputs naming any other file are
 * skipped: a mutated path reaching the 2 MB BVHs or a device would fuzz assimp, or hang, rather
 * than the map and the keys. */
#define SIMPLE_SKIN "/usr/share/assimp/models/glTF2/simple_skin/simple_skin.gltf"
static char dir[4096], scene_path[4200], bvh_link[4200], gltf_link[4200], rig_path[4200];

int LLVMFuzzerInitialize(int* argc, char*** argv);
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static void remove_dir(void)
{
	unlink(bvh_link);
	unlink(gltf_link);
	unlink(rig_path);
	rmdir(dir);
}

/* simple_skin.gltf with its nodes named as CMU's and more joints below them (each 0.2 m along y
 * from its parent), so that joint maps and keyframes by drape's names reach a glTF body. */
static bool write_rig(void)
{
	FILE* f = fopen(SIMPLE_SKIN, "rb");
	if (!f) return false;
	char text[16384];
	size_t n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = '\0';
	cJSON* g = cJSON_Parse(text);
	cJSON* nodes = cJSON_GetObjectItemCaseSensitive(g, "nodes");
	if (cJSON_GetArraySize(nodes) != 3) {
		cJSON_Delete(g);
		return false;
	}
	static const char* const names[] = {"Body", "Hips", "Spine"};
	for (int i = 0; i < 3; ++i) cJSON_AddStringToObject(cJSON_GetArrayItem(nodes, i), "name", names[i]);
	/* name, parent index */
	static const struct {
		const char* name;
		int parent;
	} more[] = {{"Spine1", 2}, {"Neck", 3}, {"Head", 4}, {"LeftArm", 3}, {"LeftForeArm", 6}, {"RightArm", 3},
		    {"RightForeArm", 8}, {"LeftUpLeg", 1}, {"LeftLeg", 10}, {"RightUpLeg", 1}, {"RightLeg", 12}};
	for (size_t k = 0; k < sizeof more / sizeof more[0]; ++k) {
		cJSON* node = cJSON_CreateObject();
		cJSON_AddStringToObject(node, "name", more[k].name);
		const double t[3] = {0.0, 0.2, 0.0};
		cJSON_AddItemToObject(node, "translation", cJSON_CreateDoubleArray(t, 3));
		cJSON_AddItemToArray(nodes, node);
		cJSON* parent = cJSON_GetArrayItem(nodes, more[k].parent);
		cJSON* children = cJSON_GetObjectItemCaseSensitive(parent, "children");
		if (!children) children = cJSON_AddArrayToObject(parent, "children");
		cJSON_AddItemToArray(children, cJSON_CreateNumber((double)(3 + k)));
	}
	char* out = cJSON_Print(g);
	cJSON_Delete(g);
	f = out ? fopen(rig_path, "wb") : NULL;
	bool ok = f && fputs(out, f) >= 0;
	if (f && fclose(f) != 0) ok = false;
	free(out);
	return ok;
}

int LLVMFuzzerInitialize(int* argc, char*** argv)
{
	(void)argc;
	(void)argv;
	const char* tmp = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/drape-fuzz-keys-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror("fuzz_keys: mkdtemp");
		exit(1);
	}
	snprintf(scene_path, sizeof scene_path, "%s/fuzz_input.json", dir);
	snprintf(bvh_link, sizeof bvh_link, "%s/skeleton.bvh", dir);
	snprintf(gltf_link, sizeof gltf_link, "%s/simple_skin.gltf", dir);
	snprintf(rig_path, sizeof rig_path, "%s/rig.gltf", dir);
	atexit(remove_dir);
	if (symlink(DRAPE_SOURCE_DIR "/tests/alloc/skeleton.bvh", bvh_link) != 0 || symlink(SIMPLE_SKIN, gltf_link) != 0) {
		perror("fuzz_keys: symlink");
		exit(1);
	}
	if (!write_rig()) {
		fprintf(stderr, "fuzz_keys: cannot write %s from %s\n", rig_path, SIMPLE_SKIN);
		exit(1);
	}
	return 0;
}

/* The entry's "file" when it is one of the three rigs (or absent, or not a string: the loader's
 * refusals); false for any other file. *body: the entry would build a mannequin (the BVH rig, or
 * "body": "mannequin"). */
static bool names_a_rig(const char* text, bool* body)
{
	cJSON* root = cJSON_Parse(text);
	bool ok = true;
	const cJSON* f = cJSON_IsObject(root) ? cJSON_GetObjectItemCaseSensitive(root, "file") : NULL;
	const cJSON* b = cJSON_IsObject(root) ? cJSON_GetObjectItemCaseSensitive(root, "body") : NULL;
	*body = cJSON_IsString(b) && strcmp(b->valuestring, "mannequin") == 0;
	if (cJSON_IsString(f)) {
		ok = strcmp(f->valuestring, "skeleton.bvh") == 0 || strcmp(f->valuestring, "simple_skin.gltf") == 0 ||
		     strcmp(f->valuestring, "rig.gltf") == 0;
		*body = *body || strcmp(f->valuestring, "skeleton.bvh") == 0;
	}
	cJSON_Delete(root);
	return ok;
}

static uint32_t fnv1a(const uint8_t* data, size_t size)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 16777619u;
	return h;
}

/* What the keyframes and the map promise the posing code (pose.c), which reads them unchecked. */
static void check_character(const drape_character* c)
{
	for (int32_t i = 0; i < c->joint_count; ++i) {
		const character_joint* j = &c->joints[i];
		if (!j->name || character_find_joint(c, j->name) < 0) abort();
		if (j->keys.count < 0 || (j->keys.count > 0 && (!j->keys.time || !j->keys.q))) abort();
		for (int32_t k = 0; k < j->keys.count; ++k) {
			const double* q = &j->keys.q[4 * k];
			double n = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
			if (!isfinite(j->keys.time[k]) || j->keys.time[k] < 0.0 || fabs(n - 1.0) > 1e-9) abort();
			if (k > 0 && !(j->keys.time[k] > j->keys.time[k - 1])) abort();
		}
		const double ts[] = {0.0, j->keys.count ? j->keys.time[0] + 0.5 * (j->keys.time[j->keys.count - 1] - j->keys.time[0]) : 0.5, 1e3};
		for (size_t t = 0; t < sizeof ts / sizeof ts[0]; ++t) {
			double q[4];
			character_key_rotation(j, ts[t], q);
			double n = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
			if (!(fabs(n - 1.0) < 1e-6)) abort();
		}
	}
	double* p = malloc(3 * (size_t)c->vertex_count * sizeof *p);
	if (!p) return;
	drape_character_pose(c, 1.0, p);
	for (int64_t i = 0; i < 3 * (int64_t)c->vertex_count; ++i)
		if (!isfinite(p[i])) abort();
	free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	static const char head[] = "{\"cloths\": [{\"name\": \"sheet\", \"grid\": {\"size\": [0.2, 0.2], \"resolution\": [3, 3], "
				   "\"center\": [0, 0, 2]}}],\n \"solids\": [{\"name\": \"body\", \"shape\": \"character\", "
				   "\"character\":\n";
	static const char tail[] = "\n}]}\n";
	/* A mannequin is 0.15 s under the sanitizers, a hundred times the rest of an input: one entry
	 * in 16 that builds one (by its bytes' hash: a finding reproduces) gets it, and so its
	 * keyframes checked on it; the others are given a grid the mannequin refuses, "cell_size": 1
	 * put first (the loader reads the first of a repeated key), after the map and the skeleton
	 * have been read and checked. The keys by CMU's names are also checked on rig.gltf. */
	static const char coarse[] = "\"cell_size\": 1.0, ";
	char* entry = malloc(size + 1);
	char* text = malloc(sizeof head + size + sizeof coarse + sizeof tail);
	if (!entry || !text) abort();
	memcpy(entry, data, size);
	entry[size] = '\0';
	bool body = false;
	int skip = !names_a_rig(entry, &body);
	if (!skip) {
		size_t open = 0;
		while (open < size && (entry[open] == ' ' || entry[open] == '\n' || entry[open] == '\t' || entry[open] == '\r'))
			++open;
		if (body && fnv1a(data, size) % 16 != 0 && open < size && entry[open] == '{')
			snprintf(text, sizeof head + size + sizeof coarse + sizeof tail, "%s%.*s%s%s%s", head, (int)(open + 1),
				 entry, coarse, entry + open + 1, tail);
		else
			snprintf(text, sizeof head + size + sizeof coarse + sizeof tail, "%s%s%s", head, entry, tail);
		scene s;
		char err[1024] = "";
		bool ok = scene_load_text(text, scene_path, &s, err, sizeof err);
		/* A refusal says why; a loaded scene has its sheet and the character. */
		if (!ok && err[0] == '\0') abort();
		if (ok) {
			if (s.cloth_count != 1 || s.solid_count != 1 || !s.solids[0].character) abort();
			check_character(s.solids[0].character);
			scene_free(&s);
		}
	}
	free(entry);
	free(text);
	return skip ? -1 : 0;
}
