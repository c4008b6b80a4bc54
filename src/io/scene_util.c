/* Small helpers that every part of the scene loader uses (scene.c, scene_pins.c, scene_solids.c,
 * scene_set.c; docs/scene-format.md): kept apart so that those files do not import each other. */
#include "scene_internal.h"

#include <stdlib.h>
#include <string.h>

char* scene_copy_string(const char* s)
{
	size_t n = strlen(s) + 1;
	char* d = malloc(n);
	if (d) memcpy(d, s, n);
	return d;
}

bool scene_out_of_memory(const json_ctx* c)
{
	return json_fail(c, NULL, "out of memory");
}

char* scene_file_path(const char* scene_path, const char* file)
{
	const char* slash = strrchr(scene_path, '/');
	if (file[0] == '/' || !slash) return scene_copy_string(file);
	size_t dir = (size_t)(slash - scene_path) + 1, n = strlen(file);
	char* p = malloc(dir + n + 1);
	if (!p) return NULL;
	memcpy(p, scene_path, dir);
	memcpy(p + dir, file, n + 1);
	return p;
}
