/* The io suite's export tests: --format parsing, the PC2 writer byte by byte, the split of seam
 * vertices for glTF, and a whole run written in every format and read back here (a small PC2 and
 * GLB reader written for the tests only) against the OBJ frames of the same run: positions to
 * float precision, and the GLB's structure (header, chunks, alignment, views, accessor bounds and
 * min/max, sparse weights, animation times). */
#define _POSIX_C_SOURCE 200809L
#include "test_io.h"

#include "io/caches.h"
#include "io/gltf_write.h"
#include "io/pc2_write.h"
#include "io/scene.h"

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdlib.h>

#ifndef DRAPE_SOURCE_DIR
#error "DRAPE_SOURCE_DIR must name the repository root"
#endif

/* ---------------------------------------------------------------------------------------------
 * Reading back. */

typedef struct blob {
	unsigned char* data;
	size_t size;
} blob;

static blob read_file(const char* path)
{
	blob b = {0};
	FILE* f = fopen(path, "rb");
	if (!f) return b;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	b.data = malloc((size_t)(n > 0 ? n : 1));
	if (b.data && fread(b.data, 1, (size_t)n, f) == (size_t)n) b.size = (size_t)n;
	fclose(f);
	return b;
}

static uint32_t get_u32(const unsigned char* p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static float get_f32(const unsigned char* p)
{
	uint32_t u = get_u32(p);
	float x;
	memcpy(&x, &u, sizeof x);
	return x;
}

static int json_int(const cJSON* o, const char* key, int fallback)
{
	const cJSON* v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsNumber(v) ? v->valueint : fallback;
}

/* ---------------------------------------------------------------------------------------------
 * Formats. */

void test_caches_formats(void)
{
	unsigned f = 0;
	char err[256];
	CHECK(caches_parse_formats("obj", &f, err, sizeof err) && f == FORMAT_OBJ);
	CHECK(caches_parse_formats("glb,pc2", &f, err, sizeof err) && f == (FORMAT_PC2 | FORMAT_GLB));
	CHECK(caches_parse_formats("obj,pc2,glb,obj", &f, err, sizeof err) && f == (FORMAT_OBJ | FORMAT_PC2 | FORMAT_GLB));
	CHECK(!caches_parse_formats("obj,fbx", &f, err, sizeof err));
	CHECK_HAS(err, "unknown format 'fbx'");
	CHECK(!caches_parse_formats("", &f, err, sizeof err));
	CHECK_HAS(err, "unknown format ''");
	CHECK(!caches_parse_formats("obj,", &f, err, sizeof err));
	CHECK(!caches_parse_formats("OBJ", &f, err, sizeof err));
	CHECK(caches_owns_file("animation.glb") && caches_owns_file("cache_a.pc2") && caches_owns_file("cache_a.obj") &&
	      caches_owns_file("cache_a.pc2.tmp"));
	CHECK(!caches_owns_file("mine.pc2") && !caches_owns_file("cache_a.txt") && !caches_owns_file("animation.gltf"));
}

/* ---------------------------------------------------------------------------------------------
 * PC2: the header and samples byte by byte; nothing appears before finish; abort leaves nothing. */

void test_pc2_writer_bytes(void)
{
	scratch s;
	scratch_open(&s);
	char err[256];
	const char* path = scratch_path(&s, "a.pc2");
	pc2_writer* w = pc2_writer_begin(path, 2, 0.0, 1.0, err, sizeof err);
	CHECK(w != NULL);
	if (!w) return;
	const double x0[6] = {1, 2, 3, -4, 5.5, 1e-3};
	const double x1[6] = {0.1, 0.2, 0.3, 7, 8, 9};
	CHECK(pc2_writer_add(w, x0, err, sizeof err));
	CHECK(pc2_writer_add(w, x1, err, sizeof err));
	CHECK(!file_exists(path));
	CHECK(pc2_writer_samples(w) == 2);
	CHECK(pc2_writer_finish(w, err, sizeof err));
	CHECK(file_exists(path) && !file_exists(scratch_path(&s, "a.pc2.tmp")));
	blob b = read_file(path);
	CHECK(b.size == PC2_HEADER_SIZE + 2 * 2 * 12);
	if (b.size == PC2_HEADER_SIZE + 2 * 2 * 12) {
		CHECK(memcmp(b.data, "POINTCACHE2\0", 12) == 0);
		CHECK(get_u32(b.data + 12) == 1);
		CHECK(get_u32(b.data + 16) == 2);
		CHECK(get_f32(b.data + 20) == 0.0f);
		CHECK(get_f32(b.data + 24) == 1.0f);
		CHECK(get_u32(b.data + 28) == 2);
		for (int i = 0; i < 6; ++i) {
			CHECK(get_f32(b.data + 32 + 4 * i) == (float)x0[i]);
			CHECK(get_f32(b.data + 56 + 4 * i) == (float)x1[i]);
		}
	}
	free(b.data);

	w = pc2_writer_begin(scratch_path(&s, "b.pc2"), 2, 0.0, 1.0, err, sizeof err);
	CHECK(w && pc2_writer_add(w, x0, err, sizeof err));
	CHECK(file_exists(scratch_path(&s, "b.pc2.tmp")));
	pc2_writer_abort(w);
	CHECK(!file_exists(scratch_path(&s, "b.pc2.tmp")) && !file_exists(scratch_path(&s, "b.pc2")));

	CHECK(pc2_writer_begin(scratch_path(&s, "none/c.pc2"), 2, 0.0, 1.0, err, sizeof err) == NULL);
	CHECK_HAS(err, "none/c.pc2.tmp: cannot create");
	scratch_close(&s);
}

/* ---------------------------------------------------------------------------------------------
 * Seams: one glTF vertex per distinct (vertex, uv) pair. */

void test_gltf_split_seams(void)
{
	drape_mesh m;
	char err[512];
	CHECK(drape_mesh_load_obj(DRAPE_SOURCE_DIR "/scenes/sewn_panels.obj", 0.01, &m, err, sizeof err) == DRAPE_OK);
	int32_t n = 3 * m.triangle_count;
	int32_t* vertex = malloc((size_t)n * sizeof *vertex);
	int32_t* uv = malloc((size_t)n * sizeof *uv);
	uint32_t* corner = malloc((size_t)n * sizeof *corner);
	int32_t count = gltf_split_vertices(&m, vertex, uv, corner);
	/* Count the distinct pairs independently, and the vertices with more than one uv. */
	int32_t* first_uv = malloc((size_t)m.vertex_count * sizeof *first_uv);
	for (int32_t i = 0; i < m.vertex_count; ++i) first_uv[i] = -1;
	int seam_vertices = 0;
	for (int32_t c = 0; c < n; ++c) {
		int32_t v = m.triangles[c], t = m.triangle_uvs[c];
		if (first_uv[v] < 0) first_uv[v] = t;
		else if (first_uv[v] != t && first_uv[v] >= 0) {
			++seam_vertices;
			first_uv[v] = -2 - first_uv[v]; /* counted once */
		}
	}
	CHECK(seam_vertices > 0);
	CHECK(count > m.vertex_count);
	int distinct = 0;
	for (int32_t k = 0; k < count; ++k) {
		bool seen = false;
		for (int32_t j = 0; j < k; ++j) seen |= vertex[j] == vertex[k] && uv[j] == uv[k];
		distinct += !seen;
		if (k > 0) CHECK(vertex[k] > vertex[k - 1] || (vertex[k] == vertex[k - 1] && uv[k] > uv[k - 1]));
	}
	CHECK(distinct == count);
	bool corners_ok = true;
	for (int32_t c = 0; c < n; ++c)
		corners_ok &= corner[c] < (uint32_t)count && vertex[corner[c]] == m.triangles[c] && uv[corner[c]] == m.triangle_uvs[c];
	CHECK(corners_ok);
	free(vertex);
	free(uv);
	free(corner);
	free(first_uv);
	drape_mesh_free(&m);

	/* A grid has no seams: the glTF vertices are drape's, in the same order. */
	drape_grid_def g = drape_default_grid_def();
	g.resolution[0] = 4;
	g.resolution[1] = 3;
	CHECK(drape_mesh_make_grid(&g, &m, err, sizeof err) == DRAPE_OK);
	n = 3 * m.triangle_count;
	vertex = malloc((size_t)n * sizeof *vertex);
	uv = malloc((size_t)n * sizeof *uv);
	corner = malloc((size_t)n * sizeof *corner);
	count = gltf_split_vertices(&m, vertex, uv, corner);
	CHECK(count == m.vertex_count);
	for (int32_t k = 0; k < count; ++k) CHECK(vertex[k] == k);
	free(vertex);
	free(uv);
	free(corner);
	drape_mesh_free(&m);
}

/* ---------------------------------------------------------------------------------------------
 * A whole run in every format. */

#define RUN_FRAMES 6

static const char* two_cloth_scene =
	"{'gravity': [0, 0, -9.81], 'output': {'fps': 25, 'frames': 6},"
	" 'cloths': ["
	"  {'name': 'tabard', 'mesh': {'file': 'sewn_panels.obj', 'uv_scale': 0.01, 'translate': [0, 0, 0.4]},"
	"   'pins': [{'vertices': [132, 142, 272]}]},"
	"  {'name': 'flag/1 x', 'grid': {'size': [0.3, 0.2], 'resolution': [5, 4], 'center': [0.6, 0.1, 0.5]},"
	"   'pins': [{'corner': 'top_left'}]}"
	" ]}";

typedef struct run_frames {
	int32_t cloths;
	int32_t vertices[2];
	const drape_mesh* meshes[2];
	double* frames[RUN_FRAMES + 1]; /* all cloths' positions, concatenated, from the OBJ frames */
	int32_t total;
} run_frames;

/* Validates the GLB's container and JSON against the spec's rules and returns the parsed JSON
 * (NULL on a structural failure); *bin points into b at the BIN chunk. */
static cJSON* check_glb_structure(const blob* b, const unsigned char** bin, uint32_t* bin_length)
{
	CHECK(b->size >= 28);
	if (b->size < 28) return NULL;
	CHECK(memcmp(b->data, "glTF", 4) == 0);
	CHECK(get_u32(b->data + 4) == 2);
	CHECK(get_u32(b->data + 8) == b->size);
	uint32_t json_length = get_u32(b->data + 12);
	CHECK(memcmp(b->data + 16, "JSON", 4) == 0);
	CHECK(json_length % 4 == 0);
	if (20 + (size_t)json_length + 8 > b->size) {
		CHECK(!"JSON chunk overruns the file");
		return NULL;
	}
	const unsigned char* chunk1 = b->data + 20 + json_length;
	*bin_length = get_u32(chunk1);
	CHECK(memcmp(chunk1 + 4, "BIN\0", 4) == 0);
	CHECK(*bin_length % 4 == 0);
	CHECK(20 + (size_t)json_length + 8 + *bin_length == b->size);
	*bin = chunk1 + 8;
	/* Padding is spaces, and the JSON parses. */
	char* text = malloc(json_length + 1);
	memcpy(text, b->data + 20, json_length);
	text[json_length] = '\0';
	size_t end = strlen(text);
	while (end > 0 && text[end - 1] == ' ') --end;
	CHECK(json_length - end < 4);
	cJSON* root = cJSON_Parse(text);
	free(text);
	CHECK(root != NULL);
	if (!root) return NULL;
	const cJSON* asset = cJSON_GetObjectItem(root, "asset");
	CHECK(asset && strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(asset, "version")), "2.0") == 0);
	const cJSON* buffers = cJSON_GetObjectItem(root, "buffers");
	CHECK(cJSON_GetArraySize(buffers) == 1 && json_int(cJSON_GetArrayItem(buffers, 0), "byteLength", -1) == (int)*bin_length);
	/* Every view inside the buffer and 4-byte aligned; every accessor inside its view. */
	const cJSON* views = cJSON_GetObjectItem(root, "bufferViews");
	const cJSON* v;
	cJSON_ArrayForEach(v, views)
	{
		int off = json_int(v, "byteOffset", 0), len = json_int(v, "byteLength", -1);
		CHECK(off % 4 == 0 && len > 0 && (uint32_t)(off + len) <= *bin_length);
	}
	const cJSON* a;
	cJSON_ArrayForEach(a, cJSON_GetObjectItem(root, "accessors"))
	{
		const char* type = cJSON_GetStringValue(cJSON_GetObjectItem(a, "type"));
		int comps = strcmp(type, "VEC3") == 0 ? 3 : strcmp(type, "VEC2") == 0 ? 2 : 1;
		CHECK(json_int(a, "componentType", 0) == 5126 || json_int(a, "componentType", 0) == 5125);
		int view = json_int(a, "bufferView", -1);
		if (view >= 0) {
			const cJSON* bv = cJSON_GetArrayItem(views, view);
			int off = json_int(a, "byteOffset", 0);
			CHECK(off % 4 == 0);
			CHECK((int64_t)off + (int64_t)json_int(a, "count", 0) * 4 * comps <= json_int(bv, "byteLength", 0));
		} else {
			CHECK(cJSON_GetObjectItem(a, "sparse") != NULL);
		}
	}
	return root;
}

