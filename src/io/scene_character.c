/* The `character` key of a "shape": "character" solid (docs/scene-format.md, "Characters"): which
 * file and animation, timing, scale, up axis, root motion, the body, the dressing lead-in, the joint
 * map and keyframed joint rotations (docs/characters.md). */
#include "scene_internal.h"

#include "character/character.h"

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

/* joint_map and keyframes flattened into the def's arrays; map[k] is the k-th member of joint_map,
 * keys[k] a member of keyframes[key_frame[k]].joints, key_item[k] that member. */
typedef struct character_inputs {
	drape_joint_name* map;
	int32_t map_count;
	drape_joint_key* keys;
	int32_t* key_frame;
	const cJSON** key_item;
	int32_t key_count;
} character_inputs;

static void inputs_free(character_inputs* in)
{
	free(in->map);
	free(in->keys);
	free(in->key_frame);
	free(in->key_item);
}

/* "joint_map": {"Spine1": "Chest", ...}: drape's name -> the file's joint (checked by the loader). */
static bool load_joint_map(const json_ctx* c, const jnode* n, character_inputs* in)
{
	const cJSON* m = json_get(n, "joint_map");
	if (!m) return true;
	jnode mn = json_node(n, m);
	if (!cJSON_IsObject(m))
		return json_fail(c, &mn, "expected an object (drape's joint name -> the file's), got %s", json_type_name(m));
	int count = cJSON_GetArraySize(m);
	if (count == 0) return json_fail(c, &mn, "must name at least one joint");
	in->map = calloc((size_t)count, sizeof *in->map);
	if (!in->map) return scene_out_of_memory(c);
	for (const cJSON* e = m->child; e; e = e->next) {
		jnode en = json_node(&mn, e);
		const char* file_joint;
		if (!json_string(c, &en, &file_joint)) return false;
		in->map[in->map_count].name = e->string;
		in->map[in->map_count++].file_joint = file_joint;
	}
	return true;
}

/* "keyframes": [{"time": t, "joints": {"Spine1": [rx, ry, rz], ...}}, ...], times increasing. */
static bool load_keyframes(const json_ctx* c, const jnode* n, character_inputs* in)
{
	const cJSON* a = json_get(n, "keyframes");
	if (!a) return true;
	jnode an = json_node(n, a);
	int frames;
	if (!json_array(c, &an, &frames)) return false;
	if (frames == 0) return json_fail(c, &an, "must have at least one keyframe");
	int32_t total = 0;
	for (const cJSON* k = a->child; k; k = k->next) {
		const cJSON* j = cJSON_IsObject(k) ? cJSON_GetObjectItemCaseSensitive(k, "joints") : NULL;
		total += cJSON_IsObject(j) ? cJSON_GetArraySize(j) : 0;
	}
	in->keys = calloc((size_t)(total > 0 ? total : 1), sizeof *in->keys);
	in->key_frame = calloc((size_t)(total > 0 ? total : 1), sizeof *in->key_frame);
	in->key_item = calloc((size_t)(total > 0 ? total : 1), sizeof *in->key_item);
	if (!in->keys || !in->key_frame || !in->key_item) return scene_out_of_memory(c);
	static const char* const keys[] = {"time", "joints", NULL};
	double previous = -1.0;
	int32_t index = 0;
	for (const cJSON* k = a->child; k; k = k->next, ++index) {
		jnode kn = json_node(&an, k);
		if (!json_check_object(c, &kn, keys)) return false;
		const cJSON* t = json_get(&kn, "time");
		const cJSON* j = json_get(&kn, "joints");
		if (!t) return json_fail(c, &kn, "missing 'time'");
		if (!j) return json_fail(c, &kn, "missing 'joints' (an object: joint name -> [rx, ry, rz] degrees)");
		jnode tn = json_node(&kn, t), jn = json_node(&kn, j);
		double time;
		if (!json_number(c, &tn, &time) || !json_nonnegative(c, &tn, time)) return false;
		if (index > 0 && !(time > previous))
			return json_fail(c, &tn, "keyframe times must increase: %g after %g", time, previous);
		previous = time;
		if (!cJSON_IsObject(j))
			return json_fail(c, &jn, "expected an object (joint name -> [rx, ry, rz] degrees), got %s",
					 json_type_name(j));
		if (!j->child) return json_fail(c, &jn, "must turn at least one joint");
		for (const cJSON* e = j->child; e; e = e->next) {
			jnode en = json_node(&jn, e);
			drape_joint_key* key = &in->keys[in->key_count];
			if (!json_vector(c, &en, 3, key->rotation)) return false;
			key->time = time;
			key->joint = e->string;
			in->key_frame[in->key_count] = index;
			in->key_item[in->key_count++] = e;
		}
	}
	return true;
}

