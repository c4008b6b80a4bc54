/* USD text export (docs/caches.md, "USD"): the layer follows the USDA grammar of Pixar's USD
 * (https://openusd.org, "USD file format"): a "#usda 1.0" header with layer metadata, def blocks,
 * typed attributes, and `points.timeSamples = { t: [...], ... }` for the animation. Z is up and
 * one unit is one metre, as in drape. */
#include "usda_write.h"

#include "text_number.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct usda_writer {
	char path[4096];
	int32_t count;
	const usda_object* objects; /* copied below */
	usda_object* own;
	char (*names)[128];
	FILE** spools; /* per cloth: "t: [(x, y, z), ...],\n" lines */
	int32_t frames;
	int32_t first_frame; /* the time code of the first sample */
	double fps;
};

/* lead, then "a, b[, c])" with each number as "%.9g" (text_number.h: the same bytes, faster). */
static void write_tuple(FILE* f, const char* lead, const double* x, int n)
{
	char line[8 + 3 * (TEXT_NUMBER_MAX + 2)];
	size_t len = strlen(lead);
	memcpy(line, lead, len);
	for (int k = 0; k < n; ++k) {
		if (k) line[len++] = ',', line[len++] = ' ';
		len += text_g9(x[k], line + len);
	}
	line[len++] = ')';
	fwrite(line, 1, len, f);
}

static void spool_path(const usda_writer* w, int32_t i, char* out, size_t size)
{
	snprintf(out, size, "%s.%d.tmp", w->path, (int)i);
}

static void usd_name(const char* name, char* out, size_t size)
{
	snprintf(out, size, "%s%s", (name && name[0] >= '0' && name[0] <= '9') ? "_" : "", name && *name ? name : "cloth");
	for (char* c = out; *c; ++c)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_')) *c = '_';
}

void usda_writer_abort(usda_writer* w)
{
	if (!w) return;
	char p[4200];
	for (int32_t i = 0; i < w->count; ++i) {
		if (w->spools && w->spools[i]) fclose(w->spools[i]);
		spool_path(w, i, p, sizeof p);
		remove(p);
	}
	snprintf(p, sizeof p, "%s.tmp", w->path);
	remove(p);
	free(w->spools);
	free(w->names);
	free(w->own);
	free(w);
}

usda_writer* usda_writer_begin(const char* path, const usda_object* objects, int32_t count, double fps,
			       int32_t first_frame, char* err, size_t err_size)
{
	usda_writer* w = calloc(1, sizeof *w);
	size_t slots = (size_t)(count > 0 ? count : 1);
	if (w) {
		w->count = count;
		w->fps = fps;
		w->first_frame = first_frame;
		snprintf(w->path, sizeof w->path, "%s", path);
		w->own = calloc(slots, sizeof *w->own);
		w->names = calloc(slots, sizeof *w->names);
		w->spools = calloc(slots, sizeof *w->spools);
	}
	if (!w || !w->own || !w->names || !w->spools) {
		snprintf(err, err_size, "out of memory preparing the USD export");
		usda_writer_abort(w);
		return NULL;
	}
	for (int32_t i = 0; i < count; ++i) {
		w->own[i] = objects[i];
		usd_name(objects[i].name, w->names[i], sizeof w->names[i]);
		/* Two cloths whose names sanitise alike get _INDEX appended. */
		for (int32_t k = 0; k < i; ++k)
			if (strcmp(w->names[k], w->names[i]) == 0) {
				size_t n = strlen(w->names[i]);
				snprintf(w->names[i] + (n < 110 ? n : 110), 16, "_%d", (int)i);
				break;
			}
	}
	w->objects = w->own;
	return w;
}

