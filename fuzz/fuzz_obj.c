/* libFuzzer target: the OBJ reader (src/io/obj_read.c), both as a cloth mesh with uv
 * (drape_mesh_load_obj) and as a solid's bare geometry (obj_read_geometry). */
#include "drape.h"
#include "io/obj_read.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The reader takes a path, so each input goes through a file in a directory of this process's
 * own (fuzzers may run side by side); it is removed at exit. */
static char dir[4096], path[4200];

int LLVMFuzzerInitialize(int* argc, char*** argv);
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static void remove_dir(void)
{
	unlink(path);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int* argc, char*** argv)
{
	(void)argc;
	(void)argv;
	const char* tmp = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/drape-fuzz-obj-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror("fuzz_obj: mkdtemp");
		exit(1);
	}
	snprintf(path, sizeof path, "%s/input.obj", dir);
	atexit(remove_dir);
	return 0;
}

/* What a successful read promises its users (the mesh builders index with these unchecked). */
static void check_mesh(const drape_mesh* m, bool with_uv)
{
	if (m->vertex_count < 1 || m->triangle_count < 1 || !m->positions || !m->triangles) abort();
	for (int64_t i = 0; i < 3 * (int64_t)m->triangle_count; ++i)
		if (m->triangles[i] < 0 || m->triangles[i] >= m->vertex_count) abort();
	if (!with_uv) {
		if (m->uv_count != 0 || m->uvs || m->triangle_uvs) abort();
		return;
	}
	if (m->uv_count < 1 || !m->uvs || !m->triangle_uvs) abort();
	for (int64_t i = 0; i < 3 * (int64_t)m->triangle_count; ++i)
		if (m->triangle_uvs[i] < 0 || m->triangle_uvs[i] >= m->uv_count) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	FILE* f = fopen(path, "wb");
	if (!f) abort();
	if (size && fwrite(data, 1, size, f) != size) abort();
	if (fclose(f) != 0) abort();

	drape_mesh m;
	char err[512];
	if (drape_mesh_load_obj(path, 1.0, &m, err, sizeof err) == DRAPE_OK) {
		check_mesh(&m, true);
		drape_mesh_free(&m);
	} else if (err[0] == '\0') {
		abort();
	}
	if (obj_read_geometry(path, &m, err, sizeof err)) {
		check_mesh(&m, false);
		drape_mesh_free(&m);
	} else if (err[0] == '\0') {
		abort();
	}
	return 0;
}