/* Decodes accessor `index` (float or uint, dense or sparse over zeros) into doubles. */
static double* read_accessor(const cJSON* root, const unsigned char* bin, int index, int* count, int* comps)
{
	const cJSON* a = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "accessors"), index);
	const cJSON* views = cJSON_GetObjectItem(root, "bufferViews");
	const char* type = cJSON_GetStringValue(cJSON_GetObjectItem(a, "type"));
	*comps = strcmp(type, "VEC3") == 0 ? 3 : strcmp(type, "VEC2") == 0 ? 2 : 1;
	*count = json_int(a, "count", 0);
	bool is_float = json_int(a, "componentType", 0) == 5126;
	size_t n = (size_t)*count * (size_t)*comps;
	double* out = calloc(n > 0 ? n : 1, sizeof *out);
	int view = json_int(a, "bufferView", -1);
	if (view >= 0) {
		const unsigned char* p = bin + json_int(cJSON_GetArrayItem(views, view), "byteOffset", 0) + json_int(a, "byteOffset", 0);
		for (size_t i = 0; i < n; ++i) out[i] = is_float ? get_f32(p + 4 * i) : get_u32(p + 4 * i);
	}
	const cJSON* sparse = cJSON_GetObjectItem(a, "sparse");
	if (sparse) {
		int m = json_int(sparse, "count", 0);
		const cJSON* si = cJSON_GetObjectItem(sparse, "indices");
		const cJSON* sv = cJSON_GetObjectItem(sparse, "values");
		CHECK(json_int(si, "componentType", 0) == 5125);
		const unsigned char* ip = bin + json_int(cJSON_GetArrayItem(views, json_int(si, "bufferView", -1)), "byteOffset", 0);
		const unsigned char* vp = bin + json_int(cJSON_GetArrayItem(views, json_int(sv, "bufferView", -1)), "byteOffset", 0);
		uint32_t previous = 0;
		for (int k = 0; k < m; ++k) {
			uint32_t at = get_u32(ip + 4 * k);
			CHECK(at < (uint32_t)*count && (k == 0 || at > previous));
			previous = at;
			for (int c = 0; c < *comps && at < (uint32_t)*count; ++c)
				out[(size_t)at * *comps + c] = get_f32(vp + 4 * ((size_t)k * *comps + c));
		}
	}
	return out;
}

