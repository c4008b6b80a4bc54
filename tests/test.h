/* A tiny test harness: CHECK macros that report file:line and count failures, and suites that
 * the runner (tests/main.c) selects by name. */
#ifndef DRAPE_TEST_H
#define DRAPE_TEST_H

#include <math.h>
#include <stdio.h>

typedef void (*test_fn)(void);

typedef struct test_case {
	const char* name;
	test_fn fn;
} test_case;

extern int test_failures;
extern int test_checks;

#define CHECK(cond)                                                                                   \
	do {                                                                                          \
		++test_checks;                                                                        \
		if (!(cond)) {                                                                        \
			++test_failures;                                                              \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);      \
		}                                                                                     \
	} while (0)

/* |a - b| <= tol, printing both values on failure. */
#define CHECK_NEAR(a, b, tol)                                                                         \
	do {                                                                                          \
		++test_checks;                                                                        \
		double check_a_ = (a), check_b_ = (b), check_t_ = (tol);                              \
		if (!(fabs(check_a_ - check_b_) <= check_t_)) {                                       \
			++test_failures;                                                              \
			fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s = %.17g, %s = %.17g, tol %.3g\n", \
				__FILE__, __LINE__, #a, check_a_, #b, check_b_, check_t_);            \
		}                                                                                     \
	} while (0)

/* Relative closeness: |a - b| <= rel * max(|a|, |b|, floor). */
#define CHECK_REL(a, b, rel, floor_)                                                                  \
	do {                                                                                          \
		double cr_a_ = (a), cr_b_ = (b);                                                      \
		double cr_s_ = fmax(fmax(fabs(cr_a_), fabs(cr_b_)), (floor_));                        \
		CHECK_NEAR(cr_a_, cr_b_, (rel) * cr_s_);                                              \
	} while (0)

/* A size for the release build and a smaller one under the sanitizers (about ten times slower). */
#ifdef __SANITIZE_ADDRESS__
#define SHORT(release, sanitized) (sanitized)
#else
#define SHORT(release, sanitized) (release)
#endif

#endif
