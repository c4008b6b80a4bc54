/* drape_run (include/drape.h): a scene file to a folder of frames, caches, stats.csv and
 * summary.json, with a progress callback and a cancel flag; `drape run` is a thin user of it.
 * Everything that can be refused is checked before the folder is touched (docs/caches.md). */
#define _POSIX_C_SOURCE 200809L
#include "drape.h"

#include "core.h"
#include "io/caches.h"
#include "io/checkpoint.h"
#include "io/embedded.h"
#include "io/output.h"
#include "io/run_warnings.h"
#include "io/scene.h"
#include "io/scene_handle.h"
#include "io/scene_set.h"
#include "io/sewing.h"
#include "world_state.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

drape_run_def drape_default_run_def(void)
{
	drape_run_def d;
	memset(&d, 0, sizeof d);
	d.out_dir = "out";
	d.formats = DRAPE_FORMAT_OBJ;
	d.frames = -1;
	d.cookie = DRAPE_COOKIE;
	return d;
}

void drape_run_result_free(drape_run_result* result)
{
	if (!result) return;
	free(result->summary_json);
	result->summary_json = NULL;
}

/* The exit status of the drape command for each outcome (app/commands.h). */
static int exit_status_of(drape_status st)
{
	switch (st) {
	case DRAPE_OK: return 0;
	case DRAPE_ERROR_IO: return 1;
	case DRAPE_ERROR_DIVERGED: return 3;
	case DRAPE_ERROR_INTERRUPTED: return 130;
	case DRAPE_ERROR_INVALID:
	case DRAPE_ERROR_MEMORY: break;
	}
	return 2;
}

static drape_status early(drape_run_result* r, drape_status st, const char* msg)
{
	snprintf(r->error, sizeof r->error, "%s", msg);
	r->status = st;
	r->exit_status = exit_status_of(st);
	return st;
}

static void add_totals(drape_stats* t, const drape_stats* fs)
{
	t->steps += fs->steps;
	t->rejected += fs->rejected;
	t->rejected_strain += fs->rejected_strain;
	t->rejected_penetration += fs->rejected_penetration;
	t->rejected_intersection += fs->rejected_intersection;
	t->rejected_other += fs->rejected_other;
	t->cg_iterations += fs->cg_iterations;
	t->solves += fs->solves;
	t->release_solves += fs->release_solves;
	t->contacts_released += fs->contacts_released;
	t->eval_ms += fs->eval_ms;
	t->cg_ms += fs->cg_ms;
	t->cc_ms += fs->cc_ms;
	t->cs_ms += fs->cs_ms;
	for (int k = 0; k < DRAPE_STAGE_COUNT; ++k) t->stage_ms[k] += fs->stage_ms[k];
	if (fs->min_dt > 0.0 && (t->min_dt == 0.0 || fs->min_dt < t->min_dt)) t->min_dt = fs->min_dt;
	if (fs->max_dt > t->max_dt) t->max_dt = fs->max_dt;
	t->seam_gap = fs->seam_gap;
	if (fs->penetrating > t->penetrating) t->penetrating = fs->penetrating;
}

/* The frame PC2, glTF and USD start at: the one after which the last seam merged (0 without
 * seams), or -1 while one is open (io/caches.h). */
static int cache_start(const int32_t* merged_frame, int32_t seam_count)
{
	int first = 0;
	for (int32_t k = 0; k < seam_count; ++k) {
		if (merged_frame[k] < 0) return -1;
		if (merged_frame[k] > first) first = merged_frame[k];
	}
	return first;
}

