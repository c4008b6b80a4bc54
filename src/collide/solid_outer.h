/* The outer surface of a closed mesh that overlaps itself (docs/collide.md, "Where the body
 * overlaps itself"): the queries of solid_query.c skip what lies inside the mesh itself. */
#ifndef DRAPE_SOLID_OUTER_H
#define DRAPE_SOLID_OUTER_H

#include "solid.h"

/* Faces one query set aside (inner parts of cut faces); past OUTER_SKIPS it takes what it finds. */
#define OUTER_SKIPS 8
typedef struct outer_skips {
	int32_t face[OUTER_SKIPS];
	int count;
} outer_skips;

/* Whether a query skips face f: buried, or set aside by this query. */
bool outer_skipped(const solid_data* s, const outer_skips* k, int32_t f);

/* After a query picked face f at cp (its closest point or path hit on the mesh placed at v: the
 * step's start, or its end for solid_closest_end): true when cp is not on the outer surface, to
 * query again without f. Which faces lie inside the mesh or are cut is known at the step's start
 * only. Uses the query scratch. */
bool outer_set_aside(drape_world* w, const solid_data* s, const vec3* v, outer_skips* k, int32_t f, vec3 cp);

#endif
