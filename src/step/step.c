/* The stages of one call of drape_world_step (step.h): the adaptive stepping loop of sec. 7 around
 * backward Euler's step (sec. 3) with constraints and contacts (sec. 5, 6). docs/architecture.md. */
#include "step.h"

#include "bdf2.h"
#include "bend_tensor_assemble.h"
#include "constraints.h"
#include "strain_change.h"
#include "strain_limit.h"
#include "../collide/cloth_contact.h"
#include "../collide/cloth_layers.h"
#include "../collide/cloth_untangle.h"
#include "../collide/contact.h"
#include "../collide/solid.h"
#include "../seam.h"
#include "../solver/thread_policy.h"
#include "../world_energy.h"
#include "../world_error.h"

#include <math.h>
#include <string.h>
#include <time.h>

/* How often a step is solved: again when the crossing tests after a solve find particles carried
 * into solids that had no contact (their contacts are added) or cloth crossing cloth (repulsions
 * are added). Contacts are released and taken in within each solve (docs/solver.md). */
#define CONTACT_PASSES 4
#define FLOOR_CONTACT_PASSES 16

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

/* One clock read per stage boundary: the stage that ends is charged since the last boundary. */
static void stage_start(step_context* c) { c->stage_clock = now_ms(); }

static void stage_end(step_context* c, drape_stage stage)
{
	const double now = now_ms();
	c->w->state.stats.stage_ms[stage] += now - c->stage_clock;
	c->stage_clock = now;
}

/* Whether gravity is the world's only source of energy: no wind, no user spring, no solid, no
 * seam, and every pin fixed where its particle was (a pin moving, or snapping its particle to a
 * given place, does work on the cloth). Drag, damping and contact with a still cloth only take
 * energy away. Solids are left out even when still: a snap onto a surface moves a particle. */
static bool world_closed(const drape_world* w)
{
	const drape_world_def* d = &w->def;
	for (int k = 0; k < 3; ++k)
		if (d->air_velocity[k] != 0.0 || d->gust_amplitude[k] != 0.0) return false;
	if (w->model.solid_count > 0 || w->model.seam_count > 0) return false;
	for (int32_t k = 0; k < w->model.spring_count; ++k)
		if (w->model.springs[k].alive) return false;
	for (int32_t k = 0; k < w->model.constraint_count; ++k) {
		const constraint_data* q = &w->model.constraints[k];
		if (q->alive && (q->motion != DRAPE_MOTION_FIXED || q->use_position)) return false;
	}
	return true;
}

void step_context_init(step_context* c, drape_world* w, double duration)
{
	memset(c, 0, sizeof *c);
	c->w = w;
	c->policy = step_judge_default_policy(&w->def);
	c->duration = duration;
	c->t_end = w->state.time + duration;
	c->budget = step_judge_budget(&c->policy, duration);
	step_grid_begin(&c->grid, w->state.time, duration, w->def.max_dt);
	c->topology_changed = w->model.dirty;
	/* the positions may have been set between calls: nothing measured before is kept */
	w->work.strain_w0_of = NULL;
	w->work.bend_f0_x = w->work.bend_f0_v = NULL;
	c->closed = c->policy.diverging_scheme && world_closed(w);
	for (int32_t i = 0; c->closed && i < w->model.particle_count; ++i) c->mass += w->model.mass[i];
	stage_start(c);
}

void step_prepare(step_context* c)
{
	drape_world* w = c->w;
	/* Cloth through itself as the topology changed (a seam merge snapped a knot in): unfold it
	 * before going on (collide/cloth_untangle.c). Not after steps that could not avoid an
	 * intersection: a cloth that keeps crushing itself (a stiff pull at whole-frame steps) would
	 * be smoothed at every frame, and the jolts never let it come to rest. */
	if (c->topology_changed && w->state.intersections > 0) w->state.stats.self_intersections = cloth_untangle(w);
	if (w->def.threads == 0) {
		w->threads = thread_policy_free_cores(w->threads_max);
		if (w->work.pairs_ready) cloth_pairs_set_threads(&w->work.pairs, w->threads);
	}
	stage_end(c, DRAPE_STAGE_PREPARE);
}

