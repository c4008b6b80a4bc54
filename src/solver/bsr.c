/* Block-sparse matrix (sec. 2.3): pattern construction from element particle lists, slot
 * lookup and the matrix-vector product used by the modified PCG. */
#include "bsr.h"

#include <stdlib.h>
#include <string.h>

static bool builder_push(bsr_builder* b, int32_t i, int32_t j)
{
	if (b->count == b->capacity) {
		int64_t cap = b->capacity ? 2 * b->capacity : 1024;
		uint64_t* k = realloc(b->keys, (size_t)cap * sizeof *k);
		if (!k) return false;
		b->keys = k;
		b->capacity = cap;
	}
	b->keys[b->count++] = ((uint64_t)(uint32_t)i << 32) | (uint32_t)j;
	return true;
}

bool bsr_builder_init(bsr_builder* b, int32_t n)
{
	memset(b, 0, sizeof *b);
	b->n = n;
	for (int32_t i = 0; i < n; ++i)
		if (!builder_push(b, i, i)) return false;
	return true;
}

bool bsr_builder_add_elements(bsr_builder* b, const void* elems, int32_t elem_count, int arity, size_t stride_bytes)
{
	for (int32_t e = 0; e < elem_count; ++e) {
		const int32_t* p = (const int32_t*)((const char*)elems + (size_t)e * stride_bytes);
		for (int a = 0; a < arity; ++a)
			for (int c = 0; c < arity; ++c)
				if (a != c && !builder_push(b, p[a], p[c])) return false;
	}
	return true;
}

/* Sorts the keys (row << 32 | column, both below n) by two stable counting passes, column then
 * row: linear in their count, where qsort took 5 s on a million particles, during which an
 * interrupt could not be answered (docs/reliability.md). */
static bool sort_keys(uint64_t* keys, int64_t count, int32_t n)
{
	uint64_t* tmp = malloc((size_t)(count > 0 ? count : 1) * sizeof *tmp);
	int64_t* start = malloc(((size_t)n + 1) * sizeof *start);
	bool ok = tmp && start;
	uint64_t *src = keys, *dst = tmp;
	for (int shift = 0; ok && shift <= 32; shift += 32) {
		memset(start, 0, ((size_t)n + 1) * sizeof *start);
		for (int64_t k = 0; k < count; ++k) start[((src[k] >> shift) & 0xffffffffu) + 1]++;
		for (int32_t i = 0; i < n; ++i) start[i + 1] += start[i];
		for (int64_t k = 0; k < count; ++k) dst[start[(src[k] >> shift) & 0xffffffffu]++] = src[k];
		uint64_t* t = src;
		src = dst;
		dst = t;
	}
	free(tmp);
	free(start);
	return ok; /* two passes: the sorted keys are back in keys */
}

bool bsr_builder_finish(bsr_builder* b, bsr* out)
{
	memset(out, 0, sizeof *out);
	if (!sort_keys(b->keys, b->count, b->n)) {
		free(b->keys);
		memset(b, 0, sizeof *b);
		return false;
	}
	int64_t unique = 0;
	for (int64_t k = 0; k < b->count; ++k)
		if (unique == 0 || b->keys[k] != b->keys[unique - 1]) b->keys[unique++] = b->keys[k];
	out->n = b->n;
	out->nnz = (int32_t)unique;
	out->row_start = calloc((size_t)b->n + 1, sizeof *out->row_start);
	out->cols = malloc((size_t)(unique ? unique : 1) * sizeof *out->cols);
	out->diag = malloc((size_t)(b->n ? b->n : 1) * sizeof *out->diag);
	out->blocks = calloc((size_t)(unique ? unique : 1), sizeof *out->blocks);
	bool ok = out->row_start && out->cols && out->diag && out->blocks;
	if (ok) {
		for (int64_t k = 0; k < unique; ++k) {
			int32_t i = (int32_t)(b->keys[k] >> 32), j = (int32_t)(b->keys[k] & 0xffffffffu);
			out->cols[k] = j;
			out->row_start[i + 1]++;
			if (i == j) out->diag[i] = (int32_t)k;
		}
		for (int32_t i = 0; i < b->n; ++i) out->row_start[i + 1] += out->row_start[i];
	}
	free(b->keys);
	memset(b, 0, sizeof *b);
	if (!ok) bsr_free(out);
	return ok;
}

void bsr_free(bsr* m)
{
	free(m->extra_nodes);
	free(m->extra_blocks);
	free(m->row_start);
	free(m->cols);
	free(m->diag);
	free(m->blocks);
	free(m->iso_start);
	free(m->iso_cols);
	free(m->iso_vals);
	memset(m, 0, sizeof *m);
}

