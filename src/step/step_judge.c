/* The step's judge (step_judge.h): sec. 7's test of a step by the change of strain it makes, and
 * drape's guards around it (contacts, self-intersection, explicit parts, the strain limiter's
 * residual, bounded work, min_dt). docs/solver.md, "Adaptive time stepping"; docs/architecture.md. */
#include "step_judge.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

step_judge_policy step_judge_default_policy(const drape_world_def* def)
{
	const bool explicit_integrator =
		def->integrator == DRAPE_INTEGRATOR_FORWARD_EULER || def->integrator == DRAPE_INTEGRATOR_SYMPLECTIC_EULER;
	const bool variable = def->min_dt < def->max_dt;
	return (step_judge_policy){
		.max_dt = def->max_dt,
		.min_dt = def->min_dt,
		.adaptive = def->adaptive,
		.stretch_change_limit = def->stretch_change_limit,
		/* The adaptive limit on a step's strain change is enforced down to 1/16 of the largest
		 * step; below that only a change beyond the floor (the limit's old default) rejects the
		 * step. A change that halving the step does not shrink comes from a constraint (a fast
		 * solid snapping particles onto its surface, eq. 18's y), not from integration error.
		 * docs/solver.md, "Accurate by default". */
		.stretch_change_full_below = 16.0,
		.stretch_change_floor = 0.1,
		/* Below 1/256 of the largest step no strain change rejects it: eight halvings that did
		 * not shrink the change show it is a constraint's (cloth placed against a body at the
		 * start, a seam's side snapped out of a solid), which no smaller step removes; rejecting
		 * on would end the run at min_dt. */
		.stretch_change_any_below = 256.0,
		/* The strain guarantee from the limiter (drape_world_def.strain_from_limiter, off by
		 * default; docs/solver.md, "The strain guarantee from the limiter"). The limited proposal
		 * is judged (step_judge_raw_counts), and a triangle (or spring) whose every particle is
		 * held by a contact or constraint, which moves as the solids and pins drive it (at the
		 * shirt's armpit such triangles changed strain by 0.05-0.1 at every step down to
		 * max_dt / 3840, so halving cannot shrink the change and sec. 7's test only chased the
		 * body), is judged by its solve: the residual on the held particles (their free
		 * directions) must be at most ten times the PCG's own tolerance. The strain they end
		 * with is the limiter's to bound; it slides held cloth along the body for that
		 * (strain_limit.c). */
		.strain_from_limiter = def->strain_from_limiter,
		.held_residual = 10.0 * def->cg_tolerance,
		/* A proposal that changes some triangle's (or spring's) stretch by more than this in one
		 * step is rejected before the contact passes look at it: no contact constraint turns it
		 * into a good step, and a cloth flung that far makes every swept box overlap every other,
		 * so the cloth/cloth crossing test would compare nearly all pairs (seconds to minutes per
		 * pass on a stiff sheet whose CG could not converge; docs/reliability.md, "Bounded work"). */
		.wild_strain = 1.0,
		/* Even a shallow crossing into a solid is refused: position alteration would next snap
		 * the particle onto the solid's layer, flat against any cloth already lying there. Below
		 * 1/64 of the largest step it is accepted: the contact it got is kept, and the next
		 * step's position alteration lifts the particle out, rather than the run stopping. The
		 * same for a new self-intersection (sec. 6 keeps the cloth from passing through itself;
		 * below 1/64 it is accepted and reported in stats.self_intersections). */
		.contact_any_below = 64.0,
		/* Schemes with explicit parts diverge when the step is too large: their blow-up shows
		 * first as strain jumping between steps, so that test runs for them even without adaptive
		 * stepping, at divergence_strain (a blown-up state is never accepted). Not with fixed
		 * steps (min_dt == max_dt): nothing could be retried, and fast but legitimate motion (a
		 * corner pulled by a point force) trips the test; `drape stability` steps that way and
		 * judges divergence itself (docs/stability.md). */
		.diverging_scheme = def->integrator != DRAPE_INTEGRATOR_BACKWARD_EULER &&
				    def->integrator != DRAPE_INTEGRATOR_BDF2 && variable,
		/* An explicit scheme whose step of one size keeps failing the strain-change test (rather
		 * than diverging outright) is beyond its stable step there too: the control would swing
		 * between that size and half of it (docs/integrators.md). Not IMEX: there the strain of
		 * the implicit stretch also answers pins and contact, which can ask for small steps as
		 * often under backward Euler. */
		.explicit_scheme = explicit_integrator && variable,
		.divergence_strain = 0.25,
		.explicit_repeats = 3,
		/* In a closed world nothing but an explicit part beyond its stable step makes energy:
		 * backward Euler's steps lose it, a stable explicit step trades it back and forth by
		 * a share of order h omega. A proposal that gains more than the kinetic + elastic energy
		 * it started with, plus gravity's work in the step, has diverged, whatever its strain
		 * change shows: the mass-spring sheet of kind_bend_19 at bend 0.1 under imex_bend_shear
		 * went from 0.009 J to 70 J in 2 ms with every step's strain change under 25 %, then
		 * ground on blown apart (docs/reliability.md, "Energy out of nowhere"). The floor, the
		 * cloth's kinetic energy at 1 cm/s, is for a cloth that starts at rest. */
		.closed_energy_growth = 1.0,
		.closed_energy_speed = 0.01,
		/* An explicit part that makes energy at a step of max_dt / 16 or less stops the run
		 * (its cap, half that step, is below max_dt / 16): the sheet above diverges at
		 * max_dt / 16 and, capped at max_dt / 32, takes 8 CPU s for two frames, beyond the 5 s
		 * that a scene of the stall corpus's kinds may take (issue 31). An explicit scheme whose
		 * max_dt is up to 16 times its stable step still runs at the step halving finds (the
		 * symplectic Euler chain of mass_spring/explicit_blowup_rejected, 10 to 16 times). */
		.closed_energy_stop = 16.0,
		/* Steps that each pass the rule above can still make energy a share at a time: the
		 * mass-spring sheet of kind_bend_0p1 at a tenth of its max_dt (imex_bend_shear, steps of
		 * 13 and 26 us) went from 0.003 J to 3.3 J and 900 J in 2 ms, about 1.2 times a step,
		 * then swung between 0.2 and 1,700 J, blown apart, for 8 CPU s (docs/reliability.md,
		 * "Energy made a share at a time"). Measured from the call's start, such a gain stops
		 * the run once it exceeds the whole cloth's kinetic energy at 1 m/s: no stable step comes
		 * near that with nothing to supply it, while the few unstable steps that the rule above
		 * catches and caps leave far less (the same sheet ten times as wide at its own max_dt:
		 * 4.4e-4 J on 1 kg, the energy of 3 cm/s, after which it falls as gravity says). */
		.closed_runaway_speed = 1.0,
		.strain_limit = def->strain_limit,
		/* A proposal still this share of the strain limit beyond it after limiting is rejected ... */
		.limit_residual = 0.25,
		/* ... unless it was out by nearly as much at the step's start (within this share) ... */
		.limit_worse = 0.1,
		/* ... and only down to this fraction of the largest step: a projection held back by a
		 * force it cannot win against (a stiff spring pulling beyond the cloth's reach) fails at
		 * every step size. Where the strain guarantee comes from the limiter, two halvings: an
		 * overshoot a shorter step removes shrinks as h^2 or faster and is gone by max_dt / 4; on
		 * the garments' irregular meshes what is left is the projection's convergence (0.4-1.5 %
		 * beyond the bound on free cloth after its 8 Newton steps, at every step size down to
		 * max_dt / 128 at the shirt's armpit), which halving does not cure and the next steps'
		 * projections take back (docs/solver.md, "The strain guarantee from the limiter"). */
		.limit_any_below = def->strain_from_limiter ? 4.0 : 64.0,
		/* Where halving has not helped (residual_halves), a residual up to this share of the limit
		 * is accepted: the cloth ends at most 1.75 times the limit out, under the 2 % of
		 * docs/solver.md, "Accurate by default", at the default 1 % limit. */
		.limit_futile_cap = 0.75,
		/* A halving that left the residual's growth per second above this share of the halved
		 * step's did not help: an overshoot of the projection shrinks as h^2 or faster (a share of
		 * 1/2 or less), a creep the projection cannot catch up with grows with time, not with the
		 * step (a share near 1). */
		.limit_futile_share = 0.75,
		/* A call may make budget_slack attempts (rejections, halving and the small steps of a
		 * transient) plus budget_per_max_dt for each max_dt of its duration. */
		.budget_slack = 2000,
		.budget_per_max_dt = 50.0,
	};
}

