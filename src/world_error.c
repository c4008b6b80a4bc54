/* The world's error message, status and warnings (world_error.h): how a failed call on a world
 * reaches its caller, since the library never prints (docs/api.md, "Errors"). */
#include "world_error.h"

#include "api_assert.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static drape_status fail_v(drape_world* w, drape_status status, const char* fmt, va_list ap)
{
	vsnprintf(w->error, sizeof w->error, fmt, ap);
	w->status = status;
	return status;
}

drape_status world_fail(drape_world* w, const char* fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	drape_status st = fail_v(w, DRAPE_ERROR_INVALID, fmt, ap);
	va_end(ap);
	return st;
}

drape_status world_fail_status(drape_world* w, drape_status status, const char* fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	drape_status st = fail_v(w, status, fmt, ap);
	va_end(ap);
	return st;
}

const char* drape_world_error(const drape_world* w)
{
	API_REQUIRE(w != NULL, "");
	return w->error;
}

drape_status drape_world_status(const drape_world* w)
{
	API_REQUIRE(w != NULL, DRAPE_ERROR_INVALID);
	return w->status;
}

bool world_warn(drape_world* w, const char* fmt, ...)
{
	char line[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	size_t old = w->warnings ? strlen(w->warnings) : 0;
	char* grown = realloc(w->warnings, old + strlen(line) + 2);
	if (!grown) return false;
	memcpy(grown + old, line, strlen(line));
	grown[old + strlen(line)] = '\n';
	grown[old + strlen(line) + 1] = '\0';
	w->warnings = grown;
	return true;
}

const char* drape_world_warnings(const drape_world* w)
{
	API_REQUIRE(w != NULL, "");
	return w->warnings ? w->warnings : "";
}
