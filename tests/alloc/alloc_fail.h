/* A test allocator (CHOLMOD's Tcov/memory.c, SQLite's fault injection): the drape_alloc_tests
 * program is linked with -Wl,--wrap for malloc, calloc, realloc and strdup, so every allocation
 * drape's C code makes passes through alloc_fail.c, which can fail the k-th one. Allocations made
 * inside other libraries (CGAL's and assimp's C++ operator new, cJSON, CHOLMOD, OpenMP) are theirs
 * and are not counted. */
#ifndef DRAPE_ALLOC_FAIL_H
#define DRAPE_ALLOC_FAIL_H

#include <stdint.h>

/* From now on, count allocations and fail the k-th (k >= 1) only; later ones succeed again, so a
 * caller's clean-up after the failure runs as it would in a real shortage. */
void alloc_fail_arm(int64_t k);
/* Stops counting and failing; returns how many allocations were made since alloc_fail_arm. */
int64_t alloc_fail_disarm(void);

#endif
