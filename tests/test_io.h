/* Shared by the io suite's files: test_io.c (grids, OBJ, the suite's table), test_scene.c
 * (scene files) and test_scene_solids.c (solids in scene files). */
#ifndef DRAPE_TEST_IO_H
#define DRAPE_TEST_IO_H

#include "test.h"

#include "drape.h"

#include <stdbool.h>
#include <string.h>

/* Like CHECK(strstr(msg, sub)) but prints the whole message when it fails. */
#define CHECK_HAS(msg, sub)                                                                                            \
	do {                                                                                                           \
		++test_checks;                                                                                         \
		if (!strstr((msg), (sub))) {                                                                           \
			++test_failures;                                                                               \
			fprintf(stderr, "%s:%d: message \"%s\" lacks \"%s\"\n", __FILE__, __LINE__, (msg), (sub));     \
		}                                                                                                      \
	} while (0)

/* A scratch directory under /tmp per test, removed with everything in it. */
typedef struct scratch {
	char dir[64];
} scratch;

void scratch_open(scratch* s);
void scratch_close(scratch* s);
/* dir/name in a rotating static buffer (valid for the next three calls). */
const char* scratch_path(const scratch* s, const char* name);
void write_text(const char* path, const char* text);
bool file_exists(const char* path);
/* JSON written with ' for " so test scenes stay readable; returns a static buffer. */
const char* q(const char* text);
bool mesh_zeroed(const drape_mesh* m);
/* Signed area of triangle t in uv: > 0 when counter-clockwise. */
double uv_area(const drape_mesh* m, int32_t t);

void test_scene_shipped(void);
void test_scene_replay_api(void);
void test_scene_default(void);
void test_scene_pins(void);
void test_scene_pin_motion(void);
void test_scene_stretch_regions(void);
void test_scene_mesh_file(void);
void test_scene_solid_shapes(void);
void test_scene_solid_poses(void);
void test_scene_solid_mesh(void);
void test_scene_solid_file_errors(void);
void test_scene_solid_build_world(void);
void test_scene_errors(void);
void test_scene_file_errors(void);
void test_scene_build_world(void);
/* test_caches.c: --format outputs (PC2, glTF) read back */
void test_scene_entries(void);
void test_caches_formats(void);
void test_pc2_writer_bytes(void);
void test_gltf_split_seams(void);
void test_caches_run_round_trip(void);
void test_caches_failures(void);

#endif
