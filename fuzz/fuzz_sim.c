/* libFuzzer target: two steps of a fuzzed small scene (loader, world building, implicit step,
 * collisions) on one thread. A crash, a sanitizer report or a hang (-timeout) is a finding. */
#include "io/scene.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* As in fuzz_scene.c: relative mesh and pattern files resolve from scenes/. */
#define FUZZ_SCENE_PATH DRAPE_SOURCE_DIR "/scenes/fuzz_input.json"
/* Scenes past these are skipped, not run: big meshes and long steps are slow by design, and the
 * point is many small worlds per second. Each drape_world_step covers FUZZ_STEP (or max_dt if
 * smaller): one step unless it is rejected and retried at half the size, at most
 * log2(max_dt / min_dt) times. Whole frames would take seconds each: the adaptive control cuts
 * the first frames of the wrinkle band into 16 steps of up to 1,000 CG iterations. */
#define FUZZ_MAX_PARTICLES 2000
#define FUZZ_STEP 0.002       /* s */
#define FUZZ_MAX_DT_RATIO 1e6 /* max_dt / min_dt: about 20 halvings */

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static bool small_enough(const scene* s)
{
	int64_t particles = 0;
	for (int32_t i = 0; i < s->cloth_count; ++i) particles += s->cloths[i].mesh.vertex_count;
	return particles <= FUZZ_MAX_PARTICLES && s->world.max_dt <= FUZZ_MAX_DT_RATIO * s->world.min_dt;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	char* text = malloc(size + 1);
	if (!text) return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	scene s;
	char err[1024];
	bool ok = scene_load_text(text, FUZZ_SCENE_PATH, &s, err, sizeof err);
	free(text);
	if (!ok) return 0;
	if (small_enough(&s)) {
		s.world.threads = 1;
		drape_world* world = scene_build_world(&s, err, sizeof err);
		if (world) {
			double step = s.world.max_dt < FUZZ_STEP ? s.world.max_dt : FUZZ_STEP;
			for (int k = 0; k < 2; ++k)
				if (drape_world_step(world, step) != DRAPE_OK) break;
			drape_world_destroy(world);
		}
	}
	scene_free(&s);
	return 0;
}
