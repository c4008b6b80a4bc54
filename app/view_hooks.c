/* `drape view` test hooks: the ready file and the position report (docs/viewer.md, "Test
 * hooks"). */
#include "view_hooks.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Room for `need` elements of `size` bytes in *items (*capacity of them), doubling; false, with
 * nothing changed, when out of memory. The recordings grow once per frame at most. */
static bool reserve(void** items, int32_t* capacity, int32_t need, size_t size)
{
	if (need <= *capacity) return true;
	const int32_t cap = *capacity > 0 ? 2 * *capacity : 64;
	void* p = realloc(*items, (size_t)cap * size);
	if (!p) return false;
	*items = p;
	*capacity = cap;
	return true;
}

static void add_sample(view_recorder* r, view_sample** items, int32_t* count, int32_t* capacity, const view_sample* s)
{
	if (!reserve((void**)items, capacity, *count + 1, sizeof(view_sample))) {
		r->out_of_memory = true;
		return;
	}
	(*items)[(*count)++] = *s;
}

void view_recorder_frame(view_recorder* r, const drape_world* w, int64_t frame, const view_drag* drag)
{
	view_sample s = {.frame = frame, .time = drape_world_time(w)};
	if (r->track_cloth >= 0 &&
	    view_particle_position(w, r->track_cloth, r->track_vertex, &r->scratch, &r->scratch_size, s.position))
		add_sample(r, &r->track, &r->track_count, &r->track_capacity, &s);
	if (drag && drag->active && r->drag_count > 0 &&
	    view_particle_position(w, drag->grabbed.cloth, drag->grabbed.vertex, &r->scratch, &r->scratch_size,
				   s.position)) {
		memcpy(s.target, drag->target, sizeof s.target);
		view_drag_record* d = &r->drags[r->drag_count - 1];
		add_sample(r, &d->samples, &d->count, &d->capacity, &s);
	}
}

void view_recorder_drag_begin(view_recorder* r, const drape_world* w, int64_t frame, const view_drag* drag,
			      double stiffness)
{
	if (!reserve((void**)&r->drags, &r->drag_capacity, r->drag_count + 1, sizeof(view_drag_record))) {
		r->out_of_memory = true;
		return;
	}
	view_drag_record* d = &r->drags[r->drag_count++];
	memset(d, 0, sizeof *d);
	d->cloth = drag->grabbed.cloth;
	d->vertex = drag->grabbed.vertex;
	d->stiffness = stiffness;
	memcpy(d->grab, drag->grabbed.position, sizeof d->grab);
	view_sample s = {.frame = frame, .time = drape_world_time(w)};
	memcpy(s.position, drag->grabbed.position, sizeof s.position);
	memcpy(s.target, drag->target, sizeof s.target);
	add_sample(r, &d->samples, &d->count, &d->capacity, &s);
}

void view_recorder_free(view_recorder* r)
{
	for (int32_t i = 0; i < r->drag_count; ++i) free(r->drags[i].samples);
	free(r->drags);
	free(r->track);
	free(r->scratch);
	memset(r, 0, sizeof *r);
	r->track_cloth = -1;
}

/* JSON has no non-finite numbers; a diverged particle is written as null. */
static void put_number(FILE* f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.17g", v);
	else
		fputs("null", f);
}

static void put_vec(FILE* f, const double v[3])
{
	fputc('[', f);
	for (int k = 0; k < 3; ++k) {
		if (k) fputs(", ", f);
		put_number(f, v[k]);
	}
	fputc(']', f);
}

static void put_samples(FILE* f, const view_sample* s, int32_t n, bool with_target)
{
	fputs("[", f);
	for (int32_t i = 0; i < n; ++i) {
		fprintf(f, "%s\n      {\"frame\": %lld, \"time\": ", i ? "," : "", (long long)s[i].frame);
		put_number(f, s[i].time);
		fputs(", \"position\": ", f);
		put_vec(f, s[i].position);
		if (with_target) {
			fputs(", \"target\": ", f);
			put_vec(f, s[i].target);
		}
		fputc('}', f);
	}
	fputs(n ? "\n    ]" : "]", f);
}

