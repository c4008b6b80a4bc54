/* The public face of the scene loader and the output writers (include/drape.h, "Whole jobs"):
 * drape_scene_* over src/io/scene.c and drape_writer_* over src/io/caches.c (docs/api.md). */
#include "drape.h"

#include "api_assert.h"
#include "core.h"
#include "io/caches.h"
#include "io/embedded.h"
#include "io/output.h"
#include "io/scene.h"
#include "io/scene_handle.h"
#include "io/sewing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert((int)DRAPE_FORMAT_OBJ == (int)FORMAT_OBJ && (int)DRAPE_FORMAT_PC2 == (int)FORMAT_PC2 &&
		       (int)DRAPE_FORMAT_GLB == (int)FORMAT_GLB && (int)DRAPE_FORMAT_USDA == (int)FORMAT_USDA,
	       "public and private format bits agree");

static void set_err(char* err, size_t err_size, const char* what)
{
	if (err && err_size) snprintf(err, err_size, "%s", what);
}

static drape_scene* scene_handle_new(char* err, size_t err_size)
{
	drape_scene* h = calloc(1, sizeof *h);
	if (!h) set_err(err, err_size, "out of memory");
	return h;
}

/* h when its scene loaded, else NULL with h freed and the loader's message in err. */
static drape_scene* scene_handle_loaded(drape_scene* h, bool ok, const char* message, char* err, size_t err_size)
{
	if (ok) return h;
	set_err(err, err_size, message);
	free(h);
	return NULL;
}

drape_scene* drape_scene_load(const char* path, char* err, size_t err_size)
{
	return drape_scene_load_overrides(path, NULL, 0, err, err_size);
}

drape_scene* drape_scene_load_overrides(const char* path, const char* const* overrides, int32_t override_count,
					char* err, size_t err_size)
{
	char local[1024];
	if (!path) {
		set_err(err, err_size, "drape_scene_load: no path");
		return NULL;
	}
	drape_scene* h = scene_handle_new(err, err_size);
	if (!h) return NULL;
	/* "<built-in>/name": a scene built into drape, as summary.json records a run of one */
	size_t prefix = strlen(EMBEDDED_PREFIX);
	bool builtin = strncmp(path, EMBEDDED_PREFIX, prefix) == 0;
	const char* text = builtin ? embedded_text(path + prefix) : NULL;
	if (builtin && !text) snprintf(local, sizeof local, "no built-in scene '%s'", path + prefix);
	bool ok = builtin ? text && scene_load_text_set(text, path, overrides, override_count, &h->s, local, sizeof local)
			  : scene_load_file_set(path, overrides, override_count, &h->s, local, sizeof local);
	return scene_handle_loaded(h, ok, local, err, err_size);
}

drape_scene* drape_scene_load_text(const char* text, const char* path, char* err, size_t err_size)
{
	char local[1024];
	if (!text) {
		set_err(err, err_size, "drape_scene_load_text: no text");
		return NULL;
	}
	drape_scene* h = scene_handle_new(err, err_size);
	if (!h) return NULL;
	return scene_handle_loaded(h, scene_load_text(text, path, &h->s, local, sizeof local), local, err, err_size);
}

const char* drape_builtin_file(const char* name) { return name ? embedded_text(name) : NULL; }

void drape_scene_destroy(drape_scene* scene)
{
	if (!scene) return;
	scene_free(&scene->s);
	free(scene);
}

const char* drape_scene_name(const drape_scene* scene) { return scene->s.name ? scene->s.name : ""; }
double drape_scene_fps(const drape_scene* scene) { return scene->s.fps; }
int32_t drape_scene_frames(const drape_scene* scene) { return scene->s.frames; }
drape_world_def drape_scene_world_def(const drape_scene* scene) { return scene->s.world; }

drape_world* drape_scene_create_world(const drape_scene* scene, const drape_world_def* world_def, char* err,
				      size_t err_size)
{
	char local[1024];
	/* A shallow copy: scene_build_world only reads, and copies what the world keeps. */
	struct scene s = scene->s;
	if (world_def) s.world = *world_def;
	drape_world* w = scene_build_world(&s, local, sizeof local);
	if (!w) set_err(err, err_size, local);
	return w;
}

