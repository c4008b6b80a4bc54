/* Allocation-failure tests (docs/api.md, "Errors"; CHOLMOD's Tcov/memory.c): each scenario runs
 * once to count drape's allocations, then once for every k failing the k-th (alloc_fail.h). Every
 * run must end in DRAPE_ERROR_MEMORY (or, with a NULL handle, a message saying "out of memory"),
 * never crash, and, under AddressSanitizer, leak nothing (LeakSanitizer at exit). The scenes are
 * small so that the whole loop stays within seconds. */
#include "../test.h"
#include "alloc_fail.h"

#include "drape.h"
#include "io/scene.h"
#include "world.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

int test_failures = 0;
int test_checks = 0;

#ifndef DRAPE_SOURCE_DIR
#define DRAPE_SOURCE_DIR "."
#endif

/* One attempt of a scenario: DRAPE_OK, or the status the failure was reported with; *msg holds
 * the message of a call that returned a NULL handle. */
typedef drape_status scenario_fn(char* msg, size_t msg_size);

/* The world made call by call: creation, a grid cloth, a keyframed pin, a sphere and a mesh
 * solid, a spring, then the solver's preparation that the first step makes (workspace_prepare: every
 * buffer sized for the topology). The steps' own allocations (contact and repulsion lists that
 * grow) are not failed here: a step that cannot grow one is rejected and retried. */
static drape_status world_scenario(char* msg, size_t msg_size)
{
	drape_world_def wd = drape_default_world_def();
	wd.threads = 1;
	wd.preconditioner = DRAPE_PRECONDITIONER_BLOCK_JACOBI;
	drape_world* w = drape_world_create(&wd);
	if (!w) return DRAPE_ERROR_MEMORY; /* the def is valid: memory is the only other reason */
	drape_grid_def g = drape_default_grid_def();
	g.resolution[0] = g.resolution[1] = 5;
	g.center[2] = 1.0;
	drape_mesh mesh;
	drape_status st = drape_mesh_make_grid(&g, &mesh, msg, msg_size);
	if (st != DRAPE_OK) goto done;
	drape_cloth_def cd = drape_default_cloth_def();
	cd.mesh = &mesh;
	cd.name = "sheet";
	drape_cloth_id c = drape_cloth_add(w, &cd);
	if (c.index < 0) {
		st = drape_world_status(w);
		goto free_mesh;
	}
	drape_keyframe keys[2] = {{0.0, {0.5, 0.5, 1.0}}, {1.0, {0.5, 0.6, 1.0}}};
	drape_constraint_def pin = drape_default_constraint_def();
	pin.cloth = c;
	pin.motion = DRAPE_MOTION_KEYFRAMES;
	pin.keyframes = keys;
	pin.keyframe_count = 2;
	if (drape_constraint_add(w, &pin).index < 0) {
		st = drape_world_status(w);
		goto free_mesh;
	}
	drape_solid_def sphere = drape_default_solid_def();
	sphere.shape = DRAPE_SOLID_SPHERE;
	sphere.radius = 0.2;
	sphere.name = "ball";
	drape_solid_def floor = drape_default_solid_def();
	floor.shape = DRAPE_SOLID_MESH;
	floor.mesh = &mesh; /* the grid as a collider under the cloth */
	floor.position[2] = -0.5;
	floor.name = "floor";
	if (drape_solid_add(w, &sphere).index < 0 || drape_solid_add(w, &floor).index < 0) {
		st = drape_world_status(w);
		goto free_mesh;
	}
	drape_spring_def sd = drape_default_spring_def();
	sd.cloth = c;
	sd.vertex = 3;
	if (drape_spring_add(w, &sd).index < 0) {
		st = drape_world_status(w);
		goto free_mesh;
	}
	st = workspace_prepare(w);
free_mesh:
	drape_mesh_free(&mesh);
done:
	drape_world_destroy(w);
	return st;
}

/* A seam added and merged (the cloth's particles renumbered, its topology rebuilt), then the
 * solver prepared for the new topology. */
static drape_status seam_scenario(char* msg, size_t msg_size)
{
	drape_world_def wd = drape_default_world_def();
	wd.threads = 1;
	wd.preconditioner = DRAPE_PRECONDITIONER_BLOCK_JACOBI;
	drape_world* w = drape_world_create(&wd);
	if (!w) return DRAPE_ERROR_MEMORY;
	drape_grid_def g = drape_default_grid_def();
	g.resolution[0] = g.resolution[1] = 5;
	drape_mesh mesh;
	drape_status st = drape_mesh_make_grid(&g, &mesh, msg, msg_size);
	if (st != DRAPE_OK) goto done;
	drape_cloth_def cd = drape_default_cloth_def();
	cd.mesh = &mesh;
	drape_cloth_id c = drape_cloth_add(w, &cd);
	drape_mesh_free(&mesh);
	if (c.index < 0) {
		st = drape_world_status(w);
		goto done;
	}
	const int32_t pairs[4] = {0, 4, 20, 24}; /* the sheet's u = 0 and u = max corners: a tube's ends */
	drape_seam_def sd = drape_default_seam_def();
	sd.cloth = c;
	sd.pairs = pairs;
	sd.pair_count = 2;
	sd.name = "side";
	drape_seam_id s = drape_seam_add(w, &sd);
	if (s.index < 0) {
		st = drape_world_status(w);
		goto done;
	}
	st = workspace_prepare(w);
	if (st == DRAPE_OK) st = drape_seam_merge(w, s);
	if (st == DRAPE_OK) st = workspace_prepare(w);
	if (st != DRAPE_OK) snprintf(msg, msg_size, "%s", drape_world_error(w));
done:
	drape_world_destroy(w);
	return st;
}

