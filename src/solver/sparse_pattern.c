/* Symbolic sparse products and transposes (sparse_pattern.h): the multigrid preconditioner's
 * patterns, computed once per topology so that every step only fills values (multigrid.c). */
#include "sparse_pattern.h"

#include <stdlib.h>
#include <string.h>

static void sort_ints(int32_t* a, int32_t n)
{
	/* Rows are short (tens of entries): insertion sort. */
	for (int32_t i = 1; i < n; ++i) {
		int32_t v = a[i], j = i - 1;
		while (j >= 0 && a[j] > v) {
			a[j + 1] = a[j];
			--j;
		}
		a[j + 1] = v;
	}
}

bool pattern_product(int32_t rows, const int32_t* xs, const int32_t* xc, const int32_t* ys, const int32_t* yc, int32_t ncols,
		     sparse_pattern* out)
{
	memset(out, 0, sizeof *out);
	out->rows = rows;
	out->ncols = ncols;
	int32_t* mark = malloc((size_t)(ncols > 0 ? ncols : 1) * sizeof *mark);
	out->start = malloc(((size_t)rows + 1) * sizeof *out->start);
	int64_t cap = 1024, count = 0;
	out->cols = malloc((size_t)cap * sizeof *out->cols);
	if (!mark || !out->start || !out->cols) {
		free(mark);
		pattern_free(out);
		return false;
	}
	for (int32_t c = 0; c < ncols; ++c) mark[c] = -1;
	out->start[0] = 0;
	for (int32_t i = 0; i < rows; ++i) {
		int64_t row_begin = count;
		for (int32_t k = xs[i]; k < xs[i + 1]; ++k) {
			const int32_t j = xc[k];
			for (int32_t m = ys[j]; m < ys[j + 1]; ++m) {
				const int32_t c = yc[m];
				if (mark[c] == i) continue;
				mark[c] = i;
				if (count == cap) {
					int32_t* grown = realloc(out->cols, 2 * (size_t)cap * sizeof *grown);
					if (!grown) {
						free(mark);
						pattern_free(out);
						return false;
					}
					out->cols = grown;
					cap *= 2;
				}
				out->cols[count++] = c;
			}
		}
		if (count > INT32_MAX) {
			free(mark);
			pattern_free(out);
			return false;
		}
		sort_ints(out->cols + row_begin, (int32_t)(count - row_begin));
		out->start[i + 1] = (int32_t)count;
	}
	free(mark);
	return true;
}

bool pattern_transpose(int32_t rows, const int32_t* xs, const int32_t* xc, int32_t ncols, sparse_pattern* out, int32_t** from)
{
	memset(out, 0, sizeof *out);
	const int32_t nnz = xs[rows];
	out->rows = ncols;
	out->ncols = rows;
	out->start = calloc((size_t)ncols + 1, sizeof *out->start);
	out->cols = malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof *out->cols);
	int32_t* src = malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof *src);
	int32_t* fill = malloc((size_t)(ncols > 0 ? ncols : 1) * sizeof *fill);
	if (!out->start || !out->cols || !src || !fill) {
		free(src);
		free(fill);
		pattern_free(out);
		return false;
	}
	for (int32_t k = 0; k < nnz; ++k) out->start[xc[k] + 1]++;
	for (int32_t c = 0; c < ncols; ++c) out->start[c + 1] += out->start[c];
	for (int32_t c = 0; c < ncols; ++c) fill[c] = out->start[c];
	/* Rows in increasing order, so each transposed row comes out sorted. */
	for (int32_t i = 0; i < rows; ++i)
		for (int32_t k = xs[i]; k < xs[i + 1]; ++k) {
			int32_t e = fill[xc[k]]++;
			out->cols[e] = i;
			src[e] = k;
		}
	free(fill);
	if (from) *from = src;
	else free(src);
	return true;
}

int32_t pattern_find(const sparse_pattern* p, int32_t r, int32_t c)
{
	int32_t lo = p->start[r], hi = p->start[r + 1] - 1;
	while (lo <= hi) {
		int32_t mid = (lo + hi) / 2;
		if (p->cols[mid] == c) return mid;
		if (p->cols[mid] < c) lo = mid + 1;
		else hi = mid - 1;
	}
	return -1;
}

void pattern_free(sparse_pattern* p)
{
	free(p->start);
	free(p->cols);
	memset(p, 0, sizeof *p);
}
