/* libFuzzer target: character import (src/character/import.c, docs/characters.md) on arbitrary
 * bytes, through the file path as drape_character_load reads it: assimp parses the file, drape
 * takes its hierarchy, skin weights (normalised) and animation keys, and builds the body. What is
 * fuzzed is drape's use of assimp's output; assimp itself is Debian's build, not instrumented. */
#include "character/character.h"
#include "drape.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The importer takes a path, and assimp picks its reader by the extension: an input that starts
 * (after blanks) with BVH's "HIERARCHY" is written as input.bvh, anything else as input.gltf (the
 * seeds: assimp-testmodels' glTF2/simple_skin and a BVH cut short). The files live in a directory
 * of this process's own (fuzzers may run side by side), removed at exit. */
static char dir[4096], bvh_path[4200], gltf_path[4200];

int LLVMFuzzerInitialize(int* argc, char*** argv);
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static void remove_dir(void)
{
	unlink(bvh_path);
	unlink(gltf_path);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int* argc, char*** argv)
{
	(void)argc;
	(void)argv;
	const char* tmp = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/drape-fuzz-character-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror("fuzz_character: mkdtemp");
		exit(1);
	}
	snprintf(bvh_path, sizeof bvh_path, "%s/input.bvh", dir);
	snprintf(gltf_path, sizeof gltf_path, "%s/input.gltf", dir);
	atexit(remove_dir);
	return 0;
}

static bool is_bvh(const uint8_t* data, size_t size)
{
	size_t i = 0;
	while (i < size && isspace(data[i])) ++i;
	return size - i >= 9 && memcmp(data + i, "HIERARCHY", 9) == 0;
}

static uint32_t fnv1a(const uint8_t* data, size_t size)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 16777619u;
	return h;
}

static bool finite_all(const double* x, int64_t n)
{
	for (int64_t i = 0; i < n; ++i)
		if (!isfinite(x[i])) return false;
	return true;
}

/* What a loaded character promises the solids and garments that use it unchecked. */
static void check_character(const drape_character* c)
{
	if (c->joint_count < 1 || !c->joints) abort();
	for (int32_t i = 0; i < c->joint_count; ++i) {
		const character_joint* j = &c->joints[i];
		if (j->parent < -1 || j->parent >= i || !j->name || !j->file_name) abort();
		if (character_find_joint(c, j->name) < 0) abort();
	}
	if (c->root < -1 || c->root >= c->joint_count) abort();
	if (!(isfinite(c->duration) && c->duration >= 0.0)) abort();
	if (c->vertex_count < 1 || c->triangle_count < 1 || !c->rest || !c->triangles) abort();
	for (int64_t i = 0; i < 3 * (int64_t)c->triangle_count; ++i)
		if (c->triangles[i] < 0 || c->triangles[i] >= c->vertex_count) abort();
	char why[512];
	if (!character_check_skin(c, why, sizeof why)) {
		fprintf(stderr, "fuzz_character: skin of a loaded character: %s\n", why);
		abort();
	}
	/* Posed at the start, inside and past the clip (held or looped), every vertex and every
	 * joint's segment is finite: NaN here would reach the contact code as a solid. */
	double* p = malloc(3 * (size_t)c->vertex_count * sizeof *p);
	if (!p) return;
	const double times[] = {0.0, c->hold + c->blend + 0.37 * c->duration, c->hold + c->blend + 2.5 * c->duration + 1.0};
	for (size_t k = 0; k < sizeof times / sizeof times[0]; ++k) {
		drape_character_pose(c, times[k], p);
		if (!finite_all(p, 3 * (int64_t)c->vertex_count)) {
			fprintf(stderr, "fuzz_character: a pose at t = %g s is not finite\n", times[k]);
			abort();
		}
		for (int32_t i = 0; i < c->joint_count; ++i) {
			double head[3], tail[3];
			if (!drape_character_joint(c, c->joints[i].name, times[k], head, tail)) abort();
			if (!finite_all(head, 3) || !finite_all(tail, 3)) {
				fprintf(stderr, "fuzz_character: joint %s at t = %g s is not finite\n", c->joints[i].name,
					times[k]);
				abort();
			}
		}
	}
	free(p);
	drape_character* copy = character_clone(c);
	if (copy && (copy->vertex_count != c->vertex_count || copy->joint_count != c->joint_count)) abort();
	drape_character_destroy(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	const char* path = is_bvh(data, size) ? bvh_path : gltf_path;
	FILE* f = fopen(path, "wb");
	if (!f) abort();
	if (size && fwrite(data, 1, size, f) != size) abort();
	if (fclose(f) != 0) abort();
	drape_character_def d = drape_default_character_def();
	d.file = path;
	/* Near the coarsest mannequin grid a skeleton allows (0.0299 m for the seed) keeps a BVH input's
	 * body cheap; even so it is 0.3 s under the sanitizers, a hundred times the rest of an input.
	 * So one BVH input in 16 (by its bytes' hash: a finding reproduces) gets the body and goes on
	 * to the checks of a loaded character; the others are given a grid the mannequin refuses
	 * (1 m), after the hierarchy, the clip, the joint map and the body's shape from the skeleton
	 * have been read and checked. glTF inputs bring their own mesh and are all loaded. */
	d.cell_size = path == bvh_path && fnv1a(data, size) % 16 != 0 ? 1.0 : 0.029;
	char err[1024] = "";
	drape_character* c = drape_character_load(&d, err, sizeof err);
	/* The importer's contract (include/drape.h): a refusal says why, naming the file. */
	if (!c) {
		if (!strstr(err, path)) {
			fprintf(stderr, "fuzz_character: refusal without the file's name: '%s'\n", err);
			abort();
		}
		return 0;
	}
	check_character(c);
	drape_character_destroy(c);
	return 0;
}
