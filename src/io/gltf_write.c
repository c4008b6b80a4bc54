/* Binary glTF 2.0 writer (Khronos glTF 2.0 specification: GLB container, accessors, morph targets,
 * animations). The cloth's motion is stored as morph targets, one per frame after the first,
 * holding displacements from frame 0; the animation sets target k's weight to 1 at frame k and
 * all others to 0, with LINEAR interpolation, so players blend consecutive frames in between.
 * That is what Blender's and three.js's importers turn into shape keys / morph attributes.
 * The weights (frames x targets values, nearly all zero) are a sparse accessor: N values instead
 * of N^2. Axes: drape scenes are Z-up; glTF is Y-up, so (x, y, z) is stored as (x, z, -y), which
 * importers turn back into Blender's Z-up (x, y, z). UV: glTF's t runs down the image, so the
 * rest (u, v) is stored as (u, 1 - v), which importers turn back into the OBJ's (u, v). */
#define _POSIX_C_SOURCE 200809L
#include "gltf_write.h"

#include "../core.h"

#include <cjson/cJSON.h>
#include "le_bytes.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

enum {
	GL_FLOAT = 5126,
	GL_UNSIGNED_INT = 5125,
	GL_ARRAY_BUFFER = 34962,
	GL_ELEMENT_ARRAY_BUFFER = 34963,
	GL_TRIANGLES = 4,
};

typedef struct gobject {
	char* name;
	int32_t vertex_count;   /* drape vertices */
	int32_t count;          /* glTF vertices */
	int32_t triangle_count;
	int32_t* vertex;        /* count: drape vertex of each glTF vertex */
	float* uv;              /* 2 * count, already (u, 1 - v) */
	uint32_t* indices;      /* 3 * triangle_count glTF vertices */
	float* base;            /* 3 * vertex_count: frame 0 in glTF axes */
	float* bounds;          /* 6 * (max_frames + 1): min xyz, max xyz of each frame's data */
	int64_t spool_offset;   /* byte offset of this object's block within a spooled frame */
} gobject;

struct gltf_writer {
	char* path;
	char* tmp;
	gobject* objects;
	int32_t count;
	double fps;
	int32_t first_frame; /* drape's frame number of the base mesh: keyframe k is at (first_frame + k) / fps */
	int32_t max_frames;
	int32_t frames; /* added so far, the base included */
	FILE* spool;    /* displacements of frames 1.. (float32 xyz per drape vertex), unlinked */
	int64_t frame_bytes;
	float* scratch; /* 3 * largest vertex_count */
	unsigned char* bytes; /* 12 * largest glTF count: encoding buffer */
};

typedef struct corner_key {
	int64_t key;
	int32_t corner;
} corner_key;

static int compare_keys(const void* a, const void* b)
{
	const corner_key *x = a, *y = b;
	if (x->key != y->key) return x->key < y->key ? -1 : 1;
	return (x->corner > y->corner) - (x->corner < y->corner);
}

int32_t gltf_split_vertices(const drape_mesh* mesh, int32_t* vertex, int32_t* uv, uint32_t* corner)
{
	int32_t n = 3 * mesh->triangle_count;
	corner_key* keys = malloc((size_t)(n > 0 ? n : 1) * sizeof *keys);
	if (!keys) return -1;
	for (int32_t c = 0; c < n; ++c)
		keys[c] = (corner_key){(int64_t)mesh->triangles[c] * mesh->uv_count + mesh->triangle_uvs[c], c};
	qsort(keys, (size_t)n, sizeof *keys, compare_keys);
	int32_t count = 0;
	for (int32_t k = 0; k < n; ++k) {
		if (k == 0 || keys[k].key != keys[k - 1].key) {
			vertex[count] = mesh->triangles[keys[k].corner];
			uv[count] = mesh->triangle_uvs[keys[k].corner];
			++count;
		}
		corner[keys[k].corner] = (uint32_t)(count - 1);
	}
	free(keys);
	return count;
}

static void free_writer(gltf_writer* w)
{
	if (!w) return;
	for (int32_t o = 0; w->objects && o < w->count; ++o) {
		gobject* g = &w->objects[o];
		free(g->name);
		free(g->vertex);
		free(g->uv);
		free(g->indices);
		free(g->base);
		free(g->bounds);
	}
	free(w->objects);
	if (w->spool) fclose(w->spool);
	free(w->path);
	free(w->tmp);
	free(w->scratch);
	free(w->bytes);
	free(w);
}