bool usda_writer_add_frame(usda_writer* w, const double* const* positions, char* err, size_t err_size)
{
	char p[4200];
	for (int32_t i = 0; i < w->count; ++i) {
		if (!w->spools[i]) {
			spool_path(w, i, p, sizeof p);
			w->spools[i] = fopen(p, "w+");
			if (!w->spools[i]) {
				snprintf(err, err_size, "cannot write '%s': %s", p, strerror(errno));
				return false;
			}
		}
		FILE* f = w->spools[i];
		const double* x = positions[i];
		fprintf(f, "            %d: [", (int)(w->first_frame + w->frames));
		for (int32_t v = 0; v < w->objects[i].mesh->vertex_count; ++v) write_tuple(f, v ? ", (" : "(", &x[3 * v], 3);
		if (fprintf(f, "],\n") < 0) {
			snprintf(err, err_size, "cannot write the USD spool of '%s': %s", w->path, strerror(errno));
			return false;
		}
	}
	w->frames++;
	return true;
}

static void write_ints(FILE* f, const int32_t* a, int32_t n)
{
	fputc('[', f);
	for (int32_t k = 0; k < n; ++k) fprintf(f, "%s%d", k ? ", " : "", (int)a[k]);
	fputc(']', f);
}

static void write_mesh(FILE* f, const usda_writer* w, int32_t i)
{
	const drape_mesh* m = w->objects[i].mesh;
	fprintf(f, "    def Mesh \"%s\"\n    {\n", w->names[i]);
	fprintf(f, "        uniform token subdivisionScheme = \"none\"\n");
	fprintf(f, "        int[] faceVertexCounts = [");
	for (int32_t t = 0; t < m->triangle_count; ++t) fprintf(f, "%s3", t ? ", " : "");
	fprintf(f, "]\n        int[] faceVertexIndices = ");
	write_ints(f, m->triangles, 3 * m->triangle_count);
	/* Rest (u, v) in metres, per corner through indices: a seam vertex has several. */
	fprintf(f, "\n        texCoord2f[] primvars:st = [");
	for (int32_t k = 0; k < m->uv_count; ++k) write_tuple(f, k ? ", (" : "(", &m->uvs[2 * k], 2);
	fprintf(f, "] (\n            interpolation = \"faceVarying\"\n        )\n        int[] primvars:st:indices = ");
	write_ints(f, m->triangle_uvs, 3 * m->triangle_count);
	fprintf(f, "\n        point3f[] points.timeSamples = {\n");
}

bool usda_writer_finish(usda_writer* w, char* err, size_t err_size)
{
	char tmp[4200];
	snprintf(tmp, sizeof tmp, "%s.tmp", w->path);
	FILE* f = fopen(tmp, "w");
	bool ok = f != NULL;
	if (ok) {
		fprintf(f, "#usda 1.0\n(\n    defaultPrim = \"drape\"\n    doc = \"drape %s cloth animation\"\n"
			   "    metersPerUnit = 1\n    upAxis = \"Z\"\n    timeCodesPerSecond = %.17g\n"
			   "    framesPerSecond = %.17g\n    startTimeCode = %d\n    endTimeCode = %d\n)\n\n",
			DRAPE_VERSION_STRING, w->fps, w->fps, (int)w->first_frame,
			(int)w->first_frame + (w->frames > 0 ? (int)w->frames - 1 : 0));
		fprintf(f, "def Xform \"drape\"\n{\n");
		for (int32_t i = 0; ok && i < w->count; ++i) {
			write_mesh(f, w, i);
			FILE* s = w->spools[i];
			if (s) {
				rewind(s);
				char buf[65536];
				size_t n;
				while ((n = fread(buf, 1, sizeof buf, s)) > 0) ok = ok && fwrite(buf, 1, n, f) == n;
			}
			fprintf(f, "        }\n    }\n");
		}
		fprintf(f, "}\n");
		ok = (fclose(f) == 0) && ok;
	}
	ok = ok && rename(tmp, w->path) == 0;
	if (!ok) snprintf(err, err_size, "cannot write '%s': %s", w->path, strerror(errno));
	usda_writer_abort(w); /* closes and removes the spools (and a failed .tmp) */
	return ok;
}
