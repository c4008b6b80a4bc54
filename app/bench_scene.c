/* Loading a shipped scene for a benchmark (bench_scene.h). */
#include "bench_scene.h"

#include <stdio.h>

drape_world* bench_scene_world(const char* name, int threads, scene* s)
{
	char path[512], err[1024];
	snprintf(path, sizeof path, "%s/scenes/%s.json", DRAPE_SOURCE_DIR, name);
	if (!scene_load_file(path, s, err, sizeof err)) {
		fprintf(stderr, "drape bench: %s\n", err);
		return NULL;
	}
	s->world.threads = threads;
	drape_world* w = scene_build_world(s, err, sizeof err);
	if (!w) {
		fprintf(stderr, "drape bench: %s\n", err);
		scene_free(s);
	}
	return w;
}
