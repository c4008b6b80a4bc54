/* `--set key.path=value` overrides of a scene's JSON before validation (docs/batch.md). */
#ifndef DRAPE_IO_SCENE_SET_H
#define DRAPE_IO_SCENE_SET_H

#include "io/scene.h"
#include "io/scene_json.h"

/* Applies each "a.b.0.c=VALUE" (array indices as numbers; VALUE as JSON, or a string when it is
 * not JSON) to root. An index past the end of an array, a path through a single value or a text
 * without '=' fails with "--set 'TEXT': why" in c->err. Unknown keys are left for the validator. */
bool scene_apply_sets(const json_ctx* c, cJSON* root, const char* const* sets, int32_t count);

/* Copies the overrides into s->sets (for summary.json); false (out of memory) with a message. */
bool scene_keep_sets(const json_ctx* c, scene* s, const char* const* sets, int32_t count);

/* The default scene of `drape run` (scene_load_default) with overrides. */
bool scene_load_default_set(const char* const* sets, int32_t count, scene* out, char* err, size_t err_size);

/* After a failed validation, appends " (set by --set 'TEXT')" to err when the message names the
 * JSON path that override TEXT set. */
void scene_blame_set(char* err, size_t err_size, const char* const* sets, int32_t count);

#endif
