/* Writing and reading the stepping state of a world (world_state.h; docs/reliability.md,
 * "Resume"). Native byte order and layout: a state file is read back by the same build on the
 * same machine, which is what resuming a killed run needs. */
#include "world_state.h"

#include "character/character.h"
#include "collide/contact.h"
#include "collide/solid.h"
#include "core.h"
#include "seam.h"
#include "world.h"

#include <string.h>

#define STATE_MAGIC "DRWSTAT7" /* 7: contacts remember the side of a two-sided solid */
/* The contacts are saved as raw bytes: a change of their layout must change STATE_MAGIC, or a
 * state saved by an older build would be read into the wrong fields (a DRWSTAT7 state resumed
 * "ok" into the wider contact of an unreleased branch before this check). Checked where the
 * size is known. */
#if defined(__x86_64__) && defined(__linux__)
_Static_assert(sizeof(contact) == 144, "struct contact changed: bump STATE_MAGIC, then this size");
#endif

static bool put(FILE* f, const void* p, size_t size, size_t count) { return count == 0 || fwrite(p, size, count, f) == count; }
static bool get(FILE* f, void* p, size_t size, size_t count) { return count == 0 || fread(p, size, count, f) == count; }

bool world_state_supported(const drape_world* w, char* why, size_t why_size)
{
	for (int32_t i = 0; i < w->model.spring_count; ++i)
		if (w->model.springs[i].alive) return core_fail(why, why_size, "user springs are not saved");
	return true;
}

void world_state_frame_start(drape_world* w)
{
	/* Not a step size: the next solve refactors (step/implicit.c). */
	w->work.cholesky_h = 0.0;
}

/* A world with seams changes its topology as they merge (seam.c): fewer particles, renumbered
 * triangles, hinges or tensor bending elements rebuilt across the seam, a closed seam's springs
 * gone, and b_u/b_v regions that may apply once sewn. All of it is saved as it stands rather than replayed, since hinges built at
 * a merge depend on the positions then. Written only for worlds with seams. */
static bool topology_write(drape_world* w, FILE* f)
{
	bool ok = put(f, &w->model.seam_count, sizeof w->model.seam_count, 1);
	for (int32_t s = 0; ok && s < w->model.seam_count; ++s) {
		int32_t pair_count;
		const int32_t* pairs = seam_pairs(w, s, &pair_count);
		const bool merged = drape_seam_merged(w, (drape_seam_id){s});
		ok = put(f, &merged, sizeof merged, 1) && put(f, &pair_count, sizeof pair_count, 1) &&
		     put(f, pairs, sizeof *pairs, 2 * (size_t)pair_count);
	}
	ok = ok && put(f, w->model.mass, sizeof *w->model.mass, (size_t)w->model.particle_count);
	for (int32_t c = 0; ok && c < w->model.cloth_count; ++c) {
		const cloth_data* cd = &w->model.cloths[c];
		ok = put(f, &cd->first_vertex, sizeof cd->first_vertex, 1) &&
		     put(f, &cd->mesh.vertex_count, sizeof cd->mesh.vertex_count, 1) &&
		     put(f, cd->mesh.positions, sizeof *cd->mesh.positions, 3 * (size_t)cd->mesh.vertex_count) &&
		     put(f, cd->mesh.triangles, sizeof *cd->mesh.triangles, 3 * (size_t)cd->mesh.triangle_count);
	}
	ok = ok && put(f, w->model.triangles, sizeof *w->model.triangles, (size_t)w->model.triangle_count) &&
	     put(f, &w->model.hinge_count, sizeof w->model.hinge_count, 1) && put(f, w->model.hinges, sizeof *w->model.hinges, (size_t)w->model.hinge_count) &&
	     put(f, &w->model.btens_count, sizeof w->model.btens_count, 1) && put(f, w->model.btens, sizeof *w->model.btens, (size_t)w->model.btens_count) &&
	     put(f, &w->model.ms_spring_count, sizeof w->model.ms_spring_count, 1) &&
	     put(f, w->model.ms_springs, sizeof *w->model.ms_springs, (size_t)w->model.ms_spring_count) &&
	     put(f, w->model.ms_bends, sizeof *w->model.ms_bends, (size_t)w->model.ms_bend_count);
	for (int32_t i = 0; ok && i < w->model.constraint_count; ++i)
		ok = put(f, &w->model.constraints[i].particle, sizeof w->model.constraints[i].particle, 1);
	return ok;
}

/* Into a world built from the scene (its seams all open): the sewn topology of the state, whose
 * particle count is `particles`. */