/* min/max present and equal to the data's (the spec requires them on POSITION accessors). */
static void check_min_max(const cJSON* root, int index, const double* data, int count)
{
	const cJSON* a = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "accessors"), index);
	const cJSON* mn = cJSON_GetObjectItem(a, "min");
	const cJSON* mx = cJSON_GetObjectItem(a, "max");
	CHECK(cJSON_GetArraySize(mn) == 3 && cJSON_GetArraySize(mx) == 3);
	for (int c = 0; c < 3 && mn && mx; ++c) {
		double lo = INFINITY, hi = -INFINITY;
		for (int k = 0; k < count; ++k) {
			lo = fmin(lo, data[3 * k + c]);
			hi = fmax(hi, data[3 * k + c]);
		}
		CHECK(cJSON_GetArrayItem(mn, c)->valuedouble == lo);
		CHECK(cJSON_GetArrayItem(mx, c)->valuedouble == hi);
	}
}

/* |a - b| within float rounding of the coordinates' size (1 m scenes: a few 1e-7 m). */
#define FLOAT_TOL 4e-7

static void check_glb(const char* path, const run_frames* rf, double fps)
{
	blob b = read_file(path);
	const unsigned char* bin = NULL;
	uint32_t bin_length = 0;
	cJSON* root = check_glb_structure(&b, &bin, &bin_length);
	if (!root) {
		free(b.data);
		return;
	}
	const cJSON* nodes = cJSON_GetObjectItem(root, "nodes");
	const cJSON* meshes = cJSON_GetObjectItem(root, "meshes");
	CHECK(cJSON_GetArraySize(nodes) == rf->cloths && cJSON_GetArraySize(meshes) == rf->cloths);
	int targets = RUN_FRAMES;
	/* The animation: times k / fps and weights with target k - 1 at 1 at keyframe k. */
	const cJSON* anim = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "animations"), 0);
	CHECK(anim != NULL);
	const cJSON* sampler = cJSON_GetArrayItem(cJSON_GetObjectItem(anim, "samplers"), 0);
	CHECK(strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(sampler, "interpolation")), "LINEAR") == 0);
	int n, comps;
	double* times = read_accessor(root, bin, json_int(sampler, "input", -1), &n, &comps);
	CHECK(n == targets + 1);
	for (int k = 0; k < n; ++k) CHECK(times[k] == (double)(float)(k / fps));
	const cJSON* input = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "accessors"), json_int(sampler, "input", -1));
	CHECK(cJSON_GetArrayItem(cJSON_GetObjectItem(input, "min"), 0)->valuedouble == 0.0);
	CHECK(cJSON_GetArrayItem(cJSON_GetObjectItem(input, "max"), 0)->valuedouble == times[n - 1]);
	free(times);
	double* weights = read_accessor(root, bin, json_int(sampler, "output", -1), &n, &comps);
	CHECK(n == (targets + 1) * targets);
	for (int k = 0; k <= targets && n == (targets + 1) * targets; ++k)
		for (int t = 0; t < targets; ++t) CHECK(weights[k * targets + t] == (t == k - 1 ? 1.0 : 0.0));
	free(weights);
	const cJSON* channel;
	int channels = 0;
	cJSON_ArrayForEach(channel, cJSON_GetObjectItem(anim, "channels"))
	{
		const cJSON* target = cJSON_GetObjectItem(channel, "target");
		CHECK(json_int(target, "node", -1) == channels);
		CHECK(strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(target, "path")), "weights") == 0);
		++channels;
	}
	CHECK(channels == rf->cloths);

	int32_t offset = 0;
	for (int32_t o = 0; o < rf->cloths; ++o) {
		const drape_mesh* m = rf->meshes[o];
		const cJSON* prim = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(meshes, o), "primitives"), 0);
		const cJSON* attrs = cJSON_GetObjectItem(prim, "attributes");
		int count, c2;
		double* base = read_accessor(root, bin, json_int(attrs, "POSITION", -1), &count, &comps);
		check_min_max(root, json_int(attrs, "POSITION", -1), base, count);
		double* uv = read_accessor(root, bin, json_int(attrs, "TEXCOORD_0", -1), &n, &c2);
		CHECK(n == count && c2 == 2);
		double* idx = read_accessor(root, bin, json_int(prim, "indices", -1), &n, &c2);
		CHECK(n == 3 * m->triangle_count);
		/* Each corner's glTF vertex: drape's vertex position and uv (u, 1 - v). */
		int32_t* drape_vertex = malloc((size_t)count * sizeof *drape_vertex);
		for (int k = 0; k < count; ++k) drape_vertex[k] = -1;
		bool corners_ok = true;
		for (int c = 0; c < n; ++c) {
			uint32_t k = (uint32_t)idx[c];
			if (k >= (uint32_t)count) {
				corners_ok = false;
				continue;
			}
			int32_t v = m->triangles[c], t = m->triangle_uvs[c];
			corners_ok &= drape_vertex[k] < 0 || drape_vertex[k] == v;
			drape_vertex[k] = v;
			corners_ok &= (float)uv[2 * k] == (float)m->uvs[2 * t] && (float)uv[2 * k + 1] == (float)(1.0 - m->uvs[2 * t + 1]);
		}
		CHECK(corners_ok);
		const cJSON* tlist = cJSON_GetObjectItem(prim, "targets");
		CHECK(cJSON_GetArraySize(tlist) == targets);
		/* The targets share one view: it must declare its stride (spec, bufferView.byteStride). */
		const cJSON* tacc = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "accessors"),
						       json_int(cJSON_GetArrayItem(tlist, 0), "POSITION", -1));
		CHECK(json_int(cJSON_GetArrayItem(cJSON_GetObjectItem(root, "bufferViews"), json_int(tacc, "bufferView", -1)),
			       "byteStride", 0) == 12);
		/* Frame f is base + target f - 1, back in drape's axes (x, -z, y). */
		double err_max = 0.0;
		for (int f = 0; f <= targets; ++f) {
			double* d = NULL;
			if (f > 0) {
				int ti = json_int(cJSON_GetArrayItem(tlist, f - 1), "POSITION", -1);
				d = read_accessor(root, bin, ti, &n, &c2);
				CHECK(n == count && c2 == 3);
				check_min_max(root, ti, d, count);
			}
			for (int k = 0; k < count; ++k) {
				if (drape_vertex[k] < 0) continue;
				float g[3];
				for (int c = 0; c < 3; ++c) g[c] = (float)base[3 * k + c] + (d ? (float)d[3 * k + c] : 0.0f);
				const double* want = rf->frames[f] + 3 * (offset + drape_vertex[k]);
				err_max = fmax(err_max, fabs(g[0] - want[0]));
				err_max = fmax(err_max, fabs(-g[2] - want[1]));
				err_max = fmax(err_max, fabs(g[1] - want[2]));
			}
			free(d);
		}
		CHECK_NEAR(err_max, 0.0, FLOAT_TOL);
		for (int k = 0; k < count; ++k) CHECK(drape_vertex[k] >= 0); /* every glTF vertex is used */
		free(drape_vertex);
		free(base);
		free(uv);
		free(idx);
		offset += rf->vertices[o];
	}
	cJSON_Delete(root);
	free(b.data);
}

