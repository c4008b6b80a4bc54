/* Writes every output format of a run frame by frame. File names: frame_NNNN.obj (obj);
 * cache_NAME.pc2 with its rest mesh cache_NAME.obj per cloth (pc2; NAME is the cloth's name with
 * characters outside [A-Za-z0-9._-] replaced by '_'); animation.glb (glb); with obj, every animated
 * mesh solid (a character, OBJ frames or keyframed poses) as solid_NAME_NNNN.obj with normals; with
 * pc2, solid_NAME.pc2 and its rest solid_NAME.obj; in animation.glb and .usda each is its own node.
 * A run that can be resumed also keeps checkpoint.frames, the positions PC2, glTF and USD are
 * rebuilt from. A garment's seams change its vertex count as they merge, so PC2, glTF and USD start
 * at the first frame with every seam merged, with that frame number in the file (docs/caches.md,
 * "Garments"); OBJ frames start at frame 0. */
#include "caches.h"

#include "gltf_write.h"
#include "obj_write.h"
#include "pc2_write.h"
#include "usda_write.h"

#include "../collide/solid.h"
#include "../core.h"
#include "../world_data.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define GLB_NAME "animation.glb"
#define USDA_NAME "animation.usda"
/* Every frame's positions of every entry, as doubles, for a resumed run to rebuild the point
 * caches, the glTF and the USD layer from (docs/reliability.md, "Resume"). */
#define FRAMES_NAME "checkpoint.frames"

struct caches {
	char dir[4096];
	unsigned formats;
	int32_t count;        /* cloths: the first count entries of each array below */
	int32_t total;        /* cloths, then the animated mesh solids (PC2, glTF, USD only) */
	double** positions;   /* per entry, 3 * vertex_count */
	obj_object* objects;  /* per entry, pointing at positions */
	char (*stems)[256];   /* per entry: "cache_NAME" for cloths, "solid_NAME" for solids */
	pc2_writer** pc2;     /* per entry, created at frame 0 */
	drape_mesh* solid_meshes; /* total - count: each solid's triangles with one zero uv per vertex */
	int32_t* solid_index;     /* total - count: the world's solid index */
	gltf_writer* glb;
	usda_writer* usda;
	double fps;
	int max_frames;
	int first; /* the frame PC2, glTF and USD start at, once every seam has merged; -1 before */
	FILE* frames; /* FRAMES_NAME while a resumable run writes PC2, glTF or USD; else NULL */
	int64_t frame_bytes;
	bool broken;
};

bool caches_parse_formats(const char* text, unsigned* formats, char* err, size_t err_size)
{
	static const char* const names[] = {"obj", "pc2", "glb", "usda"};
	unsigned bits = 0;
	const char* p = text;
	for (;;) {
		const char* end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		unsigned bit = 0;
		for (unsigned k = 0; k < 4; ++k)
			if (n == strlen(names[k]) && strncmp(p, names[k], n) == 0) bit = 1u << k;
		if (!bit) {
			snprintf(err, err_size, "--format: unknown format '%.*s' in '%s' (choose from obj, pc2, glb, usda, comma-separated)",
				 (int)n, p, text);
			return false;
		}
		bits |= bit;
		if (!end) break;
		p = end + 1;
	}
	*formats = bits;
	return true;
}

static void cache_stem(const char* name, char* out, size_t size)
{
	snprintf(out, size, "cache_%s", name);
	for (char* c = out + 6; *c; ++c)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '.' ||
		      *c == '-' || *c == '_'))
			*c = '_';
}

/* Stems for every cloth, made unique by appending _INDEX where two names sanitise alike. */
static void cache_stems(const drape_world* world, char (*stems)[256], int32_t count)
{
	for (int32_t i = 0; i < count; ++i) {
		cache_stem(drape_cloth_name(world, (drape_cloth_id){i}), stems[i], sizeof stems[i]);
		for (int32_t k = 0; k < i; ++k)
			if (strcmp(stems[k], stems[i]) == 0) {
				size_t n = strlen(stems[i]);
				snprintf(stems[i] + (n < 240 ? n : 240), 16, "_%d", (int)i);
				break;
			}
	}
}

