/* `drape bench --garments`: the paper's Table 1 garment rows (figures 3-6; issues 11, 28; the paper's
 * sec. 8): each scene sewn, settled and moved on the character on one thread, a row per garment of
 * an outfit with its share of the time (EVAL and CG by particles, C-C and C-S by contacts), with the
 * cloth's and the body's vertex and triangle counts, CPU seconds per frame, step size range,
 * frames and steps, the EVAL / CG / C-C / C-S shares, and step attempts per frame, linear solves per
 * attempt and CG iterations per solve next to the paper's steps per frame (issue 27), printed as a
 * Markdown table next to the paper's row (docs/benchmarks.md, "Garments"). */
#include "bench_scene.h"
#include "commands.h"
#include "progress.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct paper_row {
	const char* scene;
	const char* cloth; /* the outfit's garment this row is about; NULL: the whole scene */
	const char* alone; /* the garment's own scene, measured instead while the outfit's is not shipped */
	const char* paper; /* Table 1's row, as printed */
	double paper_steps_per_frame; /* Table 1's steps / frames: the paper solved each step once */
} paper_row;

/* Table 1's seven garment rows. An outfit's garments share one run; each gets its row. */
static const paper_row rows[] = {
	{"figure3_twist", NULL, NULL, "fig. 3: 6,450/12,654 cloth, 9,941/18,110 solid, 7.32 s/frame, 16.5/33 ms, 50/52, 18.9/37.9/30.9/2.6 %", 52.0 / 50.0},
	{"outfit_walk", "shirt", "garment_shirt", "fig. 4 shirt: 6,450/12,654 cloth, 9,941/18,110 solid, 14.5 s/frame, 2.5/20 ms, 430/748, 16.7/29.9/46.1/2.2 %", 748.0 / 430.0},
	{"outfit_walk", "pants", "garment_pants", "fig. 4 pants: 8,757/17,352, 9,941/18,110, 38.5 s/frame, 0.625/20 ms, 430/1214, 16.4/35.7/42.5/1.7 %", 1214.0 / 430.0},
	{"outfit_dance_short", "skirt", "garment_skirt", "fig. 5 skirt: 2,153/4,020, 7,630/14,008, 3.68 s/frame, 5/20 ms, 393/715, 18.1/30.0/44.5/1.5 %", 715.0 / 393.0},
	{"outfit_dance_short", "blouse", "garment_blouse", "fig. 5 blouse: 5,108/10,016, 7,630/14,008, 16.7 s/frame, 5/20 ms, 393/701, 11.2/26.0/57.7/1.3 %", 701.0 / 393.0},
	{"outfit_dance_long", "skirt", NULL, "fig. 6 skirt: 4,530/8,844, 7,630/14,008, 10.2 s/frame, 10/20 ms, 393/670, 20.1/36.8/29.7/2.6 %", 670.0 / 393.0},
	{"outfit_dance_long", "blouse", NULL, "fig. 6 blouse: 5,188/10,194, 7,630/14,008, 16.6 s/frame, 1.25/20 ms, 393/753, 13.2/30.9/50.2/1.4 %", 753.0 / 393.0},
};
#define ROW_COUNT ((int)(sizeof rows / sizeof rows[0]))
/* the most garments one scene's rows name */
#define MAX_GARMENTS 4

/* One garment's share of a run: EVAL and CG go by particles, C-C by the cloth/cloth pairs it takes
 * part in, C-S by its particles in contact with solids (docs/benchmarks.md, "Garments"). */
typedef struct share {
	int32_t cloth; /* index in the world; -1: the whole scene */
	double cpu, eval, cg, cc, cs;
} share;

