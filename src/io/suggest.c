/* Did-you-mean suggestions (suggest.h): Levenshtein distance over short names. */
#include "suggest.h"

#include <string.h>

static int edit_distance(const char* a, const char* b)
{
	enum { MAX = 64 };
	size_t la = strlen(a), lb = strlen(b);
	if (la >= MAX || lb >= MAX) return MAX;
	int row[MAX + 1];
	for (size_t j = 0; j <= lb; ++j) row[j] = (int)j;
	for (size_t i = 1; i <= la; ++i) {
		int diag = row[0];
		row[0] = (int)i;
		for (size_t j = 1; j <= lb; ++j) {
			int up = row[j];
			int best = diag + (a[i - 1] == b[j - 1] ? 0 : 1);
			if (up + 1 < best) best = up + 1;
			if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

const char* suggest_name(const char* word, const char* const* names)
{
	const char* best = NULL;
	int best_d = 4;
	for (const char* const* k = names; *k; ++k) {
		int d = edit_distance(word, *k);
		if (d < best_d && d < (int)strlen(*k)) best = *k, best_d = d;
	}
	return best;
}