int64_t step_judge_budget(const step_judge_policy* p, double duration)
{
	const double frames = duration / p->max_dt;
	return p->budget_slack + (int64_t)(p->budget_per_max_dt * (frames < 1e6 ? frames : 1e6));
}

static step_verdict verdict(step_verdict_kind kind, step_outcome reason)
{
	step_verdict v;
	v.kind = kind;
	v.reason = reason;
	v.message[0] = '\0';
	return v;
}

/* Bounded work (docs/solver.md, "Runs that cannot make progress"): a call may take many small
 * steps, but not without limit; a scene that needs more is reported, not ground through. */
step_verdict step_judge_attempt(int64_t attempts, int64_t budget, double time, double duration, double dt)
{
	step_verdict v = verdict(STEP_VERDICT_ACCEPT, STEP_ACCEPTED);
	if (attempts <= budget) return v;
	v.kind = STEP_VERDICT_FAIL;
	snprintf(v.message, sizeof v.message,
		 "simulation cannot make progress at t = %.6g s: %lld steps (accepted and rejected) did not "
		 "cover %.6g s, the step size is down to %.3g s; look for a setting that forces tiny steps "
		 "(stiffness, speeds of pins or solids, gravity)",
		 time, (long long)(attempts - 1), duration, dt);
	return v;
}

