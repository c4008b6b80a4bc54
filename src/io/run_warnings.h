/* What a run warns about, on stderr and in summary.json's "warnings": doubtful but accepted input
 * (drape_world_warnings), and crossed cloth (docs/reliability.md, "Crossings are reported"): after
 * sewing, a frame whose cloths intersect is recorded per pair of cloths that cross, with the first
 * frame; drape_run warns, and with strict stops. */
#ifndef DRAPE_IO_RUN_WARNINGS_H
#define DRAPE_IO_RUN_WARNINGS_H

#include "drape.h"

#include <stddef.h>
#include <stdint.h>

typedef struct cJSON cJSON;

/* Cloths a and b (a <= b; a == b: a cloth through itself; -1: the detector could not tell which,
 * its search over budget) crossed first at first_frame, at `frames` frames in all, with at most
 * `most` intersecting triangle pairs. */
typedef struct crossing_record {
	int32_t a, b;
	int32_t first_frame;
	int32_t frames;
	int32_t most;
} crossing_record;

typedef struct crossing_log {
	crossing_record* records; /* in the order they were first seen */
	int32_t count, capacity;
} crossing_log;

/* After frame `frame` was stepped, before its seams merge: when its last step left intersecting
 * triangles (stats.self_intersections > 0), tallies them by cloth pair and updates the records.
 * Returns how many records are new (cloth pairs crossing for the first time), -1 when out of
 * memory. */
int32_t crossings_after_frame(crossing_log* log, drape_world* world, int32_t frame, const drape_stats* stats);

/* One sentence for a record: "cloths 'skirt' and 'blouse' cross each other from frame 15 (316
 * intersecting triangle pairs then)"; `whole` adds the frames and the most pairs (the end of the
 * run's summary). */
void crossings_message(const crossing_record* r, const drape_world* world, bool whole, char* out, size_t size);

/* Calls fn once per line of drape_world_warnings (each doubtful input). */
void run_warnings_each_input(const drape_world* world, void (*fn)(const char* line, void* user), void* user);

/* summary.json's "warnings": the world's input warnings ({"kind": "input", "message"}), then one
 * {"kind": "crossing", "cloths", "first_frame", "frames", "most_pairs", "message"} per record of
 * log (may be NULL). */
cJSON* run_warnings_json(const crossing_log* log, const drape_world* world);

/* Replaces log's records with count copies of records (a resumed run's, from its checkpoint);
 * false when out of memory. */
bool crossings_restore(crossing_log* log, const crossing_record* records, int32_t count);
void crossings_free(crossing_log* log);

#endif
