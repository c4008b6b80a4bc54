/* Which cloths cross: the intersecting triangle pairs of the world's cloths (sec. 2.1's "actual
 * intersection of cloth with itself"), tallied by the pair of cloths they belong to, so that a
 * run can say which garments cross (docs/reliability.md, "Crossings are reported"). */
#ifndef DRAPE_CLOTH_CROSSINGS_H
#define DRAPE_CLOTH_CROSSINGS_H

#include <stdint.h>

typedef struct drape_world drape_world;

/* tally[a * n + b], a <= b, n the world's cloth count (n * n entries, zeroed here): the triangle
 * pairs of cloth a and cloth b that intersect at the current positions (a == b: a cloth through
 * itself). Returns their total; 0 without cloth/cloth collision, before the first step or right
 * after a seam merge (the detector's topology is rebuilt at the next step); -1 when out of memory,
 * over the search's budget or interrupted. Between steps only. */
int32_t cloth_crossings_tally(drape_world* w, int32_t* tally);

#endif
