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

int core_edit_distance(const char* a, const char* b)
{
	enum { MAX = 64 };
	size_t la = strlen(a), lb = strlen(b);
	if (la >= MAX || lb >= MAX) return MAX;
	int row[MAX + 1];
	for (size_t j = 0; j <= lb; ++j) row[j] = (int)j;
	for (size_t i = 1; i <= la; ++i) {
		int diag = row[0];
		row[0] = (int)i;
		for (size_t j = 1; j <= lb; ++j) {
			int up = row[j];
			int best = diag + (a[i - 1] == b[j - 1] ? 0 : 1);
			if (up + 1 < best) best = up + 1;
			if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

const char* drape_closest_name(const char* word, const char* const* names, int32_t count)
{
	/* A plausible typo rather than a different word: within 3 edits and fewer edits than the
	 * name is long. */
	const char* best = NULL;
	int best_d = 4;
	for (int32_t k = 0; k < count; ++k) {
		if (!names[k]) continue;
		int d = core_edit_distance(word, names[k]);
		if (d < best_d && d < (int)strlen(names[k])) best = names[k], best_d = d;
	}
	return best;
}
