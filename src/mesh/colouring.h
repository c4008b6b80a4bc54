/* Greedy colouring of force elements so that elements of one colour share no particle. */
#ifndef DRAPE_COLOURING_H
#define DRAPE_COLOURING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* No two elements of one colour share a particle, so a colour can be assembled in parallel with
 * plain stores, and every matrix slot receives its contributions in colour order whatever the
 * thread count (bit-identical results). */
typedef struct colouring {
	int32_t count;  /* colours */
	int32_t* start; /* count + 1 offsets into order */
	int32_t* order; /* element indices, colour by colour, increasing within a colour */
} colouring;

/* Elements of colour COLOURING_SERIAL (only when a particle touches > 64 elements) may share
 * particles and must be assembled by one thread. */
#define COLOURING_SERIAL 64

/* Element e's particles are the `arity` int32 at (const char*)elems + e * stride_bytes. */
bool colouring_build(colouring* c, const void* elems, int32_t elem_count, int arity, size_t stride_bytes,
		     int32_t particle_count);
void colouring_free(colouring* c);

#endif