static bool topology_read(drape_world* w, FILE* f, int32_t particles, char* err, size_t err_size)
{
	int32_t seam_count;
	if (!get(f, &seam_count, sizeof seam_count, 1)) return core_fail(err, err_size, "the world state is cut short");
	if (seam_count != w->model.seam_count)
		return core_fail(err, err_size, "the state holds %d seams, the scene %d", seam_count, w->model.seam_count);
	if (particles > w->model.particle_count)
		return core_fail(err, err_size, "the state holds %d particles, more than the scene's %d", particles, w->model.particle_count);
	bool ok = true;
	for (int32_t s = 0; ok && s < seam_count; ++s) {
		int32_t pair_count, saved_count;
		int32_t* pairs = seam_pairs(w, s, &pair_count);
		bool merged;
		ok = get(f, &merged, sizeof merged, 1) && get(f, &saved_count, sizeof saved_count, 1);
		if (ok && saved_count != pair_count)
			return core_fail(err, err_size, "seam %d has %d pairs in the state, %d in the scene", s, saved_count, pair_count);
		ok = ok && get(f, pairs, sizeof *pairs, 2 * (size_t)pair_count);
		if (ok) seam_set_merged(w, s, merged);
	}
	ok = ok && get(f, w->model.mass, sizeof *w->model.mass, (size_t)particles);
	for (int32_t c = 0; ok && c < w->model.cloth_count; ++c) {
		cloth_data* cd = &w->model.cloths[c];
		int32_t vertex_count;
		ok = get(f, &cd->first_vertex, sizeof cd->first_vertex, 1) && get(f, &vertex_count, sizeof vertex_count, 1);
		if (ok && (vertex_count < 1 || vertex_count > cd->mesh.vertex_count))
			return core_fail(err, err_size, "cloth '%s' has %d vertices in the state, at most %d in the scene", cd->name,
					 vertex_count, cd->mesh.vertex_count);
		cd->mesh.vertex_count = ok ? vertex_count : cd->mesh.vertex_count;
		ok = ok && get(f, cd->mesh.positions, sizeof *cd->mesh.positions, 3 * (size_t)vertex_count) &&
		     get(f, cd->mesh.triangles, sizeof *cd->mesh.triangles, 3 * (size_t)cd->mesh.triangle_count);
	}
	int32_t hinge_count = 0, ms_spring_count = 0;
	ok = ok && get(f, w->model.triangles, sizeof *w->model.triangles, (size_t)w->model.triangle_count) &&
	     get(f, &hinge_count, sizeof hinge_count, 1);
	if (ok && (hinge_count < 0 || !core_reserve((void**)&w->model.hinges, &w->model.hinge_capacity, hinge_count, sizeof *w->model.hinges)))
		return core_fail(err, err_size, "the state's %d hinges cannot be held", hinge_count);
	int32_t btens_count = 0;
	ok = ok && get(f, w->model.hinges, sizeof *w->model.hinges, (size_t)hinge_count) && get(f, &btens_count, sizeof btens_count, 1);
	if (ok && (btens_count < 0 || btens_count > w->model.btens_count))
		return core_fail(err, err_size, "the state holds %d bending elements, more than the scene's %d", btens_count,
				 w->model.btens_count);
	ok = ok && get(f, w->model.btens, sizeof *w->model.btens, (size_t)btens_count) && get(f, &ms_spring_count, sizeof ms_spring_count, 1);
	if (ok && (ms_spring_count < 0 || ms_spring_count > w->model.ms_spring_count))
		return core_fail(err, err_size, "the state holds %d springs, more than the scene's %d", ms_spring_count,
				 w->model.ms_spring_count);
	ok = ok && get(f, w->model.ms_springs, sizeof *w->model.ms_springs, (size_t)ms_spring_count) &&
	     get(f, w->model.ms_bends, sizeof *w->model.ms_bends, (size_t)w->model.ms_bend_count);
	for (int32_t i = 0; ok && i < w->model.constraint_count; ++i)
		ok = get(f, &w->model.constraints[i].particle, sizeof w->model.constraints[i].particle, 1);
	if (!ok) return core_fail(err, err_size, "the world state is cut short");
	w->model.hinge_count = hinge_count;
	w->model.btens_count = btens_count;
	w->model.ms_spring_count = ms_spring_count;
	w->model.particle_count = particles;
	w->model.dirty = true;
	return true;
}

