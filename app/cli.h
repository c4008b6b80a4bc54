/* Helpers shared by the commands' option parsing (getopt_long in each command). */
#ifndef DRAPE_APP_CLI_H
#define DRAPE_APP_CLI_H

#include <stdbool.h>

/* Parses a whole decimal integer in [lo, hi]; false on anything else. */
bool parse_int_arg(const char* s, long lo, long hi, long* out);

/* Parses a whole finite decimal number (strtod's syntax) in [lo, hi]; false on anything else,
 * including trailing text and values that overflow or underflow. */
bool parse_double_arg(const char* s, double lo, double hi, double* out);

/* parse_int_arg for an option's value: false, after "drape COMMAND: OPTION needs a whole number
 * from LO to HI, got 'ARG'" on stderr (">= LO" where HI is a mere cap, 10^7 or more), when ARG is
 * not one. The one wording of every command's whole-number options. */
bool cli_int_option(const char* command, const char* option, const char* arg, long lo, long hi, long* out);

/* The option text getopt_long stopped at (argv[optind - 1], the short option it saw, or a long
 * option left without its value at the end), for "unknown option or missing value" messages. */
const char* cli_bad_option(int argc, char** argv, int optopt_seen);

/* On stderr, for getopt_long's '?': "drape COMMAND: unknown option or missing value: 'X' (see
 * `drape COMMAND --help`)", or, for a misspelt long option of `options` (getopt_long's table,
 * may be NULL), "unknown option '--frmaes' (did you mean --frames?)". COMMAND may hold a mode
 * ("bench --scaling"). */
struct option;
void cli_report_bad_option(const char* command, int argc, char** argv, int optopt_seen, const struct option* options);

/* False, after "drape COMMAND: unexpected argument 'X' (see `drape COMMAND --help`)" on stderr,
 * when arguments follow the options of a command that takes none. */
bool cli_no_operands(const char* command, int argc, char** argv);

#endif