/* checkpoint.bin after frame f: the run so far and the world's state (docs/reliability.md). */
static bool save_checkpoint(checkpoint* ck, const char* dir, int f, const run_totals* t, const sewing_state* sew,
			    const crossing_log* crossed, drape_world* world, char* err, size_t err_size)
{
	if (crossed->count != ck->crossing_count) {
		crossing_record* grown = realloc(ck->crossings, (size_t)(crossed->count > 0 ? crossed->count : 1) * sizeof *grown);
		if (!grown) return core_fail(err, err_size, "out of memory writing the checkpoint");
		ck->crossings = grown;
		ck->crossing_count = crossed->count;
	}
	if (crossed->count > 0) memcpy(ck->crossings, crossed->records, (size_t)crossed->count * sizeof *crossed->records);
	if (ck->seam_count != sew->seam_count) {
		int32_t* grown = realloc(ck->seam_merged_frame, (size_t)(sew->seam_count > 0 ? sew->seam_count : 1) * sizeof *grown);
		if (!grown) return core_fail(err, err_size, "out of memory writing the checkpoint");
		ck->seam_merged_frame = grown;
		ck->seam_count = sew->seam_count;
	}
	if (sew->seam_count > 0) memcpy(ck->seam_merged_frame, sew->merged_frame, (size_t)sew->seam_count * sizeof *sew->merged_frame);
	ck->sew_open = sew->open;
	ck->sew_frame = sew->frame;
	ck->sew_sewn_at = sew->sewn_at;
	ck->sew_motion_start = sew->motion_start;
	ck->frame = f;
	ck->frames_written = t->frames_written;
	ck->wall_seconds = t->wall_seconds;
	ck->totals = t->stats;
	return checkpoint_write(dir, ck, world, err, err_size);
}

/* After frame f's step, before its seams merge: crossed cloth after sewing is recorded and each
 * cloth pair that crosses for the first time is warned about; with strict that stops the run
 * (DRAPE_ERROR_DIVERGED, the message in err), like any other state the run cannot go on from. */
static drape_status check_crossings(const drape_run_def* def, bool strict, crossing_log* crossed, drape_world* world, int f,
				    const drape_stats* fs, char* err, size_t err_size)
{
	int32_t added = crossings_after_frame(crossed, world, f, fs);
	if (added < 0) {
		core_fail(err, err_size, "out of memory");
		return DRAPE_ERROR_MEMORY;
	}
	for (int32_t i = crossed->count - added; i < crossed->count; ++i) {
		char text[1024];
		crossings_message(&crossed->records[i], world, false, text, sizeof text);
		if (strict) {
			core_fail(err, err_size, "%s; --strict stops the run at crossed cloth (docs/reliability.md)", text);
			return DRAPE_ERROR_DIVERGED;
		}
		if (def->warning) def->warning(text, def->user);
	}
	return DRAPE_OK;
}

/* Steps s's world frame by frame into an output folder that is ready, from frame `first` (0: a
 * fresh run; more: a resumed one, whose world, stats.csv and totals hold the frames before it);
 * fills r and totals. With ck, a checkpoint follows every frame (io/checkpoint.h). */