static bool solid_is_animated_mesh(const solid_data* s)
{
	return s->kind == DRAPE_SOLID_MESH && (s->character || s->frame_count > 0 || s->pose_count > 0);
}

static int32_t animated_solid_count(const drape_world* world)
{
	int32_t n = 0;
	for (int32_t k = 0; k < world->model.solid_count; ++k) n += solid_is_animated_mesh(&world->model.solids[k]);
	return n;
}

static void free_caches(caches* c)
{
	if (!c) return;
	for (int32_t i = 0; i < c->total; ++i) {
		if (c->positions) free(c->positions[i]);
		if (c->pc2) pc2_writer_abort(c->pc2[i]);
	}
	for (int32_t k = 0; c->solid_meshes && k < c->total - c->count; ++k) {
		free(c->solid_meshes[k].uvs);
		free(c->solid_meshes[k].triangle_uvs);
	}
	free(c->solid_meshes);
	free(c->solid_index);
	gltf_writer_abort(c->glb);
	usda_writer_abort(c->usda);
	if (c->frames) fclose(c->frames);
	free(c->positions);
	free(c->objects);
	free(c->stems);
	free(c->pc2);
	free(c);
}

/* The size of one frame in checkpoint.frames with the meshes as they are now. */
static int64_t frame_bytes_now(const caches* c)
{
	int64_t bytes = 0;
	for (int32_t i = 0; i < c->total; ++i) bytes += 3 * (int64_t)c->objects[i].mesh->vertex_count * (int64_t)sizeof(double);
	return bytes;
}

/* The glTF and USD writers for frames from `first` on, with the cloths' meshes as they are now,
 * and the size of one frame in checkpoint.frames. */
static bool start_writers(caches* c, int first, char* err, size_t err_size)
{
	const int32_t n = c->total;
	c->frame_bytes = frame_bytes_now(c);
	char path[4200];
	if (c->formats & FORMAT_GLB) {
		gltf_object objects[n > 0 ? n : 1];
		for (int32_t i = 0; i < n; ++i) objects[i] = (gltf_object){c->objects[i].name, c->objects[i].mesh};
		snprintf(path, sizeof path, "%s/%s", c->dir, GLB_NAME);
		c->glb = gltf_writer_begin(path, objects, n, c->fps, first, c->max_frames - first, err, err_size);
		if (!c->glb) return false;
	}
	if (c->formats & FORMAT_USDA) {
		usda_object objects[n > 0 ? n : 1];
		for (int32_t i = 0; i < n; ++i) objects[i] = (usda_object){c->objects[i].name, c->objects[i].mesh};
		snprintf(path, sizeof path, "%s/%s", c->dir, USDA_NAME);
		c->usda = usda_writer_begin(path, objects, n, c->fps, first, err, err_size);
		if (!c->usda) return false;
	}
	c->first = first;
	return true;
}

static bool seams_open(const drape_world* world)
{
	for (int32_t k = 0; k < drape_seam_count(world); ++k)
		if (!drape_seam_merged(world, (drape_seam_id){k})) return true;
	return false;
}

