/* Scalar helpers for hot loops. fmax and fmin are library calls under strict IEEE semantics; the
 * operands here are never NaN. */
#ifndef DRAPE_SCALAR_H
#define DRAPE_SCALAR_H

static inline double max2(double a, double b) { return a > b ? a : b; }
static inline double min2(double a, double b) { return a < b ? a : b; }

#endif
