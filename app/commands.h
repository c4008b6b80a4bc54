/* The subcommands of the `drape` program. Exit status: 0 success, 2 bad input or usage, 3 the
 * simulation cannot continue, 1 an I/O failure while writing output, 130 interrupted. */
#ifndef DRAPE_APP_COMMANDS_H
#define DRAPE_APP_COMMANDS_H

#include <stdbool.h>

enum {
	EXIT_OK = 0,
	EXIT_IO = 1,
	EXIT_BAD_INPUT = 2,
	EXIT_DIVERGED = 3,
	EXIT_INTERRUPTED = 130,
};

int command_run(int argc, char** argv);
int command_resume(int argc, char** argv); /* drape resume DIR (run.c) */
int command_bench(int argc, char** argv);
int command_render(int argc, char** argv);
int command_view(int argc, char** argv);
/* `drape render DIR` with its defaults (after `drape run --render`). */
int render_run_output(const char* dir, bool quiet);
int command_stability(int argc, char** argv);
int command_bench_integrators(int argc, char** argv); /* drape bench --integrators */
int command_bench_scaling(int argc, char** argv);     /* drape bench --scaling */
int command_bench_character(int argc, char** argv);   /* drape bench --character */
int command_bench_garments(int argc, char** argv);    /* drape bench --garments */

/* parse_int_arg and the other option helpers: app/cli.h. */
#include "cli.h"

#endif