caches* caches_begin(const char* dir, unsigned formats, const drape_world* world, double fps, int max_frames, char* err,
		     size_t err_size)
{
	caches* c = calloc(1, sizeof *c);
	int32_t n = drape_cloth_count(world);
	int32_t solids = (formats & (FORMAT_PC2 | FORMAT_GLB | FORMAT_USDA)) ? animated_solid_count(world) : 0;
	size_t slots = (size_t)(n + solids > 0 ? n + solids : 1);
	if (c) {
		c->count = n;
		c->total = n;
		c->solid_meshes = calloc((size_t)(solids > 0 ? solids : 1), sizeof *c->solid_meshes);
		c->solid_index = calloc((size_t)(solids > 0 ? solids : 1), sizeof *c->solid_index);
		c->formats = formats;
		snprintf(c->dir, sizeof c->dir, "%s", dir);
		c->positions = calloc(slots, sizeof *c->positions);
		c->objects = calloc(slots, sizeof *c->objects);
		c->stems = calloc(slots, sizeof *c->stems);
		c->pc2 = calloc(slots, sizeof *c->pc2);
	}
	bool ok = c && c->positions && c->objects && c->stems && c->pc2 && c->solid_meshes && c->solid_index;
	for (int32_t i = 0; ok && i < n; ++i) {
		drape_cloth_id id = {i};
		c->positions[i] = malloc(3 * (size_t)drape_cloth_vertex_count(world, id) * sizeof(double));
		ok = c->positions[i] != NULL;
		if (ok) c->objects[i] = (obj_object){drape_cloth_name(world, id), drape_cloth_mesh(world, id), c->positions[i]};
	}
	if (ok) cache_stems(world, c->stems, n);
	/* The moving bodies follow the cloths: their own node in glTF and USD, their own PC2. */
	for (int32_t k = 0; ok && solids > 0 && k < world->model.solid_count; ++k) {
		const solid_data* sd = &world->model.solids[k];
		if (!solid_is_animated_mesh(sd)) continue;
		int32_t e = c->total, j = e - n;
		drape_mesh* m = &c->solid_meshes[j];
		c->solid_index[j] = k;
		c->total = e + 1;
		m->vertex_count = sd->vertex_count;
		m->triangle_count = sd->triangle_count;
		m->triangles = sd->triangles;
		m->uv_count = sd->vertex_count;
		m->uvs = calloc(2 * (size_t)sd->vertex_count, sizeof *m->uvs);
		m->triangle_uvs = malloc(3 * (size_t)sd->triangle_count * sizeof *m->triangle_uvs);
		c->positions[e] = malloc(3 * (size_t)sd->vertex_count * sizeof(double));
		ok = m->uvs && m->triangle_uvs && c->positions[e];
		if (!ok) break;
		memcpy(m->triangle_uvs, sd->triangles, 3 * (size_t)sd->triangle_count * sizeof *m->triangle_uvs);
		c->objects[e] = (obj_object){sd->name, m, c->positions[e]};
		cache_stem(sd->name, c->stems[e], sizeof c->stems[e]);
		memcpy(c->stems[e], "solid", 5); /* "cache_NAME" -> "solid_NAME" */
	}
	if (!ok) {
		snprintf(err, err_size, "out of memory preparing the output");
		free_caches(c);
		return NULL;
	}
	c->fps = fps;
	c->max_frames = max_frames;
	/* The GLB's size is checked now, before the run, with today's meshes: merging seams only
	 * removes drape vertices, and a merged vertex keeps one glTF vertex per uv, so the count of
	 * glTF vertices is the same and the frames fewer once sewn. */
	const bool sized = !(formats & FORMAT_GLB) || start_writers(c, 0, err, err_size);
	gltf_writer_abort(c->glb);
	usda_writer_abort(c->usda);
	c->glb = NULL;
	c->usda = NULL;
	c->first = -1;
	if (!sized) {
		free_caches(c);
		return NULL;
	}
	return c;
}

/* The animated mesh solids at the world's time, one OBJ (v, vn, f) each: the body moves with the
 * cloth when the frames are imported together (docs/characters.md). */
