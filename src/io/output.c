/* Output of `drape run` besides the frames (io/caches.c): preparing the directory, stats.csv and
 * summary.json, which goes through a temporary file and rename() so a reader or an interrupted run
 * never sees a partial one. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "output.h"

#include "core.h"
#include "io/embedded.h"

#include "io/caches.h"
#include "io/run_warnings.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool make_dirs(const char* dir, char* err, size_t err_size)
{
	char path[4096];
	if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path) {
		snprintf(err, err_size, "output path too long");
		return false;
	}
	for (char* p = path + 1; *p; ++p) {
		if (*p != '/') continue;
		*p = '\0';
		if (mkdir(path, 0777) != 0 && errno != EEXIST) {
			snprintf(err, err_size, "cannot create directory '%s': %s", path, strerror(errno));
			return false;
		}
		*p = '/';
	}
	if (mkdir(path, 0777) != 0 && errno != EEXIST) {
		snprintf(err, err_size, "cannot create directory '%s': %s", path, strerror(errno));
		return false;
	}
	return true;
}

static bool ends_with(const char* s, const char* suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Names a run could write (frames, solids' frames, caches, stats, summary, their .tmp): a file of
 * that look that the previous run did not list is refused, not overwritten. */
static bool is_drape_file(const char* name)
{
	if (strcmp(name, "stats.csv") == 0 || strcmp(name, "summary.json") == 0 || strcmp(name, "summary.json.tmp") == 0 ||
	    strcmp(name, "checkpoint.bin") == 0 || strcmp(name, "checkpoint.bin.tmp") == 0 || strcmp(name, "stats.csv.tmp") == 0)
		return true;
	if (caches_owns_file(name)) return true;
	if (strncmp(name, "frame_", 6) == 0) {
		/* frame_NNNN.obj (and its .tmp): digits only, so a user's frame_final.obj is no look-alike */
		size_t k = 6;
		while (name[k] >= '0' && name[k] <= '9') ++k;
		return k > 6 && (strcmp(name + k, ".obj") == 0 || strcmp(name + k, ".obj.tmp") == 0);
	}
	if (strncmp(name, "solid_", 6) != 0) return false;
	return ends_with(name, ".obj") || ends_with(name, ".obj.tmp") || ends_with(name, ".pc2") || ends_with(name, ".pc2.tmp");
}

bool output_list_dir(const char* dir, char*** names, int32_t* count)
{
	*names = NULL;
	*count = 0;
	DIR* d = opendir(dir);
	if (!d) return false;
	int32_t cap = 0;
	bool ok = true;
	struct dirent* ent;
	while (ok && (ent = readdir(d))) {
		if (strcmp(ent->d_name, ".") == 0 || strcmp(ent->d_name, "..") == 0) continue;
		if (*count == cap) {
			cap = cap ? 2 * cap : 16;
			char** p = realloc(*names, (size_t)cap * sizeof *p);
			if (!p) {
				ok = false;
				break;
			}
			*names = p;
		}
		(*names)[*count] = strdup(ent->d_name);
		ok = (*names)[*count] != NULL;
		*count += ok;
	}
	closedir(d);
	if (!ok) {
		output_free_list(*names, *count);
		*names = NULL;
		*count = 0;
	}
	return ok;
}

void output_free_list(char** names, int32_t count)
{
	for (int32_t i = 0; i < count; ++i) free(names[i]);
	free(names);
}

/* The entries the previous run listed in DIR/summary.json ("files") that drape could have written,
 * malloc'd; none for a missing or older summary (no list). Reads only. */
