/* Internal definitions shared by every part of drape: the cookie of the public *_def structs, array
 * growth, error-message formatting and string joining (core.c). */
#ifndef DRAPE_CORE_H
#define DRAPE_CORE_H

/* Stamped into every def by drape_default_*_def() and checked where the def is used, so a def
 * declared on the stack and filled by hand (garbage in the fields never set) is caught cheaply.
 * The bytes spell "drap". */
#define DRAPE_COOKIE 0x64726170

#include "drape.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* malloc of `count` elements of `size` bytes, at least one, so that an empty array is a valid
 * pointer too (NULL only when out of memory). */
static inline void* core_alloc_array(size_t count, size_t size) { return malloc((count ? count : 1) * size); }

/* Makes *items (elements of `size` bytes, *capacity of them) hold at least `need`, doubling; false,
 * with nothing changed, when out of memory. Growth happens outside hot loops only. */
bool core_reserve(void** items, int32_t* capacity, int32_t need, size_t size);

/* Writes a printf-style message into err (when err_size > 0) and returns false, so that a failing
 * check reads `return core_fail(err, err_size, "...", ...);`. */
bool core_fail(char* err, size_t err_size, const char* fmt, ...) __attribute__((format(printf, 3, 4)));

/* Union-find over parent[] (parent[i] == i at a root), with path halving: the class of i. Seams
 * merge particles by it (seam.c) and the cloth/cloth detector groups sewn particles
 * (collide/cloth_pairs_setup.c); both join two classes by making the lower index the root. */
static inline int32_t core_find_root(int32_t* parent, int32_t i)
{
	while (parent[i] != i) {
		parent[i] = parent[parent[i]];
		i = parent[i];
	}
	return i;
}

/* The status a failure reported only by a message stands for: DRAPE_ERROR_MEMORY when the message
 * says "out of memory" (the wording of every allocation failure in drape, for the calls that
 * return a bool and fill an err buffer), else DRAPE_ERROR_INVALID. */
drape_status core_failure_status(const char* msg);

/* a followed by b in a new string the caller frees; NULL when out of memory. */
char* core_concat(const char* a, const char* b);

/* The Levenshtein distance between a and b (64 for strings of 64 characters or more). */
int core_edit_distance(const char* a, const char* b);
/* The "did you mean" of every message about an unknown name is drape.h's drape_closest_name
 * (core.c), public so that the command's messages suggest alike. */

#endif