bool step_judge_measures_strain(const step_judge_policy* p) { return p->adaptive || p->diverging_scheme; }

bool step_judge_wild_possible(const step_judge_policy* p, double h)
{
	return p->adaptive && !(h <= p->max_dt / p->stretch_change_any_below);
}

bool step_judge_wild(const step_judge_policy* p, double change) { return change > p->wild_strain; }

/* The raw change counts where the limit on it is enforced; below, the projected one: a raw change
 * that halving does not shrink is the limiter's to answer. Where the strain guarantee comes from
 * the limiter, never: the integrator's proposal overstretching cloth that turns fast (its stretch
 * linearised about the old direction) is what the projection corrects, positions and velocities;
 * the limited proposal's change is the step's, and a proposal the projection cannot correct
 * shows in it (a snap beyond LIMIT_SNAP is left as it is) or in the residual rule. */
bool step_judge_raw_counts(const step_judge_policy* p, double h)
{
	return !p->strain_from_limiter && h > p->max_dt / p->stretch_change_full_below;
}

/* The strain limiter could not bring the proposal back within its bound: a shorter step asks it
 * for less (docs/solver.md, "Strain limiting"). Not where the cloth was already as far out at the
 * step's start: a shape that cannot meet the bound (a grown region that must buckle) is not the
 * step's doing. Nor once halving has shown that it does not help: on a fine sheet the projection
 * falls behind a growing load at every step size. The control remembers the last step halved for
 * its residual (its probe) to compare the retry's growth per second with; a projection that met
 * its bound again ends that state. */
static bool residual_halves(const step_judge_policy* p, step_control* c, const step_facts* f, const step_report* r)
{
	const double s = p->strain_limit, res = r->limit_residual, t = f->t, h = f->h;
	const bool converged = res <= p->limit_worse * s;
	double growth = 0.0;
	bool over = false, tolerable = true;
	if (res > p->limit_residual * s || step_control_limit_probing(c, t)) {
		/* the retry of a halved step needs the growth even where the rule asks for nothing */
		const double start = f->limit_start(f->limit_ctx);
		over = res > p->limit_residual * s && h > p->max_dt / p->limit_any_below && res > start + p->limit_worse * s;
		growth = res - start;
		tolerable = res <= p->limit_futile_cap * s;
	}
	const double rate = growth > 0.0 ? growth / h : 0.0;
	if (step_control_limit_probing(c, t) && h < c->probe_h) {
		if (rate >= p->limit_futile_share * c->probe_rate) c->limit_futile = true;
		c->probe_h = 0.0;
	}
	if (converged) c->limit_futile = false;
	if (!over || (c->limit_futile && tolerable)) return false;
	c->probe_t = t;
	c->probe_h = h;
	c->probe_rate = rate;
	return true;
}

/* Sec. 7's test of a strain change at h: the limit down to max_dt / full_below, the floor below
 * that, nothing below max_dt / any_below. */
static bool change_rejects(const step_judge_policy* p, double change, double h)
{
	return change > p->stretch_change_limit && (h > p->max_dt / p->stretch_change_full_below || change > p->stretch_change_floor) &&
	       h > p->max_dt / p->stretch_change_any_below;
}

bool step_judge_held_needs_residual(const step_judge_policy* p, double held_change, double h)
{
	return p->adaptive && change_rejects(p, held_change, h);
}