/* The attempt's report and facts before anything is measured. */
static void attempt_init(step_context* c)
{
	drape_world* w = c->w;
	step_report* r = &c->report;
	memset(r, 0, sizeof *r);
	r->outcome = STEP_ACCEPTED;
	r->worst_triangle = -1;
	r->worst_spring = -1;
	r->held_triangle = -1;
	r->held_spring = -1;
	memset(&c->tally, 0, sizeof c->tally);
	memset(&c->facts, 0, sizeof c->facts);
	c->facts.t = w->state.time;
	c->facts.h = c->hs;
	c->facts.finite = true;
	c->facts.intersections_before = w->state.intersections;
	c->strain_measured = false;
	c->bend_formed = false;
	c->wild_measured = false;
	w->work.limit_pending_moved = false;
}

drape_status step_begin(step_context* c)
{
	drape_world* w = c->w;
	if (w->cancel && *w->cancel) {
		return world_fail_status(w, DRAPE_ERROR_INTERRUPTED, "interrupted at t = %.6g s", w->state.time);
	}
	const step_verdict v = step_judge_attempt(++c->attempts, c->budget, w->state.time, c->duration, w->state.control.dt);
	if (v.kind == STEP_VERDICT_FAIL) {
		step_control_init(&w->state.control, w->def.max_dt, w->def.min_dt);
		return world_fail_status(w, DRAPE_ERROR_DIVERGED, "%s", v.message);
	}
	/* On the grid of H / 2^k, landing exactly on t_end (step_grid.h). */
	c->h = step_grid_next(&c->grid, w->state.control.dt, &c->units, &c->full);
	/* BDF2: backward Euler's step of size hs from the extrapolated state (step/bdf2.c). */
	c->hs = bdf2_begin(w, c->h);
	c->t = w->state.time + (c->h - c->hs);
	attempt_init(c);
	stage_end(c, DRAPE_STAGE_COMMIT);
	return DRAPE_OK;
}

void step_pose_solids(step_context* c)
{
	drape_world* w = c->w;
	if (w->model.solid_count > 0) {
		solids_begin_step(w, c->t, c->hs);
		/* part of cloth/solid handling in Table 1's breakdown */
		c->report.cs_ms += now_ms() - c->stage_clock;
	}
	stage_end(c, DRAPE_STAGE_POSE);
}

bool step_detect_contacts(step_context* c)
{
	drape_world* w = c->w;
	step_report* r = &c->report;
	const double t = c->t, h = c->hs;
	const int32_t n = w->model.particle_count;
	double t0 = now_ms();
	constraints_prepare(w, t, h);
	/* the step's scheme (settings and ADI phase): once per attempt, for the sewing cap and the solve */
	integrator_scheme(w, &c->scheme);
	/* seam pairs far apart close at a bounded speed (docs/garments.md) */
	seams_cap_speed(w, c->scheme.pass[0].role[FAMILY_OTHER] == ROLE_IMPLICIT);
	double t1 = now_ms();
	/* cloth/cloth first: its pairs between layers tell the solid contacts which side each layer
	 * is held from (collide/contact.c, "Pinched layers") */
	const bool crowded_start = !cloth_contacts_prepare(w);
	double t2 = now_ms();
	contacts_prepare(w, h);
	bdf2_shift(w);
	double t3 = now_ms();
	r->eval_ms += t1 - t0;
	if (w->work.pairs_ready) r->cc_ms += t2 - t1;
	if (w->model.solid_count > 0) r->cs_ms += t3 - t2;
	if (crowded_start) {
		/* the cloth at the step's start is crushed onto itself (or an interrupt came) */
		c->facts.crowded_start = true;
		c->facts.cancelled = w->cancel && *w->cancel;
		stage_end(c, DRAPE_STAGE_CONTACTS);
		return false;
	}

	c->guess = NULL;
	if (w->def.warm_start && w->state.h_last > 0.0) {
		/* dv scales with the step (dv ~ h a); rescale in place so a rejected and retried step
		 * finds the guess already at its size. */
		double s = h / w->state.h_last;
		if (s != 1.0)
			for (int32_t i = 0; i < n; ++i) w->state.dv_last[i] = v3_scale(w->state.dv_last[i], s);
		w->state.h_last = h;
		c->guess = w->state.dv_last;
	}

	if (c->scheme.solve != SOLVE_PCG) c->guess = NULL;
	w->work.reuse_step = true; /* the passes below may share element terms (assemble_pass) */
	w->work.reuse_valid = false;
	w->work.multigrid_step_built = false; /* the first pass builds the multigrid hierarchy */
	c->pass = 1;
	c->passes_over = false;
	c->cloth_crossings = c->pinched = 0;
	c->raw_change = 0.0;
	c->raw_worst = c->raw_spring = -1;
	/* Held cloth is judged by the solve where the limiter bounds its strain (step_judge.h). */
	c->facts.held_apart = c->policy.strain_from_limiter && strain_limit_active(w);
	stage_end(c, DRAPE_STAGE_CONTACTS);
	return true;
}