int32_t bsr_find(const bsr* m, int32_t i, int32_t j)
{
	int32_t lo = m->row_start[i], hi = m->row_start[i + 1] - 1;
	while (lo <= hi) {
		int32_t mid = (lo + hi) / 2;
		if (m->cols[mid] == j) return mid;
		if (m->cols[mid] < j) lo = mid + 1;
		else hi = mid - 1;
	}
	return -1;
}

void bsr_element_slots(const bsr* m, void* elems, int32_t elem_count, int arity, size_t stride_bytes, size_t slot_offset)
{
	for (int32_t e = 0; e < elem_count; ++e) {
		char* el = (char*)elems + (size_t)e * stride_bytes;
		const int32_t* p = (const int32_t*)(void*)el;
		int32_t* slot = (int32_t*)(void*)(el + slot_offset);
		for (int a = 0; a < arity; ++a)
			for (int c = 0; c < arity; ++c) slot[arity * a + c] = bsr_find(m, p[a], p[c]);
	}
}

bool bsr_place_entries(bsr* m, const int32_t* start, const int32_t* col, int32_t* slot)
{
	const int32_t n = m->n;
	int32_t count = 0;
	for (int32_t i = 0; i < n; ++i)
		for (int32_t k = start[i]; k < start[i + 1]; ++k) {
			slot[k] = bsr_find(m, i, col[k]);
			count += slot[k] < 0;
		}
	if (count == 0) return true;
	m->iso_start = calloc((size_t)n + 1, sizeof *m->iso_start);
	m->iso_cols = malloc((size_t)count * sizeof *m->iso_cols);
	m->iso_vals = calloc((size_t)count, sizeof *m->iso_vals);
	if (!m->iso_start || !m->iso_cols || !m->iso_vals) return false;
	int32_t at = 0;
	for (int32_t i = 0; i < n; ++i) {
		for (int32_t k = start[i]; k < start[i + 1]; ++k) {
			if (slot[k] >= 0) continue;
			m->iso_cols[at] = col[k];
			slot[k] = -1 - at;
			++at;
		}
		m->iso_start[i + 1] = at;
	}
	return true;
}

void bsr_zero(bsr* m, int threads)
{
	const int32_t nnz = m->nnz;
	mat3* blocks = m->blocks;
#pragma omp parallel for num_threads(threads) schedule(static) if (nnz > 4096)
	for (int32_t k = 0; k < nnz; ++k) blocks[k] = m3_zero();
	if (m->iso_start) memset(m->iso_vals, 0, (size_t)m->iso_start[m->n] * sizeof *m->iso_vals);
	m->extra_count = 0;
}

mat3* bsr_extra_add(bsr* m, const int32_t nodes[4])
{
	if (m->extra_count == m->extra_capacity) {
		int32_t cap = m->extra_capacity ? 2 * m->extra_capacity : 256;
		int32_t* n = realloc(m->extra_nodes, 4 * (size_t)cap * sizeof *n);
		if (!n) return NULL;
		m->extra_nodes = n;
		mat3* b = realloc(m->extra_blocks, 16 * (size_t)cap * sizeof *b);
		if (!b) return NULL;
		m->extra_blocks = b;
		m->extra_capacity = cap;
	}
	int32_t e = m->extra_count++;
	memcpy(&m->extra_nodes[4 * e], nodes, 4 * sizeof *nodes);
	mat3* b = &m->extra_blocks[16 * (size_t)e];
	for (int k = 0; k < 16; ++k) b[k] = m3_zero();
	return b;
}

void bsr_mul(const bsr* m, const vec3* x, vec3* y, int threads)
{
	const int32_t n = m->n;
#pragma omp parallel for num_threads(threads) schedule(static) if (n > 512)
	for (int32_t i = 0; i < n; ++i) y[i] = bsr_row_mul(m, x, i);
	bsr_mul_extras(m, x, y);
}

void bsr_mul_extras(const bsr* m, const vec3* x, vec3* y)
{
	/* Contact couplings: few compared with the cloth's blocks, added in element order by one
	 * thread, so the product stays the same for any thread count. */
	for (int32_t e = 0; e < m->extra_count; ++e) {
		const int32_t* nd = &m->extra_nodes[4 * e];
		const mat3* b = &m->extra_blocks[16 * (size_t)e];
		for (int a = 0; a < 4; ++a)
			for (int c = 0; c < 4; ++c)
				if (a != c) y[nd[a]] = v3_add(y[nd[a]], m3_mulv(b[4 * a + c], x[nd[c]]));
	}
}
