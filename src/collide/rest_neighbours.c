/* Rest neighbours of the cloth/cloth proximity test (sec. 2.4, 6; docs/collide.md, "Rest
 * neighbours"). A vertex and a triangle, or two edges, that lie within the cloth thickness of each
 * other in the rest state are parts of one piece of cloth, not two layers in contact: a flat sheet
 * whose cells are smaller than the thickness would otherwise start with thousands of repulsions
 * pushing it apart. The rest state is the (u, v) of each triangle, so distances are measured on the
 * rest mesh unfolded flat: a breadth-first walk over triangles sharing edges, each triangle placed
 * in its predecessor's frame (an isometry of its own (u, v), a similarity where a seam joins edges
 * of different rest lengths). Seams need no special case: a particle with several (u, v) is reached
 * from each side with the geometry of that side. Built once per topology. */
#include "rest_neighbours.h"

#include "../core.h"
#include "cloth_pairs.h"
#include "geometry.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The walk's state: the mesh, vertex -> triangle rows, a visit stamp per triangle, the queue of
 * triangles with their corners placed in the source's frame, and the current source's results. */
typedef struct walker {
	const int32_t* tri;
	const double* uv;
	int32_t triangle_count;
	const int32_t* edges;
	int32_t edge_count;
	const int32_t* triangle_edges; /* 3 per triangle: side k's index in edges */
	int32_t *vt_start, *vt_list; /* triangles holding each vertex */
	int32_t* stamp;		     /* per triangle: the last source that queued it, + 1 */
	const volatile int* cancel;  /* stops the build when set and non-zero */
	int32_t* queue;		     /* triangles, in visit order */
	vec3* frame;		     /* 3 per queue slot: the triangle's corners in the source's frame */
	int32_t queue_capacity;
	int32_t* found;
	int32_t found_count, found_capacity;
	double radius;
} walker;

static vec3 uv_at(const walker* w, int32_t t, int k) { return v3(w->uv[6 * (size_t)t + 2 * k], w->uv[6 * (size_t)t + 2 * k + 1], 0.0); }

static bool push_found(walker* w, int32_t x)
{
	if (!core_reserve((void**)&w->found, &w->found_capacity, w->found_count + 1, sizeof *w->found)) return false;
	w->found[w->found_count++] = x;
	return true;
}

static bool enqueue(walker* w, int32_t* tail, int32_t t, const vec3 f[3], int32_t stamp)
{
	if (*tail == w->queue_capacity) {
		int32_t cap = w->queue_capacity;
		if (!core_reserve((void**)&w->queue, &cap, cap + 1, sizeof *w->queue)) return false;
		vec3* fr = realloc(w->frame, 3 * (size_t)cap * sizeof *fr);
		if (!fr) return false;
		w->frame = fr;
		w->queue_capacity = cap;
	}
	w->queue[*tail] = t;
	memcpy(w->frame + 3 * (size_t)*tail, f, 3 * sizeof *f);
	w->stamp[t] = stamp;
	++*tail;
	return true;
}

/* Distance (squared) from the source, a point (s0 == s1) or a segment s0-s1, to the triangle f. */
static double source_triangle_d2(vec3 s0, vec3 s1, bool segment, const vec3 f[3])
{
	double bary[3];
	double d2 = point_triangle_closest(s0, f[0], f[1], f[2], bary);
	if (!segment) return d2;
	double e2 = point_triangle_closest(s1, f[0], f[1], f[2], bary);
	d2 = e2 < d2 ? e2 : d2;
	/* a segment crossing the triangle crosses one of its sides */
	for (int k = 0; k < 3; ++k) {
		double s, u;
		double g2 = segment_segment_closest(s0, s1, f[k], f[(k + 1) % 3], &s, &u);
		d2 = g2 < d2 ? g2 : d2;
	}
	return d2;
}

/* Triangle u, across t's side from corner k to k + 1, placed in t's frame f: the shared corners
 * where t has them, the third unfolded to the far side of the side, at its own (u, v) offset from
 * the side, scaled by the ratio of the side's lengths in the two triangles (1 except on seams
 * sewing edges of different rest lengths). */
static void unfold(const walker* w, int32_t t, const vec3 f[3], int k, int32_t u, vec3 g[3])
{
	int32_t a = w->tri[3 * (size_t)t + k], b = w->tri[3 * (size_t)t + (k + 1) % 3];
	const int32_t* uv = w->tri + 3 * (size_t)u;
	int ia = uv[0] == a ? 0 : (uv[1] == a ? 1 : 2);
	int ib = uv[0] == b ? 0 : (uv[1] == b ? 1 : 2);
	int ic = 3 - ia - ib;
	vec3 fa = f[k], fb = f[(k + 1) % 3], fo = f[(k + 2) % 3];
	vec3 ua = uv_at(w, u, ia), ub = uv_at(w, u, ib), uc = uv_at(w, u, ic);
	vec3 d = v3_sub(ub, ua), q = v3_sub(uc, ua);
	double l2 = v3_len2(d);
	double along = v3_dot(q, d) / l2;
	double off = fabs(d.x * q.y - d.y * q.x) / sqrt(l2); /* distance of c from the side's line */
	vec3 e = v3_sub(fb, fa);
	double le = v3_len(e);
	vec3 perp = v3(-e.y / le, e.x / le, 0.0);
	if (v3_dot(perp, v3_sub(fo, fa)) > 0.0) perp = v3_neg(perp);
	g[ia] = fa;
	g[ib] = fb;
	g[ic] = v3_add(v3_add(fa, v3_scale(e, along)), v3_scale(perp, off * le / sqrt(l2)));
}