void step_assemble(step_context* c)
{
	implicit_assemble_step(c->w, &c->scheme, c->t, c->hs, NULL, &c->tally);
	stage_end(c, DRAPE_STAGE_ASSEMBLE);
}

/* After the pass's solve: the proposal, Newton iterations and the strain limiter. False when the
 * pass ends the step's passes: an interrupt, a CG breakdown, a proposal that is not finite or is
 * wild (the judge's step_judge_wild). */
static bool propose(step_context* c)
{
	drape_world* w = c->w;
	step_report* r = &c->report;
	step_facts* f = &c->facts;
	const double t = c->t, h = c->hs;
	const int32_t n = w->model.particle_count;
	c->wild_measured = false;
	/* An interrupt is honoured mid-step, between the solve and the contact passes. */
	if (c->solve.cancelled || (w->cancel && *w->cancel)) {
		f->cancelled = true;
		return false;
	}
	/* A further pass solves nearly the same system (the same x, v and h; some contacts
	 * added or released): it starts from this pass's answer, in place (pcg_solve allows
	 * guess == dv), rather than from the previous step's again. */
	if (w->def.warm_start && c->scheme.solve == SOLVE_PCG) c->guess = w->work.dv;
	double tc = now_ms();
	f->breakdown = c->solve.breakdown;
	f->finite = implicit_propose(w, h, c->scheme.old_velocity_positions);
	if (!f->finite || f->breakdown) return false;
	if (w->def.newton_iterations > 1 && !(f->finite = implicit_newton_refine(w, &c->scheme, t, h, &c->tally))) return false;
	if (step_judge_wild_possible(&c->policy, h)) {
		int32_t worst, spring;
		double change = strain_change_of_proposal(w, w->state.x, &worst, &spring);
		if (step_judge_wild(&c->policy, change)) {
			r->stretch_change = change;
			r->worst_triangle = worst;
			r->worst_spring = spring;
			f->wild = true;
			return false;
		}
		c->wild_measured = true;
		c->wild_change = change;
		c->wild_worst = worst;
		c->wild_spring = spring;
	}
	if (strain_limit_active(w)) {
		c->wild_measured = false; /* the projection below moves x1 */
		/* The step control judges the integrator's own proposal (sec. 7): the projection
		 * below would hide a step too large for the motion, and backward Euler damps
		 * stiffened stretch at such steps (docs/solver.md, "Strain limiting").
		 * (Not where the strain guarantee comes from the limiter: step_judge_raw_counts.) */
		if (step_judge_measures_strain(&c->policy) && !c->policy.strain_from_limiter)
			c->raw_change = strain_change_judged(w, &c->raw_worst, &c->raw_spring);
		memcpy(w->work.limit_pending, w->work.x1, (size_t)n * sizeof *w->work.x1);
		strain_limit_report lr = strain_limit_apply(w, h);
		w->work.limit_pending_moved = lr.newton > 0;
		r->limit_excess = fmax(r->limit_excess, lr.excess);
		r->limit_residual = lr.residual;
		r->limit_newton += lr.newton;
	}
	r->eval_ms += now_ms() - tc;
	return true;
}

