/* Deterministic parallel reductions: vectors are cut into fixed chunks of REDUCE_CHUNK particles,
 * each chunk is summed in order by whichever thread gets it, and the chunk sums are added in
 * chunk order. The result is bit-identical for every thread count (docs/solver.md, determinism). */
#ifndef DRAPE_REDUCE_H
#define DRAPE_REDUCE_H

#include <stdint.h>

#define REDUCE_CHUNK 512

static inline int32_t reduce_chunks(int32_t n) { return (n + REDUCE_CHUNK - 1) / REDUCE_CHUNK; }
/* One past the last index of chunk k of n. */
static inline int32_t reduce_chunk_end(int32_t k, int32_t n) { return (k + 1) * REDUCE_CHUNK < n ? (k + 1) * REDUCE_CHUNK : n; }

static inline double reduce_sum(const double* partial, int32_t chunks)
{
	double s = 0.0;
	for (int32_t c = 0; c < chunks; ++c) s += partial[c];
	return s;
}

#endif
