/* The assert function behind API_CHECK (api_assert.h): by default it names the failed check and
 * aborts; drape_set_assert_fcn replaces it (Box2D's b2SetAssertFcn). */
#include "api_assert.h"

#include <stdio.h>
#include <stdlib.h>

/* Printing is the one place the library writes to stderr: the process is about to abort on a
 * programmer error, and there is no caller left to hand a message to. */
static void default_assert(const char* expression, const char* file, int line)
{
	fprintf(stderr, "%s:%d: drape: assertion failed: %s\n", file, line, expression);
	abort();
}

static drape_assert_fcn* assert_fcn = default_assert;

void drape_set_assert_fcn(drape_assert_fcn* fcn) { assert_fcn = fcn ? fcn : default_assert; }

bool api_assert_failed(const char* expression, const char* file, int line)
{
	assert_fcn(expression, file, line);
	return false;
}
