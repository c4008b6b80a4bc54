/* Tiled colouring of force elements: elements grouped into tiles of neighbouring elements, tiles
 * coloured so that no two tiles of one colour share a particle (docs/solver.md, "Assembly"). */
#ifndef DRAPE_COLOURING_H
#define DRAPE_COLOURING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A tile's elements are assembled by one thread in tile order; the tiles of one colour in
 * parallel with plain stores (they share no particle), colours in order. Every matrix slot
 * therefore receives its contributions in a fixed order whatever the thread count (bit-identical
 * results), and a tile's elements, being neighbours, touch a small part of the matrix while it is
 * in cache. */
typedef struct colouring {
	int32_t count;      /* colours */
	int32_t* start;     /* count + 1 offsets into the tiles, colour by colour */
	int32_t tile_count; /* tiles */
	int32_t* tile;      /* tile_count + 1 offsets into order */
	int32_t* order;     /* element indices, tile by tile */
} colouring;

/* Tiles of colour COLOURING_SERIAL (only when a particle is shared by more than 64 tiles) may
 * share particles and must be assembled by one thread. */
#define COLOURING_SERIAL 64

/* The tiles of one colour in parallel (when it has more than one tile and more than 256 elements;
 * COLOURING_SERIAL's on one thread), each tile on one thread, colours in order: call runs once per
 * tile, t its index (its elements col->order[col->tile[t] .. col->tile[t + 1]]), on the caller's
 * `threads` threads. The one loop of every coloured assembly (step/implicit.c's ASSEMBLE_COLOURED,
 * the triangle kernels in vector lanes). */
#define COLOURING_TILES(col, t, call)                                                                                 \
	for (int32_t k_ = 0; k_ < (col)->count; ++k_) {                                                               \
		const int32_t lo_ = (col)->start[k_], hi_ = (col)->start[k_ + 1];                                     \
		const bool par_ = k_ != COLOURING_SERIAL && hi_ - lo_ > 1 && (col)->tile[hi_] - (col)->tile[lo_] > 256; \
		_Pragma("omp parallel for num_threads(threads) schedule(static) if (par_)")                           \
		for (int32_t t = lo_; t < hi_; ++t) call;                                                             \
	}

/* Element e's particles are the `arity` int32 at (const char*)elems + e * stride_bytes. */
bool colouring_build(colouring* c, const void* elems, int32_t elem_count, int arity, size_t stride_bytes,
		     int32_t particle_count);
void colouring_free(colouring* c);

/* Elements per tile for elem_count elements (a function of the count only, never of the thread
 * count, so the summation order is fixed). */
int32_t colouring_tile_size(int32_t elem_count);

#endif
