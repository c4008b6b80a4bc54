/* The benchmark kernels of the public API (include/drape.h, "Benchmark kernels";
 * docs/benchmarks.md): the parts of a step that `drape bench` times alone, posing the solids
 * (sec. 6's moving colliders) and the block-sparse product of the CG (sec. 5.3, bsr.h), on a world
 * made as usual, so that the benchmarks need nothing of the library's insides. */
#include "drape.h"

#include "api_assert.h"
#include "world_data.h"
#include "collide/solid.h"
#include "solver/bsr.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void drape_world_pose_solids(drape_world* w, double time, double h)
{
	API_REQUIRE_VOID(w != NULL);
	solids_begin_step(w, time, h);
}

static double monotonic_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void drape_world_measure_bandwidth(const drape_world* w, int32_t repeats, double* product, double* copy)
{
	*product = *copy = 0.0;
	API_REQUIRE_VOID(w != NULL);
	const bsr* A = &w->work.A;
	if (A->n == 0 || repeats < 1) return;
	vec3* x = malloc((size_t)A->n * sizeof *x);
	vec3* y = malloc((size_t)A->n * sizeof *y);
	size_t bytes = (size_t)A->nnz * (sizeof(mat3) + sizeof(int32_t)) + (size_t)(A->n + 1) * sizeof(int32_t) +
		       2 * (size_t)A->n * sizeof(vec3);
	if (A->iso_start) /* the tensor bending's second ring (bsr.h) */
		bytes += (size_t)A->iso_start[A->n] * (sizeof(double) + sizeof(int32_t)) + (size_t)(A->n + 1) * sizeof(int32_t);
	char* a = malloc(bytes);
	char* b = malloc(bytes);
	if (x && y && a && b) {
		for (int32_t i = 0; i < A->n; ++i) x[i] = v3(1.0, 0.5, 0.25);
		memset(a, 1, bytes);
		memset(b, 2, bytes);
		double best_mul = 1e300, best_copy = 1e300;
		for (int32_t k = 0; k < repeats; ++k) {
			double t0 = monotonic_seconds();
			bsr_mul(A, x, y, 1);
			double t1 = monotonic_seconds();
			memcpy(b, a, bytes);
			double t2 = monotonic_seconds();
			best_mul = fmin(best_mul, t1 - t0);
			best_copy = fmin(best_copy, t2 - t1);
			a[(size_t)k % bytes] = b[bytes - 1 - (size_t)k % bytes]; /* the copy's result is used */
		}
		*product = (double)bytes / best_mul;
		*copy = 2.0 * (double)bytes / best_copy;
	}
	free(x);
	free(y);
	free(a);
	free(b);
}