void gltf_writer_abort(gltf_writer* w) { free_writer(w); }

/* Upper bound of the JSON text per morph target (accessor, target entry, name). */
#define JSON_BYTES_PER_TARGET 400.0

gltf_writer* gltf_writer_begin(const char* path, const gltf_object* objects, int32_t count, double fps,
			       int32_t first_frame, int32_t max_frames, char* err, size_t err_size)
{
	gltf_writer* w = calloc(1, sizeof *w);
	if (!w || !(w->objects = calloc((size_t)(count > 0 ? count : 1), sizeof *w->objects))) {
		core_fail(err, err_size, "%s: out of memory", path);
		free(w);
		return NULL;
	}
	w->count = count;
	w->fps = fps;
	w->first_frame = first_frame;
	w->max_frames = max_frames;
	w->path = core_concat(path, "");
	w->tmp = core_concat(path, ".tmp");
	bool ok = w->path && w->tmp;
	int32_t largest = 1, largest_split = 1;
	double bytes = 12.0 + 20.0 + 4096.0 + 12.0 * (max_frames + 1);
	for (int32_t o = 0; ok && o < count; ++o) {
		const drape_mesh* m = objects[o].mesh;
		gobject* g = &w->objects[o];
		int32_t n = 3 * m->triangle_count;
		g->name = core_concat(objects[o].name ? objects[o].name : "cloth", "");
		g->vertex = malloc((size_t)(n > 0 ? n : 1) * sizeof *g->vertex);
		int32_t* uv_index = malloc((size_t)(n > 0 ? n : 1) * sizeof *uv_index);
		g->indices = malloc((size_t)(n > 0 ? n : 1) * sizeof *g->indices);
		g->base = malloc(3 * (size_t)m->vertex_count * sizeof *g->base);
		g->bounds = malloc(6 * ((size_t)max_frames + 1) * sizeof *g->bounds);
		ok = g->name && g->vertex && uv_index && g->indices && g->base && g->bounds;
		if (ok) g->count = gltf_split_vertices(m, g->vertex, uv_index, g->indices);
		if (ok && g->count >= 0) g->uv = malloc(2 * (size_t)(g->count > 0 ? g->count : 1) * sizeof *g->uv);
		ok = ok && g->count >= 0 && g->uv;
		for (int32_t k = 0; ok && k < g->count; ++k) {
			g->uv[2 * k] = (float)m->uvs[2 * uv_index[k]];
			g->uv[2 * k + 1] = (float)(1.0 - m->uvs[2 * uv_index[k] + 1]);
		}
		free(uv_index);
		if (!ok) break;
		g->vertex_count = m->vertex_count;
		g->triangle_count = m->triangle_count;
		g->spool_offset = w->frame_bytes;
		w->frame_bytes += 12 * (int64_t)m->vertex_count;
		if (m->vertex_count > largest) largest = m->vertex_count;
		if (g->count > largest_split) largest_split = g->count;
		bytes += 20.0 * g->count + 12.0 * g->triangle_count + 1024.0;
		bytes += (double)max_frames * (12.0 * g->count + JSON_BYTES_PER_TARGET + 8.0);
	}
	if (ok) {
		w->scratch = malloc(3 * (size_t)largest * sizeof *w->scratch);
		w->bytes = malloc(12 * (size_t)largest_split);
		ok = w->scratch && w->bytes;
	}
	if (!ok) {
		core_fail(err, err_size, "%s: out of memory", path);
		free_writer(w);
		return NULL;
	}
	if (bytes > 4294967295.0) {
		core_fail(err, err_size,
		     "%s: %d frames would make a GLB of about %.1f GiB, more than the format's 4 GiB; "
		     "write fewer frames or use the obj or pc2 format",
		     path, (int)max_frames, bytes / 1073741824.0);
		free_writer(w);
		return NULL;
	}
	return w;
}

static void to_gltf(const double* x, float* out)
{
	out[0] = (float)x[0];
	out[1] = (float)x[2];
	out[2] = (float)-x[1];
}

