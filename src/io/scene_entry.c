/* One element of a scene file's "cloths" or "solids" array added to an existing world
 * (drape_world_add_scene_cloth / _solid, include/drape.h; docs/python.md): the JSON goes through
 * the scene loader's own functions, key by key, into a one-entry scene that scene_add_to_world
 * appends to the world. What belongs to a run rather than to a world (the sewing's time limit,
 * relaxing and gravity, a character held until the garment relaxed) is said in a warning; the
 * stretch regions a run applies after sewing are refused, since a world has no sewing to wait for. */
#include "drape.h"

#include "scene_internal.h"

#include "../collide/solid.h"
#include "../world_data.h"
#include "../world_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The world's own name for an entry without "name" (the loader's would be cloth0 / solid0). */
static bool rename_default(char** name, const char* kind, int32_t index)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%s%d", kind, (int)index);
	char* copy = scene_copy_string(buf);
	if (!copy) return false;
	free(*name);
	*name = copy;
	return true;
}

/* Loads `json` as one entry of "cloths" (solid false) or "solids" into s, named `index` after the
 * world's count when it has no "name". */
static bool load_entry(const drape_world* world, const char* json, const char* base_dir, bool solid, int32_t index,
		       scene* s, char* err, size_t err_size)
{
	memset(s, 0, sizeof *s);
	scene_set_defaults(s);
	char source[4200];
	/* The loader finds relative files beside its "file" and starts its messages with it. */
	snprintf(source, sizeof source, "%s%s<scene entry>", base_dir && *base_dir ? base_dir : "", base_dir && *base_dir ? "/" : "");
	loader L;
	scene_loader_init(&L, s, json, source, err, err_size);
	L.world = world; /* a garment placed around a bone finds the world's character */
	s->path = scene_copy_string(source);
	if (!s->path) return scene_out_of_memory(&L.c);
	if (!json) return json_fail(&L.c, NULL, "no JSON text");
	cJSON* root = json_parse(&L.c);
	if (!root) return false;
	/* Line numbers of a text made by a program mean little: the messages name the key's path. */
	L.c.text = NULL;
	jnode rn = json_node(NULL, root);
	bool ok;
	if (solid) {
		ok = (s->solids = calloc(1, sizeof *s->solids)) != NULL;
		s->solid_count = ok ? 1 : 0;
		ok = ok ? scene_load_solid(&L, &rn, 0) : scene_out_of_memory(&L.c);
	} else {
		ok = (s->cloths = calloc(1, sizeof *s->cloths)) != NULL;
		s->cloth_count = ok ? 1 : 0;
		ok = ok ? scene_load_cloth(&L, &rn, 0) : scene_out_of_memory(&L.c);
		/* checked against the other cloths once a whole file is loaded (scene_check_tucks) */
		const cJSON* tuck = json_get(&rn, "tucked_into");
		jnode tn = json_node(&rn, tuck);
		if (ok && tuck)
			ok = json_fail(&L.c, &tn, "'tucked_into' names another cloth of a scene file; a cloth added alone "
						  "takes its order from 'layer'");
	}
	const bool named = json_get(&rn, "name") != NULL;
	cJSON_Delete(root);
	if (ok && !named && !solid) ok = rename_default(&s->cloths[0].name, "cloth", index) || scene_out_of_memory(&L.c);
	if (ok && !named && solid) {
		ok = rename_default(&s->solids[0].name, "solid", index) || scene_out_of_memory(&L.c);
		s->solids[0].def.name = s->solids[0].name;
	}
	return ok;
}

/* "<scene entry>: garment.seams[0]: ..." -> "garment.seams[0]: ...", and "(mesh.file of <scene entry>)" ->
 * "(mesh.file of the entry)": the entry is the caller's text, not a file. */