bool world_state_write(drape_world* w, FILE* f)
{
	const size_t n = (size_t)w->model.particle_count;
	const bool prepared = !w->model.dirty;
	int32_t counts[3] = {w->model.particle_count, w->model.constraint_count, prepared};
	bool ok = put(f, STATE_MAGIC, 1, 8) && put(f, counts, sizeof counts[0], 3) && (w->model.seam_count == 0 || topology_write(w, f));
	/* an animated character's hold, which a run may set when the garment has relaxed */
	for (int32_t s = 0; ok && s < w->model.solid_count; ++s)
		if (w->model.solids[s].character) ok = put(f, &w->model.solids[s].character->hold, sizeof(double), 1);
	ok = ok && put(f, &w->state.time, sizeof w->state.time, 1) &&
		  put(f, w->state.x, sizeof *w->state.x, n) && put(f, w->state.v, sizeof *w->state.v, n) && put(f, &w->state.control, sizeof w->state.control, 1) &&
		  put(f, &w->state.adi_phase, sizeof w->state.adi_phase, 1);
	for (int32_t i = 0; ok && i < w->model.constraint_count; ++i) {
		const constraint_data* c = &w->model.constraints[i];
		ok = put(f, &c->alive, sizeof c->alive, 1) && put(f, &c->active, sizeof c->active, 1) &&
		     put(f, &c->origin, sizeof c->origin, 1) && put(f, &c->origin_time, sizeof c->origin_time, 1) &&
		     put(f, &c->force, sizeof c->force, 1);
	}
	/* The rest exists once the first step has prepared the world. */
	if (ok && prepared)
		ok = put(f, w->state.dv_last, sizeof *w->state.dv_last, n) && put(f, &w->state.h_last, sizeof w->state.h_last, 1) &&
		     put(f, w->state.x_prev, sizeof *w->state.x_prev, n) && put(f, w->state.v_prev, sizeof *w->state.v_prev, n) &&
		     put(f, &w->state.h_prev, sizeof w->state.h_prev, 1) && put(f, w->state.contacts, sizeof *w->state.contacts, n) &&
		     put(f, &w->state.intersections, sizeof w->state.intersections, 1) &&
		     /* the step control's second start for the strain change (step/strain_change.c, strain_change_judged) */
		     put(f, &w->state.limit_moved, sizeof w->state.limit_moved, 1) &&
		     (!w->state.limit_moved || (put(f, w->state.limit_from, sizeof *w->state.limit_from, n) && put(f, w->state.limit_to, sizeof *w->state.limit_to, n)));
	return ok;
}

bool world_state_read(drape_world* w, FILE* f, char* err, size_t err_size)
{
	char magic[8];
	int32_t counts[3];
	if (!get(f, magic, 1, 8) || memcmp(magic, STATE_MAGIC, 8) != 0 || !get(f, counts, sizeof counts[0], 3))
		return core_fail(err, err_size, "not a world state of this drape version");
	if (w->model.seam_count > 0 && !topology_read(w, f, counts[0], err, err_size)) return false;
	for (int32_t s = 0; s < w->model.solid_count; ++s) {
		double hold;
		if (!w->model.solids[s].character) continue;
		if (!get(f, &hold, sizeof hold, 1)) return core_fail(err, err_size, "the world state is cut short");
		if (drape_solid_set_hold(w, (drape_solid_id){s}, hold) != DRAPE_OK) return core_fail(err, err_size, "%s", w->error);
	}
	if (counts[0] != w->model.particle_count || counts[1] != w->model.constraint_count)
		return core_fail(err, err_size, "the state holds %d particles and %d constraints, the scene %d and %d", counts[0],
				 counts[1], w->model.particle_count, w->model.constraint_count);
	/* As the first step would: the solver's buffers, the cloth/cloth detector and its rest
	 * neighbourhoods, built from the initial positions. */
	if (counts[2] && w->model.dirty && workspace_prepare(w) != DRAPE_OK) return core_fail(err, err_size, "%s", w->error);
	const size_t n = (size_t)w->model.particle_count;
	bool ok = get(f, &w->state.time, sizeof w->state.time, 1) && get(f, w->state.x, sizeof *w->state.x, n) && get(f, w->state.v, sizeof *w->state.v, n) &&
		  get(f, &w->state.control, sizeof w->state.control, 1) && get(f, &w->state.adi_phase, sizeof w->state.adi_phase, 1);
	for (int32_t i = 0; ok && i < w->model.constraint_count; ++i) {
		constraint_data* c = &w->model.constraints[i];
		ok = get(f, &c->alive, sizeof c->alive, 1) && get(f, &c->active, sizeof c->active, 1) &&
		     get(f, &c->origin, sizeof c->origin, 1) && get(f, &c->origin_time, sizeof c->origin_time, 1) &&
		     get(f, &c->force, sizeof c->force, 1);
	}
	if (ok && counts[2])
		ok = get(f, w->state.dv_last, sizeof *w->state.dv_last, n) && get(f, &w->state.h_last, sizeof w->state.h_last, 1) &&
		     get(f, w->state.x_prev, sizeof *w->state.x_prev, n) && get(f, w->state.v_prev, sizeof *w->state.v_prev, n) &&
		     get(f, &w->state.h_prev, sizeof w->state.h_prev, 1) && get(f, w->state.contacts, sizeof *w->state.contacts, n) &&
		     get(f, &w->state.intersections, sizeof w->state.intersections, 1) && get(f, &w->state.limit_moved, sizeof w->state.limit_moved, 1) &&
		     (!w->state.limit_moved || (get(f, w->state.limit_from, sizeof *w->state.limit_from, n) && get(f, w->state.limit_to, sizeof *w->state.limit_to, n)));
	if (!ok) return core_fail(err, err_size, "the world state is cut short");
	return true;
}
