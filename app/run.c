/* `drape run`: load (or build in) a scene, validate everything before touching the output
 * directory, then step frame by frame writing OBJ frames, stats.csv rows and summary.json. */
#include "commands.h"
#include "interrupt.h"
#include "progress.h"

#include "drape.h"

#include <cjson/cJSON.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Why a run never started, for --json (empty: a command-line mistake, told on stderr). */
static char early_error[1024];

/* The command's side of drape_run: the progress bar, Ctrl-C, warnings on stderr. */
typedef struct run_ui {
	bool quiet;
	int warnings;
	bool bar_started;
	progress bar;
	drape_scene* builtin;
} run_ui;

static bool run_progress(const drape_run_progress* p, void* user)
{
	run_ui* ui = user;
	if (!ui->bar_started) {
		progress_begin(&ui->bar, "drape run", p->frames, ui->quiet);
		ui->bar_started = true;
	}
	if (p->frame > 0) progress_update(&ui->bar, p->frame, p->time);
	return !interrupt_requested();
}

/* Doubtful but accepted input (an open collider mesh, say): said once, even with --quiet. */
static void run_warning(const char* warning, void* user)
{
	run_ui* ui = user;
	ui->warnings++;
	fprintf(stderr, "drape: warning: %s\n", warning);
}

static void run_usage(FILE* f)
{
	fprintf(f, "usage: drape run [SCENE.json] [-o|--out DIR] [-n|--frames N] [-j|--threads T] [-f|--format LIST]\n"
		   "                 [-s|--set KEY.PATH=VALUE]... [--json] [--force] [--strict] [-q|--quiet] [--render]\n"
		   "                 [-h|--help]\n"
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
		   "  animation.usda      with --format usda: USD text, each cloth a Mesh with uv and\n"
		   "                      time-sampled points (docs/caches.md)\n"
		   "\n"
		   "options:\n"
		   "  -o, --out DIR      output directory (also --out=DIR); must not exist or be empty\n"
		   "                     unless --force\n"
		   "  -n, --frames N     number of frames to simulate (overrides the scene's output.frames)\n"
		   "  -j, --threads T    worker threads (results are identical for any T)\n"
		   "  -f, --format LIST  comma-separated output formats among obj, pc2, glb, usda (default: obj)\n"
		   "  -s, --set K=V      override one scene value before validation, e.g.\n"
		   "                     --set cloths.0.material.stretch=5000 (repeatable; array indices as\n"
		   "                     numbers; V is JSON or else a string; listed in summary.json)\n"
		   "  --json             print the summary (summary.json's content) as one JSON object on\n"
		   "                     stdout instead of the closing line, also when the run fails\n"
		   "  --force            reuse an existing output directory, replacing drape's files in it\n"
		   "  --strict           stop with exit 3 at the first frame where cloth crosses cloth after sewing\n"
		   "                     (otherwise a warning on stderr and in summary.json's \"warnings\")\n"
		   "  -q, --quiet        no progress bar and no closing summary line\n"
		   "  --render           then draw the frames into DIR/render/ and DIR/render.mp4 (`drape render`)\n"
		   "  -h, --help         show this help\n");
}

