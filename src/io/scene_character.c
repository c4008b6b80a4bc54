/* The `character` key of a "shape": "character" solid (docs/scene-format.md, "Characters"): which
 * file and animation, timing, scale, up axis, root motion, the body, and the dressing lead-in. */
#include "scene_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool load_animation(const json_ctx* c, const jnode* n, drape_character_def* d)
{
	const cJSON* a = json_get(n, "animation");
	if (!a) return true;
	jnode an = json_node(n, a);
	if (cJSON_IsString(a)) return json_string(c, &an, &d->animation);
	if (!json_integer(c, &an, 0, 1000000, &d->animation_index))
		return false;
	return true;
}

static bool load_choice(const json_ctx* c, const jnode* n, const char* key, const char* a, const char* b, int* out)
{
	const cJSON* item = json_get(n, key);
	if (!item) return true;
	jnode in = json_node(n, item);
	const char* s;
	if (!json_string(c, &in, &s)) return false;
	if (strcmp(s, a) == 0) *out = 0;
	else if (strcmp(s, b) == 0) *out = 1;
	else return json_fail(c, &in, "expected \"%s\" or \"%s\", got \"%s\"", a, b, s);
	return true;
}

/* "hold": seconds, or "relaxed": until a garment sewn on the body has relaxed
 * (sewing.motion_start, io/sewing.c); held meanwhile for as long as any run lasts. */
static bool load_hold(const json_ctx* c, const jnode* n, drape_character_def* d, scene_solid* so)
{
	const cJSON* h = json_get(n, "hold");
	if (cJSON_IsString(h)) {
		jnode hn = json_node(n, h);
		if (strcmp(h->valuestring, "relaxed") != 0)
			return json_fail(c, &hn, "expected seconds or \"relaxed\", got '%s'", h->valuestring);
		so->hold_until_relaxed = true;
		d->hold = SCENE_HOLD_RELAXED;
		return true;
	}
	return json_opt_nonnegative(c, n, "hold", &d->hold);
}

bool scene_load_character(const json_ctx* c, const jnode* sn, scene_solid* so)
{
	const cJSON* item = json_get(sn, "character");
	if (!item) return json_fail(c, sn, "missing required key 'character' (a character solid needs it)");
	jnode n = json_node(sn, item);
	static const char* const keys[] = {"file", "animation", "time_scale", "start", "loop", "scale", "up", "root_motion",
					   "body", "hold", "blend", "dress_angle", "position", "cell_size", NULL};
	if (!json_check_object(c, &n, keys)) return false;
	drape_character_def d = drape_default_character_def();
	const cJSON* f = json_get(&n, "file");
	if (!f) return json_fail(c, &n, "missing required key 'file'");
	jnode fn = json_node(&n, f);
	const char* file;
	if (!json_string(c, &fn, &file)) return false;
	if (!load_animation(c, &n, &d)) return false;
	if (!json_opt_positive(c, &n, "time_scale", &d.time_scale) || !json_opt_nonnegative(c, &n, "start", &d.start) ||
	    !load_hold(c, &n, &d, so) || !json_opt_nonnegative(c, &n, "blend", &d.blend) ||
	    !json_opt_number(c, &n, "dress_angle", &d.dress_angle) || !json_opt_vector(c, &n, "position", 3, d.position) ||
	    !json_opt_positive(c, &n, "cell_size", &d.cell_size))
		return false;
	const cJSON* loop = json_get(&n, "loop");
	if (loop) {
		jnode ln = json_node(&n, loop);
		if (!json_bool(c, &ln, &d.loop)) return false;
	}
	const cJSON* scale = json_get(&n, "scale");
	if (scale && !(cJSON_IsString(scale) && strcmp(scale->valuestring, "auto") == 0) &&
	    !json_opt_positive(c, &n, "scale", &d.scale))
		return false;
	int up = 0, root = 1, body = 0;
	if (!load_choice(c, &n, "up", "y", "z", &up) || !load_choice(c, &n, "root_motion", "keep", "remove", &root) ||
	    !load_choice(c, &n, "body", "file", "mannequin", &body))
		return false;
	d.up = up ? 'z' : 'y';
	d.keep_root_motion = root == 0;
	d.mannequin = body == 1;
	char* path = scene_file_path(c->file, file);
	if (!path) return scene_out_of_memory(c);
	d.file = path;
	char msg[1024];
	so->character = drape_character_load(&d, msg, sizeof msg);
	free(path);
	if (!so->character) {
		scene_note_failure(c, DRAPE_ERROR_INVALID, msg);
		return json_fail(c, &fn, "%s", msg);
	}
	so->def.character = so->character;
	so->def.mesh = NULL;
	return true;
}