static void put_string(FILE* f, const char* s)
{
	fputc('"', f);
	for (; *s; ++s) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

bool view_recorder_write(const view_recorder* r, const char* path, const char* status, const char* error,
			 int64_t displayed_frames, double time, const drape_stats* totals, char* err, size_t err_size)
{
	FILE* f = fopen(path, "w");
	if (!f) {
		snprintf(err, err_size, "cannot write report '%s': %s", path, strerror(errno));
		return false;
	}
	fputs("{\n  \"status\": ", f);
	put_string(f, status);
	fputs(",\n  \"error\": ", f);
	put_string(f, error ? error : "");
	fprintf(f, ",\n  \"displayed_frames\": %lld,\n  \"resets\": %d,\n  \"time\": ", (long long)displayed_frames,
		r->resets);
	put_number(f, time);
	fprintf(f, ",\n  \"steps\": %lld,\n  \"rejected\": %lld,\n  \"cg_iterations\": %lld,\n  \"min_dt\": ",
		(long long)totals->steps, (long long)totals->rejected, (long long)totals->cg_iterations);
	put_number(f, totals->min_dt);
	fputs(",\n  \"max_dt\": ", f);
	put_number(f, totals->max_dt);
	fprintf(f, ",\n  \"seams\": %d,\n  \"seams_open\": %d,\n  \"motion_start\": ", r->seams, r->seams_open);
	if (r->motion_start >= 0.0) put_number(f, r->motion_start);
	else fputs("null", f);
	fprintf(f, ",\n  \"complete\": %s,\n  \"tracked\": ", r->out_of_memory ? "false" : "true");
	if (r->track_cloth >= 0) {
		fprintf(f, "{\"cloth\": %d, \"vertex\": %d, \"samples\": ", r->track_cloth, r->track_vertex);
		put_samples(f, r->track, r->track_count, false);
		fputs("}", f);
	} else {
		fputs("null", f);
	}
	fputs(",\n  \"drags\": [", f);
	for (int32_t i = 0; i < r->drag_count; ++i) {
		const view_drag_record* d = &r->drags[i];
		fprintf(f, "%s\n    {\"cloth\": %d, \"vertex\": %d, \"stiffness\": ", i ? "," : "", d->cloth, d->vertex);
		put_number(f, d->stiffness);
		fputs(", \"grab\": ", f);
		put_vec(f, d->grab);
		fputs(", \"samples\": ", f);
		put_samples(f, d->samples, d->count, true);
		fputs("}", f);
	}
	fputs(r->drag_count ? "\n  ]\n}\n" : "]\n}\n", f);
	bool ok = !ferror(f);
	if (fclose(f) != 0) ok = false;
	if (!ok) snprintf(err, err_size, "cannot write report '%s': %s", path, strerror(errno));
	return ok;
}

bool view_write_ready(const char* path, int win_w, int win_h, int fb_w, int fb_h, bool has_pixel, double px,
		      double py, char* err, size_t err_size)
{
	size_t n = strlen(path) + 8;
	char* tmp = malloc(n);
	if (!tmp) {
		snprintf(err, err_size, "out of memory");
		return false;
	}
	snprintf(tmp, n, "%s.tmp", path);
	FILE* f = fopen(tmp, "w");
	bool ok = f != NULL;
	if (f) {
		fprintf(f, "{\"window\": [%d, %d], \"framebuffer\": [%d, %d], \"pixel\": ", win_w, win_h, fb_w, fb_h);
		if (has_pixel)
			fprintf(f, "[%.0f, %.0f]}\n", px, py);
		else
			fputs("null}\n", f);
		ok = !ferror(f);
		if (fclose(f) != 0) ok = false;
	}
	if (ok && rename(tmp, path) != 0) ok = false;
	if (!ok) {
		snprintf(err, err_size, "cannot write ready file '%s': %s", path, strerror(errno));
		remove(tmp);
	}
	free(tmp);
	return ok;
}