void step_solve(step_context* c)
{
	c->solve = implicit_solve_step(c->w, &c->scheme, c->t, c->hs, c->guess, &c->tally);
	c->passes_over = !propose(c);
	stage_end(c, DRAPE_STAGE_SOLVE);
}

/* Whether the contact passes are over once nothing is left to catch or this holds. After
 * CONTACT_PASSES, a step at the judge's floor (max_dt / contact_any_below, step_judge.c), which
 * the judge accepts with whatever the passes leave, goes on up to FLOOR_CONTACT_PASSES while cloth
 * still crosses cloth and the proposal would end with more intersecting pairs than the step began
 * with: no smaller step comes to undo them. The dancer's sleeve folded in his closing elbow
 * (docs/garments.md) took 5-16 passes a step there to keep its fold's two sheets apart, and was
 * accepted through itself with 4. Only then: the walking outfit's hip, where the arm pinches two
 * layers, ended its floor steps with crossings caught but no pair intersecting after 4 passes, and
 * passing on there (pinching more contacts each time) left the layers through each other. The
 * exact count is what the judge takes next anyway; it costs a few steps of a garment run. */
static bool passes_over(step_context* c)
{
	if (c->pass < CONTACT_PASSES) return false;
	if (c->pass >= FLOOR_CONTACT_PASSES || c->cloth_crossings <= 0) return true;
	if (c->hs > c->policy.max_dt / c->policy.contact_any_below * (1.0 + 1e-9) || !c->w->work.pairs_ready) return true;
	double t0 = now_ms();
	int32_t now = cloth_contacts_intersections(c->w, c->w->work.x1);
	c->report.cc_ms += now_ms() - t0;
	return now <= c->facts.intersections_before; /* < 0: over its budget, interrupted; the judge sees it */
}

bool step_contacts_changed(step_context* c)
{
	if (c->passes_over) return false;
	drape_world* w = c->w;
	step_report* r = &c->report;
	step_facts* f = &c->facts;
	const double t = c->t, h = c->hs;
	bool again = false;
	double td = now_ms();
	c->cloth_crossings = cloth_contacts_catch_crossings(w, h, &c->pinched);
	double te = now_ms();
	r->cc_ms += te - td;
	if (c->cloth_crossings < 0) {
		f->cancelled = w->cancel && *w->cancel;
		f->crowded = !f->cancelled;
	} else if (w->model.solid_count == 0) {
		again = !(c->cloth_crossings == 0 || passes_over(c));
	} else if (w->def.contact_bounds) {
		/* The solve released and took in contacts itself (their bounds, pcg_solve_bounded); a
		 * second pass only when the crossing tests find what the linearised bounds missed:
		 * particles whose path crosses a solid, or cloth crossing cloth. */
		int32_t released = contacts_settle_bounds(w);
		const int32_t sunk = contacts_catch_sunk(w, h);
		f->crossings = sunk + contacts_catch_crossings(w, h);
		if (c->pinched > 0 || sunk > 0) {
			constraints_prepare(w, t, h);
			contacts_constrain(w, h);
			bdf2_shift(w);
			if (c->pinched > 0) cloth_contacts_alter_crossings(w, h);
		}
		r->cs_ms += now_ms() - te;
		r->released += released;
		again = !((f->crossings == 0 && c->cloth_crossings == 0) || passes_over(c));
	} else {
		/* The contact set changed (sec. 5.4 release, or particles that would cross a solid):
		 * solve the step again with the new constraints. */
		int32_t released = contacts_release_pulling(w, h);
		const int32_t sunk = contacts_catch_sunk(w, h);
		f->crossings = sunk + contacts_catch_crossings(w, h);
		if (released > 0 || c->pinched > 0 || sunk > 0) {
			constraints_prepare(w, t, h);
			contacts_constrain(w, h);
			bdf2_shift(w);
			if (c->pinched > 0) cloth_contacts_alter_crossings(w, h);
		}
		r->cs_ms += now_ms() - te;
		r->released += released;
		again = !((f->crossings == 0 && released == 0 && c->cloth_crossings == 0) || passes_over(c));
		if (again && released > 0) r->release_solves++;
	}
	if (again) c->pass++;
	stage_end(c, DRAPE_STAGE_CONTACTS);
	return again;
}

