/* checkpoint.bin (checkpoint.h; docs/reliability.md, "Resume"). Native byte order: a checkpoint
 * is read back by the same build on the same machine. */
#define _POSIX_C_SOURCE 200809L
#include "io/checkpoint.h"

#include "core.h"
#include "io/embedded.h"
#include "io/run_warnings.h"
#include "io/scene.h"
#include "world_state.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECKPOINT_MAGIC "DRAPECK3" /* 3: drape_stats gained stage_ms and counts solves; the run keeps its crossing records */

static uint64_t fnv1a(uint64_t h, const void* data, size_t size)
{
	const unsigned char* p = data;
	for (size_t i = 0; i < size; ++i) h = (h ^ p[i]) * 1099511628211ull;
	return h;
}

bool checkpoint_scene_hash(const scene* s, uint64_t* hash)
{
	uint64_t h = 14695981039346656037ull;
	const size_t prefix = strlen(EMBEDDED_PREFIX);
	if (strncmp(s->path, EMBEDDED_PREFIX, prefix) == 0) {
		const char* text = embedded_text(s->path + prefix);
		if (!text) return false;
		h = fnv1a(h, text, strlen(text));
	} else {
		FILE* f = fopen(s->path, "rb");
		if (!f) return false;
		char buf[65536];
		size_t got;
		while ((got = fread(buf, 1, sizeof buf, f)) > 0) h = fnv1a(h, buf, got);
		bool ok = !ferror(f);
		fclose(f);
		if (!ok) return false;
	}
	for (int32_t i = 0; i < s->set_count; ++i) h = fnv1a(h, s->sets[i], strlen(s->sets[i]) + 1);
	*hash = h;
	return true;
}

static bool put_string(FILE* f, const char* s)
{
	int32_t n = (int32_t)strlen(s);
	return fwrite(&n, sizeof n, 1, f) == 1 && (n == 0 || fwrite(s, 1, (size_t)n, f) == (size_t)n);
}

static bool put_strings(FILE* f, char* const* s, int32_t count)
{
	bool ok = fwrite(&count, sizeof count, 1, f) == 1;
	for (int32_t i = 0; ok && i < count; ++i) ok = put_string(f, s[i]);
	return ok;
}

static char* get_string(FILE* f)
{
	int32_t n;
	if (fread(&n, sizeof n, 1, f) != 1 || n < 0 || n > (1 << 20)) return NULL;
	char* s = malloc((size_t)n + 1);
	if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
		free(s);
		return NULL;
	}
	if (s) s[n] = '\0';
	return s;
}

static bool get_strings(FILE* f, char*** out, int32_t* count)
{
	*out = NULL;
	*count = 0;
	int32_t n;
	if (fread(&n, sizeof n, 1, f) != 1 || n < 0 || n > (1 << 20)) return false;
	char** s = calloc((size_t)n + 1, sizeof *s);
	if (!s) return false;
	*out = s;
	for (int32_t i = 0; i < n; ++i) {
		if (!(s[i] = get_string(f))) return false;
		*count = i + 1;
	}
	return true;
}

static bool write_header(FILE* f, const checkpoint* c)
{
	return fwrite(CHECKPOINT_MAGIC, 1, 8, f) == 8 && fwrite(&c->scene_hash, sizeof c->scene_hash, 1, f) == 1 &&
	       fwrite(&c->frame, sizeof c->frame, 1, f) == 1 && fwrite(&c->frames, sizeof c->frames, 1, f) == 1 &&
	       fwrite(&c->threads, sizeof c->threads, 1, f) == 1 && fwrite(&c->formats, sizeof c->formats, 1, f) == 1 &&
	       fwrite(&c->frames_written, sizeof c->frames_written, 1, f) == 1 &&
	       fwrite(&c->wall_seconds, sizeof c->wall_seconds, 1, f) == 1 && fwrite(&c->totals, sizeof c->totals, 1, f) == 1 &&
	       put_string(f, c->scene_path) && put_strings(f, c->sets, c->set_count) &&
	       put_strings(f, c->before, c->before_count) && fwrite(&c->sew_open, sizeof c->sew_open, 1, f) == 1 &&
	       fwrite(&c->sew_frame, sizeof c->sew_frame, 1, f) == 1 && fwrite(&c->sew_sewn_at, sizeof c->sew_sewn_at, 1, f) == 1 &&
	       fwrite(&c->sew_motion_start, sizeof c->sew_motion_start, 1, f) == 1 &&
	       fwrite(&c->seam_count, sizeof c->seam_count, 1, f) == 1 &&
	       (c->seam_count == 0 ||
		fwrite(c->seam_merged_frame, sizeof *c->seam_merged_frame, (size_t)c->seam_count, f) == (size_t)c->seam_count) &&
	       fwrite(&c->strict, sizeof c->strict, 1, f) == 1 && fwrite(&c->crossing_count, sizeof c->crossing_count, 1, f) == 1 &&
	       (c->crossing_count == 0 ||
		fwrite(c->crossings, sizeof *c->crossings, (size_t)c->crossing_count, f) == (size_t)c->crossing_count);
}

