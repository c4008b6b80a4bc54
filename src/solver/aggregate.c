/* Greedy aggregation of a graph's nodes (docs/solver.md, "Preconditioners"): the coarse nodes of
 * two_level.c and multigrid.c. On the cloth's pattern graph (the particles sharing a triangle or
 * hinge) an aggregate is a particle and its ring, about 10 particles. */
#include "aggregate.h"

int32_t aggregate_greedy(int32_t n, const int32_t* start, const int32_t* cols, int32_t* agg)
{
	for (int32_t i = 0; i < n; ++i) agg[i] = -1;
	int32_t nc = 0;
	for (int32_t i = 0; i < n; ++i) {
		if (agg[i] >= 0) continue;
		bool all_free = true;
		for (int32_t k = start[i]; k < start[i + 1]; ++k) all_free = all_free && agg[cols[k]] < 0;
		if (!all_free) continue;
		agg[i] = nc;
		for (int32_t k = start[i]; k < start[i + 1]; ++k) agg[cols[k]] = nc;
		nc++;
	}
	/* Particles left isolated join the aggregate of a neighbour. */
	for (int32_t i = 0; i < n; ++i) {
		if (agg[i] >= 0) continue;
		for (int32_t k = start[i]; k < start[i + 1] && agg[i] < 0; ++k)
			if (agg[cols[k]] >= 0) agg[i] = agg[cols[k]];
		if (agg[i] < 0) agg[i] = nc++;
	}
	return nc;
}

void aggregate_members(int32_t n, int32_t nc, const int32_t* agg, int32_t* member_start, int32_t* members)
{
	for (int32_t c = 0; c <= nc; ++c) member_start[c] = 0;
	for (int32_t i = 0; i < n; ++i) member_start[agg[i] + 1]++;
	for (int32_t c = 0; c < nc; ++c) member_start[c + 1] += member_start[c];
	for (int32_t i = 0; i < n; ++i) members[member_start[agg[i]]++] = i;
	for (int32_t c = nc; c > 0; --c) member_start[c] = member_start[c - 1];
	member_start[0] = 0;
}