bool drape_scene_camera(const drape_scene* scene, double eye[3], double target[3], double up[3], double* fov_y_deg)
{
	API_REQUIRE(scene != NULL, false);
	const scene_camera* c = &scene->s.camera;
	if (!c->set) return false;
	memcpy(eye, c->eye, sizeof c->eye);
	memcpy(target, c->target, sizeof c->target);
	memcpy(up, c->up, sizeof c->up);
	*fov_y_deg = c->fov;
	return true;
}

void drape_scene_start_motion(const drape_scene* scene, drape_world* world, double time)
{
	API_REQUIRE_VOID(scene != NULL && world != NULL);
	scene_start_motion(&scene->s, world, time);
}

struct drape_sewing {
	const drape_scene* scene;
	sewing_state st;
};

drape_sewing* drape_sewing_create(const drape_scene* scene, const drape_world* world)
{
	API_REQUIRE(scene != NULL && world != NULL, NULL);
	drape_sewing* s = calloc(1, sizeof *s);
	if (!s) return NULL;
	s->scene = scene;
	if (!sewing_begin(&s->st, world)) {
		free(s);
		return NULL;
	}
	return s;
}

void drape_sewing_destroy(drape_sewing* sewing)
{
	if (!sewing) return;
	sewing_end(&sewing->st);
	free(sewing);
}

void drape_sewing_before_frame(const drape_sewing* sewing, drape_world* world)
{
	API_REQUIRE_VOID(sewing != NULL && world != NULL);
	sewing_set_gravity(&sewing->st, world, &sewing->scene->s);
}

drape_status drape_sewing_after_frame(drape_sewing* sewing, drape_world* world, char* err, size_t err_size)
{
	API_REQUIRE(sewing != NULL && world != NULL, DRAPE_ERROR_INVALID);
	return sewing_after_frame(&sewing->st, world, &sewing->scene->s, err, err_size);
}

drape_sewing_info drape_sewing_get_info(const drape_sewing* sewing)
{
	drape_sewing_info info = {0, 0, -1.0, -1.0};
	API_REQUIRE(sewing != NULL, info);
	info.seam_count = sewing->st.seam_count;
	info.open = sewing->st.open;
	info.sewn_at = sewing->st.sewn_at;
	info.motion_start = sewing->st.motion_start;
	return info;
}

drape_status drape_make_dirs(const char* dir, char* err, size_t err_size)
{
	char local[1024];
	if (!dir) {
		set_err(err, err_size, "drape_make_dirs: no folder");
		return DRAPE_ERROR_INVALID;
	}
	if (output_make_dirs(dir, local, sizeof local)) return DRAPE_OK;
	set_err(err, err_size, local);
	return DRAPE_ERROR_IO;
}

drape_status drape_parse_formats(const char* text, unsigned* formats, char* err, size_t err_size)
{
	char local[512];
	if (!text || !caches_parse_formats(text, formats, local, sizeof local)) {
		set_err(err, err_size, text ? local : "no formats given");
		return DRAPE_ERROR_INVALID;
	}
	return DRAPE_OK;
}

/* The writer is the caches of `drape run` under a public name. */
struct drape_writer {
	caches* c;
};

drape_writer* drape_writer_create(const char* dir, unsigned formats, const drape_world* world, double fps,
				  int32_t max_frames, char* err, size_t err_size)
{
	char local[1024];
	if (!dir || !world) {
		set_err(err, err_size, "drape_writer_create: no folder or no world");
		return NULL;
	}
	drape_writer* w = malloc(sizeof *w);
	if (!w) {
		set_err(err, err_size, "out of memory");
		return NULL;
	}
	w->c = caches_begin(dir, formats, world, fps, max_frames, local, sizeof local);
	if (!w->c) {
		set_err(err, err_size, local);
		free(w);
		return NULL;
	}
	return w;
}

drape_status drape_writer_add_frame(drape_writer* writer, int32_t frame, const drape_world* world, char* err,
				    size_t err_size)
{
	char local[1024];
	if (caches_add_frame(writer->c, frame, world, local, sizeof local)) return DRAPE_OK;
	set_err(err, err_size, local);
	return DRAPE_ERROR_IO;
}

drape_status drape_writer_finish(drape_writer* writer, char* err, size_t err_size)
{
	if (!writer) return DRAPE_OK;
	char local[1024];
	bool ok = caches_finish(writer->c, local, sizeof local);
	free(writer);
	if (ok) return DRAPE_OK;
	set_err(err, err_size, local);
	return DRAPE_ERROR_IO;
}
