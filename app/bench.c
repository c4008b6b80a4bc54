/* `drape bench`: the paper's sec. 8 timing experiments: Table 1's figure 1 drape, the figure 2
 * sheet at sizes of about 500, 900, 2,600 and 7,400 particles, and the bend-stiffness sweep
 * x0.1 ... x1000, which the paper ran on figure 1 (docs/benchmarks.md, "Bend-stiffness sweep"; the
 * same sweep on the 2,600 sheet is kept for comparison). Times are medians of several runs
 * (machines are noisy); counts are deterministic. */
#include "commands.h"
#include "progress.h"

#include "drape.h"

#include <cjson/cJSON.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The paper's figure 1 drape, built in: DRAPE_DEFAULT_SCENE is "<built-in>/" this. */
#define FIG1 "figure1_drape.json"

typedef struct bench_result {
	double ms_median, ms_min, ms_max;
	double steps_per_frame, cg_per_step, eval_pct, cg_pct, cc_pct, cs_pct, min_dt, max_dt;
	long long rejected;
	int particles;
	bool ok;
} bench_result;

static int compare_doubles(const void* a, const void* b)
{
	double x = *(const double*)a, y = *(const double*)b;
	return x < y ? -1 : (x > y ? 1 : 0);
}

/* A shipped scene's text (embedded `name`) with its first cloth's bend stiffness scaled and, for
 * resolution > 0, its grid's resolution replaced. */
static char* variant_text(const char* name, int resolution, double bend_factor)
{
	cJSON* root = cJSON_Parse(drape_builtin_file(name));
	if (!root) return NULL;
	cJSON* cloth = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "cloths"), 0);
	if (resolution > 0) {
		cJSON* grid = cJSON_GetObjectItem(cloth, "grid");
		int res[2] = {resolution, resolution};
		cJSON_ReplaceItemInObject(grid, "resolution", cJSON_CreateIntArray(res, 2));
	}
	cJSON* mat = cJSON_GetObjectItem(cloth, "material");
	if (!mat) mat = cJSON_AddObjectToObject(cloth, "material");
	cJSON* bend = cJSON_GetObjectItem(mat, "bend");
	double base = bend ? bend->valuedouble : drape_default_material().bend_u;
	cJSON_DeleteItemFromObject(mat, "bend");
	cJSON_AddNumberToObject(mat, "bend", base * bend_factor);
	char* text = cJSON_PrintUnformatted(root);
	cJSON_Delete(root);
	return text;
}

/* The bar over all runs of the whole benchmark (on a terminal only). */
static progress bench_bar;
static int bench_runs_done;

/* Runs scene `text` (named `path`, which anchors its mesh files) `runs` times. */
static bench_result bench_scene(const char* text, const char* path, int runs, int frames, int threads)
{
	bench_result r = {0};
	char err[1024];
	double times[64];
	for (int k = 0; text && k < runs; ++k) {
		drape_scene* s = drape_scene_load_text(text, path, err, sizeof err);
		if (!s) {
			fprintf(stderr, "drape bench: %s\n", err);
			break;
		}
		drape_world_def def = drape_scene_world_def(s);
		if (threads > 0) def.threads = threads;
		drape_world* w = drape_scene_create_world(s, &def, err, sizeof err);
		if (!w) {
			fprintf(stderr, "drape bench: %s\n", err);
			drape_scene_destroy(s);
			break;
		}
		double dt = 1.0 / drape_scene_fps(s);
		double t0 = wall_seconds();
		bool ok = true;
		for (int f = 1; f <= frames && ok; ++f) ok = drape_world_step(w, f * dt - drape_world_time(w)) == DRAPE_OK;
		double elapsed = wall_seconds() - t0;
		drape_stats st = drape_world_get_stats(w);
		times[k] = 1e3 * elapsed / frames;
		r.particles = drape_cloth_vertex_count(w, (drape_cloth_id){0});
		r.steps_per_frame = (double)st.steps / frames;
		r.cg_per_step = st.steps ? (double)st.cg_iterations / (double)st.steps : 0.0;
		r.eval_pct = 100.0 * st.eval_ms / (1e3 * elapsed);
		r.cg_pct = 100.0 * st.cg_ms / (1e3 * elapsed);
		r.cc_pct = 100.0 * st.cc_ms / (1e3 * elapsed);
		r.cs_pct = 100.0 * st.cs_ms / (1e3 * elapsed);
		r.min_dt = st.min_dt;
		r.max_dt = st.max_dt;
		r.rejected = (long long)st.rejected;
		r.ok = ok;
		if (!ok) fprintf(stderr, "drape bench: %s\n", drape_world_error(w));
		drape_world_destroy(w);
		drape_scene_destroy(s);
		progress_update(&bench_bar, ++bench_runs_done, -1.0);
		if (!ok) break;
	}
	if (r.ok) {
		qsort(times, (size_t)runs, sizeof times[0], compare_doubles);
		r.ms_median = runs % 2 ? times[runs / 2] : 0.5 * (times[runs / 2 - 1] + times[runs / 2]);
		r.ms_min = times[0];
		r.ms_max = times[runs - 1];
	}
	return r;
}

