/* The scratch of strain limiting's projection (solver/strain_limit.c): its rows and a particle
 * numbering local to them. Kept with the world's other step buffers, so that a step allocates
 * nothing once the rows have grown to their largest count. */
#ifndef DRAPE_STRAIN_LIMIT_SET_H
#define DRAPE_STRAIN_LIMIT_SET_H

#include "../math/vec3.h"

#include <stdbool.h>
#include <stdint.h>

/* One limited direction: a triangle's w_u or w_v, or a mass-spring stretch spring. */
typedef struct limit_row {
	int32_t p[3]; /* local particle indices */
	double c[3];  /* w = sum c[m] x_m */
	int count;
	vec3 n;      /* w / |w| */
	double C;    /* |w| - bound, in length units of w */
	double diag; /* sum c[m]^2 n^T W_m n */
	double side; /* +1: held from stretching further (lambda >= 0); -1: from shrinking (lambda <= 0) */
} limit_row;

typedef struct limit_set {
	limit_row* rows;
	double* lambda; /* one per row */
	double* cg;     /* three per row: the CG's residual, direction and product */
	int32_t count, capacity;
	int32_t* local;  /* particle -> local index + 1 (0: none; all 0 between projections) */
	int32_t* global; /* local -> particle */
	int32_t particles;
	vec3* dx; /* per local particle */
} limit_set;

/* For n particles; false on no memory (what was allocated is freed by limit_set_free). */
bool limit_set_init(limit_set* set, int32_t n);
void limit_set_free(limit_set* set);

#endif