static void strip_source(const scene* s, char* err)
{
	size_t n = s->path ? strlen(s->path) : 0;
	if (!n) return;
	if (strncmp(err, s->path, n) == 0 && err[n] == ':' && err[n + 1] == ' ') memmove(err, err + n + 2, strlen(err + n + 2) + 1);
	static const char entry[] = "the entry";
	for (char* at = strstr(err, s->path); at && n >= sizeof entry - 1; at = strstr(at, s->path)) {
		memcpy(at, entry, sizeof entry - 1);
		memmove(at + sizeof entry - 1, at + n, strlen(at + n) + 1);
		at += sizeof entry - 1;
	}
}

static bool fail(scene* s, char* err, size_t err_size, const char* fmt, const char* name)
{
	snprintf(err, err_size, fmt, name);
	scene_free(s);
	return false;
}

/* The checks and warnings that a world (unlike a run) needs, then the entry into the world. */
static bool add_entry(drape_world* world, scene* s, char* err, size_t err_size)
{
	for (int32_t i = 0; i < s->cloth_count; ++i) {
		for (int32_t k = 0; k < drape_cloth_count(world); ++k)
			if (strcmp(drape_cloth_name(world, (drape_cloth_id){k}), s->cloths[i].name) == 0)
				return fail(s, err, err_size, "name: the world has a cloth named '%s' already", s->cloths[i].name);
		if (s->sew_regions_after && s->seam_count > 0 && s->cloths[i].stretch_scale)
			return fail(s, err, err_size,
				    "garment.sewing.regions: 'after_sewing' is applied by a run's sewing (drape run, drape_run), "
				    "which a world does not have; a garment added to a world takes its stretch regions from the "
				    "start ('start', the default), or run it as a scene (cloth '%s')",
				    s->cloths[i].name);
		if (s->seam_count > 0 && (s->sew_time_limit != SCENE_SEW_TIME_LIMIT || s->sew_gravity != 1.0 ||
					  s->relax_energy != SCENE_RELAX_ENERGY))
			world_warn(world,
				   "cloth '%s': garment.sewing.time_limit, relax_energy and gravity are settings of a run's "
				   "sewing (drape run); in a world, seams merge when drape_world_close_seams finds them closed",
				   s->cloths[i].name);
	}
	for (int32_t i = 0; i < s->solid_count; ++i) {
		scene_solid* so = &s->solids[i];
		for (int32_t k = 0; k < drape_solid_count(world); ++k)
			if (world->model.solids[k].name && strcmp(world->model.solids[k].name, so->name) == 0)
				return fail(s, err, err_size, "name: the world has a solid named '%s' already", so->name);
		if (so->hold_until_relaxed)
			world_warn(world,
				   "solid '%s': character.hold \"relaxed\" waits for a run's sewn garment to relax (drape run); "
				   "in a world the character holds its dressing pose until drape_solid_set_hold starts it",
				   so->name);
	}
	bool ok = scene_add_to_world(s, world, err, err_size);
	if (!ok) strip_source(s, err);
	scene_free(s);
	return ok;
}

/* The entry's index in the world (its cloths or its solids), or -1 with the message in err. */
static int32_t add_scene_entry(drape_world* world, const char* json, const char* base_dir, bool solid, char* err,
			       size_t err_size)
{
	char scratch[1];
	if (!err || err_size == 0) err = scratch, err_size = sizeof scratch;
	err[0] = '\0';
	scene s;
	const int32_t index = solid ? drape_solid_count(world) : drape_cloth_count(world);
	if (!load_entry(world, json, base_dir, solid, index, &s, err, err_size)) {
		strip_source(&s, err);
		scene_free(&s);
		return -1;
	}
	return add_entry(world, &s, err, err_size) ? index : -1;
}

drape_cloth_id drape_world_add_scene_cloth(drape_world* world, const char* json, const char* base_dir, char* err,
					   size_t err_size)
{
	return (drape_cloth_id){add_scene_entry(world, json, base_dir, false, err, err_size)};
}

drape_solid_id drape_world_add_scene_solid(drape_world* world, const char* json, const char* base_dir, char* err,
					   size_t err_size)
{
	return (drape_solid_id){add_scene_entry(world, json, base_dir, true, err, err_size)};
}
