/* `drape bench --garments`: the paper's Table 1 rows 3-6 for drape's garments (issue 11; the paper's
 * sec. 8): each garment scene sewn, settled and moved on the character on one thread, with the
 * cloth's and the body's vertex and triangle counts, CPU seconds per frame, step size range,
 * frames and steps, the EVAL / CG / C-C / C-S shares, and step attempts per frame, linear solves per
 * attempt and CG iterations per solve next to the paper's steps per frame (issue 27), printed as a
 * Markdown table next to the paper's row (docs/benchmarks.md, "Garments"). */
#include "bench_scene.h"
#include "commands.h"
#include "progress.h"

#include "collide/solid.h"
#include "io/scene.h"
#include "io/sewing.h"
#include "world.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct paper_row {
	const char* scene;
	const char* paper; /* Table 1's row, as printed */
	double paper_steps_per_frame; /* Table 1's steps / frames: the paper solved each step once */
} paper_row;

static const paper_row rows[] = {
	{"garment_shirt", "fig. 4 shirt: 6,450/12,654 cloth, 9,941/18,110 solid, 14.5 s/frame, 2.5/20 ms, 430/748, 16.7/29.9/46.1/2.2 %", 748.0 / 430.0},
	{"garment_pants", "fig. 4 pants: 8,757/17,352, 9,941/18,110, 38.5 s/frame, 0.625/20 ms, 430/1214, 16.4/35.7/42.5/1.7 %", 1214.0 / 430.0},
	{"garment_skirt", "fig. 5 skirt: 2,153/4,020, 7,630/14,008, 3.68 s/frame, 5/20 ms, 393/715, 18.1/30.0/44.5/1.5 %", 715.0 / 393.0},
	{"garment_blouse", "fig. 5 blouse: 5,108/10,016, 7,630/14,008, 16.7 s/frame, 5/20 ms, 393/701, 11.2/26.0/57.7/1.3 %", 701.0 / 393.0},
};

static int bench_one(const paper_row* row, long frames_override)
{
	char path[512], err[1024];
	snprintf(path, sizeof path, "%s/scenes/%s.json", DRAPE_SOURCE_DIR, row->scene);
	FILE* probe = fopen(path, "r");
	if (!probe) {
		printf("| %s | not shipped yet | | | | | | | | | %.2f | %s |\n", row->scene, row->paper_steps_per_frame, row->paper);
		return EXIT_OK;
	}
	fclose(probe);
	scene s;
	drape_world* w = bench_scene_world(row->scene, 1, &s);
	if (!w) return EXIT_BAD_INPUT;
	sewing_state sew;
	if (!sewing_begin(&sew, w)) {
		fprintf(stderr, "drape bench: %s: out of memory\n", row->scene);
		drape_world_destroy(w);
		scene_free(&s);
		return EXIT_DIVERGED;
	}
	long frames = frames_override > 0 ? frames_override : s.frames;
	double cpu = 0.0, eval = 0.0, cg = 0.0, cc = 0.0, cs = 0.0, dt_min = 0.0, dt_max = 0.0;
	int64_t steps = 0, rejected = 0, solves = 0, release_solves = 0, cg_iterations = 0;
	int status = EXIT_OK;
	/* The frame times `drape run` steps to (run_job.c), to the bit: f / fps would end some frames
	 * an ulp away, and a garment's run would then take other steps. */
	const double frame_dt = 1.0 / s.fps;
	for (long f = 1; f <= frames && status == EXIT_OK; ++f) {
		drape_world_reset_stats(w);
		sewing_set_gravity(&sew, w, &s);
		double t0 = cpu_seconds();
		if (drape_world_step(w, (double)f * frame_dt - drape_world_time(w)) != DRAPE_OK) {
			fprintf(stderr, "drape bench: %s frame %ld: %s\n", row->scene, f, drape_world_error(w));
			status = EXIT_DIVERGED;
			break;
		}
		if (sewing_after_frame(&sew, w, &s, err, sizeof err) != DRAPE_OK) status = EXIT_DIVERGED;
		cpu += cpu_seconds() - t0;
		drape_stats st = drape_world_get_stats(w);
		eval += st.eval_ms, cg += st.cg_ms, cc += st.cc_ms, cs += st.cs_ms;
		steps += st.steps;
		rejected += st.rejected;
		solves += st.solves;
		release_solves += st.release_solves;
		cg_iterations += st.cg_iterations;
		if (st.min_dt > 0.0 && (dt_min == 0.0 || st.min_dt < dt_min)) dt_min = st.min_dt;
		if (st.max_dt > dt_max) dt_max = st.max_dt;
	}
	sewing_end(&sew);
	if (status != EXIT_OK) fprintf(stderr, "drape bench: %s: %s\n", row->scene, err);
	int32_t cloth_v = 0, cloth_t = 0, body_v = 0, body_t = 0;
	for (int32_t c = 0; c < drape_cloth_count(w); ++c) {
		cloth_v += drape_cloth_vertex_count(w, (drape_cloth_id){c});
		cloth_t += drape_cloth_mesh(w, (drape_cloth_id){c})->triangle_count;
	}
	for (int32_t k = 0; k < w->solid_count; ++k)
		if (w->solids[k].kind == DRAPE_SOLID_MESH) body_v += w->solids[k].vertex_count, body_t += w->solids[k].triangle_count;
	double total = eval + cg + cc + cs;
	if (total <= 0.0) total = 1.0;
	const double attempts = (double)(steps + rejected);
	printf("| %s | %d/%d | %d/%d | %.3f | %.3g/%.3g | %ld/%lld | %.1f/%.1f/%.1f/%.1f | %.2f | %.2f (%.2f) | %.1f | %.2f | %s |\n",
	       row->scene, (int)cloth_v, (int)cloth_t, (int)body_v, (int)body_t, frames ? cpu / (double)frames : 0.0,
	       1e3 * dt_min, 1e3 * dt_max, frames, (long long)steps, 100.0 * eval / total, 100.0 * cg / total,
	       100.0 * cc / total, 100.0 * cs / total, frames ? attempts / (double)frames : 0.0,
	       attempts > 0.0 ? (double)solves / attempts : 0.0, attempts > 0.0 ? (double)release_solves / attempts : 0.0,
	       solves ? (double)cg_iterations / (double)solves : 0.0, row->paper_steps_per_frame, row->paper);
	fflush(stdout);
	drape_world_destroy(w);
	scene_free(&s);
	return status;
}

