/* Sewing during a run (drape_run, `drape run`, `drape bench --garments`; docs/garments.md): seams close and merge between frames; a seam
 * still open at sewing.time_limit is a failure (exit 3); after the last merge the garment relaxes
 * until its kinetic energy falls under sewing.relax_energy, which marks when motion may start. */
#include "sewing.h"

#include <stdio.h>
#include <stdlib.h>

bool sewing_begin(sewing_state* st, const drape_world* world)
{
	st->seam_count = drape_seam_count(world);
	st->open = st->seam_count;
	st->sewn_at = st->open > 0 ? -1.0 : 0.0;
	st->motion_start = -1.0;
	st->frame = 0;
	st->merged_frame = NULL;
	const int32_t n = st->open;
	if (n <= 0) return true;
	st->merged_frame = malloc((size_t)n * sizeof *st->merged_frame);
	if (!st->merged_frame) return false;
	for (int32_t k = 0; k < n; ++k) st->merged_frame[k] = drape_seam_merged(world, (drape_seam_id){k}) ? 0 : -1;
	return true;
}

void sewing_end(sewing_state* st)
{
	free(st->merged_frame);
	st->merged_frame = NULL;
}

void sewing_restore(sewing_state* st, int32_t open, int32_t frame, double sewn_at, double motion_start,
		    const int32_t* merged_frame, int32_t seam_count)
{
	st->open = open;
	st->frame = frame;
	st->sewn_at = sewn_at;
	st->motion_start = motion_start;
	for (int32_t k = 0; k < seam_count && k < st->seam_count; ++k) st->merged_frame[k] = merged_frame[k];
}

void sewing_set_gravity(const sewing_state* st, drape_world* world, const scene* s)
{
	if (s->sew_gravity == 1.0) return; /* the world was made with the scene's gravity */
	const double scale = st->open > 0 ? s->sew_gravity : 1.0;
	double g[3];
	for (int k = 0; k < 3; ++k) g[k] = scale * s->world.gravity[k];
	drape_world_set_gravity(world, g);
}

double sewing_max_gap(const drape_world* world)
{
	double gap = 0.0;
	for (int32_t k = 0; k < drape_seam_count(world); ++k) {
		double g = drape_seam_gap(world, (drape_seam_id){k});
		if (g > gap) gap = g;
	}
	return gap;
}

drape_status sewing_after_frame(sewing_state* st, drape_world* world, const scene* s, char* err, size_t err_size)
{
	const double t = drape_world_time(world);
	st->frame++;
	if (st->open > 0) {
		int32_t closed = 0;
		if (drape_world_close_seams(world, &closed) != DRAPE_OK) {
			snprintf(err, err_size, "%s", drape_world_error(world));
			return DRAPE_ERROR_INVALID;
		}
		/* recorded so that `drape render` can replay the merges (docs/garments.md) */
		for (int32_t k = 0; closed > 0 && k < drape_seam_count(world); ++k)
			if (st->merged_frame[k] < 0 && drape_seam_merged(world, (drape_seam_id){k})) st->merged_frame[k] = st->frame;
		st->open -= closed;
		if (st->open == 0) st->sewn_at = t;
		for (int32_t c = 0; st->open == 0 && s->sew_regions_after && c < s->cloth_count; ++c)
			if (s->cloths[c].stretch_scale &&
			    drape_cloth_set_stretch_scale(world, (drape_cloth_id){c}, s->cloths[c].stretch_scale) != DRAPE_OK) {
				snprintf(err, err_size, "%s", drape_world_error(world));
				return DRAPE_ERROR_INVALID;
			}
	}
	if (st->open > 0 && t >= s->sew_time_limit - 1e-9) {
		for (int32_t k = 0; k < drape_seam_count(world); ++k) {
			drape_seam_id id = {k};
			if (drape_seam_merged(world, id)) continue;
			double a[3], b[3];
			int32_t pair;
			const double gap = drape_seam_widest_pair(world, id, &pair, a, b);
			snprintf(err, err_size,
				 "seam '%s' did not close within sewing.time_limit = %g s: its gap is still %.4g m (tolerance "
				 "sewing.tolerance), widest at its pair %d, between (%.3f, %.3f, %.3f) and (%.3f, %.3f, %.3f); "
				 "place the panels closer, clear of the body between the two sides, or raise sewing.stiffness",
				 drape_seam_name(world, id), s->sew_time_limit, gap, pair, a[0], a[1], a[2], b[0], b[1], b[2]);
			return DRAPE_ERROR_DIVERGED;
		}
	}
	if (st->open == 0 && st->motion_start < 0.0 && drape_world_kinetic_energy(world) < s->relax_energy) {
		st->motion_start = t;
		scene_start_motion(s, world, t);
	}
	return DRAPE_OK;
}