static bool write_solid_frames(const caches* c, int frame, const drape_world* world, char* err, size_t err_size)
{
	double t = drape_world_time(world);
	bool ok = true;
	for (int32_t k = 0; ok && k < world->model.solid_count; ++k) {
		const solid_data* s = &world->model.solids[k];
		if (!solid_is_animated_mesh(s)) continue;
		vec3* p = malloc((size_t)s->vertex_count * sizeof *p);
		double* x = malloc(3 * (size_t)s->vertex_count * sizeof *x);
		if (!p || !x) {
			free(p), free(x);
			return core_fail(err, err_size, "out of memory writing solid '%s'", s->name);
		}
		solid_mesh_vertices_at(s, t, p);
		for (int32_t v = 0; v < s->vertex_count; ++v) x[3 * v] = p[v].x, x[3 * v + 1] = p[v].y, x[3 * v + 2] = p[v].z;
		drape_mesh m = {0};
		m.vertex_count = s->vertex_count;
		m.triangle_count = s->triangle_count;
		m.triangles = s->triangles;
		obj_object o = {s->name, &m, x};
		char stem[256], path[4600];
		cache_stem(s->name, stem, sizeof stem);
		/* cache_stem prefixes "cache_"; solids are named solid_NAME. */
		snprintf(path, sizeof path, "%s/solid_%s_%04d.obj", c->dir, stem + 6, frame);
		ok = obj_write_objects(path, &o, 1, err, err_size);
		free(p), free(x);
	}
	return ok;
}

/* Frame `frame` (c->first or later) of the point caches, the glTF and the USD layer, from
 * c->positions. */
static bool add_cache_frame(caches* c, int frame, char* err, size_t err_size)
{
	char path[4400];
	bool ok = true;
	for (int32_t i = 0; ok && (c->formats & FORMAT_PC2) && i < c->total; ++i) {
		if (frame == c->first) {
			/* The rest mesh whose vertex order the cache follows: its first frame itself. */
			snprintf(path, sizeof path, "%s/%s.obj", c->dir, c->stems[i]);
			ok = obj_write_objects(path, &c->objects[i], 1, err, err_size);
			snprintf(path, sizeof path, "%s/%s.pc2", c->dir, c->stems[i]);
			if (ok) c->pc2[i] = pc2_writer_begin(path, c->objects[i].mesh->vertex_count, frame, 1.0, err, err_size);
			ok = ok && c->pc2[i];
		}
		if (ok) ok = pc2_writer_add(c->pc2[i], c->positions[i], err, err_size);
	}
	if (ok && c->glb) ok = gltf_writer_add_frame(c->glb, (const double* const*)c->positions, err, err_size);
	if (ok && c->usda) ok = usda_writer_add_frame(c->usda, (const double* const*)c->positions, err, err_size);
	return ok;
}

static bool spooled(const caches* c) { return (c->formats & (FORMAT_PC2 | FORMAT_GLB | FORMAT_USDA)) != 0; }

static void frames_path(const caches* c, char* out, size_t size) { snprintf(out, size, "%s/" FRAMES_NAME, c->dir); }

bool caches_keep_frames(caches* c, char* err, size_t err_size)
{
	if (!spooled(c)) return true;
	char path[4200];
	frames_path(c, path, sizeof path);
	c->frames = fopen(path, "wb");
	return c->frames ? true : core_fail(err, err_size, "%s: cannot create: %s", path, strerror(errno));
}

bool caches_check_resume(const caches* c, int frame, int first, char* err, size_t err_size)
{
	if (!spooled(c)) return true;
	char path[4200];
	frames_path(c, path, sizeof path);
	struct stat st;
	if (stat(path, &st) != 0)
		return core_fail(err, err_size, "%s: cannot open: %s (the frames the caches are rebuilt from)", path, strerror(errno));
	const int held = first >= 0 && first <= frame ? frame + 1 - first : 0;
	if ((int64_t)st.st_size < (int64_t)held * frame_bytes_now(c))
		return core_fail(err, err_size, "%s: holds fewer than the %d frames of the checkpoint", path, held);
	return true;
}

