/* `drape run`: load (or build in) a scene, validate everything before touching the output
 * directory, then step frame by frame writing OBJ frames, stats.csv rows and summary.json. */
#include "commands.h"
#include "interrupt.h"
#include "output.h"
#include "progress.h"
#include "sewing.h"

#include "io/caches.h"
#include "io/scene.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

/* Why a run never started, for --json (empty: a command-line mistake, told on stderr). */
static char early_error[1024];

static void run_usage(FILE* f)
{
	fprintf(f, "usage: drape run [SCENE.json] [--out DIR] [--frames N] [--threads T] [--force] [--quiet] [--render]\n"
		   "\n"
		   "Simulates SCENE.json (default: the built-in figure 1 drape, scenes/figure1_drape.json) and\n"
		   "writes into DIR (default: out):\n"
		   "  frame_0000.obj ...  one OBJ per output frame (v, per-corner rest uv as vt, f v/vt),\n"
		   "                      frame_0000 being the initial state; each cloth is an object\n"
		   "  stats.csv           per frame: steps, rejected steps, CG iterations, EVAL/CG/collision\n"
		   "                      milliseconds, min/max step size, kinetic energy\n"
		   "  summary.json        totals, status and the scene's settings\n"
		   "  cache_NAME.pc2      with --format pc2: a PC2 point cache per cloth, and its rest mesh\n"
		   "  cache_NAME.obj      cache_NAME.obj (same vertex order), for Blender's Mesh Cache\n"
		   "                      modifier, Houdini and 3ds Max\n"
		   "  animation.glb       with --format glb: binary glTF 2.0, the rest mesh with uv and the\n"
		   "                      motion as morph targets (docs/caches.md)\n"
		   "\n"
		   "options:\n"
		   "  --out DIR      output directory; must not exist or be empty unless --force\n"
		   "  --frames N     number of frames to simulate (overrides the scene's output.frames)\n"
		   "  --threads T    worker threads (results are identical for any T)\n"
		   "  --format LIST  comma-separated output formats among obj, pc2, glb (default: obj)\n"
		   "  --json         print the summary (summary.json's content) as one JSON object on\n"
		   "                 stdout instead of the closing line, also when the run fails\n"
		   "  --force        reuse an existing output directory, replacing drape's files in it\n"
		   "  --quiet        no progress bar and no closing summary line\n"
		   "  --render       then draw the frames into DIR/render/ and DIR/render.mp4 (`drape render`)\n"
		   "  --help         show this help\n");
}