static bool read_manifest(const char* dir, char*** names, int32_t* count)
{
	*names = NULL;
	*count = 0;
	char path[4200];
	snprintf(path, sizeof path, "%s/summary.json", dir);
	FILE* f = fopen(path, "rb");
	if (!f) return true;
	char* text = NULL;
	long n = 0;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && n < (64L << 20) && fseek(f, 0, SEEK_SET) == 0) {
		text = malloc((size_t)n + 1);
		if (text && fread(text, 1, (size_t)n, f) == (size_t)n) text[n] = 0;
		else {
			free(text);
			text = NULL;
		}
	}
	fclose(f);
	cJSON* root = text ? cJSON_Parse(text) : NULL;
	free(text);
	const cJSON* files = root ? cJSON_GetObjectItemCaseSensitive(root, "files") : NULL;
	int32_t size = cJSON_IsArray(files) ? cJSON_GetArraySize(files) : 0;
	bool ok = true;
	if (size > 0) ok = (*names = calloc((size_t)size, sizeof **names)) != NULL;
	for (const cJSON* e = ok && size > 0 ? files->child : NULL; ok && e; e = e->next) {
		const char* name = cJSON_GetStringValue(e);
		/* Only plain names inside the folder, and only what drape could have written. */
		if (!name || !*name || strchr(name, '/') || strcmp(name, "..") == 0 || strcmp(name, ".") == 0 || !is_drape_file(name))
			continue;
		ok = ((*names)[*count] = strdup(name)) != NULL;
		*count += ok;
	}
	cJSON_Delete(root);
	if (!ok) {
		output_free_list(*names, *count);
		*names = NULL;
		*count = 0;
	}
	return ok;
}

static bool listed(char* const* names, int32_t count, const char* name)
{
	for (int32_t i = 0; i < count; ++i)
		if (strcmp(names[i], name) == 0) return true;
	return false;
}

/* Everything is checked before anything changes (docs/reliability.md, "Check before you act"): the
 * folder's entries and the previous run's list are read, every refusal made, and only then are the
 * listed files removed. */
drape_status output_prepare_dir(const char* dir, bool force, char* err, size_t err_size)
{
	struct stat st;
	if (stat(dir, &st) != 0) {
		if (errno != ENOENT) {
			/* a path through a file, a folder without permission: the output cannot be written */
			snprintf(err, err_size, "cannot use output directory '%s': %s", dir, strerror(errno));
			return DRAPE_ERROR_IO;
		}
		return make_dirs(dir, err, err_size) ? DRAPE_OK : DRAPE_ERROR_IO;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, err_size, "output path '%s' exists and is not a directory", dir);
		return DRAPE_ERROR_INVALID;
	}
	char** names;
	int32_t count;
	if (!output_list_dir(dir, &names, &count)) {
		snprintf(err, err_size, "cannot read output directory '%s': %s", dir, strerror(errno));
		return DRAPE_ERROR_IO;
	}
	drape_status status = DRAPE_OK;
	if (count > 0 && !force) {
		snprintf(err, err_size,
			 "output directory '%s' already exists and is not empty; choose another --out or add --force to "
			 "replace drape's files in it",
			 dir);
		status = DRAPE_ERROR_INVALID;
	}
	char** old = NULL;
	int32_t old_count = 0;
	if (status == DRAPE_OK && count > 0 && !read_manifest(dir, &old, &old_count)) {
		snprintf(err, err_size, "out of memory reading '%s/summary.json'", dir);
		status = DRAPE_ERROR_MEMORY;
	}
	for (int32_t i = 0; status == DRAPE_OK && i < count; ++i)
		if (is_drape_file(names[i]) && !listed(old, old_count, names[i])) {
			snprintf(err, err_size,
				 "--force: '%s/%s' looks like drape's output but the folder's summary.json does not list it "
				 "as written by drape; move it away or choose another --out (docs/reliability.md); nothing "
				 "was changed",
				 dir, names[i]);
			status = DRAPE_ERROR_INVALID;
		}
	/* Every check passed: now the previous run's files go. */
	for (int32_t i = 0; status == DRAPE_OK && i < old_count; ++i) {
		char p[4400];
		snprintf(p, sizeof p, "%s/%s", dir, old[i]);
		if (unlink(p) != 0 && errno != ENOENT) {
			snprintf(err, err_size, "cannot remove '%s': %s", p, strerror(errno));
			status = DRAPE_ERROR_IO;
		}
	}
	output_free_list(old, old_count);
	output_free_list(names, count);
	return status;
}

FILE* output_open_stats(const char* dir, char* err, size_t err_size)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/stats.csv", dir);
	FILE* f = fopen(path, "w");
	if (!f) {
		snprintf(err, err_size, "cannot write '%s': %s", path, strerror(errno));
		return NULL;
	}
	fprintf(f, "frame,time,steps,rejected,cg_iterations,eval_ms,cg_ms,cc_ms,cs_ms,min_dt,max_dt,kinetic_energy,wall_ms,"
		   "solid_contacts,cloth_contacts,self_intersections,seam_gap,penetrating,solves,release_solves,"
		   "contacts_released\n");
	fflush(f);
	return f;
}