/* The JSON member a load error is about (character_load's at): a joint_map or keyframes entry. */
static bool input_fail(const json_ctx* c, const jnode* n, const character_inputs* in, character_error_at at,
		       const char* msg)
{
	if (at.what == CHARACTER_INPUT_MAP_NAME || at.what == CHARACTER_INPUT_MAP_JOINT) {
		const cJSON* m = json_get(n, "joint_map");
		jnode mn = json_node(n, m);
		const cJSON* e = m->child;
		for (int32_t k = 0; k < at.index && e; ++k) e = e->next;
		jnode en = json_node(&mn, e);
		return json_fail(c, &en, "%s", msg);
	}
	const cJSON* a = json_get(n, "keyframes");
	jnode an = json_node(n, a);
	const cJSON* k = cJSON_GetArrayItem(a, in->key_frame[at.index]);
	jnode kn = json_node(&an, k);
	if (at.what == CHARACTER_INPUT_KEY_TIME) {
		jnode tn = json_node(&kn, cJSON_GetObjectItemCaseSensitive(k, "time"));
		return json_fail(c, &tn, "%s", msg);
	}
	jnode jn = json_node(&kn, cJSON_GetObjectItemCaseSensitive(k, "joints"));
	jnode en = json_node(&jn, in->key_item[at.index]);
	return json_fail(c, &en, "%s", msg);
}

bool scene_load_character(const json_ctx* c, const jnode* sn, scene_solid* so)
{
	const cJSON* item = json_get(sn, "character");
	if (!item) return json_fail(c, sn, "missing required key 'character' (a character solid needs it)");
	jnode n = json_node(sn, item);
	static const char* const keys[] = {"file", "animation", "time_scale", "start", "loop", "scale", "up", "root_motion",
					   "body", "hold", "blend", "dress_angle", "position", "cell_size", "joint_map",
					   "keyframes", "skinning", NULL};
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
	int up = 0, root = 1, body = 0, skin = 0;
	if (!load_choice(c, &n, "up", "y", "z", &up) || !load_choice(c, &n, "root_motion", "keep", "remove", &root) ||
	    !load_choice(c, &n, "body", "file", "mannequin", &body) ||
	    !load_choice(c, &n, "skinning", "linear", "dual_quaternion", &skin))
		return false;
	d.skinning = skin ? DRAPE_SKINNING_DUAL_QUATERNION : DRAPE_SKINNING_LINEAR;
	d.up = up ? 'z' : 'y';
	d.keep_root_motion = root == 0;
	d.mannequin = body == 1;
	character_inputs in = {0};
	if (!load_joint_map(c, &n, &in) || !load_keyframes(c, &n, &in)) {
		inputs_free(&in);
		return false;
	}
	d.joint_map = in.map;
	d.joint_map_count = in.map_count;
	d.keyframes = in.keys;
	d.keyframe_count = in.key_count;
	char* path = scene_file_path(c->file, file);
	if (!path) {
		inputs_free(&in);
		return scene_out_of_memory(c);
	}
	d.file = path;
	char msg[1024];
	character_error_at at;
	so->character = character_load(&d, &at, msg, sizeof msg);
	free(path);
	bool ok = so->character != NULL;
	if (!ok) {
		scene_note_failure(c, DRAPE_ERROR_INVALID, msg);
		ok = at.what == CHARACTER_INPUT_FILE ? json_fail(c, &fn, "%s", msg) : input_fail(c, &n, &in, at, msg);
	}
	inputs_free(&in);
	if (!ok) return false;
	so->def.character = so->character;
	so->def.mesh = NULL;
	return true;
}
