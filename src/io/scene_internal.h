/* Shared between the scene loader's files: the loader state and the pin expansion. */
#ifndef DRAPE_SCENE_INTERNAL_H
#define DRAPE_SCENE_INTERNAL_H

#include "scene.h"
#include "scene_json.h"

typedef struct loader {
	json_ctx c;
	scene* s; /* being filled; freed whole on failure */
	int32_t constraint_cap;
} loader;

/* Expands one entry of cloths[cloth].pins into per-particle constraints appended to s. */
bool scene_load_pin(loader* L, const jnode* pin, int32_t cloth);

bool scene_out_of_memory(const json_ctx* c);

#endif
