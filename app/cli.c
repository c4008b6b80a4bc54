/* Helpers shared by the commands' option parsing; kept apart from app/main.c so that no command
 * depends on the dispatcher that depends on every command. */
#include "cli.h"

#include "drape.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool parse_int_arg(const char* s, long lo, long hi, long* out)
{
	char* end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end != '\0' || v < lo || v > hi) return false;
	*out = v;
	return true;
}

bool cli_int_option(const char* command, const char* option, const char* arg, long lo, long hi, long* out)
{
	if (parse_int_arg(arg, lo, hi, out)) return true;
	if (hi >= 10000000)
		fprintf(stderr, "drape %s: %s needs a whole number >= %ld, got '%s'\n", command, option, lo, arg);
	else
		fprintf(stderr, "drape %s: %s needs a whole number from %ld to %ld, got '%s'\n", command, option, lo, hi, arg);
	return false;
}

bool parse_double_arg(const char* s, double lo, double hi, double* out)
{
	char* end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end != '\0' || !isfinite(v) || v < lo || v > hi) return false;
	*out = v;
	return true;
}

const char* cli_bad_option(int argc, char** argv, int optopt_seen)
{
	static char shortopt[3];
	/* A long option whose value is missing (necessarily the last argument) reports its short
	 * form's letter in optopt, or none: name it as written. */
	if (optind == argc && argc >= 2 && strncmp(argv[argc - 1], "--", 2) == 0) return argv[argc - 1];
	if (optopt_seen > 0 && optopt_seen < 128) {
		snprintf(shortopt, sizeof shortopt, "-%c", optopt_seen);
		return shortopt;
	}
	int i = optind - 1;
	return i >= 1 && i < argc ? argv[i] : "?";
}

/* The option `text` may be a misspelling of ("--frmaes" for "--frames"), or NULL: long options
 * only, and none for an option that exists (whose value is missing). */
static const char* near_option(const char* text, const struct option* options)
{
	enum { MOST = 64 };
	if (!options || strncmp(text, "--", 2) != 0) return NULL;
	char name[64];
	snprintf(name, sizeof name, "%.*s", (int)strcspn(text + 2, "="), text + 2);
	const char* names[MOST + 1];
	int n = 0;
	for (const struct option* o = options; o->name && n < MOST; ++o) {
		if (strcmp(o->name, name) == 0) return NULL;
		names[n++] = o->name;
	}
	names[n] = NULL;
	return drape_closest_name(name, names, n);
}

void cli_report_bad_option(const char* command, int argc, char** argv, int optopt_seen, const struct option* options)
{
	const char* text = cli_bad_option(argc, argv, optopt_seen);
	const char* near = near_option(text, options);
	if (near)
		fprintf(stderr, "drape %s: unknown option '%s' (did you mean --%s?) (see `drape %s --help`)\n", command, text, near,
			command);
	else
		fprintf(stderr, "drape %s: unknown option or missing value: '%s' (see `drape %s --help`)\n", command, text, command);
}

bool cli_no_operands(const char* command, int argc, char** argv)
{
	if (optind >= argc) return true;
	fprintf(stderr, "drape %s: unexpected argument '%s' (see `drape %s --help`)\n", command, argv[optind], command);
	return false;
}