step_verdict step_judge_step(const step_judge_policy* p, step_control* c, const step_facts* f, const step_report* r)
{
	const double h = f->h;
	step_outcome o = STEP_ACCEPTED;
	if (f->cancelled) {
		step_verdict v = verdict(STEP_VERDICT_FAIL, STEP_CANCELLED);
		snprintf(v.message, sizeof v.message, "interrupted at t = %.6g s, in the middle of a step", f->t);
		return v;
	}
	if (f->crowded_start) o = STEP_CROWDED;
	else if (f->forced) o = STEP_FORCED;
	else if (f->breakdown) o = STEP_CG_BREAKDOWN;
	else if (!f->finite) o = STEP_NONFINITE;
	else if (f->wild) o = STEP_STRETCH_CHANGE;
	else if (f->crowded) o = STEP_CROWDED;
	else if (p->diverging_scheme && f->energy_measured &&
		 f->energy_gain > p->closed_energy_growth * (f->energy_start + f->energy_work) +
					  0.5 * f->mass * p->closed_energy_speed * p->closed_energy_speed)
		o = STEP_ENERGY_GROWTH;
	else if (p->diverging_scheme && f->energy_measured &&
		 f->runaway_gain > p->closed_energy_growth * (f->runaway_start + f->runaway_work) +
					   0.5 * f->mass * p->closed_runaway_speed * p->closed_runaway_speed)
		o = STEP_ENERGY_RUNAWAY;
	else if (f->crossings > 0 && h > p->max_dt / p->contact_any_below) o = STEP_PENETRATION;
	else if (r->intersections > f->intersections_before && h > p->max_dt / p->contact_any_below) o = STEP_SELF_INTERSECTION;
	else if (p->adaptive && change_rejects(p, r->stretch_change, h)) o = STEP_STRETCH_CHANGE;
	/* held elements: by the solve's residual, not by the change the body imposed */
	else if (f->held_apart && step_judge_held_needs_residual(p, r->held_change, h) && r->held_residual > p->held_residual)
		o = STEP_HELD_RESIDUAL;
	/* limit_excess: the strain limiter would otherwise hide the blow-up; held elements blow up too */
	else if (p->diverging_scheme && (fmax(r->stretch_change, r->held_change) > p->divergence_strain ||
					 r->limit_excess > p->divergence_strain))
		o = STEP_DIVERGING;
	else if (p->adaptive && residual_halves(p, c, f, r)) o = STEP_STRETCH_CHANGE;
	return verdict(o == STEP_ACCEPTED ? STEP_VERDICT_ACCEPT : STEP_VERDICT_HALVE, o);
}

const char* step_outcome_text(step_outcome o)
{
	switch (o) {
	case STEP_CG_BREAKDOWN:
		return "the linear system lost positive definiteness (CG breakdown)";
	case STEP_NONFINITE:
		return "the proposed state held NaN or Inf";
	case STEP_STRETCH_CHANGE:
		return "a triangle's stretch changed drastically";
	case STEP_PENETRATION:
		return "particles kept crossing into solids";
	case STEP_SELF_INTERSECTION:
		return "the cloth would pass through itself";
	case STEP_FORCED:
		return "forced rejection";
	case STEP_DIVERGING:
		return "the explicit part of the integrator diverged (strain jumped by more than 25 % in one step)";
	case STEP_CANCELLED:
		return "interrupted";
	case STEP_HELD_RESIDUAL:
		return "a contact-held triangle's stretch changed drastically and the solve did not converge on its particles";
	case STEP_ENERGY_GROWTH:
		return "the explicit part of the integrator diverged (the energy more than doubled in one step "
		       "with nothing but gravity to supply it)";
	case STEP_ENERGY_RUNAWAY:
		return "the explicit part of the integrator diverged (the energy more than doubled within the "
		       "call's steps with nothing but gravity to supply it)";
	case STEP_CROWDED:
		return "the cloth is crushed onto or flung through itself: its contact search found more than "
		       "100 overlapping triangle pairs per triangle (a stiffness the solver cannot follow at any "
		       "step, or a pin or solid crushing the cloth)";
	default:
		return "accepted";
	}
}

