/* What `drape run` writes: the output directory (never half-overwritten), one OBJ per frame
 * written atomically, stats.csv (Table 1 columns per frame) and summary.json. */
#ifndef DRAPE_APP_OUTPUT_H
#define DRAPE_APP_OUTPUT_H

#include "drape.h"
#include "io/scene.h"

#include <stdio.h>

/* Makes `dir` ready: creates it (with parents) or, if it exists, refuses unless `force`, in which
 * case the files the previous run listed in its summary.json ("files") are removed; any other
 * file that looks like drape's output is refused by name, never deleted. Every refusal comes
 * before any change. DRAPE_ERROR_INVALID: refused (exit 2); DRAPE_ERROR_IO: the folder cannot
 * be made, read or cleared (exit 1). */
drape_status output_prepare_dir(const char* dir, bool force, char* err, size_t err_size);

/* Creates `dir` and its parents where missing (mkdir -p). */
bool output_make_dirs(const char* dir, char* err, size_t err_size);

FILE* output_open_stats(const char* dir, char* err, size_t err_size);

/* drape resume: stats.csv cut back to the rows of frames 0 ... last_frame, opened to append. */
FILE* output_reopen_stats(const char* dir, int last_frame, char* err, size_t err_size);

/* drape resume: removes the run's frame files after `frame` and its temporary files (a killed
 * run's); the user's files are left alone. */
bool output_cut_back(const char* dir, int frame, char* err, size_t err_size);
void output_stats_row(FILE* f, int frame, double time, const drape_stats* s, double kinetic_energy, double wall_ms);

typedef struct run_totals {
	const char* status; /* "ok", "failed", "interrupted" */
	const char* error;
	int frames_written;
	double simulated_time;
	double wall_seconds;
	drape_stats stats; /* summed over frames; min/max over frames */
	unsigned formats;  /* FORMAT_* bits (caches.h) */
	int exit_status;
	int seams_open;      /* garments (io/sewing.h): seams still open at the end */
	double sewn_at;      /* s, < 0: not sewn */
	double motion_start; /* s, < 0: not relaxed yet */
	const int32_t* seam_merged_frame; /* per seam: the frame after which it merged, -1: open */
	const struct crossing_log* crossings; /* crossed cloth after sewing (io/run_warnings.h), or NULL */
	int cache_start; /* the first frame of PC2, glTF and USD (a garment's last merge), -1: none written */
	/* The folder's entries before the run wrote anything (the user's files): summary.json's
	 * "files" lists every other entry, which a later --force may remove (docs/reliability.md). */
	char** before;
	int32_t before_count;
} run_totals;

/* The entries of dir (names, malloc'd, NULL-terminated array in *names); false if unreadable. */
bool output_list_dir(const char* dir, char*** names, int32_t* count);
void output_free_list(char** names, int32_t count);

bool output_write_summary(const char* dir, const scene* s, const drape_world* world, const run_totals* t, char* err,
			  size_t err_size);
/* Whether dir holds summary.json: a run writes it last (after its caches), so a run killed after
 * its last frame's checkpoint but before it is not finished (drape resume finishes it). */
bool output_has_summary(const char* dir);

/* That summary plus "out": dir, as a cJSON tree the caller deletes (drape_run's summary_json). */
typedef struct cJSON cJSON;
cJSON* output_summary_json(const char* dir, const scene* s, const drape_world* world, const run_totals* t);

#endif
