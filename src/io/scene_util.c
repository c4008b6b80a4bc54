/* Small helpers that every part of the scene loader uses (scene.c, scene_pins.c, scene_solids.c,
 * scene_set.c; docs/scene-format.md): kept apart so that those files do not import each other. */
#include "scene_internal.h"

#include "core.h"

#include <stdlib.h>
#include <string.h>

char* scene_copy_string(const char* s)
{
	size_t n = strlen(s) + 1;
	char* d = malloc(n);
	if (d) memcpy(d, s, n);
	return d;
}

void scene_loader_init(loader* L, scene* s, const char* text, const char* file, char* err, size_t err_size)
{
	memset(L, 0, sizeof *L);
	L->c.text = text;
	L->c.file = file;
	L->c.err = err;
	L->c.err_size = err_size;
	L->s = s;
}

bool scene_out_of_memory(const json_ctx* c)
{
	if (c->status) *c->status = DRAPE_ERROR_MEMORY;
	return json_fail(c, NULL, "out of memory");
}

void scene_note_failure(const json_ctx* c, drape_status status, const char* msg)
{
	if ((status == DRAPE_ERROR_MEMORY || core_failure_status(msg) == DRAPE_ERROR_MEMORY) && c->status)
		*c->status = DRAPE_ERROR_MEMORY;
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

bool scene_load_stretch_region(const json_ctx* c, const jnode* n, stretch_region* r)
{
	static const char* const keys[] = {"uv_min", "uv_max", "bu", "bv", "taper", NULL};
	if (!json_check_object(c, n, keys)) return false;
	*r = (stretch_region){.bu = 1.0, .bv = 1.0};
	const cJSON* mn = json_get(n, "uv_min");
	const cJSON* mx = json_get(n, "uv_max");
	if (!mn || !mx) return json_fail(c, n, "missing required key '%s'", mn ? "uv_max" : "uv_min");
	jnode lon = json_node(n, mn), hin = json_node(n, mx);
	if (!json_vector(c, &lon, 2, r->lo) || !json_vector(c, &hin, 2, r->hi) || !json_opt_positive(c, n, "bu", &r->bu) ||
	    !json_opt_positive(c, n, "bv", &r->bv))
		return false;
	if (!(r->lo[0] < r->hi[0]) || !(r->lo[1] < r->hi[1]))
		return json_fail(c, &hin, "must be greater than uv_min in both u and v, got [%g, %g] and [%g, %g]", r->lo[0],
				 r->lo[1], r->hi[0], r->hi[1]);
	const cJSON* tp = json_get(n, "taper");
	if (tp) {
		jnode tn = json_node(n, tp);
		if (!json_vector(c, &tn, 2, r->taper)) return false;
		if (!(r->taper[0] >= 0.0) || !(r->taper[1] >= 0.0))
			return json_fail(c, &tn, "must be >= 0 in both u and v (rest-plane metres beyond the box), got [%g, %g]",
					 r->taper[0], r->taper[1]);
	}
	return true;
}