/* The strain beyond the limit at the step's start, for the judge's residual rule. */
static double limit_at_start(const void* world)
{
	const drape_world* w = world;
	return strain_limit_violation(w, w->state.x);
}

step_verdict step_judge(step_context* c)
{
	drape_world* w = c->w;
	step_report* r = &c->report;
	step_facts* f = &c->facts;
	const double h = c->hs;
	w->work.reuse_step = false;
	w->work.reuse_valid = false;
	/* The solves' timings and iterations join the report. */
	r->eval_ms += c->tally.eval_ms;
	r->cg_ms += c->tally.cg_ms;
	r->cg_iterations = c->tally.cg_iterations;
	r->solves = c->tally.solves;
	r->cg_converged = c->tally.cg_converged;
	/* The continuous test guarantees that motion with no crossing keeps an intersection-free
	 * cloth intersection-free; the exact count is needed only when crossings remained (or the
	 * cloth was already intersecting, to see whether the step made it worse). */
	r->intersections = w->state.intersections;
	if (!f->cancelled && !f->crowded_start && f->finite && w->work.pairs_ready && (c->cloth_crossings > 0 || w->state.intersections > 0)) {
		double tf = now_ms();
		r->intersections = cloth_contacts_intersections(w, w->work.x1);
		r->cc_ms += now_ms() - tf;
		if (r->intersections < 0) {
			r->intersections = w->state.intersections;
			f->cancelled = w->cancel && *w->cancel;
			f->crowded = !f->cancelled;
		}
	}
	if (!f->cancelled && !f->crowded_start && step_judge_measures_strain(&c->policy) && f->finite && !f->wild && !f->crowded) {
		strain_held held = {0.0, -1, -1};
		if (c->wild_measured) {
			/* the last pass's x1, measured from the same start by the wild test (and its w kept
			 * in tri_w1 by it); never with held cloth apart, whose limiter moves x1 after it */
			r->stretch_change = c->wild_change;
			r->worst_triangle = c->wild_worst;
			r->worst_spring = c->wild_spring;
		} else {
			r->stretch_change =
				strain_change_free(w, w->state.x, &r->worst_triangle, &r->worst_spring, f->held_apart ? &held : NULL);
		}
		c->strain_measured = true;
		if (c->raw_change > r->stretch_change && step_judge_raw_counts(&c->policy, h)) {
			r->stretch_change = c->raw_change;
			r->worst_triangle = c->raw_worst;
			r->worst_spring = c->raw_spring;
		}
		if (f->held_apart) {
			r->held_change = held.change;
			r->held_triangle = held.triangle;
			r->held_spring = held.spring;
			/* the solve's residual on the held particles judges them, where their change would
			 * not pass (step_judge_step) */
			if (step_judge_held_needs_residual(&c->policy, held.change, h)) r->held_residual = strain_change_held_residual(w);
		}
	}
	/* An explicit part beyond its stable step makes energy that nothing in a closed world supplies
	 * (the judge's closed_energy_growth). */
	if (c->closed && !f->cancelled && !f->crowded_start && f->finite && !f->wild && !f->crowded) {
		/* The start's energy is the last accepted proposal's, where the state still is (BDF2's
		 * extrapolated v is another array): measured once a step, not twice. */
		const bool known = c->energy_ready && w->state.x == c->energy_x && w->state.v == c->energy_v;
		const double start = known ? c->energy_start : world_kinetic_energy_at(w, w->state.v) + world_elastic_energy_at(w, w->state.x);
		/* The triangles' w at x1 are the strain measure's, just formed (tri_w1). An explicit tensor
		 * bending's energy comes with its force at (x1, v1), which the next step reads if this
		 * proposal is accepted (one pass over the rows per position, not two). */
		const assembly_plan* p = &c->scheme.pass[0];
		double bend = 0.0;
		c->bend_formed = p->role[FAMILY_BEND] == ROLE_EXPLICIT && p->rhs && w->model.btens_count > 0 && w->work.bq_k &&
				 !w->model.dirty && !w->work.fused_disabled;
		if (c->bend_formed) bend = bend_tensor_energy_force(w, w->work.x1, w->work.v1, p->scale[FAMILY_BEND]);
		const double end = world_kinetic_energy_at(w, w->work.v1) +
				   world_elastic_energy_known(w, w->work.x1, c->strain_measured ? w->work.tri_w1 : NULL,
							      c->bend_formed ? &bend : NULL);
		const double gravity_start = known ? c->energy_gravity : world_gravity_energy_at(w, w->state.x);
		const double gravity_end = world_gravity_energy_at(w, w->work.x1);
		c->energy_end = end;
		c->energy_end_gravity = gravity_end;
		if (!c->call_energy_ready) {
			/* the first measured attempt starts where the call did: no step was accepted before */
			c->call_energy_ready = true;
			c->call_energy = start;
			c->call_gravity = gravity_start;
			c->call_since = w->state.time;
		}
		f->runaway_gain = end + gravity_end - (c->call_energy + c->call_gravity);
		f->runaway_start = c->call_energy;
		f->runaway_work = fabs(gravity_end - c->call_gravity);
		f->energy_measured = true;
		f->energy_start = start;
		const double fall = gravity_end - gravity_start;
		f->energy_gain = end + fall - start;
		f->energy_work = fabs(fall);
		f->mass = c->mass;
	}
	/* the test hook: fail_next_steps proposals are rejected whatever they are */
	if (!f->cancelled && !f->crowded_start && w->fail_next_steps > 0) {
		w->fail_next_steps--;
		f->forced = true;
	}
	f->limit_start = limit_at_start;
	f->limit_ctx = w;
	const step_verdict v = step_judge_step(&c->policy, &w->state.control, f, r);
	r->outcome = v.reason;
	stage_end(c, DRAPE_STAGE_JUDGE);
	return v;
}