bool caches_resume(caches* c, int frame, int first, char* err, size_t err_size)
{
	if (!spooled(c)) return true;
	char path[4200];
	frames_path(c, path, sizeof path);
	c->frames = fopen(path, "r+b");
	if (!c->frames) return core_fail(err, err_size, "%s: cannot open: %s (the frames the caches are rebuilt from)", path, strerror(errno));
	/* Before the last merge nothing was spooled: the file is cut back to empty below. */
	bool ok = first < 0 || first > frame || start_writers(c, first, err, err_size);
	for (int f = first; ok && first >= 0 && f <= frame; ++f) {
		for (int32_t i = 0; ok && i < c->total; ++i)
			ok = fread(c->positions[i], sizeof(double), 3 * (size_t)c->objects[i].mesh->vertex_count, c->frames) ==
			     3 * (size_t)c->objects[i].mesh->vertex_count;
		if (!ok) return core_fail(err, err_size, "%s: holds fewer than the %d frames of the checkpoint", path, frame + 1 - first);
		ok = add_cache_frame(c, f, err, err_size);
	}
	/* A killed run may have spooled one frame past its checkpoint: cut it off. */
	const off_t kept = first >= 0 && first <= frame ? (off_t)((frame + 1 - first) * c->frame_bytes) : 0;
	if (ok && !(fflush(c->frames) == 0 && ftruncate(fileno(c->frames), kept) == 0 &&
		    fseek(c->frames, 0, SEEK_END) == 0))
		ok = core_fail(err, err_size, "%s: %s", path, strerror(errno));
	if (!ok) c->broken = true;
	return ok;
}

bool caches_add_frame(caches* c, int frame, const drape_world* world, char* err, size_t err_size)
{
	if (c->broken) return false;
	for (int32_t i = 0; i < c->count; ++i) drape_cloth_get_positions(world, (drape_cloth_id){i}, c->positions[i]);
	for (int32_t i = c->count; i < c->total; ++i) {
		const solid_data* sd = &world->model.solids[c->solid_index[i - c->count]];
		vec3* p = malloc((size_t)sd->vertex_count * sizeof *p);
		if (!p) return core_fail(err, err_size, "out of memory writing solid '%s'", sd->name);
		solid_mesh_vertices_at(sd, drape_world_time(world), p);
		for (int32_t v = 0; v < sd->vertex_count; ++v)
			c->positions[i][3 * v] = p[v].x, c->positions[i][3 * v + 1] = p[v].y, c->positions[i][3 * v + 2] = p[v].z;
		free(p);
	}
	char path[4400];
	bool ok = true;
	if (c->formats & FORMAT_OBJ) {
		snprintf(path, sizeof path, "%s/frame_%04d.obj", c->dir, frame);
		ok = obj_write_objects(path, c->objects, c->count, err, err_size) && write_solid_frames(c, frame, world, err, err_size);
	}
	/* PC2, glTF and USD follow one topology: a garment's from the frame its last seam merged. */
	if (ok && spooled(c) && c->first < 0 && !seams_open(world)) ok = start_writers(c, frame, err, err_size);
	if (!(ok && c->first >= 0)) {
		if (!ok) c->broken = true;
		return ok;
	}
	ok = add_cache_frame(c, frame, err, err_size);
	/* Before the frame's checkpoint, so that a checkpoint never names a frame the spool lacks. */
	if (ok && c->frames) {
		bool written = true;
		for (int32_t i = 0; written && i < c->total; ++i)
			written = fwrite(c->positions[i], sizeof(double), 3 * (size_t)c->objects[i].mesh->vertex_count, c->frames) ==
				  3 * (size_t)c->objects[i].mesh->vertex_count;
		if (!(written && fflush(c->frames) == 0))
			ok = core_fail(err, err_size, "%s/" FRAMES_NAME ": write failed: %s", c->dir, strerror(errno));
	}
	if (!ok) c->broken = true;
	return ok;
}

