/* The cloth/cloth detector's candidate list (cloth_pairs_list.c; docs/collide.md, "Candidate
 * list"): the proximity and crossing queries ask it before traversing the tree. */
#ifndef DRAPE_CLOTH_PAIRS_LIST_H
#define DRAPE_CLOTH_PAIRS_LIST_H

#include "cloth_pairs_query.h"

/* Whether the candidate list holds every triangle pair whose box (d->boxes) overlaps another's in
 * query q, rebuilding it when it no longer does. False when the list is off (d->skin == 0), the
 * cloth has no triangles, or the list could not be built: the query traverses the tree then. */
bool cloth_pairs_list_ready(cloth_pairs* d, const query* q);

#endif
