/* Greedy element colouring (docs/solver.md, determinism): element by element, the lowest colour not yet
 * used at any of its particles. Colours are tracked as 64-bit masks per particle; the rare element
 * that finds all 64 taken (a vertex of valence > ~60) goes to a last colour that is run serially. */
#include "colouring.h"

#include <stdlib.h>
#include <string.h>

#define SERIAL_COLOUR COLOURING_SERIAL

bool colouring_build(colouring* c, const void* elems, int32_t elem_count, int arity, size_t stride_bytes,
		     int32_t particle_count)
{
	memset(c, 0, sizeof *c);
	uint64_t* used = calloc((size_t)(particle_count > 0 ? particle_count : 1), sizeof *used);
	uint8_t* colour = malloc((size_t)(elem_count > 0 ? elem_count : 1));
	int32_t counts[SERIAL_COLOUR + 1] = {0};
	if (!used || !colour) goto fail;
	for (int32_t e = 0; e < elem_count; ++e) {
		const int32_t* p = (const int32_t*)((const char*)elems + (size_t)e * stride_bytes);
		uint64_t taken = 0;
		for (int a = 0; a < arity; ++a) taken |= used[p[a]];
		int k = SERIAL_COLOUR;
		if (~taken) {
			k = __builtin_ctzll(~taken);
			for (int a = 0; a < arity; ++a) used[p[a]] |= 1ull << k;
		}
		colour[e] = (uint8_t)k;
		counts[k]++;
	}
	int32_t highest = -1;
	for (int k = 0; k <= SERIAL_COLOUR; ++k)
		if (counts[k]) highest = k;
	c->count = highest + 1;
	c->start = calloc((size_t)c->count + 1, sizeof *c->start);
	c->order = malloc((size_t)(elem_count > 0 ? elem_count : 1) * sizeof *c->order);
	if (!c->start || !c->order) goto fail;
	for (int32_t k = 0; k < c->count; ++k) c->start[k + 1] = c->start[k] + counts[k];
	int32_t fill[SERIAL_COLOUR + 1];
	for (int32_t k = 0; k < c->count; ++k) fill[k] = c->start[k];
	for (int32_t e = 0; e < elem_count; ++e) c->order[fill[colour[e]]++] = e;
	free(used);
	free(colour);
	return true;
fail:
	free(used);
	free(colour);
	colouring_free(c);
	return false;
}

void colouring_free(colouring* c)
{
	free(c->start);
	free(c->order);
	memset(c, 0, sizeof *c);
}