int command_bench_garments(int argc, char** argv)
{
	long frames = 0;
	const char* only = NULL;
	/* --garments itself is in the table: command_bench passes the whole command line. */
	enum { OPT_GARMENTS = 256, OPT_ONLY };
	static const struct option options[] = {
		{"garments", no_argument, NULL, OPT_GARMENTS},
		{"frames", required_argument, NULL, 'n'},
		{"only", required_argument, NULL, OPT_ONLY},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	optind = 1;
	opterr = 0;
	int opt;
	while ((opt = getopt_long(argc, argv, "n:h", options, NULL)) != -1) {
		switch (opt) {
		case OPT_GARMENTS: break;
		case 'h':
			printf("usage: drape bench --garments [options]\n"
			       "\n"
			       "The paper's Table 1 rows 3-6 for the garment scenes (scenes/garment_*.json), sewn, settled\n"
			       "and moved on the character on one thread: vertex and triangle counts, CPU s per frame,\n"
			       "step size range, frames and steps, the EVAL / CG / C-C / C-S shares, step attempts\n"
			       "(accepted and rejected) per frame, linear solves per attempt (in brackets: those solved\n"
			       "again because contacts were released) and CG iterations per solve, next to the paper's\n"
			       "steps per frame, as a Markdown table next to the paper's rows.\n"
			       "\n"
			       "options (a value may also be given as --option=VALUE):\n"
			       "  -n, --frames N    frames per scene, 1 to 100000 (default: the scene's own)\n"
			       "  --only SCENE      that scene alone: garment_shirt, garment_pants, garment_skirt or\n"
			       "                    garment_blouse\n"
			       "  -h, --help        show this help\n");
			return EXIT_OK;
		case 'n':
			if (!parse_int_arg(optarg, 1, 100000, &frames)) {
				fprintf(stderr, "drape bench: --frames needs a whole number from 1 to 100000, got '%s'\n", optarg);
				return EXIT_BAD_INPUT;
			}
			break;
		case OPT_ONLY: {
			only = optarg;
			bool known = false;
			for (size_t k = 0; k < sizeof rows / sizeof rows[0]; ++k) known = known || strcmp(only, rows[k].scene) == 0;
			if (!known) {
				fprintf(stderr, "drape bench: --only needs garment_shirt, garment_pants, garment_skirt or garment_blouse, got '%s'\n",
					only);
				return EXIT_BAD_INPUT;
			}
			break;
		}
		default:
			cli_report_bad_option("bench --garments", argc, argv, optopt, options);
			return EXIT_BAD_INPUT;
		}
	}
	if (!cli_no_operands("bench --garments", argc, argv)) return EXIT_BAD_INPUT;
	printf("| scene | cloth v/t | body v/t | CPU s/frame | step min/max (ms) | frames/steps | EVAL/CG/C-C/C-S %% | attempts/frame | "
	       "solves/attempt (release) | CG/solve | the paper's steps/frame | the paper (Table 1) |\n");
	printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
	int status = EXIT_OK;
	for (size_t k = 0; k < sizeof rows / sizeof rows[0]; ++k) {
		if (only && strcmp(only, rows[k].scene) != 0) continue;
		int st = bench_one(&rows[k], frames);
		if (st != EXIT_OK) status = st;
	}
	return status;
}
