/* The world's error message and warnings, set by every file that builds or checks part of a world
 * and read through drape_world_error / drape_world_warnings (include/drape.h). */
#ifndef DRAPE_WORLD_ERROR_H
#define DRAPE_WORLD_ERROR_H

#include "world_data.h"

/* Sets the world's error message (printf-style) and returns DRAPE_ERROR_INVALID. */
drape_status world_fail(drape_world* w, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

/* The same for another status: DRAPE_ERROR_MEMORY when an allocation failed, ... */
drape_status world_fail_status(drape_world* w, drape_status status, const char* fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Appends a line to the world's warnings (printf-style); false when out of memory (the line is
 * lost, and the caller fails with DRAPE_ERROR_MEMORY). */
bool world_warn(drape_world* w, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
