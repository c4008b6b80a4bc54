/* Untangling small knots of cloth already through itself, in the spirit of Baraff, Witkin and Kass
 * (2003), "Untangling Cloth": the collision response (sec. 6) only keeps intersection-free cloth
 * free; it cannot undo an intersection a seam merge snapped in (docs/garments.md; the sides of an
 * open seam are not contacts of each other). Such knots are small: triangles sharing a vertex or
 * a ring apart, folded through each other. Smoothing the patch around them (each particle moved half way to the mean
 * of its mesh neighbours, the patch's rim held) unfolds it; the patch grows by a ring when that
 * is not enough. The exact count decides: the result is kept only if it has fewer intersections,
 * otherwise the positions are restored. Velocities are left as they are. docs/collide.md. */
#include "cloth_untangle.h"

#include "../world_data.h"
#include "cloth_pairs.h"

#include <stdlib.h>
#include <string.h>

/* Smoothing sweeps per patch size, and how many rings the patch may grow to. */
#define UNTANGLE_SWEEPS 8
#define UNTANGLE_RINGS 3

typedef struct mesh_adjacency {
	int32_t* start; /* particle i's neighbours are next[start[i] .. start[i + 1]) */
	int32_t* next;
} mesh_adjacency;

/* Every particle's neighbours along triangle edges (each edge listed from both triangles that
 * hold it: a neighbour across an interior edge counts twice, which the mean does not mind). */
static bool adjacency_build(const drape_world* w, mesh_adjacency* a)
{
	const int32_t n = w->model.particle_count;
	a->start = calloc((size_t)n + 1, sizeof *a->start);
	a->next = malloc(6 * (size_t)(w->model.triangle_count > 0 ? w->model.triangle_count : 1) * sizeof *a->next);
	if (!a->start || !a->next) return false;
	for (int32_t t = 0; t < w->model.triangle_count; ++t)
		for (int k = 0; k < 3; ++k) a->start[w->model.triangles[t].v[k] + 1] += 2;
	for (int32_t i = 0; i < n; ++i) a->start[i + 1] += a->start[i];
	int32_t* fill = malloc(((size_t)n + 1) * sizeof *fill);
	if (!fill) return false;
	memcpy(fill, a->start, ((size_t)n + 1) * sizeof *fill);
	for (int32_t t = 0; t < w->model.triangle_count; ++t)
		for (int k = 0; k < 3; ++k) {
			const int32_t* v = w->model.triangles[t].v;
			a->next[fill[v[k]]++] = v[(k + 1) % 3];
			a->next[fill[v[k]]++] = v[(k + 2) % 3];
		}
	free(fill);
	return true;
}

/* Adds the neighbours of the patch to it (one ring). */
static void grow(const mesh_adjacency* a, int32_t n, uint8_t* in_patch)
{
	for (int32_t i = 0; i < n; ++i)
		if (in_patch[i] == 1)
			for (int32_t k = a->start[i]; k < a->start[i + 1]; ++k)
				if (!in_patch[a->next[k]]) in_patch[a->next[k]] = 2;
	for (int32_t i = 0; i < n; ++i)
		if (in_patch[i] == 2) in_patch[i] = 1;
}

/* One Jacobi sweep: every movable patch particle half way to its neighbours' mean. */
static void smooth(const drape_world* w, const mesh_adjacency* a, const uint8_t* in_patch, const uint8_t* held, vec3* x,
		   vec3* scratch)
{
	const int32_t n = w->model.particle_count;
	for (int32_t i = 0; i < n; ++i) {
		scratch[i] = x[i];
		if (in_patch[i] != 1 || held[i] || a->start[i + 1] == a->start[i]) continue;
		vec3 mean = v3_zero();
		for (int32_t k = a->start[i]; k < a->start[i + 1]; ++k) mean = v3_add(mean, x[a->next[k]]);
		mean = v3_scale(mean, 1.0 / (double)(a->start[i + 1] - a->start[i]));
		scratch[i] = v3_scale(v3_add(x[i], mean), 0.5);
	}
	memcpy(x, scratch, (size_t)n * sizeof *x);
}

int32_t cloth_untangle(drape_world* w)
{
	const int32_t before = w->state.intersections, n = w->model.particle_count;
	if (!w->work.pairs_ready || before <= 0) return before;
	int32_t* pairs = malloc(2 * (size_t)before * sizeof *pairs);
	uint8_t* in_patch = calloc((size_t)n, 1);
	uint8_t* held = calloc((size_t)n, 1);
	vec3* saved = malloc((size_t)n * sizeof *saved);
	vec3* scratch = malloc((size_t)n * sizeof *scratch);
	mesh_adjacency a = {0};
	int32_t count = before;
	if (!pairs || !in_patch || !held || !saved || !scratch || !adjacency_build(w, &a)) goto done;
	count = cloth_pairs_intersections(&w->work.pairs, w->state.x, pairs, before);
	if (count <= 0) {
		count = count < 0 ? before : 0;
		goto done;
	}
	const int32_t listed = count < before ? count : before;
	for (int32_t k = 0; k < 2 * listed; ++k)
		for (int c = 0; c < 3; ++c) in_patch[w->model.triangles[pairs[k]].v[c]] = 1;
	/* pinned particles stay where their pins hold them */
	for (int32_t k = 0; k < w->model.constraint_count; ++k)
		if (w->model.constraints[k].alive) held[w->model.constraints[k].particle] = 1;
	memcpy(saved, w->state.x, (size_t)n * sizeof *saved);
	const int32_t initial = count;
	for (int ring = 1; ring <= UNTANGLE_RINGS && count > 0; ++ring) {
		grow(&a, n, in_patch);
		for (int s = 0; s < UNTANGLE_SWEEPS && count > 0; ++s) {
			smooth(w, &a, in_patch, held, w->state.x, scratch);
			int32_t now = cloth_pairs_intersections(&w->work.pairs, w->state.x, NULL, 0);
			if (now < 0) {
				count = initial + 1; /* over budget or interrupted: give up, restore below */
				break;
			}
			count = now;
		}
		if (count > initial) break;
	}
	if (count >= initial) {
		memcpy(w->state.x, saved, (size_t)n * sizeof *saved);
		count = initial;
	}
done:
	free(pairs);
	free(in_patch);
	free(held);
	free(saved);
	free(scratch);
	free(a.start);
	free(a.next);
	w->state.intersections = count;
	return count;
}