bool caches_finish(caches* c, char* err, size_t err_size)
{
	bool ok = true;
	if (c->frames) {
		fclose(c->frames);
		c->frames = NULL;
	}
	if (!c->broken) {
		for (int32_t i = 0; i < c->total; ++i) {
			if (!c->pc2[i]) continue;
			if (ok) ok = pc2_writer_finish(c->pc2[i], err, err_size);
			else pc2_writer_abort(c->pc2[i]);
			c->pc2[i] = NULL;
		}
		if (c->glb && ok) ok = gltf_writer_finish(c->glb, err, err_size);
		else gltf_writer_abort(c->glb);
		c->glb = NULL;
		if (c->usda && ok) ok = usda_writer_finish(c->usda, err, err_size);
		else usda_writer_abort(c->usda);
		c->usda = NULL;
	}
	free_caches(c);
	return ok;
}

void caches_remove_spool(const char* dir)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/" FRAMES_NAME, dir);
	remove(path);
}

cJSON* caches_outputs_json(unsigned formats, const drape_world* world, int cache_start)
{
	cJSON* o = cJSON_CreateObject();
	cJSON* list = cJSON_AddArrayToObject(o, "formats");
	if (formats & FORMAT_OBJ) cJSON_AddItemToArray(list, cJSON_CreateString("obj"));
	if (formats & FORMAT_PC2) cJSON_AddItemToArray(list, cJSON_CreateString("pc2"));
	if (formats & FORMAT_GLB) cJSON_AddItemToArray(list, cJSON_CreateString("glb"));
	if (formats & FORMAT_USDA) cJSON_AddItemToArray(list, cJSON_CreateString("usda"));
	if (formats & FORMAT_OBJ) cJSON_AddStringToObject(o, "obj", "frame_%04d.obj");
	if (formats & FORMAT_OBJ) cJSON_AddStringToObject(o, "solids", "solid_NAME_%04d.obj");
	if (formats & FORMAT_PC2) {
		int32_t n = drape_cloth_count(world);
		char(*stems)[256] = calloc((size_t)(n > 0 ? n : 1), sizeof *stems);
		cJSON* pc2 = cJSON_AddArrayToObject(o, "pc2");
		if (stems) cache_stems(world, stems, n);
		for (int32_t i = 0; stems && i < n; ++i) {
			char name[300];
			cJSON* e = cJSON_CreateObject();
			cJSON_AddStringToObject(e, "cloth", drape_cloth_name(world, (drape_cloth_id){i}));
			snprintf(name, sizeof name, "%s.pc2", stems[i]);
			cJSON_AddStringToObject(e, "cache", name);
			snprintf(name, sizeof name, "%s.obj", stems[i]);
			cJSON_AddStringToObject(e, "rest", name);
			cJSON_AddItemToArray(pc2, e);
		}
		free(stems);
	}
	if (formats & FORMAT_GLB) cJSON_AddStringToObject(o, "glb", GLB_NAME);
	if (formats & FORMAT_USDA) cJSON_AddStringToObject(o, "usda", USDA_NAME);
	if (formats & (FORMAT_PC2 | FORMAT_GLB | FORMAT_USDA)) {
		if (cache_start >= 0) cJSON_AddNumberToObject(o, "cache_start", cache_start);
		else cJSON_AddNullToObject(o, "cache_start");
	}
	return o;
}

static bool ends_with(const char* s, const char* tail)
{
	size_t n = strlen(s), m = strlen(tail);
	return n >= m && strcmp(s + n - m, tail) == 0;
}

bool caches_owns_file(const char* name)
{
	if (strcmp(name, GLB_NAME) == 0 || strcmp(name, GLB_NAME ".tmp") == 0 || strcmp(name, FRAMES_NAME) == 0) return true;
	if (strncmp(name, USDA_NAME, strlen(USDA_NAME)) == 0) return true; /* the layer, its .tmp and spools */
	if (strncmp(name, "cache_", 6) != 0) return false;
	return ends_with(name, ".pc2") || ends_with(name, ".pc2.tmp") || ends_with(name, ".obj") || ends_with(name, ".obj.tmp");
}