/* Scene `name` (embedded) as variant_text makes it, named `path` (which anchors its mesh files). */
static bench_result bench_variant(const char* name, const char* path, int resolution, double bend_factor, int runs, int frames,
				  int threads)
{
	char* text = variant_text(name, resolution, bend_factor);
	bench_result r = {0};
	if (text) r = bench_scene(text, path, runs, frames, threads);
	free(text);
	return r;
}

static bench_result bench_sheet(int resolution, double bend_factor, int runs, int frames, int threads)
{
	return bench_variant("figure2_sheet.json", "<bench>/figure2_sheet.json", resolution, bend_factor, runs, frames, threads);
}

/* The figure 1 drape with its bend stiffness scaled: the paper's sweep (sec. 8: "We also ran the
 * simulation in figure 1 with a range of stiffnesses for the bend term"), 90 frames as Table 1's row. */
static bench_result bench_fig1_bend(double bend_factor, int runs, int threads)
{
	return bench_variant(FIG1, DRAPE_DEFAULT_SCENE, 0, bend_factor, runs, 90, threads);
}

static void print_row(FILE* csv, const char* kind, double factor, int runs, int threads, const bench_result* r)
{
	progress_clear(&bench_bar);
	printf("%-6s %3d %9d %7.1f %9.2f %9.2f %9.2f %7.2f %7.1f %5.1f %5.1f %5.1f %5.1f %5.1f/%-5.1f %4lld\n", kind, threads,
	       r->particles, factor, r->ms_median, r->ms_min, r->ms_max, r->steps_per_frame, r->cg_per_step, r->eval_pct,
	       r->cg_pct, r->cc_pct, r->cs_pct, 1e3 * r->min_dt, 1e3 * r->max_dt, r->rejected);
	if (csv)
		fprintf(csv, "%s,%d,%g,%d,%d,%.3f,%.3f,%.3f,%.3f,%.2f,%.2f,%.2f,%.2f,%.2f,%.4f,%.4f,%lld\n", kind, r->particles,
			factor, threads, runs, r->ms_median, r->ms_min, r->ms_max, r->steps_per_frame, r->cg_per_step, r->eval_pct,
			r->cg_pct, r->cc_pct, r->cs_pct, 1e3 * r->min_dt, 1e3 * r->max_dt, r->rejected);
	fflush(stdout);
}

