/* Helpers shared by the commands' option parsing (getopt_long in each command). */
#ifndef DRAPE_APP_CLI_H
#define DRAPE_APP_CLI_H

#include <stdbool.h>

/* Parses a whole decimal integer in [lo, hi]; false on anything else. */
bool parse_int_arg(const char* s, long lo, long hi, long* out);

/* Parses a whole finite decimal number (strtod's syntax) in [lo, hi]; false on anything else,
 * including trailing text and values that overflow or underflow. */
bool parse_double_arg(const char* s, double lo, double hi, double* out);

/* The option text getopt_long stopped at (argv[optind - 1], the short option it saw, or a long
 * option left without its value at the end), for "unknown option or missing value" messages. */
const char* cli_bad_option(int argc, char** argv, int optopt_seen);

#endif