/* Walks from the seeds (already queued, slots [0, tail)) over every triangle within the radius of
 * the source; calls record for each such triangle with its frame. */
static bool walk(walker* w, int32_t tail, int32_t stamp, vec3 s0, vec3 s1, bool segment,
		 bool (*record)(walker* w, int32_t t, const vec3 f[3], void* ctx), void* ctx)
{
	const double r2 = w->radius * w->radius;
	for (int32_t head = 0; head < tail; ++head) {
		int32_t t = w->queue[head];
		vec3 f[3];
		memcpy(f, w->frame + 3 * (size_t)head, sizeof f);
		/* Every triangle a straight path from the source to a point within the radius crosses
		 * is itself within the radius, so the walk stops at triangles beyond it. */
		if (!(source_triangle_d2(s0, s1, segment, f) < r2)) continue;
		if (!record(w, t, f, ctx)) return false;
		for (int k = 0; k < 3; ++k) {
			int32_t a = w->tri[3 * (size_t)t + k], b = w->tri[3 * (size_t)t + (k + 1) % 3];
			for (int32_t i = w->vt_start[a]; i < w->vt_start[a + 1]; ++i) {
				int32_t u = w->vt_list[i];
				if (w->stamp[u] == stamp) continue;
				const int32_t* uv = w->tri + 3 * (size_t)u;
				if (uv[0] != b && uv[1] != b && uv[2] != b) continue;
				vec3 g[3];
				unfold(w, t, f, k, u, g);
				if (!enqueue(w, &tail, u, g, stamp)) return false;
			}
		}
	}
	return true;
}

static bool record_vf(walker* w, int32_t t, const vec3 f[3], void* ctx)
{
	(void)f;
	int32_t p = *(const int32_t*)ctx;
	const int32_t* tv = w->tri + 3 * (size_t)t;
	if (tv[0] == p || tv[1] == p || tv[2] == p) return true;
	return push_found(w, t);
}

typedef struct edge_source {
	int32_t e;
	vec3 s0, s1;
} edge_source;

static bool record_ee(walker* w, int32_t t, const vec3 f[3], void* ctx)
{
	const edge_source* src = ctx;
	const int32_t* ev = w->edges + 2 * (size_t)src->e;
	const double r2 = w->radius * w->radius;
	for (int k = 0; k < 3; ++k) {
		int32_t a = w->tri[3 * (size_t)t + k], b = w->tri[3 * (size_t)t + (k + 1) % 3];
		if (a == ev[0] || a == ev[1] || b == ev[0] || b == ev[1]) continue;
		int32_t g = w->triangle_edges[3 * (size_t)t + k];
		if (g <= src->e) continue;
		double s, u;
		if (segment_segment_closest(src->s0, src->s1, f[k], f[(k + 1) % 3], &s, &u) < r2 && !push_found(w, g))
			return false;
	}
	return true;
}

static int cmp_i32(const void* pa, const void* pb)
{
	int32_t a = *(const int32_t*)pa, b = *(const int32_t*)pb;
	return (a > b) - (a < b);
}

/* Appends the current source's results, sorted and without repeats, as the next row. */
static bool close_row(walker* w, int32_t** list, int32_t* count, int32_t* capacity, int32_t* start_next)
{
	if (w->found_count > 1) qsort(w->found, (size_t)w->found_count, sizeof *w->found, cmp_i32);
	for (int32_t i = 0; i < w->found_count; ++i) {
		if (i > 0 && w->found[i] == w->found[i - 1]) continue;
		if (!core_reserve((void**)list, capacity, *count + 1, sizeof **list)) return false;
		(*list)[(*count)++] = w->found[i];
	}
	*start_next = *count;
	w->found_count = 0;
	return true;
}

void rest_neighbours_free(rest_neighbours* r)
{
	free(r->vf_start);
	free(r->vf_tri);
	free(r->ee_start);
	free(r->ee_edge);
	memset(r, 0, sizeof *r);
}