static int run_scene(int argc, char** argv, bool json, bool* printed)
{
	unsigned formats = FORMAT_OBJ;
	const char* scene_path = NULL;
	const char* out_dir = "out";
	long frames_override = -1, threads_override = -1;
	bool force = false, quiet = false, render_after = false;
	for (int i = 1; i < argc; ++i) {
		const char* a = argv[i];
		bool has_value = i + 1 < argc;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			run_usage(stdout);
			*printed = true; /* the help is the whole answer */
			return EXIT_OK;
		} else if (strcmp(a, "--out") == 0 && has_value) {
			out_dir = argv[++i];
		} else if (strcmp(a, "--frames") == 0 && has_value) {
			if (!parse_int_arg(argv[++i], 0, 10000000, &frames_override)) {
				fprintf(stderr, "drape run: --frames needs a whole number >= 0, got '%s'\n", argv[i]);
				return EXIT_BAD_INPUT;
			}
		} else if (strcmp(a, "--threads") == 0 && has_value) {
			if (!parse_int_arg(argv[++i], 1, 1024, &threads_override)) {
				fprintf(stderr, "drape run: --threads needs a whole number from 1 to 1024, got '%s'\n", argv[i]);
				return EXIT_BAD_INPUT;
			}
		} else if (strcmp(a, "--format") == 0 && has_value) {
			char ferr[512];
			if (!caches_parse_formats(argv[++i], &formats, ferr, sizeof ferr)) {
				fprintf(stderr, "drape run: %s\n", ferr);
				return EXIT_BAD_INPUT;
			}
		} else if (strcmp(a, "--json") == 0) {
			continue;
		} else if (strcmp(a, "--force") == 0) {
			force = true;
		} else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
			quiet = true;
		} else if (strcmp(a, "--render") == 0) {
			render_after = true;
		} else if (a[0] == '-' && a[1] != '\0') {
			fprintf(stderr, "drape run: unknown option or missing value: '%s' (see `drape run --help`)\n", a);
			return EXIT_BAD_INPUT;
		} else if (!scene_path) {
			scene_path = a;
		} else {
			fprintf(stderr, "drape run: more than one scene given ('%s' and '%s')\n", scene_path, a);
			return EXIT_BAD_INPUT;
		}
	}
	if (render_after && !(formats & FORMAT_OBJ)) {
		fprintf(stderr, "drape run: --render draws the OBJ frames, so --format must include obj\n");
		return EXIT_BAD_INPUT;
	}

	char err[1024];
	scene s;
	bool loaded = scene_path ? scene_load_file(scene_path, &s, err, sizeof err) : scene_load_default(&s, err, sizeof err);
	if (!loaded) {
		fprintf(stderr, "drape: %s\n", err);
		snprintf(early_error, sizeof early_error, "%s", err);
		return EXIT_BAD_INPUT;
	}
	if (frames_override >= 0) s.frames = (int32_t)frames_override;
	if (threads_override > 0) s.world.threads = (int32_t)threads_override;
	drape_world* world = scene_build_world(&s, err, sizeof err);
	if (!world) {
		fprintf(stderr, "drape: %s\n", err);
		snprintf(early_error, sizeof early_error, "%s", err);
		scene_free(&s);
		return EXIT_BAD_INPUT;
	}
	/* Doubtful but accepted input (an open collider mesh, say): say so once, even with --quiet. */
	for (const char* p = drape_world_warnings(world); *p;) {
		const char* end = strchr(p, '\n');
		int len = end ? (int)(end - p) : (int)strlen(p);
		fprintf(stderr, "drape: warning: %.*s\n", len, p);
		p += len + (end ? 1 : 0);
	}
	if (s.seam_count > 0 && (formats & (FORMAT_PC2 | FORMAT_GLB))) {
		/* merging seams changes the vertex count, which a point cache or morph targets cannot follow */
		snprintf(err, sizeof err, "%s: garments with seams are written as OBJ frames only (--format obj)", s.path);
		fprintf(stderr, "drape: %s\n", err);
		snprintf(early_error, sizeof early_error, "%s", err);
		drape_world_destroy(world);
		scene_free(&s);
		return EXIT_BAD_INPUT;
	}
	sewing_state sew;
	sewing_begin(&sew, world);
	caches* cache = caches_begin(out_dir, formats, world, s.fps, s.frames, err, sizeof err);
	if (!cache || !output_prepare_dir(out_dir, force, err, sizeof err)) {
		fprintf(stderr, "drape: %s\n", err);
		snprintf(early_error, sizeof early_error, "%s", err);
		if (cache) caches_finish(cache, err, sizeof err);
		drape_world_destroy(world);
		scene_free(&s);
		return EXIT_BAD_INPUT;
	}

	interrupt_watch();
	int status = EXIT_OK;
	run_totals totals = {.status = "ok", .formats = formats};
	const double frame_dt = 1.0 / s.fps;
	const double start = wall_seconds();
	FILE* stats = output_open_stats(out_dir, err, sizeof err);
	if (!stats || !caches_add_frame(cache, 0, world, err, sizeof err)) {
		fprintf(stderr, "drape: %s\n", err);
		status = EXIT_IO;
		totals.status = "failed";
		totals.error = err;
	} else {
		drape_stats zero = {0};
		zero.seam_gap = sewing_max_gap(world);
		output_stats_row(stats, 0, 0.0, &zero, drape_world_kinetic_energy(world), 0.0);
		totals.frames_written = 1;
	}
	progress bar;
	progress_begin(&bar, "drape run", s.frames, quiet);
	for (int f = 1; status == EXIT_OK && f <= s.frames; ++f) {
		if (interrupt_requested()) {
			status = EXIT_INTERRUPTED;
			totals.status = "interrupted";
			break;
		}
		double t0 = wall_seconds();
		drape_world_reset_stats(world);
		/* Step to the frame's exact time, f / fps, so rounding never accumulates. */
		drape_status st = drape_world_step(world, f * frame_dt - drape_world_time(world));
		drape_stats fs = drape_world_get_stats(world);
		double ms = 1e3 * (wall_seconds() - t0);
		drape_stats* t = &totals.stats;
		t->steps += fs.steps;
		t->rejected += fs.rejected;
		t->cg_iterations += fs.cg_iterations;
		t->eval_ms += fs.eval_ms;
		t->cg_ms += fs.cg_ms;
		t->cc_ms += fs.cc_ms;
		t->cs_ms += fs.cs_ms;
		if (fs.min_dt > 0.0 && (t->min_dt == 0.0 || fs.min_dt < t->min_dt)) t->min_dt = fs.min_dt;
		if (fs.max_dt > t->max_dt) t->max_dt = fs.max_dt;
		t->seam_gap = fs.seam_gap;
		if (fs.penetrating > t->penetrating) t->penetrating = fs.penetrating;
		if (st != DRAPE_OK) {
			progress_end(&bar);
			snprintf(err, sizeof err, "%s", drape_world_error(world));
			fprintf(stderr, "drape: frame %d: %s\n", f, err);
			status = st == DRAPE_ERROR_DIVERGED ? EXIT_DIVERGED : EXIT_BAD_INPUT;
			totals.status = "failed";
			totals.error = err;
			break;
		}
		int sew_status = sewing_after_frame(&sew, world, &s, err, sizeof err);
		if (sew_status != EXIT_OK) {
			progress_end(&bar);
			fprintf(stderr, "drape: frame %d: %s\n", f, err);
			status = sew_status;
			totals.status = "failed";
			totals.error = err;
			break;
		}
		if (!caches_add_frame(cache, f, world, err, sizeof err)) {
			fprintf(stderr, "drape: %s\n", err);
			status = EXIT_IO;
			totals.status = "failed";
			totals.error = err;
			break;
		}
		output_stats_row(stats, f, drape_world_time(world), &fs, drape_world_kinetic_energy(world), ms);
		totals.frames_written = f + 1;
		progress_update(&bar, f, drape_world_time(world));
	}
	progress_end(&bar);
	if (stats) fclose(stats);
	totals.simulated_time = drape_world_time(world);
	totals.seams_open = sew.open;
	totals.sewn_at = sew.sewn_at;
	totals.motion_start = sew.motion_start;
	totals.wall_seconds = wall_seconds() - start;
	char serr[512];
	if (!caches_finish(cache, serr, sizeof serr)) {
		fprintf(stderr, "drape: %s\n", serr);
		if (status == EXIT_OK) {
			status = EXIT_IO;
			totals.status = "failed";
			snprintf(err, sizeof err, "%s", serr);
			totals.error = err;
		}
	}
	totals.exit_status = status;
	if (!output_write_summary(out_dir, &s, world, &totals, serr, sizeof serr)) {
		fprintf(stderr, "drape: %s\n", serr);
		if (status == EXIT_OK) status = EXIT_IO;
	}
	if (status == EXIT_INTERRUPTED) fprintf(stderr, "drape: interrupted after %d frames\n", totals.frames_written - 1);
	if (json) {
		output_print_summary(out_dir, &s, world, &totals);
		*printed = true;
	}
	if (status == EXIT_OK && !quiet && !json) {
		int n = totals.frames_written - 1;
		printf("drape: %d frames in %.2f s (%.1f ms/frame), %lld steps, %lld rejected, %.1f CG iterations/step -> %s/\n",
		       n, totals.wall_seconds, n ? 1e3 * totals.wall_seconds / n : 0.0, (long long)totals.stats.steps,
		       (long long)totals.stats.rejected,
		       totals.stats.steps ? (double)totals.stats.cg_iterations / (double)totals.stats.steps : 0.0, out_dir);
	}
	drape_world_destroy(world);
	scene_free(&s);
	/* With --json stdout carries the run's JSON only: the render says nothing there. */
	if (status == EXIT_OK && render_after) status = render_run_output(out_dir, quiet || json);
	return status;
}