static void print_row(const paper_row* row, const drape_world* w, const share* sh, long frames, double dt_min, double dt_max,
		      int64_t steps, int64_t rejected, int64_t solves, int64_t release_solves, int64_t cg_iterations)
{
	int32_t cloth_v = 0, cloth_t = 0, body_v = 0, body_t = 0;
	for (int32_t c = 0; c < drape_cloth_count(w); ++c) {
		if (sh->cloth >= 0 && c != sh->cloth) continue;
		cloth_v += drape_cloth_vertex_count(w, (drape_cloth_id){c});
		cloth_t += drape_cloth_mesh(w, (drape_cloth_id){c})->triangle_count;
	}
	for (int32_t k = 0; k < drape_solid_count(w); ++k) {
		body_v += drape_solid_vertex_count(w, (drape_solid_id){k});
		body_t += drape_solid_triangle_count(w, (drape_solid_id){k});
	}
	double total = sh->eval + sh->cg + sh->cc + sh->cs;
	if (total <= 0.0) total = 1.0;
	const double attempts = (double)(steps + rejected);
	char name[96];
	snprintf(name, sizeof name, "%s%s%s", row->scene, row->cloth ? ": " : "", row->cloth ? row->cloth : "");
	printf("| %s | %d/%d | %d/%d | %.3f | %.3g/%.3g | %ld/%lld | %.1f/%.1f/%.1f/%.1f | %.2f | %.2f (%.2f) | %.1f | %.2f | %s |\n",
	       name, (int)cloth_v, (int)cloth_t, (int)body_v, (int)body_t, frames ? sh->cpu / (double)frames : 0.0, 1e3 * dt_min,
	       1e3 * dt_max, frames, (long long)steps, 100.0 * sh->eval / total, 100.0 * sh->cg / total, 100.0 * sh->cc / total,
	       100.0 * sh->cs / total, frames ? attempts / (double)frames : 0.0, attempts > 0.0 ? (double)solves / attempts : 0.0,
	       attempts > 0.0 ? (double)release_solves / attempts : 0.0, solves ? (double)cg_iterations / (double)solves : 0.0,
	       row->paper_steps_per_frame, row->paper);
}

static bool shipped(const char* scene)
{
	char path[512];
	snprintf(path, sizeof path, "%s/scenes/%s.json", DRAPE_SOURCE_DIR, scene);
	FILE* probe = fopen(path, "r");
	if (probe) fclose(probe);
	return probe != NULL;
}