/* min/max over the glTF vertices of data (3 floats per drape vertex). */
static void bounds_of(const gobject* g, const float* data, float* b)
{
	for (int c = 0; c < 3; ++c) {
		b[c] = g->count ? INFINITY : 0.0f;
		b[3 + c] = g->count ? -INFINITY : 0.0f;
	}
	for (int32_t k = 0; k < g->count; ++k) {
		const float* p = data + 3 * g->vertex[k];
		for (int c = 0; c < 3; ++c) {
			if (p[c] < b[c]) b[c] = p[c];
			if (p[c] > b[3 + c]) b[3 + c] = p[c];
		}
	}
}

bool gltf_writer_add_frame(gltf_writer* w, const double* const* positions, char* err, size_t err_size)
{
	if (w->frames > w->max_frames) return core_fail(err, err_size, "%s: more frames than announced (%d)", w->path, (int)w->max_frames + 1);
	if (w->frames == 0) {
		for (int32_t o = 0; o < w->count; ++o) {
			gobject* g = &w->objects[o];
			for (int32_t i = 0; i < g->vertex_count; ++i) to_gltf(positions[o] + 3 * i, g->base + 3 * i);
			bounds_of(g, g->base, g->bounds);
		}
		++w->frames;
		return true;
	}
	if (!w->spool) {
		/* Created next to the output and unlinked at once: it vanishes with the process. */
		char* name = core_concat(w->path, ".frames.tmp");
		if (!name) return core_fail(err, err_size, "%s: out of memory", w->path);
		w->spool = fopen(name, "w+b");
		int saved = errno;
		if (w->spool) remove(name);
		free(name);
		if (!w->spool) return core_fail(err, err_size, "%s: cannot create the frame spool: %s", w->path, strerror(saved));
	}
	for (int32_t o = 0; o < w->count; ++o) {
		gobject* g = &w->objects[o];
		/* Stored displacement d = x - base, rounded once; a reader's base + d is within one
		 * float rounding of x. */
		for (int32_t i = 0; i < g->vertex_count; ++i) {
			const double* x = positions[o] + 3 * i;
			const float* b = g->base + 3 * i;
			w->scratch[3 * i] = (float)(x[0] - (double)b[0]);
			w->scratch[3 * i + 1] = (float)(x[2] - (double)b[1]);
			w->scratch[3 * i + 2] = (float)(-x[1] - (double)b[2]);
		}
		bounds_of(g, w->scratch, g->bounds + 6 * w->frames);
		size_t n = 3 * (size_t)g->vertex_count;
		if (fwrite(w->scratch, sizeof *w->scratch, n, w->spool) != n)
			return core_fail(err, err_size, "%s: cannot write the frame spool: %s", w->path, strerror(errno));
	}
	++w->frames;
	return true;
}

/* ---------------------------------------------------------------------------------------------
 * The JSON chunk. */

static int add_view(cJSON* views, int64_t* offset, int64_t length, int target)
{
	cJSON* v = cJSON_CreateObject();
	cJSON_AddNumberToObject(v, "buffer", 0);
	cJSON_AddNumberToObject(v, "byteOffset", (double)*offset);
	cJSON_AddNumberToObject(v, "byteLength", (double)length);
	if (target) cJSON_AddNumberToObject(v, "target", target);
	cJSON_AddItemToArray(views, v);
	*offset += length;
	return cJSON_GetArraySize(views) - 1;
}

static cJSON* add_accessor(cJSON* accessors, int view, int64_t byte_offset, int component, int64_t count, const char* type)
{
	cJSON* a = cJSON_CreateObject();
	if (view >= 0) cJSON_AddNumberToObject(a, "bufferView", view);
	if (byte_offset) cJSON_AddNumberToObject(a, "byteOffset", (double)byte_offset);
	cJSON_AddNumberToObject(a, "componentType", component);
	cJSON_AddNumberToObject(a, "count", (double)count);
	cJSON_AddStringToObject(a, "type", type);
	cJSON_AddItemToArray(accessors, a);
	return a;
}

/* A float as a JSON number that parses back to exactly its value: cJSON's own printing may stop at
 * 15 digits, which need not round-trip, and min/max must equal the data exactly. */
static cJSON* exact_array(const float* v, int n)
{
	char text[160];
	int len = 0;
	text[len++] = '[';
	for (int c = 0; c < n; ++c) len += snprintf(text + len, sizeof text - (size_t)len, "%s%.17g", c ? "," : "", (double)v[c]);
	snprintf(text + len, sizeof text - (size_t)len, "]");
	return cJSON_CreateRaw(text);
}

