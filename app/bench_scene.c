/* Loading a shipped scene for a benchmark (bench_scene.h). */
#include "bench_scene.h"

#include <stdio.h>

drape_world* bench_scene_world(const char* name, int threads, drape_scene** s)
{
	char path[512], err[1024];
	snprintf(path, sizeof path, "%s/scenes/%s.json", DRAPE_SOURCE_DIR, name);
	*s = drape_scene_load(path, err, sizeof err);
	if (!*s) {
		fprintf(stderr, "drape bench: %s\n", err);
		return NULL;
	}
	drape_world_def def = drape_scene_world_def(*s);
	def.threads = threads;
	drape_world* w = drape_scene_create_world(*s, &def, err, sizeof err);
	if (!w) {
		fprintf(stderr, "drape bench: %s\n", err);
		drape_scene_destroy(*s);
		*s = NULL;
	}
	return w;
}