/* A scene file loaded and its world built and prepared for its first step. */
static drape_status scene_run(const char* path, char* msg, size_t msg_size)
{
	scene s;
	if (!scene_load_file(path, &s, msg, msg_size)) return s.failure;
	s.world.threads = 1;
	drape_status st = DRAPE_OK;
	drape_world* w = scene_build_world_status(&s, &st, msg, msg_size);
	if (w) {
		st = workspace_prepare(w);
		if (st != DRAPE_OK) snprintf(msg, msg_size, "%s", drape_world_error(w));
	}
	drape_world_destroy(w);
	scene_free(&s);
	return st;
}

/* A grid cloth with pins and stretch regions over an OBJ collider. */
static drape_status scene_scenario(char* msg, size_t msg_size)
{
	return scene_run(DRAPE_SOURCE_DIR "/tests/alloc/sheet.json", msg, msg_size);
}

/* A garment: panels meshed (CGAL's triangulation inside is CGAL's own memory), seams, sewing. */
static drape_status garment_scenario(char* msg, size_t msg_size)
{
	return scene_run(DRAPE_SOURCE_DIR "/tests/alloc/tube.json", msg, msg_size);
}

/* A skinned character read by assimp (whose own memory is not counted), posed into a solid. */
static drape_status character_scenario(char* msg, size_t msg_size)
{
	drape_character_def d = drape_default_character_def();
	d.file = "/usr/share/assimp/models/glTF2/simple_skin/simple_skin.gltf";
	drape_character* ch = drape_character_load(&d, msg, msg_size);
	if (!ch) return strstr(msg, "out of memory") ? DRAPE_ERROR_MEMORY : DRAPE_ERROR_INVALID;
	drape_world_def wd = drape_default_world_def();
	drape_world* w = drape_world_create(&wd);
	drape_status st = DRAPE_ERROR_MEMORY;
	if (w) {
		drape_solid_def sd = drape_default_solid_def();
		sd.shape = DRAPE_SOLID_MESH;
		sd.character = ch;
		sd.name = "body";
		st = drape_solid_add(w, &sd).index < 0 ? drape_world_status(w) : DRAPE_OK;
		if (st != DRAPE_OK) snprintf(msg, msg_size, "%s", drape_world_error(w));
	}
	drape_world_destroy(w);
	drape_character_destroy(ch);
	return st;
}

/* A skeleton-only motion-capture file: drape generates the body around it (docs/mannequin.md). */
static drape_status mannequin_scenario(char* msg, size_t msg_size)
{
	drape_character_def d = drape_default_character_def();
	d.file = DRAPE_SOURCE_DIR "/tests/alloc/skeleton.bvh"; /* 01_01.bvh of assimp-testmodels cut to 2 frames */
	d.cell_size = 0.029; /* the coarsest this skeleton allows: the fewest allocations */
	drape_character* ch = drape_character_load(&d, msg, msg_size);
	if (!ch) return strstr(msg, "out of memory") ? DRAPE_ERROR_MEMORY : DRAPE_ERROR_INVALID;
	drape_character_destroy(ch);
	return DRAPE_OK;
}

/* Runs a scenario once to count its allocations, then fails each in turn. */
static void fail_each(const char* name, scenario_fn* run, int64_t only)
{
	char msg[1024] = "";
	alloc_fail_arm(0);
	drape_status first = run(msg, sizeof msg);
	const int64_t total = alloc_fail_disarm();
	CHECK(first == DRAPE_OK);
	if (first != DRAPE_OK) {
		fprintf(stderr, "%s: fails without injected failures: %s\n", name, msg);
		return;
	}
	int64_t wrong = 0;
	for (int64_t k = only > 0 ? only : 1; k <= (only > 0 ? only : total); ++k) {
		msg[0] = '\0';
		alloc_fail_arm(k);
		drape_status st = run(msg, sizeof msg);
		alloc_fail_disarm();
		if (st != DRAPE_ERROR_MEMORY && wrong++ < 10)
			fprintf(stderr, "%s: allocation %lld of %lld failed, but the call returned %d: %s\n", name, (long long)k,
				(long long)total, (int)st, msg);
		CHECK(st == DRAPE_ERROR_MEMORY);
	}
	printf("%-10s %6lld allocations, each failed once: %lld not reported as out of memory\n", name, (long long)total,
	       (long long)wrong);
}

/* drape_alloc_tests [SCENARIO [K]]: all scenarios, one, or one failing only its K-th allocation
 * (with ALLOC_FAIL_TRACE=1 in the environment, printing where that allocation is made). */
int main(int argc, char** argv)
{
	static const struct {
		const char* name;
		scenario_fn* run;
		bool on_request; /* only when named: the generated body costs 15 s of CPU over its k */
	} scenarios[] = {
		{"world", world_scenario, false},
		{"seam", seam_scenario, false},
		{"scene", scene_scenario, false},
		{"garment", garment_scenario, false},
		{"character", character_scenario, false},
		{"mannequin", mannequin_scenario, true},
	};
	for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; ++i)
		if (argc < 2 ? !scenarios[i].on_request : strcmp(argv[1], scenarios[i].name) == 0)
			fail_each(scenarios[i].name, scenarios[i].run, argc > 2 ? atoll(argv[2]) : 0);
	printf("%d checks, %d failed\n", test_checks, test_failures);
	return test_failures ? 1 : 0;
}