static void run_frames(const drape_run_def* def, const scene* s, drape_world* world, caches* cache, drape_run_result* r,
		       run_totals* totals, int first, checkpoint* ck, crossing_log* crossed, bool strict)
{
	char err[1024];
	const char* dir = def->out_dir;
	const double frame_dt = 1.0 / s->fps;
	const double start = now_s();
	drape_status st = DRAPE_OK;
	drape_world_set_cancel(world, def->cancel);
	sewing_state sew;
	const bool sew_ok = sewing_begin(&sew, world);
	const double wall_before = totals->wall_seconds;
	FILE* stats = !sew_ok ? NULL : first > 0 ? output_reopen_stats(dir, first - 1, err, sizeof err) : output_open_stats(dir, err, sizeof err);
	if (!sew_ok) {
		snprintf(err, sizeof err, "out of memory");
		st = DRAPE_ERROR_MEMORY;
	} else if (!stats) {
		st = DRAPE_ERROR_IO;
	} else if (first > 0) {
		/* where the killed run's sewing stood (its world, seams merged, came from the checkpoint) */
		sewing_restore(&sew, ck->sew_open, ck->sew_frame, ck->sew_sewn_at, ck->sew_motion_start, ck->seam_merged_frame,
			       ck->seam_count);
		drape_run_progress p = {first - 1, s->frames, drape_world_time(world), world};
		if (def->progress && !def->progress(&p, def->user)) st = DRAPE_ERROR_INTERRUPTED;
	} else if (!caches_add_frame(cache, 0, world, err, sizeof err)) {
		st = DRAPE_ERROR_IO;
	} else {
		drape_stats zero = {0};
		zero.seam_gap = sewing_max_gap(world);
		output_stats_row(stats, 0, 0.0, &zero, drape_world_kinetic_energy(world), 0.0);
		totals->frames_written = 1;
		if (ck && !save_checkpoint(ck, dir, 0, totals, &sew, crossed, world, err, sizeof err)) st = DRAPE_ERROR_IO;
		drape_run_progress p = {0, s->frames, 0.0, world};
		if (st == DRAPE_OK && def->progress && !def->progress(&p, def->user)) st = DRAPE_ERROR_INTERRUPTED;
	}
	for (int f = first > 0 ? first : 1; st == DRAPE_OK && f <= s->frames; ++f) {
		if (def->cancel && *def->cancel) {
			st = DRAPE_ERROR_INTERRUPTED;
			break;
		}
		double t0 = now_s();
		drape_world_reset_stats(world);
		const bool sewn = sew.open == 0; /* crossings count from the frame after the last merge */
		sewing_set_gravity(&sew, world, s);
		world_state_frame_start(world);
		/* Step to the frame's exact time, f / fps, so rounding never accumulates. */
		drape_status step = drape_world_step(world, f * frame_dt - drape_world_time(world));
		drape_stats fs = drape_world_get_stats(world);
		double ms = 1e3 * (now_s() - t0);
		add_totals(&totals->stats, &fs);
		if (step == DRAPE_ERROR_INTERRUPTED) {
			st = DRAPE_ERROR_INTERRUPTED; /* mid-frame: the frames written so far stay */
			break;
		}
		if (step != DRAPE_OK) {
			snprintf(err, sizeof err, "%s", drape_world_error(world));
			st = step == DRAPE_ERROR_DIVERGED ? DRAPE_ERROR_DIVERGED : DRAPE_ERROR_INVALID;
			r->failed_frame = f;
			break;
		}
		drape_status checked = sewn && fs.self_intersections > 0
					       ? check_crossings(def, strict, crossed, world, f, &fs, err, sizeof err)
					       : DRAPE_OK;
		if (checked == DRAPE_OK) checked = sewing_after_frame(&sew, world, s, err, sizeof err);
		if (checked != DRAPE_OK) {
			st = checked;
			r->failed_frame = f;
			break;
		}
		if (!caches_add_frame(cache, f, world, err, sizeof err)) {
			st = DRAPE_ERROR_IO;
			break;
		}
		output_stats_row(stats, f, drape_world_time(world), &fs, drape_world_kinetic_energy(world), ms);
		totals->frames_written = f + 1;
		totals->wall_seconds = wall_before + now_s() - start;
		if (ck && !save_checkpoint(ck, dir, f, totals, &sew, crossed, world, err, sizeof err)) {
			st = DRAPE_ERROR_IO;
			break;
		}
		drape_run_progress p = {f, s->frames, drape_world_time(world), world};
		if (def->progress && !def->progress(&p, def->user)) st = DRAPE_ERROR_INTERRUPTED;
	}
	if (stats) fclose(stats);
	totals->simulated_time = drape_world_time(world);
	totals->seams_open = sew.open;
	totals->sewn_at = sew.sewn_at;
	totals->motion_start = sew.motion_start;
	totals->seam_merged_frame = sew.merged_frame;
	totals->crossings = crossed;
	totals->cache_start = totals->frames_written > 0 ? cache_start(sew.merged_frame, sew.seam_count) : -1;
	totals->wall_seconds = wall_before + now_s() - start;
	char serr[512];
	if (!caches_finish(cache, serr, sizeof serr) && st == DRAPE_OK) {
		st = DRAPE_ERROR_IO;
		snprintf(err, sizeof err, "%s", serr);
	}
	if (st != DRAPE_OK && st != DRAPE_ERROR_INTERRUPTED) snprintf(r->error, sizeof r->error, "%s", err);
	totals->status = st == DRAPE_OK ? "ok" : st == DRAPE_ERROR_INTERRUPTED ? "interrupted" : "failed";
	totals->error = r->error[0] ? r->error : NULL;
	totals->exit_status = exit_status_of(st);
	if (!output_write_summary(dir, s, world, totals, serr, sizeof serr) && st == DRAPE_OK) {
		st = DRAPE_ERROR_IO;
		snprintf(r->error, sizeof r->error, "%s", serr);
		totals->exit_status = exit_status_of(st);
	}
	/* Last: until summary.json exists, a kill leaves a run drape resume finishes from the spool. */
	if (st == DRAPE_OK) caches_remove_spool(dir);
	/* The caller's copy of summary.json, while the merge log (in sew) is still there. */
	cJSON* root = output_summary_json(dir, s, world, totals);
	r->summary_json = root ? cJSON_PrintUnformatted(root) : NULL;
	cJSON_Delete(root);
	totals->seam_merged_frame = NULL;
	sewing_end(&sew);
	r->status = st;
	r->exit_status = exit_status_of(st);
	r->frames_written = totals->frames_written;
	r->simulated_time = totals->simulated_time;
	r->wall_seconds = totals->wall_seconds;
	r->totals = totals->stats;
}