static void bench_usage(FILE* f)
{
	fprintf(f, "usage: drape bench [options]\n"
		   "       drape bench --integrators ...   (the ADI Cloth integrators; see --integrators --help)\n"
		   "       drape bench --scaling ...       (the sheet at 2.6K ... 160K particles; see --scaling --help)\n"
		   "       drape bench --character ...     (the moving body's cost per step; see --character --help)\n"
		   "       drape bench --garments ...      (Table 1 for the garment scenes; see --garments --help)\n"
		   "\n"
		   "The paper's Table 1 and sec. 8 experiments, R times each:\n"
		   "  fig1   the figure 1 drape (the default scene) for 90 frames, on 1 and 2 threads\n"
		   "  size   the figure 2 sheet at about 500, 900, 2,600 and 7,400 particles for N frames\n"
		   "         on T threads\n"
		   "  bend   the paper's bend-stiffness sweep x0.1 ... x1000: the figure 1 drape, 90 frames\n"
		   "  bend-sheet  the same sweep on the 2,600 sheet for N frames (not part of the default run)\n"
		   "Prints a table and writes CSV: ms per 1/30 s frame (median, min, max), steps per frame,\n"
		   "mean CG iterations per step, the EVAL / CG / C-C / C-S shares of the time, the step size\n"
		   "range in ms and the rejected steps.\n"
		   "\n"
		   "options (a value may also be given as --option=VALUE):\n"
		   "  --runs R            runs of each case, 1 to 64 (default 3); the median is reported\n"
		   "  -n, --frames N      frames of the size and bend-sheet cases, 1 to 100000 (default 60: 2 s)\n"
		   "  -j, --threads T     threads of the size and both bend cases, 1 to 1024 (default 1)\n"
		   "  --csv FILE          also write the rows as CSV\n"
		   "  --no-sweep          skip the bend sweep\n"
		   "  --only fig1|size|bend|bend-sheet  run that part alone\n"
		   "  -h, --help          show this help\n");
}

/* The mode a `drape bench` command line asks for (--integrators, ...), or NULL: each mode parses
 * its own options and accepts its flag among them. Stops at "--", after which nothing is an option. */
typedef int (*bench_mode)(int argc, char** argv);
static bench_mode find_mode(int argc, char** argv)
{
	static const struct {
		const char* flag;
		bench_mode run;
	} modes[] = {
		{"--integrators", command_bench_integrators},
		{"--scaling", command_bench_scaling},
		{"--character", command_bench_character},
		{"--garments", command_bench_garments},
	};
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; ++i)
		for (size_t m = 0; m < sizeof modes / sizeof modes[0]; ++m)
			if (strcmp(argv[i], modes[m].flag) == 0) return modes[m].run;
	return NULL;
}

