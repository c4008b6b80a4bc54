/* Aggregation of a matrix graph's nodes into small connected groups, the coarse nodes of the
 * two-level and multigrid preconditioners (docs/solver.md, "Preconditioners"; Tamstorf, Jones
 * and McCormick 2015, sec. 4). Topology only: done once per pattern. */
#ifndef DRAPE_AGGREGATE_H
#define DRAPE_AGGREGATE_H

#include <stdbool.h>
#include <stdint.h>

/* Greedy, in index order (deterministic): a node whose neighbours (start/cols: n rows of a
 * symmetric graph, each row listing its node too or not) are all unaggregated starts an
 * aggregate with them; the rest join a neighbour's aggregate, or form their own if isolated.
 * Writes agg[n] and returns the aggregate count. */
int32_t aggregate_greedy(int32_t n, const int32_t* start, const int32_t* cols, int32_t* agg);

/* Each aggregate's nodes in index order: members[member_start[c] .. member_start[c + 1]).
 * member_start has nc + 1 entries, members n. */
void aggregate_members(int32_t n, int32_t nc, const int32_t* agg, int32_t* member_start, int32_t* members);

#endif