/* Table 1's timings and the solve counts of an attempt, accepted or rejected. */
static void add_attempt_stats(drape_world* w, const step_report* r)
{
	w->state.stats.eval_ms += r->eval_ms;
	w->state.stats.cg_ms += r->cg_ms;
	w->state.stats.cs_ms += r->cs_ms;
	w->state.stats.cc_ms += r->cc_ms;
	w->state.stats.cg_iterations += r->cg_iterations;
	w->state.stats.solves += r->solves;
	w->state.stats.release_solves += r->release_solves;
	w->state.stats.contacts_released += r->released;
}

drape_status step_commit(step_context* c)
{
	drape_world* w = c->w;
	const step_report* r = &c->report;
	const double h = c->h, hs = c->hs;
	add_attempt_stats(w, r);
	bdf2_accept(w, h);
	vec3* t;
	t = w->state.x, w->state.x = w->work.x1, w->work.x1 = t;
	t = w->state.v, w->state.v = w->work.v1, w->work.v1 = t;
	t = w->work.dv, w->work.dv = w->state.dv_last, w->state.dv_last = t;
	strain_change_accept_limit(w);
	strain_change_keep(w, c->strain_measured);
	bend_tensor_keep(w, c->bend_formed);
	c->energy_ready = c->facts.energy_measured;
	c->energy_x = w->state.x;
	c->energy_v = w->state.v;
	c->energy_start = c->energy_end;
	c->energy_gravity = c->energy_end_gravity;
	w->state.h_last = hs; /* the size dv belongs to (BDF2's is shorter) */
	w->state.adi_phase ^= 1; /* ADI: the other stretch family is implicit next */
	w->state.time = step_grid_advance(&c->grid, c->units);
	constraints_store_forces(w, hs);
	w->state.stats.contacts_released += contacts_commit(w, hs);
	cloth_contacts_commit_pinches(w);
	w->state.intersections = r->intersections;
	/* The step that put the layers back in order (its pulls found cloths of two layers through
	 * each other, and none is left at its end) untangles what the pulls dragged through its own
	 * cloth on the way, as after a seam merge (collide/cloth_untangle.c; docs/collide.md,
	 * "Layers"): no proximity pair can undo such a knot, and no merge may come to do it. Only
	 * with the contact bounds, whose trajectories left such knots (docs/solver.md). */
	if (w->def.contact_bounds && w->model.layers.pull_count > 0 && w->state.intersections > 0 && cloth_layers_between(w) == 0) cloth_untangle(w);
	w->state.stats.self_intersections = w->state.intersections;
	w->state.stats.seam_gap = seams_max_gap(w);
	w->state.stats.cloth_contacts = w->state.repulsion_count;
	w->state.stats.solid_contacts = 0;
	for (int32_t i = 0; w->model.solid_count > 0 && i < w->model.particle_count; ++i) w->state.stats.solid_contacts += w->state.contacts[i].solid >= 0;
	w->state.stats.steps++;
	if (w->state.stats.min_dt == 0.0 || h < w->state.stats.min_dt) w->state.stats.min_dt = h;
	if (h > w->state.stats.max_dt) w->state.stats.max_dt = h;
	if (c->full) step_control_accept(&w->state.control);
	if (c->h_short == 0.0 || h < c->h_short) c->h_short = h;
	if (h > c->h_long) c->h_long = h;
	stage_end(c, DRAPE_STAGE_COMMIT);
	return DRAPE_OK;
}