static void add_bounds(cJSON* a, const float* b, int n)
{
	cJSON_AddItemToObject(a, "min", exact_array(b, n));
	cJSON_AddItemToObject(a, "max", exact_array(b + 3, n));
}

/* Builds the JSON; *bin_length receives the BIN chunk's length. */
static char* build_json(const gltf_writer* w, int64_t* bin_length)
{
	cJSON* root = cJSON_CreateObject();
	cJSON* asset = cJSON_AddObjectToObject(root, "asset");
	cJSON_AddStringToObject(asset, "version", "2.0");
	cJSON_AddStringToObject(asset, "generator", "drape " DRAPE_VERSION_STRING);
	cJSON_AddNumberToObject(root, "scene", 0);
	cJSON* scenes = cJSON_AddArrayToObject(root, "scenes");
	cJSON* scene = cJSON_CreateObject();
	cJSON_AddItemToArray(scenes, scene);
	cJSON* scene_nodes = cJSON_AddArrayToObject(scene, "nodes");
	cJSON* nodes = cJSON_AddArrayToObject(root, "nodes");
	cJSON* meshes = cJSON_AddArrayToObject(root, "meshes");
	cJSON* accessors = cJSON_AddArrayToObject(root, "accessors");
	cJSON* views = cJSON_AddArrayToObject(root, "bufferViews");
	int32_t targets = w->frames - 1;
	int64_t offset = 0;
	for (int32_t o = 0; o < w->count; ++o) {
		const gobject* g = &w->objects[o];
		cJSON_AddItemToArray(scene_nodes, cJSON_CreateNumber(o));
		cJSON* node = cJSON_CreateObject();
		cJSON_AddStringToObject(node, "name", g->name);
		cJSON_AddNumberToObject(node, "mesh", o);
		cJSON_AddItemToArray(nodes, node);

		int vpos = add_view(views, &offset, 12 * (int64_t)g->count, GL_ARRAY_BUFFER);
		int vuv = add_view(views, &offset, 8 * (int64_t)g->count, GL_ARRAY_BUFFER);
		int vidx = add_view(views, &offset, 12 * (int64_t)g->triangle_count, GL_ELEMENT_ARRAY_BUFFER);
		int apos = cJSON_GetArraySize(accessors);
		add_bounds(add_accessor(accessors, vpos, 0, GL_FLOAT, g->count, "VEC3"), g->bounds, 3);
		add_accessor(accessors, vuv, 0, GL_FLOAT, g->count, "VEC2");
		add_accessor(accessors, vidx, 0, GL_UNSIGNED_INT, 3 * (int64_t)g->triangle_count, "SCALAR");

		cJSON* mesh = cJSON_CreateObject();
		cJSON_AddStringToObject(mesh, "name", g->name);
		cJSON* prims = cJSON_AddArrayToObject(mesh, "primitives");
		cJSON* prim = cJSON_CreateObject();
		cJSON_AddItemToArray(prims, prim);
		cJSON* attrs = cJSON_AddObjectToObject(prim, "attributes");
		cJSON_AddNumberToObject(attrs, "POSITION", apos);
		cJSON_AddNumberToObject(attrs, "TEXCOORD_0", apos + 1);
		cJSON_AddNumberToObject(prim, "indices", apos + 2);
		cJSON_AddNumberToObject(prim, "mode", GL_TRIANGLES);
		if (targets > 0) {
			int vt = add_view(views, &offset, 12 * (int64_t)g->count * targets, GL_ARRAY_BUFFER);
			/* Several accessors share this view, so the spec requires its stride. */
			cJSON_AddNumberToObject(cJSON_GetArrayItem(views, vt), "byteStride", 12);
			cJSON* tlist = cJSON_AddArrayToObject(prim, "targets");
			cJSON* extras = cJSON_AddObjectToObject(mesh, "extras");
			cJSON* names = cJSON_AddArrayToObject(extras, "targetNames");
			for (int32_t k = 1; k <= targets; ++k) {
				cJSON* t = cJSON_CreateObject();
				cJSON_AddNumberToObject(t, "POSITION", cJSON_GetArraySize(accessors));
				cJSON_AddItemToArray(tlist, t);
				add_bounds(add_accessor(accessors, vt, 12 * (int64_t)g->count * (k - 1), GL_FLOAT, g->count, "VEC3"),
					   g->bounds + 6 * k, 3);
				char name[32];
				snprintf(name, sizeof name, "frame_%04d", (int)(w->first_frame + k));
				cJSON_AddItemToArray(names, cJSON_CreateString(name));
			}
		}
		cJSON_AddItemToArray(meshes, mesh);
	}
	if (targets > 0) {
		/* Times first/fps, (first + 1)/fps, ...; weights: keyframe k (k >= 1) has target k - 1 at 1,
		 * the rest 0. */
		int vtime = add_view(views, &offset, 4 * (int64_t)(targets + 1), 0);
		int vsi = add_view(views, &offset, 4 * (int64_t)targets, 0);
		int vsv = add_view(views, &offset, 4 * (int64_t)targets, 0);
		int atime = cJSON_GetArraySize(accessors);
		cJSON* time = add_accessor(accessors, vtime, 0, GL_FLOAT, targets + 1, "SCALAR");
		float first = (float)(w->first_frame / w->fps), last = (float)((w->first_frame + targets) / w->fps);
		cJSON_AddItemToObject(time, "min", exact_array(&first, 1));
		cJSON_AddItemToObject(time, "max", exact_array(&last, 1));
		cJSON* weights = add_accessor(accessors, -1, 0, GL_FLOAT, (int64_t)(targets + 1) * targets, "SCALAR");
		cJSON* sparse = cJSON_AddObjectToObject(weights, "sparse");
		cJSON_AddNumberToObject(sparse, "count", targets);
		cJSON* si = cJSON_AddObjectToObject(sparse, "indices");
		cJSON_AddNumberToObject(si, "bufferView", vsi);
		cJSON_AddNumberToObject(si, "componentType", GL_UNSIGNED_INT);
		cJSON* sv = cJSON_AddObjectToObject(sparse, "values");
		cJSON_AddNumberToObject(sv, "bufferView", vsv);

		cJSON* anims = cJSON_AddArrayToObject(root, "animations");
		cJSON* anim = cJSON_CreateObject();
		cJSON_AddItemToArray(anims, anim);
		cJSON_AddStringToObject(anim, "name", "drape");
		cJSON* samplers = cJSON_AddArrayToObject(anim, "samplers");
		cJSON* channels = cJSON_AddArrayToObject(anim, "channels");
		for (int32_t o = 0; o < w->count; ++o) {
			cJSON* s = cJSON_CreateObject();
			cJSON_AddNumberToObject(s, "input", atime);
			cJSON_AddNumberToObject(s, "output", atime + 1);
			cJSON_AddStringToObject(s, "interpolation", "LINEAR");
			cJSON_AddItemToArray(samplers, s);
			cJSON* c = cJSON_CreateObject();
			cJSON_AddNumberToObject(c, "sampler", o);
			cJSON* t = cJSON_AddObjectToObject(c, "target");
			cJSON_AddNumberToObject(t, "node", o);
			cJSON_AddStringToObject(t, "path", "weights");
			cJSON_AddItemToArray(channels, c);
		}
	}
	cJSON* buffers = cJSON_AddArrayToObject(root, "buffers");
	cJSON* buffer = cJSON_CreateObject();
	cJSON_AddNumberToObject(buffer, "byteLength", (double)offset);
	cJSON_AddItemToArray(buffers, buffer);
	*bin_length = offset;
	char* text = cJSON_PrintUnformatted(root);
	cJSON_Delete(root);
	return text;
}

