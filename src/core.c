/* Small helpers every part of drape shares: growing arrays, formatting error messages, joining
 * strings. */
#include "core.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool core_reserve(void** items, int32_t* capacity, int32_t need, size_t size)
{
	if (need <= *capacity) return true;
	if (need > INT32_MAX / 2) return false;
	int32_t cap = *capacity > 0 ? *capacity : 16;
	while (cap < need) cap *= 2;
	void* p = realloc(*items, (size_t)cap * size);
	if (!p) return false;
	*items = p;
	*capacity = cap;
	return true;
}

bool core_fail(char* err, size_t err_size, const char* fmt, ...)
{
	if (err && err_size > 0) {
		va_list args;
		va_start(args, fmt);
		vsnprintf(err, err_size, fmt, args);
		va_end(args);
	}
	return false;
}

drape_status core_failure_status(const char* msg)
{
	return msg && strstr(msg, "out of memory") ? DRAPE_ERROR_MEMORY : DRAPE_ERROR_INVALID;
}

char* core_concat(const char* a, const char* b)
{
	size_t na = strlen(a), nb = strlen(b);
	char* s = malloc(na + nb + 1);
	if (!s) return NULL;
	memcpy(s, a, na);
	memcpy(s + na, b, nb + 1);
	return s;
}