/* The frame number a frame file of a run carries (frame_0012.obj, solid_ball_0012.obj), or -1. */
static int frame_of(const char* name)
{
	if (!is_drape_file(name) || !ends_with(name, ".obj")) return -1;
	size_t end = strlen(name) - 4, k = end;
	while (k > 0 && name[k - 1] >= '0' && name[k - 1] <= '9') --k;
	return k < end && k > 0 && name[k - 1] == '_' ? atoi(name + k) : -1;
}

bool output_cut_back(const char* dir, int frame, char* err, size_t err_size)
{
	char** names;
	int32_t count;
	if (!output_list_dir(dir, &names, &count)) return core_fail(err, err_size, "cannot read '%s': %s", dir, strerror(errno));
	bool ok = true;
	for (int32_t i = 0; ok && i < count; ++i) {
		if (!((is_drape_file(names[i]) && ends_with(names[i], ".tmp")) || frame_of(names[i]) > frame)) continue;
		char path[4400];
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		if (remove(path) != 0) ok = core_fail(err, err_size, "cannot remove '%s': %s", path, strerror(errno));
	}
	output_free_list(names, count);
	return ok;
}

FILE* output_reopen_stats(const char* dir, int last_frame, char* err, size_t err_size)
{
	char path[4200], tmp[4300];
	snprintf(path, sizeof path, "%s/stats.csv", dir);
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	FILE* in = fopen(path, "r");
	FILE* out = in ? fopen(tmp, "w") : NULL;
	if (!in || !out) {
		if (in) fclose(in);
		core_fail(err, err_size, "cannot rewrite '%s': %s", path, strerror(errno));
		return NULL;
	}
	/* the header, then the rows of frames up to last_frame (a killed run may have one more) */
	char line[4096];
	for (bool header = true; fgets(line, sizeof line, in); header = false)
		if (header || atoi(line) <= last_frame) fputs(line, out);
	fclose(in);
	if (fclose(out) != 0 || rename(tmp, path) != 0) {
		core_fail(err, err_size, "cannot rewrite '%s': %s", path, strerror(errno));
		remove(tmp);
		return NULL;
	}
	FILE* f = fopen(path, "a");
	if (!f) core_fail(err, err_size, "cannot write '%s': %s", path, strerror(errno));
	return f;
}

void output_stats_row(FILE* f, int frame, double time, const drape_stats* s, double kinetic_energy, double wall_ms)
{
	fprintf(f, "%d,%.9g,%lld,%lld,%lld,%.4f,%.4f,%.4f,%.4f,%.9g,%.9g,%.9g,%.4f,%d,%d,%d,%.6g,%d,%lld,%lld,%lld\n", frame,
		time, (long long)s->steps, (long long)s->rejected, (long long)s->cg_iterations, s->eval_ms, s->cg_ms, s->cc_ms,
		s->cs_ms, s->min_dt, s->max_dt, kinetic_energy, wall_ms, s->solid_contacts, s->cloth_contacts,
		s->self_intersections, s->seam_gap, s->penetrating, (long long)s->solves, (long long)s->release_solves,
		(long long)s->contacts_released);
	fflush(f);
}

static cJSON* vector_json(const double* v, int n) { return cJSON_CreateDoubleArray(v, n); }

static cJSON* material_json(const drape_material* m)
{
	cJSON* o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "density", m->density);
	cJSON_AddNumberToObject(o, "stretch", m->stretch);
	cJSON_AddNumberToObject(o, "shear", m->shear);
	cJSON_AddNumberToObject(o, "bend_u", m->bend_u);
	cJSON_AddNumberToObject(o, "bend_v", m->bend_v);
	cJSON_AddNumberToObject(o, "stretch_damping", m->stretch_damping);
	cJSON_AddNumberToObject(o, "shear_damping", m->shear_damping);
	cJSON_AddNumberToObject(o, "bend_damping", m->bend_damping);
	cJSON_AddNumberToObject(o, "drag", m->drag);
	return o;
}

