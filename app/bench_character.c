/* `drape bench --character`: what a moving body costs (issue 10; docs/benchmarks.md, "Characters").
 * Posing, skinning and refitting the shipped body once per step, timed alone, and its share of the
 * steps of scenes/character.json run on one thread. */
#include "bench_scene.h"
#include "commands.h"
#include "progress.h"

#include "drape.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int command_bench_character(int argc, char** argv)
{
	long frames = 60;
	/* --character itself is in the table: command_bench passes the whole command line. */
	enum { OPT_CHARACTER = 256 };
	static const struct option options[] = {
		{"character", no_argument, NULL, OPT_CHARACTER},
		{"frames", required_argument, NULL, 'n'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	optind = 1;
	opterr = 0;
	int opt;
	while ((opt = getopt_long(argc, argv, "n:h", options, NULL)) != -1) {
		switch (opt) {
		case OPT_CHARACTER: break;
		case 'h':
			printf("usage: drape bench --character [options]\n"
			       "\n"
			       "What a moving body costs: posing, skinning and refitting the body of scenes/character.json\n"
			       "once per step, timed alone, and its share of that scene's steps on one thread.\n"
			       "\n"
			       "options (a value may also be given as --option=VALUE):\n"
			       "  -n, --frames N    frames of the scene, 1 to 100000 (default 60)\n"
			       "  -h, --help        show this help\n");
			return EXIT_OK;
		case 'n':
			if (!cli_int_option("bench", "--frames", optarg, 1, 100000, &frames))
				return EXIT_BAD_INPUT;
			break;
		default:
			cli_report_bad_option("bench --character", argc, argv, optopt, options);
			return EXIT_BAD_INPUT;
		}
	}
	if (!cli_no_operands("bench --character", argc, argv)) return EXIT_BAD_INPUT;
	drape_scene* s;
	drape_world* w = bench_scene_world("character", 1, &s);
	if (!w) return EXIT_BAD_INPUT;
	/* The body alone: a step's worth of posing, skinning and box refitting, 200 steps of 1/120 s. */
	int32_t body = -1;
	for (int32_t k = 0; k < drape_solid_count(w) && body < 0; ++k)
		if (drape_solid_is_character(w, (drape_solid_id){k})) body = k;
	double t0 = cpu_seconds();
	const int reps = 200;
	for (int r = 0; r < reps; ++r) drape_world_pose_solids(w, r / 120.0, 1.0 / 120.0);
	double body_ms = 1e3 * (cpu_seconds() - t0) / reps;
	/* The scene: its steps, on one thread. */
	int64_t steps = 0;
	double run0 = cpu_seconds();
	int status = EXIT_OK;
	for (long f = 1; f <= frames; ++f) {
		drape_world_reset_stats(w);
		if (drape_world_step(w, 1.0 / drape_scene_fps(s)) != DRAPE_OK) {
			fprintf(stderr, "drape bench: %s\n", drape_world_error(w));
			status = EXIT_DIVERGED;
			break;
		}
		steps += drape_world_get_stats(w).steps;
	}
	double step_ms = steps ? 1e3 * (cpu_seconds() - run0) / (double)steps : 0.0;
	printf("character: body of %d vertices, %d triangles; pose + skin + refit %.3f ms per step\n",
	       body >= 0 ? drape_solid_vertex_count(w, (drape_solid_id){body}) : 0,
	       body >= 0 ? drape_solid_triangle_count(w, (drape_solid_id){body}) : 0, body_ms);
	int32_t particles = 0;
	for (int32_t c = 0; c < drape_cloth_count(w); ++c) particles += drape_cloth_vertex_count(w, (drape_cloth_id){c});
	printf("character.json, %ld frames, one thread: %d cloth particles, %.2f ms per step, body share %.1f %%\n", frames,
	       particles, step_ms, step_ms > 0.0 ? 100.0 * body_ms / step_ms : 0.0);
	drape_world_destroy(w);
	drape_scene_destroy(s);
	return status;
}
