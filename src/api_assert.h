/* Checks of the API's preconditions (programmer errors: a NULL world, an out-of-range or stale id),
 * routed to the redirectable assert function of drape_set_assert_fcn (include/drape.h), as Box2D's
 * B2_ASSERT. They stay on in release builds: each is a compare at a call's entry, never in a loop,
 * and they never guard user data (that is reported with a status and a message). */
#ifndef DRAPE_API_ASSERT_H
#define DRAPE_API_ASSERT_H

#include "drape.h"

#include <stdbool.h>

/* Calls the assert function; returns false so that a check reads as a condition. */
bool api_assert_failed(const char* expression, const char* file, int line);

/* cond, or the assert function called with its text, file and line. */
#define API_CHECK(cond) ((cond) ? true : api_assert_failed(#cond, __FILE__, __LINE__))

/* At a public call's entry: when cond fails, report it and return `none`. (cond is stringified
 * here, not through API_CHECK, where NULL would already be expanded.) */
#define API_REQUIRE(cond, none)                                      \
	do {                                                         \
		if (!(cond)) {                                       \
			api_assert_failed(#cond, __FILE__, __LINE__); \
			return none;                                 \
		}                                                    \
	} while (0)

/* The same for calls that return nothing. */
#define API_REQUIRE_VOID(cond) API_REQUIRE(cond, )

#endif
