/* Crossings by cloth pair (cloth_crossings.h): the exact triangle/triangle count of
 * cloth_pairs_count.c, each hit tallied by its triangles' cloths. */
#include "cloth_crossings.h"

#include "../world_data.h"
#include "cloth_pairs.h"

#include <stdlib.h>

int32_t cloth_crossings_tally(drape_world* w, int32_t* tally)
{
	const int32_t n = w->model.cloth_count;
	for (int64_t i = 0; i < (int64_t)n * n; ++i) tally[i] = 0;
	if (!w->work.pairs_ready || w->model.dirty || w->model.triangle_count == 0 || n == 0) return 0;
	int32_t* cloth_of = malloc((size_t)w->model.triangle_count * sizeof *cloth_of);
	if (!cloth_of) return -1;
	/* Each cloth's triangles are one range from its first_triangle, in cloth order (cloth.c);
	 * merging seams joins vertices, never moves triangles between cloths. */
	for (int32_t c = 0; c < n; ++c) {
		const int32_t end = c + 1 < n ? w->model.cloths[c + 1].first_triangle : w->model.triangle_count;
		for (int32_t t = w->model.cloths[c].first_triangle; t < end; ++t) cloth_of[t] = c;
	}
	int32_t count = cloth_pairs_intersections_by_group(&w->work.pairs, w->state.x, cloth_of, n, tally);
	free(cloth_of);
	return count;
}