/* drape resume: the checkpoint's scene, reloaded and checked against its hash, and the folder
 * cut back to the checkpoint's frame (later frames of a killed run are rewritten identically). */
static bool load_resumed(const drape_run_def* def, checkpoint* ck, scene* owned, char* err, size_t err_size)
{
	if (!checkpoint_read(def->out_dir, ck, err, err_size)) return false;
	bool loaded = ck->scene_path[0] ? scene_load_file_set(ck->scene_path, (const char* const*)ck->sets, ck->set_count, owned, err, err_size)
					: scene_load_default_set((const char* const*)ck->sets, ck->set_count, owned, err, err_size);
	if (!loaded) return false;
	uint64_t hash;
	if (!checkpoint_scene_hash(owned, &hash) || hash != ck->scene_hash) {
		core_fail(err, err_size, "%s: the scene changed since the run in '%s' started (its text or overrides differ); resume refuses",
			  owned->path, def->out_dir);
		scene_free(owned);
		return false;
	}
	/* Killed between the last frame's checkpoint and summary.json, the run resumes with no frame
	 * left to step: its caches and summary are written as the uninterrupted run's. */
	if (ck->frame >= ck->frames && output_has_summary(def->out_dir)) {
		core_fail(err, err_size, "the run in '%s' is complete (frame %d of %d)", def->out_dir, (int)ck->frame, (int)ck->frames);
		scene_free(owned);
		return false;
	}
	return true;
}

