/* The `drape` command: dispatches to run, bench, render, view and stability. */
#include "commands.h"
#include "drape.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE* f)
{
	fprintf(f,
		"drape %s - cloth simulation after Baraff & Witkin (Large Steps in Cloth Simulation) and\n"
		"Boxerman (ADI Cloth)\n"
		"\n"
		"usage: drape <command> [options]\n"
		"\n"
		"commands:\n"
		"  run [SCENE.json]   simulate a scene (default: the paper's figure 1 drape) and write\n"
		"                     OBJ frames, stats.csv and summary.json; see `drape run --help`\n"
		"  resume DIR         continue a killed or interrupted run from its last frame, bit-identically;\n"
		"                     see `drape resume --help`\n"
		"  bench              the paper's timings (figure 1, figure 2 sizes, bend sweep); with\n"
		"                     --integrators, the ADI Cloth integrators' costs; see `drape bench --help`\n"
		"  render DIR         draw a run's frames as PNG images and an MP4 or GIF (offscreen OpenGL,\n"
		"                     ffmpeg); see `drape render --help`\n"
		"  view [SCENE.json]  open a window and simulate live; drag the cloth with the mouse; see\n"
		"                     `drape view --help`\n"
		"  stability          largest stable time step of each integrator (ADI Cloth sec. 6.3-6.5);\n"
		"                     see `drape stability --help`\n"
		"\n"
		"options:\n"
		"  --help             show this help\n"
		"  --version          print the version\n"
		"\n"
		"exit status: 0 success, 1 output could not be written, 2 bad input or usage,\n"
		"             3 the simulation cannot continue, 130 interrupted\n",
		DRAPE_VERSION_STRING);
}

int main(int argc, char** argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	const char* cmd = argv[1];
	if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
		usage(stdout);
		return EXIT_OK;
	}
	if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
		printf("drape %s\n", DRAPE_VERSION_STRING);
		return EXIT_OK;
	}
	if (strcmp(cmd, "run") == 0) return command_run(argc - 1, argv + 1);
	if (strcmp(cmd, "resume") == 0) return command_resume(argc - 1, argv + 1);
	if (strcmp(cmd, "bench") == 0) return command_bench(argc - 1, argv + 1);
	if (strcmp(cmd, "render") == 0) return command_render(argc - 1, argv + 1);
	if (strcmp(cmd, "view") == 0) return command_view(argc - 1, argv + 1);
	if (strcmp(cmd, "stability") == 0) return command_stability(argc - 1, argv + 1);
	static const char* const commands[] = {"run", "resume", "bench", "render", "view", "stability"};
	const char* near = drape_closest_name(cmd, commands, (int32_t)(sizeof commands / sizeof *commands));
	if (near) fprintf(stderr, "drape: unknown command '%s' (did you mean '%s'?) (try `drape --help`)\n", cmd, near);
	else fprintf(stderr, "drape: unknown command '%s' (try `drape --help`)\n", cmd);
	return EXIT_BAD_INPUT;
}
