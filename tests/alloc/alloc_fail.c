/* The wrapped allocation functions of drape_alloc_tests (alloc_fail.h). Single-threaded use: the
 * scenarios run with one thread. */
#include "alloc_fail.h"

#include <execinfo.h>
#include <malloc.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void* __real_malloc(size_t size);
void* __real_calloc(size_t count, size_t size);
void* __real_realloc(void* p, size_t size);
void* __wrap_malloc(size_t size);
void* __wrap_calloc(size_t count, size_t size);
void* __wrap_realloc(void* p, size_t size);
char* __wrap_strdup(const char* s);

static bool armed;
static int64_t fail_at, made;

void alloc_fail_arm(int64_t k)
{
	fail_at = k;
	made = 0;
	armed = true;
}

int64_t alloc_fail_disarm(void)
{
	armed = false;
	return made;
}

/* Whether this allocation is the one to fail. With ALLOC_FAIL_TRACE set, the failing call's stack
 * goes to stderr (run under addr2line, or build with -rdynamic, to read it): where a failure that
 * was not reported comes from. */
static bool fail_now(void)
{
	if (!armed || ++made != fail_at) return false;
	if (getenv("ALLOC_FAIL_TRACE")) {
		void* frames[16];
		int n = backtrace(frames, 16);
		backtrace_symbols_fd(frames, n, STDERR_FILENO);
	}
	return true;
}

void* __wrap_malloc(size_t size) { return fail_now() ? NULL : __real_malloc(size); }

void* __wrap_calloc(size_t count, size_t size) { return fail_now() ? NULL : __real_calloc(count, size); }

/* A realloc that shrinks a block is not failed: drape keeps the larger block then (a BVH's node
 * array trimmed to its use), as it may. */
void* __wrap_realloc(void* p, size_t size)
{
	if (p && size <= malloc_usable_size(p)) return __real_realloc(p, size);
	return fail_now() ? NULL : __real_realloc(p, size);
}

/* glibc's strdup allocates inside libc, out of reach of --wrap=malloc: counted here instead. */
char* __wrap_strdup(const char* s)
{
	size_t n = strlen(s) + 1;
	char* d = __wrap_malloc(n);
	if (d) memcpy(d, s, n);
	return d;
}