/* ---------------------------------------------------------------------------------------------
 * The BIN chunk, in the order build_json laid out its views. */

static bool write_all(FILE* f, const void* p, size_t n) { return fwrite(p, 1, n, f) == n; }

static bool write_object(gltf_writer* w, const gobject* g, FILE* f)
{
	unsigned char* b = w->bytes;
	for (int32_t k = 0; k < g->count; ++k)
		for (int c = 0; c < 3; ++c) le_put_f32(b + 12 * k + 4 * c, g->base[3 * g->vertex[k] + c]);
	if (!write_all(f, b, 12 * (size_t)g->count)) return false;
	for (int32_t k = 0; k < g->count; ++k) {
		le_put_f32(b + 8 * k, g->uv[2 * k]);
		le_put_f32(b + 8 * k + 4, g->uv[2 * k + 1]);
	}
	if (!write_all(f, b, 8 * (size_t)g->count)) return false;
	for (int32_t t = 0; t < g->triangle_count; ++t) {
		unsigned char tri[12];
		for (int c = 0; c < 3; ++c) le_put_u32(tri + 4 * c, g->indices[3 * t + c]);
		if (!write_all(f, tri, sizeof tri)) return false;
	}
	for (int32_t k = 1; k < w->frames; ++k) {
		size_t n = 3 * (size_t)g->vertex_count;
		if (fseeko(w->spool, (off_t)((k - 1) * w->frame_bytes + g->spool_offset), SEEK_SET) != 0 ||
		    fread(w->scratch, sizeof *w->scratch, n, w->spool) != n)
			return false;
		for (int32_t v = 0; v < g->count; ++v)
			for (int c = 0; c < 3; ++c) le_put_f32(b + 12 * v + 4 * c, w->scratch[3 * g->vertex[v] + c]);
		if (!write_all(f, b, 12 * (size_t)g->count)) return false;
	}
	return true;
}

