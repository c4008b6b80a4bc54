/* OBJ frame writer: v (current positions), vt (rest uv, so seams and textures survive) and
 * f v/vt, written to a temporary file and renamed into place so a viewer polling the output
 * directory never reads a partial frame. */
#include "obj_write.h"

#include "../core.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "o name", with control characters replaced so that a name cannot break the line. */
static bool write_name(FILE* f, const char* name)
{
	if (fputs("o ", f) == EOF) return false;
	for (const char* c = name; *c; ++c)
		if (fputc((unsigned char)*c < 32 || *c == 127 ? '_' : *c, f) == EOF) return false;
	return fputc('\n', f) != EOF;
}

/* Area-weighted vertex normals (unit), one vn per vertex. */
static bool write_normals(FILE* f, const drape_mesh* mesh, const double* x)
{
	double* n = calloc(3 * (size_t)mesh->vertex_count, sizeof *n);
	if (!n) return false;
	for (int32_t t = 0; t < mesh->triangle_count; ++t) {
		const int32_t* v = mesh->triangles + 3 * t;
		const double *a = &x[3 * v[0]], *b = &x[3 * v[1]], *c = &x[3 * v[2]];
		double e[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, g[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
		double cr[3] = {e[1] * g[2] - e[2] * g[1], e[2] * g[0] - e[0] * g[2], e[0] * g[1] - e[1] * g[0]};
		for (int k = 0; k < 3; ++k)
			for (int d = 0; d < 3; ++d) n[3 * v[k] + d] += cr[d];
	}
	bool ok = true;
	for (int32_t i = 0; ok && i < mesh->vertex_count; ++i) {
		double* m = &n[3 * i];
		double l = sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
		if (l > 0.0) m[0] /= l, m[1] /= l, m[2] /= l;
		ok = fprintf(f, "vn %.6f %.6f %.6f\n", m[0], m[1], m[2]) >= 0;
	}
	free(n);
	return ok;
}

static bool write_body(FILE* f, const obj_object* objects, int32_t count)
{
	if (fprintf(f, "# drape frame\n") < 0) return false;
	/* OBJ indices run over the whole file, so each object's start after those before it. */
	int64_t v0 = 1, t0 = 1;
	for (int32_t o = 0; o < count; ++o) {
		const drape_mesh* mesh = objects[o].mesh;
		const double* x = objects[o].positions ? objects[o].positions : mesh->positions;
		if (objects[o].name && !write_name(f, objects[o].name)) return false;
		if (fprintf(f, "# %d vertices, %d uv, %d triangles\n", (int)mesh->vertex_count, (int)mesh->uv_count,
			    (int)mesh->triangle_count) < 0)
			return false;
		/* %.9g keeps positions to about a nanometre at metre scale; enough to restart from. */
		for (int32_t i = 0; i < mesh->vertex_count; ++i)
			if (fprintf(f, "v %.9g %.9g %.9g\n", x[3 * i], x[3 * i + 1], x[3 * i + 2]) < 0) return false;
		for (int32_t i = 0; i < mesh->uv_count; ++i)
			if (fprintf(f, "vt %.9g %.9g\n", mesh->uvs[2 * i], mesh->uvs[2 * i + 1]) < 0) return false;
		if (mesh->uv_count == 0) {
			/* A surface without uv (an animated solid): smooth vertex normals instead. */
			if (!write_normals(f, mesh, x)) return false;
			for (int32_t t = 0; t < mesh->triangle_count; ++t) {
				const int32_t* v = mesh->triangles + 3 * t;
				long long a = (long long)(v0 + v[0]), b = (long long)(v0 + v[1]), c = (long long)(v0 + v[2]);
				if (fprintf(f, "f %lld//%lld %lld//%lld %lld//%lld\n", a, a, b, b, c, c) < 0) return false;
			}
			v0 += mesh->vertex_count;
			continue;
		}
		for (int32_t t = 0; t < mesh->triangle_count; ++t) {
			const int32_t* v = mesh->triangles + 3 * t;
			const int32_t* u = mesh->triangle_uvs + 3 * t;
			if (fprintf(f, "f %lld/%lld %lld/%lld %lld/%lld\n", (long long)(v0 + v[0]),
				    (long long)(t0 + u[0]), (long long)(v0 + v[1]), (long long)(t0 + u[1]),
				    (long long)(v0 + v[2]), (long long)(t0 + u[2])) < 0)
				return false;
		}
		v0 += mesh->vertex_count;
		t0 += mesh->uv_count;
	}
	return true;
}

bool obj_write_objects(const char* path, const obj_object* objects, int32_t count, char* err, size_t err_size)
{
	if (!path || (count > 0 && !objects)) return core_fail(err, err_size, "obj_write: NULL path or objects");
	for (int32_t o = 0; o < count; ++o)
		if (!objects[o].mesh) return core_fail(err, err_size, "obj_write: object %d has no mesh", (int)o);
	size_t n = strlen(path);
	char* tmp = malloc(n + 5);
	if (!tmp) return core_fail(err, err_size, "%s: out of memory", path);
	memcpy(tmp, path, n);
	memcpy(tmp + n, ".tmp", 5);

	FILE* f = fopen(tmp, "wb");
	if (!f) {
		core_fail(err, err_size, "%s: cannot create: %s", tmp, strerror(errno));
		free(tmp);
		return false;
	}
	bool ok = write_body(f, objects, count);
	int saved = errno;
	if (fflush(f) != 0 || ferror(f)) {
		if (ok) saved = errno;
		ok = false;
	}
	if (fclose(f) != 0) {
		if (ok) saved = errno;
		ok = false;
	}
	if (!ok) {
		core_fail(err, err_size, "%s: write failed: %s", tmp, strerror(saved ? saved : EIO));
		remove(tmp);
		free(tmp);
		return false;
	}
	if (rename(tmp, path) != 0) {
		core_fail(err, err_size, "%s: cannot rename onto %s: %s", tmp, path, strerror(errno));
		remove(tmp);
		free(tmp);
		return false;
	}
	free(tmp);
	return true;
}

bool obj_write(const char* path, const drape_mesh* mesh, const double* positions, char* err, size_t err_size)
{
	if (!mesh) return core_fail(err, err_size, "obj_write: NULL mesh");
	obj_object one = {NULL, mesh, positions};
	return obj_write_objects(path, &one, 1, err, err_size);
}