static void check_pc2(const char* path, const run_frames* rf, int32_t offset, int32_t points)
{
	blob b = read_file(path);
	CHECK(b.size == PC2_HEADER_SIZE + (size_t)(RUN_FRAMES + 1) * points * 12);
	if (b.size != PC2_HEADER_SIZE + (size_t)(RUN_FRAMES + 1) * points * 12) {
		free(b.data);
		return;
	}
	CHECK(memcmp(b.data, "POINTCACHE2", 12) == 0 && get_u32(b.data + 12) == 1);
	CHECK(get_u32(b.data + 16) == (uint32_t)points && get_u32(b.data + 28) == RUN_FRAMES + 1);
	CHECK(get_f32(b.data + 20) == 0.0f && get_f32(b.data + 24) == 1.0f);
	double err_max = 0.0;
	for (int f = 0; f <= RUN_FRAMES; ++f)
		for (int32_t i = 0; i < 3 * points; ++i)
			err_max = fmax(err_max, fabs(get_f32(b.data + PC2_HEADER_SIZE + 4 * ((size_t)f * 3 * points + i)) -
						     rf->frames[f][3 * offset + i]));
	CHECK_NEAR(err_max, 0.0, FLOAT_TOL);
	free(b.data);
}

void test_caches_run_round_trip(void)
{
	scratch s;
	scratch_open(&s);
	char err[1024];
	scene sc;
	bool loaded = scene_load_text(q(two_cloth_scene), DRAPE_SOURCE_DIR "/scenes/test_caches.json", &sc, err, sizeof err);
	CHECK(loaded);
	if (!loaded) {
		fprintf(stderr, "%s\n", err);
		scratch_close(&s);
		return;
	}
	drape_world* world = scene_build_world(&sc, err, sizeof err);
	CHECK(world != NULL);
	caches* c = caches_begin(s.dir, FORMAT_OBJ | FORMAT_PC2 | FORMAT_GLB, world, sc.fps, sc.frames, err, sizeof err);
	CHECK(c != NULL);
	CHECK(sc.frames == RUN_FRAMES);
	bool ok = c && caches_add_frame(c, 0, world, err, sizeof err);
	for (int f = 1; ok && f <= RUN_FRAMES; ++f) {
		ok = drape_world_step(world, f / sc.fps - drape_world_time(world)) == DRAPE_OK;
		ok = ok && caches_add_frame(c, f, world, err, sizeof err);
	}
	CHECK(ok);
	/* Until finish only the OBJ frames and rest meshes are in place. */
	CHECK(!file_exists(scratch_path(&s, "animation.glb")) && !file_exists(scratch_path(&s, "cache_tabard.pc2")));
	CHECK(c && caches_finish(c, err, sizeof err));

	run_frames rf = {.cloths = drape_cloth_count(world)};
	CHECK(rf.cloths == 2);
	for (int32_t o = 0; o < 2; ++o) {
		rf.vertices[o] = drape_cloth_vertex_count(world, (drape_cloth_id){o});
		rf.meshes[o] = drape_cloth_mesh(world, (drape_cloth_id){o});
		rf.total += rf.vertices[o];
	}
	for (int f = 0; f <= RUN_FRAMES; ++f) {
		char name[64];
		snprintf(name, sizeof name, "frame_%04d.obj", f);
		drape_mesh m;
		CHECK(drape_mesh_load_obj(scratch_path(&s, name), 1.0, &m, err, sizeof err) == DRAPE_OK);
		CHECK(m.vertex_count == rf.total);
		rf.frames[f] = malloc(3 * (size_t)rf.total * sizeof(double));
		memcpy(rf.frames[f], m.positions, 3 * (size_t)rf.total * sizeof(double));
		drape_mesh_free(&m);
	}
	/* The cloth moved, so matching frames means something. */
	double motion = 0.0;
	for (int32_t i = 0; i < 3 * rf.total; ++i) motion = fmax(motion, fabs(rf.frames[RUN_FRAMES][i] - rf.frames[0][i]));
	CHECK(motion > 1e-3);

	/* PC2 per cloth, names sanitised ('flag/1 x' -> cache_flag_1_x), rest OBJ = frame 0 of that cloth. */
	check_pc2(scratch_path(&s, "cache_tabard.pc2"), &rf, 0, rf.vertices[0]);
	check_pc2(scratch_path(&s, "cache_flag_1_x.pc2"), &rf, rf.vertices[0], rf.vertices[1]);
	drape_mesh rest;
	CHECK(drape_mesh_load_obj(scratch_path(&s, "cache_flag_1_x.obj"), 1.0, &rest, err, sizeof err) == DRAPE_OK);
	CHECK(rest.vertex_count == rf.vertices[1] && rest.triangle_count == rf.meshes[1]->triangle_count);
	bool rest_ok = true;
	for (int32_t i = 0; i < 3 * rest.vertex_count; ++i)
		rest_ok &= rest.positions[i] == rf.frames[0][3 * rf.vertices[0] + i];
	CHECK(rest_ok);
	drape_mesh_free(&rest);

	check_glb(scratch_path(&s, "animation.glb"), &rf, sc.fps);

	cJSON* outputs = caches_outputs_json(FORMAT_PC2 | FORMAT_GLB, world, 0);
	char* text = cJSON_PrintUnformatted(outputs);
	CHECK_HAS(text, "\"formats\":[\"pc2\",\"glb\"]");
	CHECK_HAS(text, "{\"cloth\":\"flag/1 x\",\"cache\":\"cache_flag_1_x.pc2\",\"rest\":\"cache_flag_1_x.obj\"}");
	CHECK(!strstr(text, "frame_"));
	cJSON_free(text);
	cJSON_Delete(outputs);
	for (int f = 0; f <= RUN_FRAMES; ++f) free(rf.frames[f]);
	drape_world_destroy(world);
	scene_free(&sc);
	scratch_close(&s);
}

