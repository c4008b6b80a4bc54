/* PC2 point cache writer: a 32-byte header then float32 xyz per point per sample, little-endian
 * whatever the host. Samples are appended as frames are simulated; the sample count in the header
 * is patched when the run ends, and only then is the file renamed into place, so a reader never
 * sees a cache whose header disagrees with its length. */
#include "pc2_write.h"

#include "../core.h"

#include "le_bytes.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pc2_writer {
	FILE* f;
	char* path;
	char* tmp;
	int32_t points;
	int32_t samples;
	unsigned char* buffer; /* 12 * points bytes: one sample, encoded */
};

static void free_writer(pc2_writer* w)
{
	if (!w) return;
	if (w->f) fclose(w->f);
	free(w->path);
	free(w->tmp);
	free(w->buffer);
	free(w);
}

pc2_writer* pc2_writer_begin(const char* path, int32_t point_count, double start_frame, double sample_rate, char* err,
			     size_t err_size)
{
	if (point_count < 1) {
		core_fail(err, err_size, "%s: a point cache needs at least one point", path);
		return NULL;
	}
	pc2_writer* w = calloc(1, sizeof *w);
	if (w) {
		w->path = core_concat(path, "");
		w->tmp = core_concat(path, ".tmp");
		w->buffer = malloc(12 * (size_t)point_count);
	}
	if (!w || !w->path || !w->tmp || !w->buffer) {
		core_fail(err, err_size, "%s: out of memory", path);
		free_writer(w);
		return NULL;
	}
	w->points = point_count;
	w->f = fopen(w->tmp, "wb");
	if (!w->f) {
		core_fail(err, err_size, "%s: cannot create: %s", w->tmp, strerror(errno));
		free_writer(w);
		return NULL;
	}
	unsigned char h[PC2_HEADER_SIZE];
	memcpy(h, "POINTCACHE2", 12); /* with its terminating zero */
	le_put_u32(h + 12, 1);
	le_put_u32(h + 16, (uint32_t)point_count);
	le_put_f32(h + 20, (float)start_frame);
	le_put_f32(h + 24, (float)sample_rate);
	le_put_u32(h + 28, 0);
	if (fwrite(h, 1, sizeof h, w->f) != sizeof h) {
		core_fail(err, err_size, "%s: write failed: %s", w->tmp, strerror(errno));
		pc2_writer_abort(w);
		return NULL;
	}
	return w;
}

bool pc2_writer_add(pc2_writer* w, const double* positions, char* err, size_t err_size)
{
	for (int32_t i = 0; i < 3 * w->points; ++i) le_put_f32(w->buffer + 4 * i, (float)positions[i]);
	size_t n = 12 * (size_t)w->points;
	if (fwrite(w->buffer, 1, n, w->f) != n) return core_fail(err, err_size, "%s: write failed: %s", w->tmp, strerror(errno));
	++w->samples;
	return true;
}

int32_t pc2_writer_samples(const pc2_writer* w) { return w->samples; }

bool pc2_writer_finish(pc2_writer* w, char* err, size_t err_size)
{
	unsigned char count[4];
	le_put_u32(count, (uint32_t)w->samples);
	bool ok = fseek(w->f, 28, SEEK_SET) == 0 && fwrite(count, 1, 4, w->f) == 4 && fflush(w->f) == 0 && !ferror(w->f);
	int saved = errno;
	ok = fclose(w->f) == 0 && ok;
	w->f = NULL;
	if (!ok) core_fail(err, err_size, "%s: write failed: %s", w->tmp, strerror(saved ? saved : EIO));
	else if (rename(w->tmp, w->path) != 0) {
		core_fail(err, err_size, "%s: cannot rename onto %s: %s", w->tmp, w->path, strerror(errno));
		ok = false;
	}
	if (!ok) remove(w->tmp);
	free_writer(w);
	return ok;
}

void pc2_writer_abort(pc2_writer* w)
{
	if (!w) return;
	if (w->f) fclose(w->f);
	w->f = NULL;
	remove(w->tmp);
	free_writer(w);
}