static cJSON* summary_json(const scene* s, const drape_world* world, const run_totals* t)
{
	cJSON* root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "drape_version", DRAPE_VERSION_STRING);
	cJSON_AddStringToObject(root, "scene", s->path);
	/* The scene's absolute path too, so `drape render` finds it from any directory. */
	char* scene_file = strncmp(s->path, EMBEDDED_PREFIX, strlen(EMBEDDED_PREFIX)) ? realpath(s->path, NULL) : NULL;
	if (scene_file) cJSON_AddStringToObject(root, "scene_file", scene_file);
	free(scene_file);
	cJSON_AddStringToObject(root, "name", s->name);
	/* The --set overrides, so that a run folder says how it differs from the scene file. */
	cJSON* sets = cJSON_AddArrayToObject(root, "overrides");
	for (int32_t i = 0; i < s->set_count; ++i) cJSON_AddItemToArray(sets, cJSON_CreateString(s->sets[i]));
	cJSON_AddStringToObject(root, "status", t->status);
	if (t->error) cJSON_AddStringToObject(root, "error", t->error);
	cJSON_AddNumberToObject(root, "frames_written", t->frames_written);
	cJSON_AddNumberToObject(root, "simulated_time", t->simulated_time);
	cJSON_AddNumberToObject(root, "wall_seconds", t->wall_seconds);
	cJSON_AddNumberToObject(root, "exit_status", t->exit_status);
	/* doubtful input and crossed cloth: a run never reports "ok" silently over either */
	cJSON_AddItemToObject(root, "warnings", run_warnings_json(t->crossings, world));
	cJSON_AddItemToObject(root, "outputs", caches_outputs_json(t->formats, world, t->cache_start));

	cJSON* tot = cJSON_AddObjectToObject(root, "totals");
	const drape_stats* st = &t->stats;
	int frames = t->frames_written > 1 ? t->frames_written - 1 : 0;
	cJSON_AddNumberToObject(tot, "steps", (double)st->steps);
	cJSON_AddNumberToObject(tot, "rejected", (double)st->rejected);
	/* which test rejected them (drape_stats): where a run's small steps come from */
	cJSON* by = cJSON_AddObjectToObject(tot, "rejected_by");
	cJSON_AddNumberToObject(by, "strain", (double)st->rejected_strain);
	cJSON_AddNumberToObject(by, "penetration", (double)st->rejected_penetration);
	cJSON_AddNumberToObject(by, "self_intersection", (double)st->rejected_intersection);
	cJSON_AddNumberToObject(by, "other", (double)st->rejected_other);
	cJSON_AddNumberToObject(tot, "cg_iterations", (double)st->cg_iterations);
	cJSON_AddNumberToObject(tot, "eval_ms", st->eval_ms);
	cJSON_AddNumberToObject(tot, "cg_ms", st->cg_ms);
	cJSON_AddNumberToObject(tot, "cc_ms", st->cc_ms);
	cJSON_AddNumberToObject(tot, "cs_ms", st->cs_ms);
	cJSON_AddNumberToObject(tot, "min_dt", st->min_dt);
	cJSON_AddNumberToObject(tot, "max_dt", st->max_dt);
	cJSON_AddNumberToObject(tot, "ms_per_frame", frames ? 1e3 * t->wall_seconds / frames : 0.0);
	cJSON_AddNumberToObject(tot, "steps_per_frame", frames ? (double)st->steps / frames : 0.0);
	cJSON_AddNumberToObject(tot, "cg_iterations_per_step", st->steps ? (double)st->cg_iterations / (double)st->steps : 0.0);
	/* per step attempt (accepted or rejected) and per linear solve (issue 27; docs/solver.md) */
	const double attempts = (double)(st->steps + st->rejected);
	cJSON_AddNumberToObject(tot, "solves", (double)st->solves);
	cJSON_AddNumberToObject(tot, "release_solves", (double)st->release_solves);
	cJSON_AddNumberToObject(tot, "contacts_released", (double)st->contacts_released);
	cJSON_AddNumberToObject(tot, "attempts_per_frame", frames ? attempts / frames : 0.0);
	cJSON_AddNumberToObject(tot, "solves_per_attempt", attempts > 0.0 ? (double)st->solves / attempts : 0.0);
	cJSON_AddNumberToObject(tot, "cg_iterations_per_solve", st->solves ? (double)st->cg_iterations / (double)st->solves : 0.0);
	cJSON_AddNumberToObject(tot, "final_kinetic_energy", drape_world_kinetic_energy(world));
	cJSON_AddNumberToObject(tot, "seam_gap", st->seam_gap);
	cJSON_AddNumberToObject(tot, "penetrating_max", st->penetrating);
	if (s->seam_count > 0) {
		/* docs/garments.md: when sewing ended, and when the relaxed garment lets motion start */
		cJSON* sew = cJSON_AddObjectToObject(root, "sewing");
		cJSON_AddNumberToObject(sew, "seams", s->seam_count);
		cJSON_AddNumberToObject(sew, "open", t->seams_open);
		if (t->sewn_at >= 0.0) cJSON_AddNumberToObject(sew, "sewn_at", t->sewn_at);
		else cJSON_AddNullToObject(sew, "sewn_at");
		if (t->motion_start >= 0.0) cJSON_AddNumberToObject(sew, "motion_start", t->motion_start);
		else cJSON_AddNullToObject(sew, "motion_start");
		/* the merges in the order they happened, which `drape render` replays */
		cJSON* merged = cJSON_AddArrayToObject(sew, "merged");
		for (int32_t f = 0; t->seam_merged_frame && f <= t->frames_written; ++f)
			for (int32_t k = 0; k < s->seam_count; ++k) {
				if (t->seam_merged_frame[k] != f) continue;
				cJSON* m = cJSON_CreateObject();
				cJSON_AddStringToObject(m, "seam", drape_seam_name(world, (drape_seam_id){k}));
				cJSON_AddNumberToObject(m, "frame", f);
				cJSON_AddItemToArray(merged, m);
			}
	}

	cJSON* set = cJSON_AddObjectToObject(root, "settings");
	const drape_world_def* w = &s->world;
	cJSON_AddItemToObject(set, "gravity", vector_json(w->gravity, 3));
	cJSON* wind = cJSON_AddObjectToObject(set, "wind");
	cJSON_AddItemToObject(wind, "velocity", vector_json(w->air_velocity, 3));
	cJSON_AddItemToObject(wind, "gust_amplitude", vector_json(w->gust_amplitude, 3));
	cJSON_AddNumberToObject(wind, "gust_frequency", w->gust_frequency);
	cJSON* solver = cJSON_AddObjectToObject(set, "solver");
	cJSON_AddNumberToObject(solver, "max_dt", w->max_dt);
	cJSON_AddNumberToObject(solver, "min_dt", w->min_dt);
	cJSON_AddNumberToObject(solver, "cg_tolerance", w->cg_tolerance);
	cJSON_AddNumberToObject(solver, "cg_max_iterations", w->cg_max_iterations);
	cJSON_AddBoolToObject(solver, "adaptive", w->adaptive);
	cJSON_AddNumberToObject(solver, "stretch_change_limit", w->stretch_change_limit);
	cJSON_AddNumberToObject(solver, "strain_limit", w->strain_limit);
	cJSON_AddBoolToObject(solver, "strain_from_limiter", w->strain_from_limiter);
	cJSON_AddBoolToObject(solver, "contact_bounds", w->contact_bounds);
	cJSON_AddNumberToObject(solver, "threads", w->threads);
	cJSON* out = cJSON_AddObjectToObject(set, "output");
	cJSON_AddNumberToObject(out, "fps", s->fps);
	cJSON_AddNumberToObject(out, "frames", s->frames);
	cJSON* cloths = cJSON_AddArrayToObject(set, "cloths");
	for (int32_t i = 0; i < s->cloth_count; ++i) {
		const scene_cloth* c = &s->cloths[i];
		cJSON* o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", c->name);
		cJSON_AddNumberToObject(o, "vertices", c->mesh.vertex_count);
		cJSON_AddNumberToObject(o, "triangles", c->mesh.triangle_count);
		cJSON_AddItemToObject(o, "material", material_json(&c->material));
		int pins = 0;
		for (int32_t k = 0; k < s->constraint_count; ++k) pins += s->constraints[k].cloth == i;
		cJSON_AddNumberToObject(o, "pinned_particles", pins);
		cJSON_AddItemToArray(cloths, o);
	}

	static const char* const shapes[] = {"mesh", "plane", "sphere", "capsule", "cylinder", "box"};
	cJSON* solids = cJSON_AddArrayToObject(set, "solids");
	for (int32_t i = 0; i < s->solid_count; ++i) {
		const drape_solid_def* d = &s->solids[i].def;
		cJSON* o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", s->solids[i].name);
		cJSON_AddStringToObject(o, "shape", d->character ? "character" : shapes[d->shape]);
		if (d->character) {
			cJSON_AddNumberToObject(o, "vertices", drape_character_vertex_count(d->character));
			cJSON_AddNumberToObject(o, "triangles", drape_character_triangle_count(d->character));
			cJSON_AddNumberToObject(o, "clip_seconds", drape_character_duration(d->character));
		} else if (d->shape == DRAPE_SOLID_MESH) {
			cJSON_AddNumberToObject(o, "vertices", d->mesh->vertex_count);
			cJSON_AddNumberToObject(o, "triangles", d->mesh->triangle_count);
			cJSON_AddNumberToObject(o, "frames", d->frame_count);
		}
		cJSON_AddNumberToObject(o, "poses", d->pose_count);
		cJSON_AddNumberToObject(o, "thickness", d->thickness);
		cJSON_AddNumberToObject(o, "friction", d->friction);
		cJSON_AddItemToArray(solids, o);
	}
	return root;
}

