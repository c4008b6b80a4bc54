/* The world's error message and warnings (world_error.h). */
#include "world_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

drape_status world_fail(drape_world* w, const char* fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(w->error, sizeof w->error, fmt, ap);
	va_end(ap);
	return DRAPE_ERROR_INVALID;
}

const char* drape_world_error(const drape_world* w) { return w ? w->error : "no world"; }

void world_warn(drape_world* w, const char* fmt, ...)
{
	char line[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	size_t old = w->warnings ? strlen(w->warnings) : 0;
	char* grown = realloc(w->warnings, old + strlen(line) + 2);
	if (!grown) return; /* a lost warning is better than a failed call */
	memcpy(grown + old, line, strlen(line));
	grown[old + strlen(line)] = '\n';
	grown[old + strlen(line) + 1] = '\0';
	w->warnings = grown;
}

const char* drape_world_warnings(const drape_world* w) { return w && w->warnings ? w->warnings : ""; }