static bool build_lists(rest_neighbours* r, walker* w, int32_t particle_count)
{
	int32_t vf_count = 0, vf_cap = 0, ee_count = 0, ee_cap = 0;
	int32_t stamp = 0;
	r->vf_start[0] = 0;
	for (int32_t p = 0; p < particle_count; ++p) {
		if ((p & 1023) == 0 && w->cancel && *w->cancel) return false;
		/* Seeds: every triangle around p, each in its own (u, v) moved so that p is at the
		 * origin. Distances from p do not depend on how the seeds are turned, so a seam through
		 * p, where the triangles around it see it at different (u, v), needs nothing more. */
		int32_t tail = 0;
		++stamp;
		for (int32_t i = w->vt_start[p]; i < w->vt_start[p + 1]; ++i) {
			int32_t t = w->vt_list[i];
			const int32_t* tv = w->tri + 3 * (size_t)t;
			int kp = tv[0] == p ? 0 : (tv[1] == p ? 1 : 2);
			vec3 o = uv_at(w, t, kp), f[3];
			for (int k = 0; k < 3; ++k) f[k] = v3_sub(uv_at(w, t, k), o);
			if (!enqueue(w, &tail, t, f, stamp)) return false;
		}
		if (!walk(w, tail, stamp, v3_zero(), v3_zero(), false, record_vf, &p) ||
		    !close_row(w, &r->vf_tri, &vf_count, &vf_cap, &r->vf_start[p + 1]))
			return false;
	}
	r->ee_start[0] = 0;
	for (int32_t e = 0; e < w->edge_count; ++e) {
		if ((e & 1023) == 0 && w->cancel && *w->cancel) return false;
		/* Seed: one triangle holding e, in its own (u, v); the others across e unfold from it. */
		int32_t a = w->edges[2 * (size_t)e], b = w->edges[2 * (size_t)e + 1];
		int32_t tail = 0;
		++stamp;
		edge_source src = {.e = e};
		for (int32_t i = w->vt_start[a]; i < w->vt_start[a + 1] && tail == 0; ++i) {
			int32_t t = w->vt_list[i];
			const int32_t* tv = w->tri + 3 * (size_t)t;
			if (tv[0] != b && tv[1] != b && tv[2] != b) continue;
			vec3 f[3];
			for (int k = 0; k < 3; ++k) {
				f[k] = uv_at(w, t, k);
				if (tv[k] == a) src.s0 = f[k];
				if (tv[k] == b) src.s1 = f[k];
			}
			if (!enqueue(w, &tail, t, f, stamp)) return false;
		}
		if (!walk(w, tail, stamp, src.s0, src.s1, true, record_ee, &src) ||
		    !close_row(w, &r->ee_edge, &ee_count, &ee_cap, &r->ee_start[e + 1]))
			return false;
	}
	return true;
}

bool rest_neighbours_build(rest_neighbours* r, const int32_t* triangles, const double* tri_uv, int32_t triangle_count,
			   int32_t particle_count, const int32_t* edges, int32_t edge_count, const int32_t* triangle_edges,
			   double radius, const volatile int* cancel)
{
	memset(r, 0, sizeof *r);
	walker w = {.tri = triangles,
		    .uv = tri_uv,
		    .triangle_count = triangle_count,
		    .edges = edges,
		    .edge_count = edge_count,
		    .triangle_edges = triangle_edges,
		    .radius = radius,
		    .cancel = cancel};
	size_t np = (size_t)particle_count + 1, nt = triangle_count > 0 ? (size_t)triangle_count : 1;
	r->vf_start = malloc(np * sizeof *r->vf_start);
	r->ee_start = malloc(((size_t)edge_count + 1) * sizeof *r->ee_start);
	w.vt_start = calloc(np + 1, sizeof *w.vt_start);
	w.vt_list = malloc(3 * nt * sizeof *w.vt_list);
	w.stamp = calloc(nt, sizeof *w.stamp);
	bool ok = r->vf_start && r->ee_start && w.vt_start && w.vt_list && w.stamp;
	if (ok) {
		/* vertex -> triangles, by counting */
		for (size_t i = 0; i < 3 * (size_t)triangle_count; ++i) ++w.vt_start[triangles[i] + 2];
		for (size_t p = 2; p <= np; ++p) w.vt_start[p] += w.vt_start[p - 1];
		for (int32_t t = 0; t < triangle_count; ++t)
			for (int k = 0; k < 3; ++k) w.vt_list[w.vt_start[triangles[3 * (size_t)t + k] + 1]++] = t;
		r->particle_count = particle_count;
		r->edge_count = edge_count;
		r->radius = radius;
		ok = build_lists(r, &w, particle_count);
	}
	free(w.vt_start);
	free(w.vt_list);
	free(w.stamp);
	free(w.queue);
	free(w.frame);
	free(w.found);
	if (!ok) rest_neighbours_free(r);
	return ok;
}

bool cloth_pairs_set_rest(cloth_pairs* d, const double* tri_uv, double radius)
{
	rest_neighbours_free(&d->rest);
	d->list_valid = false; /* its pairs' live tests leave out the old rest neighbours */
	return rest_neighbours_build(&d->rest, d->triangles, tri_uv, d->triangle_count, d->particle_count, d->edges,
				     d->edge_count, d->triangle_edges, radius, d->cancel);
}