drape_status step_retry(step_context* c, const step_verdict* v)
{
	drape_world* w = c->w;
	const step_report* r = &c->report;
	add_attempt_stats(w, r);
	bdf2_reject(w);
	drape_status s = DRAPE_OK;
	if (v->reason == STEP_CANCELLED) {
		s = world_fail_status(w, DRAPE_ERROR_INTERRUPTED, "%s", v->message);
	} else {
		w->state.stats.rejected++;
		if (r->outcome == STEP_STRETCH_CHANGE || r->outcome == STEP_DIVERGING || r->outcome == STEP_ENERGY_GROWTH ||
		    r->outcome == STEP_ENERGY_RUNAWAY || r->outcome == STEP_HELD_RESIDUAL)
			w->state.stats.rejected_strain++;
		else if (r->outcome == STEP_PENETRATION) w->state.stats.rejected_penetration++;
		else if (r->outcome == STEP_SELF_INTERSECTION) w->state.stats.rejected_intersection++;
		else w->state.stats.rejected_other++;
		const step_rejection j = {
			.reason = r->outcome,
			.h = c->h,
			.time = w->state.time,
			.left = c->t_end - w->state.time,
			.attempts_left = c->budget - c->attempts,
			.integrator = drape_integrator_name(w->def.integrator),
			.spring_v = {r->worst_spring >= 0 ? w->model.ms_springs[r->worst_spring].v[0] : -1,
				     r->worst_spring >= 0 ? w->model.ms_springs[r->worst_spring].v[1] : -1},
			.since = c->call_since,
			.energy_start = c->call_energy,
			.energy_gain = c->facts.runaway_gain,
			.h_short = c->h_short > 0.0 && c->h_short < c->h ? c->h_short : c->h,
			.h_long = c->h_long > c->h ? c->h_long : c->h,
		};
		const step_verdict u = step_judge_rejection(&c->policy, &w->state.control, &j, r);
		if (u.kind == STEP_VERDICT_FAIL) {
			step_control_init(&w->state.control, w->def.max_dt, w->def.min_dt);
			s = world_fail_status(w, DRAPE_ERROR_DIVERGED, "%s", u.message);
		}
	}
	stage_end(c, DRAPE_STAGE_COMMIT);
	return s;
}

/* Cloth particles inside a solid by more than its thickness (docs/characters.md): once per call,
 * at the solids' placement at the end of the last step. */
static int32_t count_penetrating(drape_world* w)
{
	int32_t count = 0;
	for (int32_t i = 0; i < w->model.particle_count; ++i)
		for (int32_t k = 0; k < w->model.solid_count; ++k)
			if (solid_inside_end(w, k, w->state.x[i], w->model.solids[k].thickness)) {
				++count;
				break;
			}
	return count;
}

void step_finish(step_context* c)
{
	c->w->state.stats.penetrating = count_penetrating(c->w);
	stage_end(c, DRAPE_STAGE_COMMIT);
}