/* Failures: a GLB past 4 GiB is refused up front; a write failure removes the partial caches. */
void test_caches_failures(void)
{
	scratch s;
	scratch_open(&s);
	char err[1024];
	scene sc;
	CHECK(scene_load_text(q(two_cloth_scene), DRAPE_SOURCE_DIR "/scenes/test_caches.json", &sc, err, sizeof err));
	drape_world* world = scene_build_world(&sc, err, sizeof err);
	CHECK(world != NULL);
	CHECK(caches_begin(s.dir, FORMAT_GLB, world, 30.0, 10000000, err, sizeof err) == NULL);
	CHECK_HAS(err, "4 GiB");
	caches* c = caches_begin(s.dir, FORMAT_PC2 | FORMAT_GLB, world, 30.0, 5, err, sizeof err);
	CHECK(c && caches_add_frame(c, 0, world, err, sizeof err) && caches_add_frame(c, 1, world, err, sizeof err));
	CHECK(file_exists(scratch_path(&s, "cache_tabard.pc2.tmp")));
	/* A temporary file removed behind the writer's back: the rename at the end fails, and the
	 * other caches are dropped rather than left beside a missing one. */
	remove(scratch_path(&s, "cache_tabard.pc2.tmp"));
	CHECK(c && caches_add_frame(c, 2, world, err, sizeof err)); /* still appending to the unlinked file */
	CHECK(c && !caches_finish(c, err, sizeof err));
	CHECK_HAS(err, "cache_tabard.pc2.tmp: cannot rename");
	CHECK(!file_exists(scratch_path(&s, "cache_tabard.pc2")));
	CHECK(!file_exists(scratch_path(&s, "animation.glb")) && !file_exists(scratch_path(&s, "animation.glb.tmp")));
	CHECK(!file_exists(scratch_path(&s, "cache_flag_1_x.pc2")) && !file_exists(scratch_path(&s, "cache_flag_1_x.pc2.tmp")));

	/* A directory that does not exist: the first frame fails with the file named, nothing left. */
	c = caches_begin(scratch_path(&s, "missing"), FORMAT_PC2, world, 30.0, 5, err, sizeof err);
	CHECK(c && !caches_add_frame(c, 0, world, err, sizeof err));
	CHECK_HAS(err, "missing/cache_tabard.obj");
	CHECK(c && !caches_add_frame(c, 1, world, err, sizeof err));
	CHECK(c && caches_finish(c, err, sizeof err));
	drape_world_destroy(world);
	scene_free(&sc);
	scratch_close(&s);
}
