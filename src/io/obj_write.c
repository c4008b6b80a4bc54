/* OBJ frame writer: v (current positions), vt (rest uv, so seams and textures survive) and
 * f v/vt, written to a temporary file and renamed into place so a viewer polling the output
 * directory never reads a partial frame. */
#include "obj_write.h"

#include "../core.h"
#include "text_number.h"

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

/* "tag x y [z]\n" with each number as printf's "%.9g" (g9) or "%.6f": text_number.h, several
 * times faster than fprintf, which took more of a figure 1 frame than its contacts. */
static bool write_reals(FILE* f, const char* tag, const double* x, int n, bool g9)
{
	char line[8 + 3 * (TEXT_NUMBER_MAX + 1)];
	size_t len = strlen(tag);
	memcpy(line, tag, len);
	for (int k = 0; k < n; ++k) {
		line[len++] = ' ';
		len += g9 ? text_g9(x[k], line + len) : text_f6(x[k], line + len);
	}
	line[len++] = '\n';
	return fwrite(line, 1, len, f) == len;
}

/* "f a/b c/d e/g\n" (uv) or "f a//a b//b c//c\n" (normals, uv NULL), as fprintf's "%lld". */
static bool write_face(FILE* f, const int64_t v[3], const int64_t* uv)
{
	char line[8 + 6 * (TEXT_NUMBER_MAX + 2)];
	size_t len = 1;
	line[0] = 'f';
	for (int k = 0; k < 3; ++k) {
		line[len++] = ' ';
		len += text_i64(v[k], line + len);
		line[len++] = '/';
		if (!uv) line[len++] = '/';
		len += text_i64(uv ? uv[k] : v[k], line + len);
	}
	line[len++] = '\n';
	return fwrite(line, 1, len, f) == len;
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
		ok = write_reals(f, "vn", m, 3, false);
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
			if (!write_reals(f, "v", &x[3 * i], 3, true)) return false;
		for (int32_t i = 0; i < mesh->uv_count; ++i)
			if (!write_reals(f, "vt", &mesh->uvs[2 * i], 2, true)) return false;
		if (mesh->uv_count == 0) {
			/* A surface without uv (an animated solid): smooth vertex normals instead. */
			if (!write_normals(f, mesh, x)) return false;
			for (int32_t t = 0; t < mesh->triangle_count; ++t) {
				const int32_t* v = mesh->triangles + 3 * t;
				const int64_t a[3] = {v0 + v[0], v0 + v[1], v0 + v[2]};
				if (!write_face(f, a, NULL)) return false;
			}
			v0 += mesh->vertex_count;
			continue;
		}
		for (int32_t t = 0; t < mesh->triangle_count; ++t) {
			const int32_t* v = mesh->triangles + 3 * t;
			const int32_t* u = mesh->triangle_uvs + 3 * t;
			const int64_t a[3] = {v0 + v[0], v0 + v[1], v0 + v[2]}, b[3] = {t0 + u[0], t0 + u[1], t0 + u[2]};
			if (!write_face(f, a, b)) return false;
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
