/* Writing and reading the stepping state of a world (world_state.h; docs/reliability.md,
 * "Resume"). Native byte order and layout: a state file is read back by the same build on the
 * same machine, which is what resuming a killed run needs. */
#include "world_state.h"

#include "collide/contact.h"
#include "collide/solid.h"
#include "core.h"
#include "world.h"

#include <string.h>

#define STATE_MAGIC "DRWSTAT1"

static bool put(FILE* f, const void* p, size_t size, size_t count) { return count == 0 || fwrite(p, size, count, f) == count; }
static bool get(FILE* f, void* p, size_t size, size_t count) { return count == 0 || fread(p, size, count, f) == count; }

bool world_state_supported(const drape_world* w, char* why, size_t why_size)
{
	if (w->seam_count > 0) return core_fail(why, why_size, "garments with seams cannot be resumed yet");
	for (int32_t s = 0; s < w->solid_count; ++s)
		if (w->solids[s].character) return core_fail(why, why_size, "scenes with an animated character cannot be resumed yet");
	if (w->def.preconditioner == DRAPE_PRECONDITIONER_CHOLESKY)
		return core_fail(why, why_size, "the cholesky preconditioner keeps a factor across steps that is not saved");
	for (int32_t i = 0; i < w->spring_count; ++i)
		if (w->springs[i].alive) return core_fail(why, why_size, "user springs are not saved");
	return true;
}

bool world_state_write(drape_world* w, FILE* f)
{
	const size_t n = (size_t)w->particle_count;
	const bool prepared = !w->dirty;
	int32_t counts[3] = {w->particle_count, w->constraint_count, prepared};
	bool ok = put(f, STATE_MAGIC, 1, 8) && put(f, counts, sizeof counts[0], 3) && put(f, &w->time, sizeof w->time, 1) &&
		  put(f, w->x, sizeof *w->x, n) && put(f, w->v, sizeof *w->v, n) && put(f, &w->control, sizeof w->control, 1) &&
		  put(f, &w->adi_phase, sizeof w->adi_phase, 1);
	for (int32_t i = 0; ok && i < w->constraint_count; ++i) {
		const constraint_data* c = &w->constraints[i];
		ok = put(f, &c->alive, sizeof c->alive, 1) && put(f, &c->active, sizeof c->active, 1) &&
		     put(f, &c->origin, sizeof c->origin, 1) && put(f, &c->origin_time, sizeof c->origin_time, 1) &&
		     put(f, &c->force, sizeof c->force, 1);
	}
	/* The rest exists once the first step has prepared the world. */
	if (ok && prepared)
		ok = put(f, w->dv_last, sizeof *w->dv_last, n) && put(f, &w->h_last, sizeof w->h_last, 1) &&
		     put(f, w->x_prev, sizeof *w->x_prev, n) && put(f, w->v_prev, sizeof *w->v_prev, n) &&
		     put(f, &w->h_prev, sizeof w->h_prev, 1) && put(f, w->contacts, sizeof *w->contacts, n) &&
		     put(f, &w->intersections, sizeof w->intersections, 1);
	return ok;
}

bool world_state_read(drape_world* w, FILE* f, char* err, size_t err_size)
{
	char magic[8];
	int32_t counts[3];
	if (!get(f, magic, 1, 8) || memcmp(magic, STATE_MAGIC, 8) != 0 || !get(f, counts, sizeof counts[0], 3))
		return core_fail(err, err_size, "not a world state of this drape version");
	if (counts[0] != w->particle_count || counts[1] != w->constraint_count)
		return core_fail(err, err_size, "the state holds %d particles and %d constraints, the scene %d and %d", counts[0],
				 counts[1], w->particle_count, w->constraint_count);
	/* As the first step would: the solver's buffers, the cloth/cloth detector and its rest
	 * neighbourhoods, built from the initial positions. */
	if (counts[2] && w->dirty && world_prepare(w) != DRAPE_OK) return core_fail(err, err_size, "%s", w->error);
	const size_t n = (size_t)w->particle_count;
	bool ok = get(f, &w->time, sizeof w->time, 1) && get(f, w->x, sizeof *w->x, n) && get(f, w->v, sizeof *w->v, n) &&
		  get(f, &w->control, sizeof w->control, 1) && get(f, &w->adi_phase, sizeof w->adi_phase, 1);
	for (int32_t i = 0; ok && i < w->constraint_count; ++i) {
		constraint_data* c = &w->constraints[i];
		ok = get(f, &c->alive, sizeof c->alive, 1) && get(f, &c->active, sizeof c->active, 1) &&
		     get(f, &c->origin, sizeof c->origin, 1) && get(f, &c->origin_time, sizeof c->origin_time, 1) &&
		     get(f, &c->force, sizeof c->force, 1);
	}
	if (ok && counts[2])
		ok = get(f, w->dv_last, sizeof *w->dv_last, n) && get(f, &w->h_last, sizeof w->h_last, 1) &&
		     get(f, w->x_prev, sizeof *w->x_prev, n) && get(f, w->v_prev, sizeof *w->v_prev, n) &&
		     get(f, &w->h_prev, sizeof w->h_prev, 1) && get(f, w->contacts, sizeof *w->contacts, n) &&
		     get(f, &w->intersections, sizeof w->intersections, 1);
	if (!ok) return core_fail(err, err_size, "the world state is cut short");
	return true;
}