drape_status drape_run(const drape_run_def* def, drape_run_result* r)
{
	memset(r, 0, sizeof *r);
	r->failed_frame = -1;
	if (!def || def->cookie != DRAPE_COOKIE) return early(r, DRAPE_ERROR_INVALID, "run def not initialised with drape_default_run_def()");
	if (!def->out_dir || !def->out_dir[0]) return early(r, DRAPE_ERROR_INVALID, "no output folder given");
	char err[1024];
	scene owned;
	bool own = false;
	const scene* s;
	scene copy;
	checkpoint ck;
	memset(&ck, 0, sizeof ck);
	if (def->resume) {
		if (!load_resumed(def, &ck, &owned, err, sizeof err)) {
			checkpoint_free(&ck);
			return early(r, DRAPE_ERROR_INVALID, err);
		}
		own = true;
		copy = owned;
		copy.frames = ck.frames;
		copy.world.threads = def->threads > 0 ? def->threads : ck.threads;
	} else {
		if (def->scene) {
			copy = def->scene->s; /* shallow: only frames and threads change */
		} else {
			if (!def->scene_path) return early(r, DRAPE_ERROR_INVALID, "no scene given");
			if (!scene_load_file_set(def->scene_path, def->overrides, def->override_count, &owned, err, sizeof err))
				return early(r, owned.failure == DRAPE_ERROR_MEMORY ? DRAPE_ERROR_MEMORY : DRAPE_ERROR_INVALID, err);
			own = true;
			copy = owned;
		}
		if (def->frames >= 0) copy.frames = def->frames;
		if (def->threads > 0) copy.world.threads = def->threads;
	}
	s = &copy;
	drape_status st = DRAPE_OK;
	drape_status built;
	drape_world* world = scene_build_world_status(s, &built, err, sizeof err);
	caches* cache = NULL;
	if (!world) {
		st = early(r, built, err);
	} else {
		/* Doubtful but accepted input: told once, line by line, before anything is written. */
		if (def->warning) run_warnings_each_input(world, def->warning, def->user);
		unsigned formats = def->resume ? ck.formats : def->formats ? def->formats : DRAPE_FORMAT_OBJ;
		/* PC2, glTF and USD are rebuilt on resume from the positions kept beside the checkpoint. */
		char why[256] = "";
		bool resumable = world_state_supported(world, why, sizeof why);
		if (def->resume && !checkpoint_read_world(def->out_dir, world, err, sizeof err)) {
			drape_world_destroy(world);
			scene_free(&owned);
			checkpoint_free(&ck);
			return early(r, DRAPE_ERROR_INVALID, err);
		}
		cache = caches_begin(def->out_dir, formats, world, s->fps, s->frames, err, sizeof err);
		/* Every refusal before the folder changes (docs/reliability.md, "Check before you act"). */
		drape_status ready = !cache ? DRAPE_ERROR_INVALID : DRAPE_OK;
		if (ready == DRAPE_OK && def->resume) {
			const int first_cached = cache_start(ck.seam_merged_frame, ck.seam_count);
			if (!caches_check_resume(cache, ck.frame, first_cached, err, sizeof err)) ready = DRAPE_ERROR_INVALID;
			else if (!output_cut_back(def->out_dir, ck.frame, err, sizeof err) ||
				 !caches_resume(cache, ck.frame, first_cached, err, sizeof err))
				ready = DRAPE_ERROR_IO;
		} else if (ready == DRAPE_OK) {
			ready = output_prepare_dir(def->out_dir, def->force, err, sizeof err);
			if (ready == DRAPE_OK && resumable && !caches_keep_frames(cache, err, sizeof err)) ready = DRAPE_ERROR_IO;
		}
		if (ready != DRAPE_OK) {
			st = early(r, ready, err);
			if (cache) caches_finish(cache, err, sizeof err);
		} else {
			run_totals totals = {.status = "ok", .formats = formats};
			int first = 0;
			crossing_log crossed = {0};
			bool strict = def->resume ? ck.strict != 0 : def->strict;
			ck.strict = strict;
			if (def->resume && !crossings_restore(&crossed, ck.crossings, ck.crossing_count)) {
				st = early(r, DRAPE_ERROR_MEMORY, "out of memory");
				caches_finish(cache, err, sizeof err);
				drape_world_destroy(world);
				checkpoint_free(&ck);
				if (own) scene_free(&owned);
				return st;
			}
			if (def->resume) {
				/* The folder's entries from before the original run stay the user's. */
				totals.before = ck.before; /* borrowed: checkpoint_free frees them */
				totals.before_count = ck.before_count;
				totals.stats = ck.totals;
				totals.frames_written = ck.frames_written;
				totals.wall_seconds = ck.wall_seconds;
				first = ck.frame + 1;
			} else {
				/* What is in the folder now is the user's: the manifest lists only what the run adds. */
				output_list_dir(def->out_dir, &totals.before, &totals.before_count);
				if (resumable) {
					ck.frames = s->frames;
					ck.threads = s->world.threads;
					ck.formats = formats;
					ck.scene_path = (char*)(strncmp(s->path, EMBEDDED_PREFIX, strlen(EMBEDDED_PREFIX)) == 0 ? "" : s->path);
					ck.sets = s->sets;
					ck.set_count = s->set_count;
					ck.before = totals.before;
					ck.before_count = totals.before_count;
					resumable = checkpoint_scene_hash(s, &ck.scene_hash);
				}
			}
			r->started = true;
			run_frames(def, s, world, cache, r, &totals, first, def->resume || resumable ? &ck : NULL, &crossed, strict);
			st = r->status;
			crossings_free(&crossed);
			if (!def->resume) {
				output_free_list(totals.before, totals.before_count);
				free(ck.seam_merged_frame); /* the two things it owns */
				free(ck.crossings);
				memset(&ck, 0, sizeof ck); /* its strings were borrowed from s and totals */
			}
		}
		drape_world_destroy(world);
	}
	checkpoint_free(&ck);
	if (own) scene_free(&owned);
	return st;
}