step_verdict step_judge_rejection(const step_judge_policy* p, step_control* c, const step_rejection* j, const step_report* r)
{
	step_verdict v = verdict(STEP_VERDICT_HALVE, j->reason);
	const double h = j->h;
	/* A failure at a step shortened to reach the call's end is judged at that size. */
	if (h < c->dt) c->dt = h;
	/* An explicit part that diverged at h diverges at h again (its limit is set by the stiffness,
	 * not the state): never grow back to it. Nor to a size at which a purely explicit scheme
	 * keeps failing the strain-change test. */
	const bool unstable = j->reason == STEP_DIVERGING || j->reason == STEP_ENERGY_GROWTH ||
			      (p->explicit_scheme && j->reason == STEP_STRETCH_CHANGE &&
			       step_control_repeats(c, h) >= p->explicit_repeats);
	if (unstable && 0.5 * h < c->max_dt) c->max_dt = 0.5 * h;
	/* That cap is for good: the budget's share per max_dt must cover it (the slack is for
	 * transients), and so must what is left of the budget (docs/reliability.md, "Bounded work").
	 * Otherwise stop now, instead of creeping through the rest of the budget. */
	/* An explicit part that made energy in a closed world is capped at half the step (above); a cap
	 * below 1/closed_energy_stop of max_dt stops the run now: the steps it needs cost more than the
	 * run is worth (docs/reliability.md, "Energy out of nowhere"). */
	/* (0.99: the step grid lands steps on the call's end, so a step of max_dt / 2^k may be a
	 * little shorter than that.) */
	if (j->reason == STEP_ENERGY_GROWTH && 0.5 * h * p->closed_energy_stop < 0.99 * p->max_dt) {
		v.kind = STEP_VERDICT_FAIL;
		snprintf(v.message, sizeof v.message,
			 "simulation cannot make progress at t = %.6g s: the explicit part of %s diverged at steps of "
			 "%.3g s, 1/%.0f of max_dt = %.3g s (the energy more than doubled in one step with nothing but "
			 "gravity to supply it), and drape stops an explicit part that needs steps below 1/%g of "
			 "max_dt; set solver.max_dt to at most %.3g s, lower the stiffness or damping, or use "
			 "backward_euler or bdf2",
			 j->time, j->integrator, h, p->max_dt / h, p->max_dt, p->closed_energy_stop, 0.5 * h);
		return v;
	}
	/* Energy made over many steps is in the state already: no shorter step takes it out. */
	if (j->reason == STEP_ENERGY_RUNAWAY) {
		v.kind = STEP_VERDICT_FAIL;
		snprintf(v.message, sizeof v.message,
			 "simulation diverged at t = %.6g s: the explicit part of %s made %.3g J out of nothing "
			 "since t = %.6g s (when the cloth's kinetic and elastic energy was %.3g J; gravity's work "
			 "aside), a share at a time at steps of %.3g to %.3g s (max_dt = %.3g s): more than the "
			 "whole cloth carries at %g m/s; set solver.max_dt to at most %.3g s, lower "
			 "the stiffness or damping, or use backward_euler or bdf2",
			 j->time, j->integrator, j->energy_gain, j->since, j->energy_start, j->h_short, j->h_long,
			 p->max_dt, p->closed_runaway_speed, 0.5 * j->h_short);
		return v;
	}
	if (unstable) {
		const double left = j->left, cap = c->max_dt;
		if (cap < p->max_dt / p->budget_per_max_dt || left / cap > (double)j->attempts_left) {
			v.kind = STEP_VERDICT_FAIL;
			snprintf(v.message, sizeof v.message,
				 "simulation cannot make progress at t = %.6g s: the explicit part of %s %s at "
				 "steps of %.3g s, 1/%.0f of max_dt = %.3g s, and drape allows %g steps per max_dt "
				 "(the %.6g s left need over %.0f); set solver.max_dt to at most %.3g s (the budget "
				 "grows with it), lower the stiffness or damping, or use backward_euler or bdf2",
				 j->time, j->integrator,
				 j->reason == STEP_STRETCH_CHANGE ? "kept failing the strain-change test" : "diverged", h,
				 p->max_dt / h, p->max_dt, p->budget_per_max_dt, left, left / cap, cap);
			return v;
		}
	}
	if (!step_control_reject(c)) {
		char where[96] = "";
		/* a divergence found by its energy is shown where the strain changed most */
		const bool strain = j->reason == STEP_STRETCH_CHANGE || j->reason == STEP_DIVERGING || j->reason == STEP_ENERGY_GROWTH;
		if (strain && r->worst_spring >= 0)
			snprintf(where, sizeof where, " (strain of spring %d (particles %d-%d) changed by %.3g)", r->worst_spring,
				 j->spring_v[0], j->spring_v[1], r->stretch_change);
		else if (strain)
			snprintf(where, sizeof where, " (|w| of triangle %d changed by %.3g)", r->worst_triangle, r->stretch_change);
		else if (j->reason == STEP_HELD_RESIDUAL)
			snprintf(where, sizeof where, " (|w| of %s %d changed by %.3g; relative residual %.3g)",
				 r->held_spring >= 0 ? "spring" : "triangle", r->held_spring >= 0 ? r->held_spring : r->held_triangle,
				 r->held_change, r->held_residual);
		v.kind = STEP_VERDICT_FAIL;
		snprintf(v.message, sizeof v.message,
			 "simulation cannot continue at t = %.6g s: the step size fell below min_dt = %g s; last rejection: %s%s",
			 j->time, p->min_dt, step_outcome_text(j->reason), where);
	}
	return v;
}