/* Runs group[0]'s scene once and prints the group's rows (group[0 .. count), one scene). */
static int bench_scene(const paper_row* group, int count, long frames_override)
{
	const paper_row* row = &group[0];
	char path[512], err[1024];
	snprintf(path, sizeof path, "%s/scenes/%s.json", DRAPE_SOURCE_DIR, row->scene);
	drape_scene* s;
	drape_world* w = bench_scene_world(row->scene, 1, &s);
	if (!w) return EXIT_BAD_INPUT;
	share shares[MAX_GARMENTS] = {{0}};
	for (int k = 0; k < count; ++k) {
		shares[k].cloth = -1;
		for (int32_t c = 0; group[k].cloth && c < drape_cloth_count(w); ++c)
			if (strcmp(drape_cloth_name(w, (drape_cloth_id){c}), group[k].cloth) == 0) shares[k].cloth = c;
		if (group[k].cloth && shares[k].cloth < 0) {
			fprintf(stderr, "drape bench: %s has no cloth named '%s'\n", path, group[k].cloth);
			drape_world_destroy(w);
			drape_scene_destroy(s);
			return EXIT_BAD_INPUT;
		}
	}
	drape_sewing* sew = drape_sewing_create(s, w);
	if (!sew) {
		fprintf(stderr, "drape bench: %s: out of memory\n", row->scene);
		drape_world_destroy(w);
		drape_scene_destroy(s);
		return EXIT_DIVERGED;
	}
	long frames = frames_override > 0 ? frames_override : drape_scene_frames(s);
	double dt_min = 0.0, dt_max = 0.0;
	int64_t steps = 0, rejected = 0, solves = 0, release_solves = 0, cg_iterations = 0;
	int status = EXIT_OK;
	/* The frame times `drape run` steps to (run_job.c), to the bit: f / fps would end some frames
	 * an ulp away, and a garment's run would then take other steps. */
	const double frame_dt = 1.0 / drape_scene_fps(s);
	for (long f = 1; f <= frames && status == EXIT_OK; ++f) {
		drape_world_reset_stats(w);
		drape_sewing_before_frame(sew, w);
		double t0 = cpu_seconds();
		if (drape_world_step(w, (double)f * frame_dt - drape_world_time(w)) != DRAPE_OK) {
			fprintf(stderr, "drape bench: %s frame %ld: %s\n", row->scene, f, drape_world_error(w));
			status = EXIT_DIVERGED;
			break;
		}
		if (drape_sewing_after_frame(sew, w, err, sizeof err) != DRAPE_OK) status = EXIT_DIVERGED;
		const double cpu = cpu_seconds() - t0;
		drape_stats st = drape_world_get_stats(w);
		steps += st.steps;
		rejected += st.rejected;
		solves += st.solves;
		release_solves += st.release_solves;
		cg_iterations += st.cg_iterations;
		if (st.min_dt > 0.0 && (dt_min == 0.0 || st.min_dt < dt_min)) dt_min = st.min_dt;
		if (st.max_dt > dt_max) dt_max = st.max_dt;
		/* each garment's share of this frame: its particles' part of EVAL and CG, its contacts'
		 * part of C-C and C-S, counted at the frame's end (the contacts of its last step) */
		int32_t particles = 0, pairs = 0, solid = 0;
		for (int32_t c = 0; c < drape_cloth_count(w); ++c) {
			int32_t ks, kc;
			drape_cloth_contact_counts(w, (drape_cloth_id){c}, &ks, &kc);
			particles += drape_cloth_vertex_count(w, (drape_cloth_id){c});
			solid += ks;
			pairs += kc;
		}
		const double frame_ms = st.eval_ms + st.cg_ms + st.cc_ms + st.cs_ms;
		for (int k = 0; k < count; ++k) {
			share* sh = &shares[k];
			double fp = 1.0, fc = 1.0, fs = 1.0;
			if (sh->cloth >= 0) {
				int32_t ks, kc;
				const drape_cloth_id id = {sh->cloth};
				drape_cloth_contact_counts(w, id, &ks, &kc);
				fp = particles ? (double)drape_cloth_vertex_count(w, id) / (double)particles : 0.0;
				fc = pairs ? (double)kc / (double)pairs : fp;
				fs = solid ? (double)ks / (double)solid : fp;
			}
			sh->eval += fp * st.eval_ms, sh->cg += fp * st.cg_ms, sh->cc += fc * st.cc_ms, sh->cs += fs * st.cs_ms;
			/* CPU time split as the stage times are */
			const double mine = fp * (st.eval_ms + st.cg_ms) + fc * st.cc_ms + fs * st.cs_ms;
			sh->cpu += frame_ms > 0.0 ? cpu * mine / frame_ms : cpu * fp;
		}
	}
	drape_sewing_destroy(sew);
	if (status != EXIT_OK) fprintf(stderr, "drape bench: %s: %s\n", row->scene, err);
	for (int k = 0; k < count; ++k)
		print_row(&group[k], w, &shares[k], frames, dt_min, dt_max, steps, rejected, solves, release_solves, cg_iterations);
	fflush(stdout);
	drape_world_destroy(w);
	drape_scene_destroy(s);
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
			       "The paper's Table 1 garment rows (figures 3-6) for the scenes that show them\n"
			       "(figure3_twist, outfit_walk, outfit_dance_short, outfit_dance_long), sewn, settled and\n"
			       "moved on the character on one thread, a row per garment of an outfit with its share of\n"
			       "the time (docs/benchmarks.md): vertex and triangle counts, CPU s per frame,\n"
			       "step size range, frames and steps, the EVAL / CG / C-C / C-S shares, step attempts\n"
			       "(accepted and rejected) per frame, linear solves per attempt (in brackets: those solved\n"
			       "again because contacts were released) and CG iterations per solve, next to the paper's\n"
			       "steps per frame, as a Markdown table next to the paper's rows.\n"
			       "\n"
			       "options (a value may also be given as --option=VALUE):\n"
			       "  -n, --frames N    frames per scene, 1 to 100000 (default: the scene's own)\n"
			       "  --only SCENE      that scene alone: figure3_twist, outfit_walk, outfit_dance_short or\n"
			       "                    outfit_dance_long\n"
			       "  -h, --help        show this help\n");
			return EXIT_OK;
		case 'n':
			if (!cli_int_option("bench", "--frames", optarg, 1, 100000, &frames))
				return EXIT_BAD_INPUT;
			break;
		case OPT_ONLY: {
			only = optarg;
			bool known = false;
			for (int k = 0; k < ROW_COUNT; ++k) known = known || strcmp(only, rows[k].scene) == 0;
			if (!known) {
				fprintf(stderr,
					"drape bench: --only needs figure3_twist, outfit_walk, outfit_dance_short or outfit_dance_long, got '%s'\n",
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
	for (int k = 0; k < ROW_COUNT;) {
		int count = 1;
		while (k + count < ROW_COUNT && strcmp(rows[k + count].scene, rows[k].scene) == 0) ++count;
		for (int r = k; (!only || strcmp(only, rows[k].scene) == 0) && r < k + (shipped(rows[k].scene) ? 1 : count); ++r) {
			int st = EXIT_OK;
			if (shipped(rows[k].scene)) {
				st = bench_scene(&rows[k], count, frames);
			} else if (rows[r].alone) {
				/* until the outfit ships, the garment alone in its own scene, named in the row */
				const paper_row alone = {rows[r].alone, NULL, NULL, rows[r].paper, rows[r].paper_steps_per_frame};
				st = bench_scene(&alone, 1, frames);
			} else {
				printf("| %s: %s | not shipped yet | | | | | | | | | %.2f | %s |\n", rows[r].scene, rows[r].cloth,
				       rows[r].paper_steps_per_frame, rows[r].paper);
			}
			if (st != EXIT_OK) status = st;
		}
		k += count;
	}
	return status;
}
