/* Tiled element colouring (docs/solver.md, "Assembly"). Elements are sorted by their lowest
 * particle index (a counting sort, stable), so that consecutive elements are neighbours wherever
 * the particle numbering is local (grids row by row, meshes as the mesher numbers them), and cut
 * into tiles of colouring_tile_size elements. Tiles are coloured greedily, tile by tile, with the
 * lowest colour not yet used at any of their particles, tracked as 64-bit masks per particle; a
 * tile that finds all 64 taken goes to a last colour that is run serially. */
#include "colouring.h"

#include <stdlib.h>
#include <string.h>

#define SERIAL_COLOUR COLOURING_SERIAL

/* 128 elements touch about 70 particles of a triangle mesh: their rows of the matrix (~65 KB)
 * stay in L2 while the tile is assembled. Small meshes get smaller tiles so that a colour still
 * has tiles for several threads. */
int32_t colouring_tile_size(int32_t elem_count)
{
	int32_t t = elem_count / 32;
	return t < 8 ? 8 : t > 128 ? 128 : t;
}

static const int32_t* particles_of(const void* elems, size_t stride_bytes, int32_t e)
{
	return (const int32_t*)((const char*)elems + (size_t)e * stride_bytes);
}

/* Elements in increasing order of their lowest particle, ties in element order. */
static bool sort_by_lowest(const void* elems, int32_t elem_count, int arity, size_t stride_bytes, int32_t particle_count,
			   int32_t* sorted)
{
	int32_t* first = calloc((size_t)particle_count + 1, sizeof *first);
	int32_t* key = malloc((size_t)(elem_count > 0 ? elem_count : 1) * sizeof *key);
	if (!first || !key) {
		free(first);
		free(key);
		return false;
	}
	for (int32_t e = 0; e < elem_count; ++e) {
		const int32_t* p = particles_of(elems, stride_bytes, e);
		int32_t k = p[0];
		for (int a = 1; a < arity; ++a) k = p[a] < k ? p[a] : k;
		key[e] = k;
		first[k + 1]++;
	}
	for (int32_t i = 0; i < particle_count; ++i) first[i + 1] += first[i];
	for (int32_t e = 0; e < elem_count; ++e) sorted[first[key[e]]++] = e;
	free(first);
	free(key);
	return true;
}

bool colouring_build(colouring* c, const void* elems, int32_t elem_count, int arity, size_t stride_bytes,
		     int32_t particle_count)
{
	memset(c, 0, sizeof *c);
	const int32_t size = colouring_tile_size(elem_count);
	const int32_t tiles = (elem_count + size - 1) / size;
	int32_t* sorted = malloc((size_t)(elem_count > 0 ? elem_count : 1) * sizeof *sorted);
	uint64_t* used = calloc((size_t)(particle_count > 0 ? particle_count : 1), sizeof *used);
	uint8_t* colour = malloc((size_t)(tiles > 0 ? tiles : 1));
	int32_t counts[SERIAL_COLOUR + 1] = {0};
	if (!sorted || !used || !colour) goto fail;
	if (!sort_by_lowest(elems, elem_count, arity, stride_bytes, particle_count, sorted)) goto fail;
	for (int32_t t = 0; t < tiles; ++t) {
		const int32_t lo = t * size, hi = lo + size < elem_count ? lo + size : elem_count;
		uint64_t taken = 0;
		for (int32_t j = lo; j < hi; ++j) {
			const int32_t* p = particles_of(elems, stride_bytes, sorted[j]);
			for (int a = 0; a < arity; ++a) taken |= used[p[a]];
		}
		int k = SERIAL_COLOUR;
		if (~taken) {
			k = __builtin_ctzll(~taken);
			for (int32_t j = lo; j < hi; ++j) {
				const int32_t* p = particles_of(elems, stride_bytes, sorted[j]);
				for (int a = 0; a < arity; ++a) used[p[a]] |= 1ull << k;
			}
		}
		colour[t] = (uint8_t)k;
		counts[k]++;
	}
	int32_t highest = -1;
	for (int k = 0; k <= SERIAL_COLOUR; ++k)
		if (counts[k]) highest = k;
	c->count = highest + 1;
	c->tile_count = tiles;
	c->start = calloc((size_t)c->count + 1, sizeof *c->start);
	c->tile = calloc((size_t)tiles + 1, sizeof *c->tile);
	c->order = malloc((size_t)(elem_count > 0 ? elem_count : 1) * sizeof *c->order);
	if (!c->start || !c->tile || !c->order) goto fail;
	for (int32_t k = 0; k < c->count; ++k) c->start[k + 1] = c->start[k] + counts[k];
	/* Tiles colour by colour, in tile order within a colour; their elements in sorted order. */
	int32_t fill[SERIAL_COLOUR + 1];
	for (int32_t k = 0; k < c->count; ++k) fill[k] = c->start[k];
	int32_t* slot = malloc((size_t)(tiles > 0 ? tiles : 1) * sizeof *slot);
	if (!slot) goto fail;
	for (int32_t t = 0; t < tiles; ++t) slot[fill[colour[t]]++] = t;
	int32_t at = 0;
	for (int32_t s = 0; s < tiles; ++s) {
		const int32_t lo = slot[s] * size, hi = lo + size < elem_count ? lo + size : elem_count;
		c->tile[s] = at;
		for (int32_t j = lo; j < hi; ++j) c->order[at++] = sorted[j];
	}
	c->tile[tiles] = at;
	free(slot);
	free(sorted);
	free(used);
	free(colour);
	return true;
fail:
	free(sorted);
	free(used);
	free(colour);
	colouring_free(c);
	return false;
}

void colouring_free(colouring* c)
{
	free(c->start);
	free(c->tile);
	free(c->order);
	memset(c, 0, sizeof *c);
}