int command_bench(int argc, char** argv)
{
	bench_mode mode = find_mode(argc, argv);
	if (mode) return mode(argc, argv);
	long runs = 3, frames = 60, threads = 1;
	const char* csv_path = NULL;
	bool sweep = true;
	const char* only = NULL; /* fig1, size, bend or bend-sheet: that part alone */
	enum { OPT_RUNS = 256, OPT_CSV, OPT_NO_SWEEP, OPT_ONLY };
	static const struct option options[] = {
		{"runs", required_argument, NULL, OPT_RUNS},   {"frames", required_argument, NULL, 'n'},
		{"threads", required_argument, NULL, 'j'},     {"csv", required_argument, NULL, OPT_CSV},
		{"no-sweep", no_argument, NULL, OPT_NO_SWEEP}, {"only", required_argument, NULL, OPT_ONLY},
		{"help", no_argument, NULL, 'h'},	       {NULL, 0, NULL, 0},
	};
	optind = 1;
	opterr = 0;
	int opt;
	while ((opt = getopt_long(argc, argv, "n:j:h", options, NULL)) != -1) {
		switch (opt) {
		case 'h': bench_usage(stdout); return EXIT_OK;
		case OPT_RUNS:
			if (!cli_int_option("bench", "--runs", optarg, 1, 64, &runs))
				return EXIT_BAD_INPUT;
			break;
		case 'n':
			if (!cli_int_option("bench", "--frames", optarg, 1, 100000, &frames))
				return EXIT_BAD_INPUT;
			break;
		case 'j':
			if (!cli_int_option("bench", "--threads", optarg, 1, 1024, &threads))
				return EXIT_BAD_INPUT;
			break;
		case OPT_CSV: csv_path = optarg; break;
		case OPT_NO_SWEEP: sweep = false; break;
		case OPT_ONLY:
			only = optarg;
			if (strcmp(only, "fig1") != 0 && strcmp(only, "size") != 0 && strcmp(only, "bend") != 0 &&
			    strcmp(only, "bend-sheet") != 0) {
				fprintf(stderr, "drape bench: --only needs fig1, size, bend or bend-sheet, got '%s'\n", only);
				return EXIT_BAD_INPUT;
			}
			break;
		default:
			cli_report_bad_option("bench", argc, argv, optopt, options);
			return EXIT_BAD_INPUT;
		}
	}
	if (!cli_no_operands("bench", argc, argv)) return EXIT_BAD_INPUT;
	FILE* csv = NULL;
	if (csv_path) {
		csv = fopen(csv_path, "w");
		if (!csv) {
			perror(csv_path);
			return EXIT_IO;
		}
		fprintf(csv, "kind,particles,bend_factor,threads,runs,ms_per_frame_median,ms_per_frame_min,ms_per_frame_max,"
			     "steps_per_frame,cg_iterations_per_step,eval_pct,cg_pct,cc_pct,cs_pct,min_dt_ms,max_dt_ms,rejected\n");
	}
	printf("%ld runs each; ms per 1/30 s frame; step sizes in ms\n", runs);
	printf("%-6s %3s %9s %7s %9s %9s %9s %7s %7s %5s %5s %5s %5s %11s %4s\n", "kind", "thr", "particles", "bend x",
	       "median", "min", "max", "steps/f", "CG/step", "EVAL%", "CG%", "C/C%", "C/S%", "dt min/max", "rej");
	int status = EXIT_OK;
	const bool do_fig1 = !only || strcmp(only, "fig1") == 0, do_size = !only || strcmp(only, "size") == 0;
	const bool sheet_sweep = only && strcmp(only, "bend-sheet") == 0;
	sweep = only ? strcmp(only, "bend") == 0 || sheet_sweep : sweep;
	progress_begin(&bench_bar, "drape bench", (int)runs * ((do_fig1 ? 2 : 0) + (do_size ? 4 : 0) + (sweep ? 5 : 0)), false);
	bench_bar.unit = "runs";
	/* Table 1, figure 1: the drape over the cylinder mesh, 90 frames (the paper ran 75). */
	const char* fig1 = drape_builtin_file(FIG1);
	for (int t = 1; do_fig1 && t <= 2; ++t) {
		bench_result r = bench_scene(fig1, DRAPE_DEFAULT_SCENE, (int)runs, 90, t);
		if (!r.ok) status = EXIT_DIVERGED;
		print_row(csv, "fig1", 1.0, (int)runs, t, &r);
	}
	const int sizes[] = {22, 30, 51, 86};
	for (size_t k = 0; do_size && k < sizeof sizes / sizeof sizes[0]; ++k) {
		bench_result r = bench_sheet(sizes[k], 1.0, (int)runs, (int)frames, (int)threads);
		if (!r.ok) status = EXIT_DIVERGED;
		print_row(csv, "size", 1.0, (int)runs, (int)threads, &r);
	}
	if (sweep) {
		const double factors[] = {0.1, 1.0, 10.0, 100.0, 1000.0};
		double lo = 1e300, hi = 0.0, sum = 0.0;
		for (size_t k = 0; k < sizeof factors / sizeof factors[0]; ++k) {
			bench_result r = sheet_sweep ? bench_sheet(51, factors[k], (int)runs, (int)frames, (int)threads)
						     : bench_fig1_bend(factors[k], (int)runs, (int)threads);
			if (!r.ok) status = EXIT_DIVERGED;
			print_row(csv, sheet_sweep ? "bend2" : "bend", factors[k], (int)runs, (int)threads, &r);
			lo = r.ms_median < lo ? r.ms_median : lo;
			hi = r.ms_median > hi ? r.ms_median : hi;
			sum += r.ms_median;
		}
		printf("bend sweep (%s): runtime spread (max - min) / mean = %.1f %% (the paper, on figure 1: under 5 %%)\n",
		       sheet_sweep ? "the figure 2 sheet" : "figure 1, as the paper", 100.0 * (hi - lo) / (sum / 5.0));
	}
	if (csv) fclose(csv); /* print_row has erased the bar */
	return status;
}
