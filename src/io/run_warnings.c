/* What a run warns about (run_warnings.h). Crossed cloth: the cloth/cloth response keeps cloth that
 * is free of intersections free, but a step that could not avoid one is accepted and the crossing
 * counted (stats.self_intersections), and garments placed through each other stay so. Before the
 * seams have merged, crossings are expected (panels pass through each other on their way
 * together) and are not reported. */
#include "run_warnings.h"

#include "collide/cloth_crossings.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static crossing_record* find_or_add(crossing_log* log, int32_t a, int32_t b, int32_t frame, bool* added)
{
	*added = false;
	for (int32_t i = 0; i < log->count; ++i)
		if (log->records[i].a == a && log->records[i].b == b) return &log->records[i];
	if (log->count == log->capacity) {
		int32_t cap = log->capacity ? 2 * log->capacity : 4;
		crossing_record* grown = realloc(log->records, (size_t)cap * sizeof *grown);
		if (!grown) return NULL;
		log->records = grown;
		log->capacity = cap;
	}
	*added = true;
	crossing_record* r = &log->records[log->count++];
	*r = (crossing_record){.a = a, .b = b, .first_frame = frame};
	return r;
}

static int32_t note(crossing_log* log, int32_t a, int32_t b, int32_t frame, int32_t pairs)
{
	bool added;
	crossing_record* r = find_or_add(log, a, b, frame, &added);
	if (!r) return -1;
	r->frames++;
	if (pairs > r->most) r->most = pairs;
	return added;
}

int32_t crossings_after_frame(crossing_log* log, drape_world* world, int32_t frame, const drape_stats* stats)
{
	if (stats->self_intersections <= 0) return 0;
	const int32_t n = drape_cloth_count(world);
	int32_t* tally = malloc((size_t)(n > 0 ? n : 1) * (size_t)(n > 0 ? n : 1) * sizeof *tally);
	if (!tally) return -1;
	int32_t total = cloth_crossings_tally(world, tally);
	int32_t added = 0;
	if (total <= 0) {
		/* the detector's search was over its budget: the count stands, the cloths are unknown */
		added = note(log, -1, -1, frame, stats->self_intersections);
	} else {
		for (int32_t a = 0; a < n && added >= 0; ++a)
			for (int32_t b = a; b < n && added >= 0; ++b) {
				if (tally[a * n + b] == 0) continue;
				int32_t k = note(log, a, b, frame, tally[a * n + b]);
				added = k < 0 ? -1 : added + k;
			}
	}
	free(tally);
	return added;
}

void crossings_message(const crossing_record* r, const drape_world* world, bool whole, char* out, size_t size)
{
	int used;
	if (r->a < 0)
		used = snprintf(out, size, "cloth crosses cloth from frame %d (the cloths could not be told apart)", (int)r->first_frame);
	else if (r->a == r->b)
		used = snprintf(out, size, "cloth '%s' passes through itself from frame %d", drape_cloth_name(world, (drape_cloth_id){r->a}),
				(int)r->first_frame);
	else
		used = snprintf(out, size, "cloths '%s' and '%s' cross each other from frame %d",
				drape_cloth_name(world, (drape_cloth_id){r->a}), drape_cloth_name(world, (drape_cloth_id){r->b}),
				(int)r->first_frame);
	if (used < 0 || (size_t)used >= size) return;
	if (whole)
		snprintf(out + used, size - (size_t)used, " (%d frame%s with crossings, at most %d intersecting triangle pairs; stats.csv's self_intersections)",
			 (int)r->frames, r->frames == 1 ? "" : "s", (int)r->most);
	else
		snprintf(out + used, size - (size_t)used, " (%d intersecting triangle pairs)", (int)r->most);
}

void run_warnings_each_input(const drape_world* world, void (*fn)(const char* line, void* user), void* user)
{
	for (const char* p = drape_world_warnings(world); *p;) {
		const char* end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char line[1024];
		snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line ? len : sizeof line - 1), p);
		fn(line, user);
		p += len + (end ? 1 : 0);
	}
}

static void add_input(const char* line, void* list)
{
	cJSON* w = cJSON_CreateObject();
	cJSON_AddStringToObject(w, "kind", "input");
	cJSON_AddStringToObject(w, "message", line);
	cJSON_AddItemToArray(list, w);
}

cJSON* run_warnings_json(const crossing_log* log, const drape_world* world)
{
	cJSON* list = cJSON_CreateArray();
	run_warnings_each_input(world, add_input, list);
	for (int32_t i = 0; log && i < log->count; ++i) {
		const crossing_record* r = &log->records[i];
		cJSON* w = cJSON_CreateObject();
		cJSON_AddStringToObject(w, "kind", "crossing");
		cJSON* cloths = cJSON_AddArrayToObject(w, "cloths");
		if (r->a >= 0) cJSON_AddItemToArray(cloths, cJSON_CreateString(drape_cloth_name(world, (drape_cloth_id){r->a})));
		if (r->b >= 0 && r->b != r->a) cJSON_AddItemToArray(cloths, cJSON_CreateString(drape_cloth_name(world, (drape_cloth_id){r->b})));
		cJSON_AddNumberToObject(w, "first_frame", r->first_frame);
		cJSON_AddNumberToObject(w, "frames", r->frames);
		cJSON_AddNumberToObject(w, "most_pairs", r->most);
		char text[1024];
		crossings_message(r, world, true, text, sizeof text);
		cJSON_AddStringToObject(w, "message", text);
		cJSON_AddItemToArray(list, w);
	}
	return list;
}

bool crossings_restore(crossing_log* log, const crossing_record* records, int32_t count)
{
	log->count = 0;
	if (count > log->capacity) {
		crossing_record* grown = realloc(log->records, (size_t)count * sizeof *grown);
		if (!grown) return false;
		log->records = grown;
		log->capacity = count;
	}
	if (count > 0) memcpy(log->records, records, (size_t)count * sizeof *records);
	log->count = count;
	return true;
}

void crossings_free(crossing_log* log)
{
	free(log->records);
	memset(log, 0, sizeof *log);
}