bool checkpoint_write(const char* dir, const checkpoint* c, drape_world* world, char* err, size_t err_size)
{
	char path[4200], tmp[4300];
	snprintf(path, sizeof path, "%s/%s", dir, CHECKPOINT_FILE);
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	FILE* f = fopen(tmp, "wb");
	if (!f) return core_fail(err, err_size, "cannot write '%s': %s", tmp, strerror(errno));
	bool ok = write_header(f, c) && world_state_write(world, f);
	ok = fclose(f) == 0 && ok;
	/* rename() replaces the previous checkpoint whole: a kill leaves the old one or the new one */
	if (!ok || rename(tmp, path) != 0) {
		int e = errno;
		remove(tmp);
		return core_fail(err, err_size, "cannot write '%s': %s", path, strerror(e));
	}
	return true;
}

static FILE* open_checkpoint(const char* dir, checkpoint* c, char* err, size_t err_size)
{
	memset(c, 0, sizeof *c);
	char path[4200];
	snprintf(path, sizeof path, "%s/%s", dir, CHECKPOINT_FILE);
	FILE* f = fopen(path, "rb");
	if (!f) {
		core_fail(err, err_size, "'%s': %s (runs of this drape version leave one, unless they write PC2 or glTF or use the cholesky preconditioner)",
			  path, strerror(errno));
		return NULL;
	}
	char magic[8];
	bool ok = fread(magic, 1, 8, f) == 8 && memcmp(magic, CHECKPOINT_MAGIC, 8) == 0 &&
		  fread(&c->scene_hash, sizeof c->scene_hash, 1, f) == 1 && fread(&c->frame, sizeof c->frame, 1, f) == 1 &&
		  fread(&c->frames, sizeof c->frames, 1, f) == 1 && fread(&c->threads, sizeof c->threads, 1, f) == 1 &&
		  fread(&c->formats, sizeof c->formats, 1, f) == 1 &&
		  fread(&c->frames_written, sizeof c->frames_written, 1, f) == 1 &&
		  fread(&c->wall_seconds, sizeof c->wall_seconds, 1, f) == 1 && fread(&c->totals, sizeof c->totals, 1, f) == 1 &&
		  (c->scene_path = get_string(f)) != NULL && get_strings(f, &c->sets, &c->set_count) &&
		  get_strings(f, &c->before, &c->before_count) && fread(&c->sew_open, sizeof c->sew_open, 1, f) == 1 &&
		  fread(&c->sew_frame, sizeof c->sew_frame, 1, f) == 1 && fread(&c->sew_sewn_at, sizeof c->sew_sewn_at, 1, f) == 1 &&
		  fread(&c->sew_motion_start, sizeof c->sew_motion_start, 1, f) == 1 &&
		  fread(&c->seam_count, sizeof c->seam_count, 1, f) == 1 && c->seam_count >= 0 && c->seam_count <= 1 << 24;
	if (ok && c->seam_count > 0) {
		c->seam_merged_frame = malloc((size_t)c->seam_count * sizeof *c->seam_merged_frame);
		ok = c->seam_merged_frame &&
		     fread(c->seam_merged_frame, sizeof *c->seam_merged_frame, (size_t)c->seam_count, f) == (size_t)c->seam_count;
	}
	ok = ok && fread(&c->strict, sizeof c->strict, 1, f) == 1 && fread(&c->crossing_count, sizeof c->crossing_count, 1, f) == 1 &&
	     c->crossing_count >= 0 && c->crossing_count <= 1 << 24;
	if (ok && c->crossing_count > 0) {
		c->crossings = malloc((size_t)c->crossing_count * sizeof *c->crossings);
		ok = c->crossings && fread(c->crossings, sizeof *c->crossings, (size_t)c->crossing_count, f) == (size_t)c->crossing_count;
	}
	if (!ok) {
		fclose(f);
		checkpoint_free(c);
		core_fail(err, err_size, "'%s' is not a checkpoint of this drape version, or is cut short", path);
		return NULL;
	}
	return f;
}

bool checkpoint_read(const char* dir, checkpoint* c, char* err, size_t err_size)
{
	FILE* f = open_checkpoint(dir, c, err, err_size);
	if (f) fclose(f);
	return f != NULL;
}

bool checkpoint_read_world(const char* dir, drape_world* world, char* err, size_t err_size)
{
	checkpoint c;
	FILE* f = open_checkpoint(dir, &c, err, err_size);
	if (!f) return false;
	checkpoint_free(&c);
	char why[512];
	bool ok = world_state_read(world, f, why, sizeof why);
	fclose(f);
	if (!ok) return core_fail(err, err_size, "%s/%s: %s", dir, CHECKPOINT_FILE, why);
	return true;
}

static void free_strings(char** s, int32_t count)
{
	for (int32_t i = 0; s && i < count; ++i) free(s[i]);
	free(s);
}

void checkpoint_free(checkpoint* c)
{
	free(c->scene_path);
	free_strings(c->sets, c->set_count);
	free_strings(c->before, c->before_count);
	free(c->seam_merged_frame);
	free(c->crossings);
	memset(c, 0, sizeof *c);
}
