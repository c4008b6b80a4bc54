/* Scalar helpers for hot loops. fmax and fmin are library calls under strict IEEE semantics; the
 * operands here are never NaN. */
#ifndef DRAPE_SCALAR_H
#define DRAPE_SCALAR_H

/* M_PI is not in ISO C, and the sources build with _POSIX_C_SOURCE only. */
#define DRAPE_PI 3.14159265358979323846

static inline double max2(double a, double b) { return a > b ? a : b; }
static inline double min2(double a, double b) { return a < b ? a : b; }

#endif