/* "files": the folder's entries the run added (all but those in t->before), summary.json included. */
static void add_manifest(cJSON* root, const char* dir, const run_totals* t)
{
	char** names;
	int32_t count;
	if (!output_list_dir(dir, &names, &count)) return;
	cJSON* files = cJSON_AddArrayToObject(root, "files");
	bool summary = false;
	for (int32_t i = 0; i < count; ++i) {
		bool old = false;
		for (int32_t k = 0; k < t->before_count && !old; ++k) old = strcmp(names[i], t->before[k]) == 0;
		if (old || ends_with(names[i], ".tmp")) continue;
		/* a complete run removes its spool right after this summary (caches_remove_spool) */
		if (strcmp(t->status, "ok") == 0 && strcmp(names[i], "checkpoint.frames") == 0) continue;
		summary = summary || strcmp(names[i], "summary.json") == 0;
		cJSON_AddItemToArray(files, cJSON_CreateString(names[i]));
	}
	if (!summary) cJSON_AddItemToArray(files, cJSON_CreateString("summary.json"));
	output_free_list(names, count);
}

cJSON* output_summary_json(const char* dir, const scene* s, const drape_world* world, const run_totals* t)
{
	cJSON* root = summary_json(s, world, t);
	add_manifest(root, dir, t);
	cJSON_AddStringToObject(root, "out", dir);
	return root;
}

bool output_has_summary(const char* dir)
{
	char path[4200];
	struct stat st;
	snprintf(path, sizeof path, "%s/summary.json", dir);
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool output_write_summary(const char* dir, const scene* s, const drape_world* world, const run_totals* t, char* err,
			  size_t err_size)
{
	cJSON* root = summary_json(s, world, t);
	add_manifest(root, dir, t);
	char* text = cJSON_Print(root);
	cJSON_Delete(root);
	if (!text) {
		snprintf(err, err_size, "out of memory writing summary.json");
		return false;
	}
	char path[4096], tmp[4200];
	snprintf(path, sizeof path, "%s/summary.json", dir);
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	FILE* f = fopen(tmp, "w");
	bool ok = f && fputs(text, f) >= 0 && fputc('\n', f) != EOF;
	if (f) ok = (fclose(f) == 0) && ok;
	ok = ok && rename(tmp, path) == 0;
	if (!ok) {
		snprintf(err, err_size, "cannot write '%s': %s", path, strerror(errno));
		remove(tmp);
	}
	cJSON_free(text);
	return ok;
}

bool output_make_dirs(const char* dir, char* err, size_t err_size) { return make_dirs(dir, err, err_size); }