/* With --json every outcome prints one object on stdout: the run's summary, or for a run that
 * never started (bad arguments or scene), its status and exit status; messages stay on stderr. */
int command_run(int argc, char** argv)
{
	bool json = false, printed = false;
	for (int i = 1; i < argc; ++i) {
		if (strcmp(argv[i], "--json") == 0) json = true;
		/* Skip option values, so that `--out --json` names a directory. */
		if (i + 1 < argc && (strcmp(argv[i], "--out") == 0 || strcmp(argv[i], "--frames") == 0 ||
				     strcmp(argv[i], "--threads") == 0 || strcmp(argv[i], "--format") == 0))
			++i;
	}
	int status = run_scene(argc, argv, json, &printed);
	if (json && !printed) {
		cJSON* o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "drape_version", DRAPE_VERSION_STRING);
		cJSON_AddStringToObject(o, "status", status == EXIT_OK ? "ok" : "failed");
		cJSON_AddStringToObject(o, "error", early_error[0] ? early_error : "bad command line (see stderr)");
		cJSON_AddNumberToObject(o, "exit_status", status);
		char* text = cJSON_PrintUnformatted(o);
		if (text) printf("%s\n", text);
		fflush(stdout);
		cJSON_free(text);
		cJSON_Delete(o);
	}
	return status;
}
