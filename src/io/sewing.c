/* Sewing during a run (drape_run, `drape run`, `drape bench --garments`; docs/garments.md): seams close and merge between frames; a seam
 * still open at sewing.time_limit is a failure (exit 3); after the last merge the garment relaxes
 * until its kinetic energy falls under sewing.relax_energy, which marks when motion may start. */
#include "sewing.h"

#include <stdio.h>

void sewing_begin(sewing_state* st, const drape_world* world)
{
	st->open = drape_seam_count(world);
	st->sewn_at = st->open > 0 ? -1.0 : 0.0;
	st->motion_start = -1.0;
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
	if (st->open > 0) {
		int32_t closed = 0;
		if (drape_world_close_seams(world, &closed) != DRAPE_OK) {
			snprintf(err, err_size, "%s", drape_world_error(world));
			return DRAPE_ERROR_INVALID;
		}
		st->open -= closed;
		if (st->open == 0) st->sewn_at = t;
	}
	if (st->open > 0 && t >= s->sew_time_limit - 1e-9) {
		for (int32_t k = 0; k < drape_seam_count(world); ++k) {
			drape_seam_id id = {k};
			if (drape_seam_merged(world, id)) continue;
			snprintf(err, err_size,
				 "seam '%s' did not close within sewing.time_limit = %g s: its gap is still %.4g m (tolerance "
				 "sewing.tolerance); place the panels closer or raise sewing.stiffness",
				 drape_seam_name(world, id), s->sew_time_limit, drape_seam_gap(world, id));
			return DRAPE_ERROR_DIVERGED;
		}
	}
	if (st->open == 0 && st->motion_start < 0.0 && drape_world_kinetic_energy(world) < s->relax_energy)
		st->motion_start = t;
	return DRAPE_OK;
}