static int run_scene(int argc, char** argv, bool json, bool* printed)
{
	unsigned formats = DRAPE_FORMAT_OBJ;
	const char* scene_path = NULL;
	const char* out_dir = "out";
	long frames_override = -1, threads_override = -1;
	bool force = false, quiet = false, render_after = false, strict = false;
	/* Repeatable --set: at most one per argument. */
	const char** sets = calloc((size_t)argc + 1, sizeof *sets);
	int set_count = 0;
	if (!sets) {
		fprintf(stderr, "drape run: out of memory\n");
		return EXIT_BAD_INPUT;
	}
	enum { OPT_JSON = 256, OPT_FORCE, OPT_RENDER, OPT_STRICT };
	static const struct option options[] = {
		{"out", required_argument, NULL, 'o'},	  {"frames", required_argument, NULL, 'n'},
		{"threads", required_argument, NULL, 'j'}, {"format", required_argument, NULL, 'f'},
		{"set", required_argument, NULL, 's'},	  {"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},	  {"json", no_argument, NULL, OPT_JSON},
		{"force", no_argument, NULL, OPT_FORCE},  {"render", no_argument, NULL, OPT_RENDER},
		{"strict", no_argument, NULL, OPT_STRICT}, {NULL, 0, NULL, 0},
	};
	optind = 1;
	opterr = 0;
	int opt;
	int bad = EXIT_OK;
	while (bad == EXIT_OK && (opt = getopt_long(argc, argv, "o:n:j:f:s:qh", options, NULL)) != -1) {
		switch (opt) {
		case 'h':
			run_usage(stdout);
			*printed = true; /* the help is the whole answer */
			free(sets);
			return EXIT_OK;
		case 'o': out_dir = optarg; break;
		case 'n':
			if (!cli_int_option("run", "--frames", optarg, 0, 10000000, &frames_override))
				bad = EXIT_BAD_INPUT;
			break;
		case 'j':
			if (!cli_int_option("run", "--threads", optarg, 1, 1024, &threads_override))
				bad = EXIT_BAD_INPUT;
			break;
		case 'f': {
			char ferr[512];
			if (drape_parse_formats(optarg, &formats, ferr, sizeof ferr) != DRAPE_OK) {
				fprintf(stderr, "drape run: %s\n", ferr);
				bad = EXIT_BAD_INPUT;
			}
			break;
		}
		case 's': sets[set_count++] = optarg; break;
		case 'q': quiet = true; break;
		case OPT_JSON: break;
		case OPT_FORCE: force = true; break;
		case OPT_RENDER: render_after = true; break;
		case OPT_STRICT: strict = true; break;
		default:
			cli_report_bad_option("run", argc, argv, optopt, options);
			bad = EXIT_BAD_INPUT;
			break;
		}
	}
	for (int i = optind; bad == EXIT_OK && i < argc; ++i) {
		if (!scene_path) {
			scene_path = argv[i];
		} else {
			fprintf(stderr, "drape run: more than one scene given ('%s' and '%s')\n", scene_path, argv[i]);
			bad = EXIT_BAD_INPUT;
		}
	}
	if (bad != EXIT_OK) {
		free(sets);
		return bad;
	}
	if (render_after && !(formats & DRAPE_FORMAT_OBJ)) {
		fprintf(stderr, "drape run: --render draws the OBJ frames, so --format must include obj\n");
		free(sets);
		return EXIT_BAD_INPUT;
	}

	run_ui ui = {.quiet = quiet};
	drape_run_def def = drape_default_run_def();
	def.scene_path = scene_path;
	def.overrides = sets;
	def.override_count = set_count;
	def.out_dir = out_dir;
	def.force = force;
	def.strict = strict;
	def.formats = formats;
	def.frames = (int32_t)frames_override;
	def.threads = (int32_t)threads_override;
	def.progress = run_progress;
	def.warning = run_warning;
	def.user = &ui;
	if (!scene_path) {
		/* The default scene is built in (src/io/embedded.c): loaded here, run by the library. */
		char err[1024];
		ui.builtin = drape_scene_load_overrides(DRAPE_DEFAULT_SCENE, sets, set_count, err, sizeof err);
		if (!ui.builtin) {
			fprintf(stderr, "drape: %s\n", err);
			snprintf(early_error, sizeof early_error, "%s", err);
			free(sets);
			return EXIT_BAD_INPUT;
		}
		def.scene = ui.builtin;
	}
	interrupt_watch();
	def.cancel = interrupt_flag();
	drape_run_result r;
	drape_run(&def, &r);
	free(sets);
	if (ui.bar_started) progress_end(&ui.bar);
	drape_scene_destroy(ui.builtin);
	int status = r.exit_status;
	if (!r.started) {
		fprintf(stderr, "drape: %s\n", r.error);
		snprintf(early_error, sizeof early_error, "%s", r.error);
		drape_run_result_free(&r);
		return status;
	}
	if (r.failed_frame > 0)
		fprintf(stderr, "drape: frame %d: %s\n", (int)r.failed_frame, r.error);
	else if (r.error[0])
		fprintf(stderr, "drape: %s\n", r.error);
	if (status == EXIT_INTERRUPTED) fprintf(stderr, "drape: interrupted after %d frames\n", (int)r.frames_written - 1);
	if (json) {
		if (r.summary_json) printf("%s\n", r.summary_json);
		fflush(stdout);
		*printed = true;
	}
	if (status == EXIT_OK && !quiet && !json) {
		int n = r.frames_written - 1;
		printf("drape: %d frames in %.2f s (%.1f ms/frame), %lld steps, %lld rejected, %.1f CG iterations/step -> %s/%s\n",
		       n, r.wall_seconds, n ? 1e3 * r.wall_seconds / n : 0.0, (long long)r.totals.steps,
		       (long long)r.totals.rejected,
		       r.totals.steps ? (double)r.totals.cg_iterations / (double)r.totals.steps : 0.0, out_dir,
		       ui.warnings ? " (with warnings: see above and summary.json)" : "");
	}
	drape_run_result_free(&r);
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
		static const char* const with_value[] = {"--out", "-o", "--frames", "-n", "--threads", "-j",
							 "--format", "-f", "--set", "-s", NULL};
		for (const char* const* v = with_value; *v; ++v)
			if (i + 1 < argc && strcmp(argv[i], *v) == 0) {
				++i;
				break;
			}
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

/* `drape resume DIR`: continues a killed or interrupted run from DIR/checkpoint.bin, the frames
 * bit-identical to an uninterrupted run's (docs/reliability.md, "Resume"). */
int command_resume(int argc, char** argv)
{
	static const struct option options[] = {
		{"threads", required_argument, NULL, 'j'},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char* dir = NULL;
	long threads = -1;
	bool quiet = false;
	optind = 1;
	opterr = 0;
	int opt;
	while ((opt = getopt_long(argc, argv, "j:qh", options, NULL)) != -1) {
		switch (opt) {
		case 'h':
			printf("usage: drape resume DIR [-j|--threads T] [-q|--quiet] [-h|--help]\n"
			       "\n"
			       "Continues the run whose output folder is DIR from its last checkpoint (DIR/checkpoint.bin,\n"
			       "written after every frame): after SIGKILL, a crash or Ctrl-C. The scene, its overrides,\n"
			       "the frame count and formats are the original run's; a scene file that changed since is\n"
			       "refused. The frames and caches (PC2, glTF, USD) come out identical to an uninterrupted\n"
			       "run's, garments included.\n");
			return EXIT_OK;
		case 'j':
			if (!cli_int_option("resume", "--threads", optarg, 1, 1024, &threads))
				return EXIT_BAD_INPUT;
			break;
		case 'q': quiet = true; break;
		default:
			cli_report_bad_option("resume", argc, argv, optopt, options);
			return EXIT_BAD_INPUT;
		}
	}
	for (int i = optind; i < argc; ++i) {
		if (dir) {
			fprintf(stderr, "drape resume: more than one folder given ('%s' and '%s')\n", dir, argv[i]);
			return EXIT_BAD_INPUT;
		}
		dir = argv[i];
	}
	if (!dir) {
		fprintf(stderr, "drape resume: which run? usage: drape resume DIR\n");
		return EXIT_BAD_INPUT;
	}
	run_ui ui = {.quiet = quiet};
	drape_run_def def = drape_default_run_def();
	def.resume = true;
	def.out_dir = dir;
	def.threads = (int32_t)threads;
	def.progress = run_progress;
	def.warning = run_warning;
	def.user = &ui;
	interrupt_watch();
	def.cancel = interrupt_flag();
	drape_run_result r;
	drape_run(&def, &r);
	if (ui.bar_started) progress_end(&ui.bar);
	int status = r.exit_status;
	if (!r.started)
		fprintf(stderr, "drape resume: %s\n", r.error);
	else if (r.failed_frame > 0)
		fprintf(stderr, "drape: frame %d: %s\n", (int)r.failed_frame, r.error);
	else if (r.error[0])
		fprintf(stderr, "drape: %s\n", r.error);
	if (r.started && status == EXIT_INTERRUPTED)
		fprintf(stderr, "drape: interrupted after %d frames\n", (int)r.frames_written - 1);
	if (r.started && status == EXIT_OK && !quiet)
		printf("drape: resumed; %d frames in all -> %s/\n", (int)r.frames_written - 1, dir);
	drape_run_result_free(&r);
	return status;
}