static bool write_animation(const gltf_writer* w, FILE* f)
{
	int32_t targets = w->frames - 1;
	unsigned char b[4];
	for (int32_t k = 0; k <= targets; ++k) {
		le_put_f32(b, (float)((w->first_frame + k) / w->fps));
		if (!write_all(f, b, 4)) return false;
	}
	for (int32_t k = 1; k <= targets; ++k) {
		le_put_u32(b, (uint32_t)((int64_t)k * targets + (k - 1)));
		if (!write_all(f, b, 4)) return false;
	}
	for (int32_t k = 1; k <= targets; ++k) {
		le_put_f32(b, 1.0f);
		if (!write_all(f, b, 4)) return false;
	}
	return true;
}

bool gltf_writer_finish(gltf_writer* w, char* err, size_t err_size)
{
	if (w->frames == 0) {
		core_fail(err, err_size, "%s: no frames to write", w->path);
		free_writer(w);
		return false;
	}
	int64_t bin_length = 0;
	char* json = build_json(w, &bin_length);
	if (!json) {
		core_fail(err, err_size, "%s: out of memory", w->path);
		free_writer(w);
		return false;
	}
	size_t json_length = strlen(json);
	size_t json_padded = (json_length + 3) & ~(size_t)3;
	int64_t total = 12 + 8 + (int64_t)json_padded + 8 + bin_length;
	bool ok = total <= 0xffffffffLL;
	if (!ok) core_fail(err, err_size, "%s: the GLB would exceed 4 GiB", w->path);
	FILE* f = ok ? fopen(w->tmp, "wb") : NULL;
	if (ok && !f) {
		core_fail(err, err_size, "%s: cannot create: %s", w->tmp, strerror(errno));
		ok = false;
	}
	if (f) {
		unsigned char h[20];
		memcpy(h, "glTF", 4);
		le_put_u32(h + 4, 2);
		le_put_u32(h + 8, (uint32_t)total);
		le_put_u32(h + 12, (uint32_t)json_padded);
		memcpy(h + 16, "JSON", 4);
		ok = write_all(f, h, sizeof h) && write_all(f, json, json_length) &&
		     write_all(f, "   ", json_padded - json_length);
		le_put_u32(h, (uint32_t)bin_length);
		memcpy(h + 4, "BIN\0", 4);
		ok = ok && write_all(f, h, 8);
		for (int32_t o = 0; ok && o < w->count; ++o) ok = write_object(w, &w->objects[o], f);
		if (ok && w->frames > 1) ok = write_animation(w, f);
		/* Each view is a multiple of 4 bytes long, so the BIN chunk needs no padding. */
		int saved = errno;
		ok = fflush(f) == 0 && !ferror(f) && ok;
		ok = fclose(f) == 0 && ok;
		if (!ok) core_fail(err, err_size, "%s: write failed: %s", w->tmp, strerror(saved ? saved : EIO));
		else if (rename(w->tmp, w->path) != 0) {
			core_fail(err, err_size, "%s: cannot rename onto %s: %s", w->tmp, w->path, strerror(errno));
			ok = false;
		}
		if (!ok) remove(w->tmp);
	}
	cJSON_free(json);
	free_writer(w);
	return ok;
}
