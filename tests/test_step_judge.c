/* The step's judge (src/step/step_judge.c): each acceptance rule of sec. 7 and drape's guards, on
 * made-up facts, with the default policy of the default world def. */
#include "test.h"

#include "step/step_judge.h"

#include <math.h>
#include <string.h>

static const double MAX_DT = 1.0 / 30.0;

static step_judge_policy policy(void)
{
	drape_world_def d = drape_default_world_def();
	return step_judge_default_policy(&d);
}

static double start_violation = 0.0;
static int start_measured = 0;
static double limit_start(const void* ctx)
{
	(void)ctx;
	++start_measured;
	return start_violation;
}

/* A good proposal at a full step. */
static void facts(step_facts* f, step_report* r, double h)
{
	memset(f, 0, sizeof *f);
	memset(r, 0, sizeof *r);
	f->t = 1.0;
	f->h = h;
	f->finite = true;
	f->limit_start = limit_start;
	r->worst_triangle = r->worst_spring = -1;
	r->held_triangle = r->held_spring = -1;
	start_violation = 0.0;
	start_measured = 0;
}

static step_outcome judged(const step_judge_policy* p, const step_facts* f, const step_report* r)
{
	step_control c;
	step_control_init(&c, p->max_dt, p->min_dt);
	step_verdict v = step_judge_step(p, &c, f, r);
	CHECK((v.kind == STEP_VERDICT_ACCEPT) == (v.reason == STEP_ACCEPTED));
	return v.reason;
}

static void test_judge_accepts_a_good_step(void)
{
	step_judge_policy p = policy();
	step_facts f;
	step_report r;
	facts(&f, &r, MAX_DT);
	r.stretch_change = 0.5 * p.stretch_change_limit;
	CHECK(judged(&p, &f, &r) == STEP_ACCEPTED);
	CHECK(start_measured == 0); /* the residual rule measured nothing it did not need */
}

static void test_judge_rejects_bad_proposals(void)
{
	step_judge_policy p = policy();
	step_facts f;
	step_report r;
	facts(&f, &r, MAX_DT);
	f.finite = false;
	CHECK(judged(&p, &f, &r) == STEP_NONFINITE);
	facts(&f, &r, MAX_DT);
	f.breakdown = true;
	CHECK(judged(&p, &f, &r) == STEP_CG_BREAKDOWN);
	facts(&f, &r, MAX_DT);
	f.crowded = true;
	CHECK(judged(&p, &f, &r) == STEP_CROWDED);
	facts(&f, &r, MAX_DT);
	f.crowded_start = true;
	CHECK(judged(&p, &f, &r) == STEP_CROWDED);
	facts(&f, &r, MAX_DT);
	f.forced = true;
	CHECK(judged(&p, &f, &r) == STEP_FORCED);
	/* even a NaN proposal waits for an interrupt: the run stops, with the message users see */
	facts(&f, &r, MAX_DT);
	f.finite = false;
	f.cancelled = true;
	step_control c;
	step_control_init(&c, MAX_DT, 1e-6);
	step_verdict v = step_judge_step(&p, &c, &f, &r);
	CHECK(v.kind == STEP_VERDICT_FAIL && v.reason == STEP_CANCELLED);
	CHECK(strcmp(v.message, "interrupted at t = 1 s, in the middle of a step") == 0);
}

/* Sec. 7: a drastic change of stretch halves the step, down to max_dt / 16 at the configured limit,
 * to max_dt / 256 only beyond the floor, and never below that. */
static void test_judge_stretch_change_cutoffs(void)
{
	step_judge_policy p = policy();
	step_facts f;
	step_report r;
	const double drastic = 2.0 * p.stretch_change_limit; /* above the limit, under the floor */
	CHECK(drastic < p.stretch_change_floor);
	facts(&f, &r, MAX_DT);
	r.stretch_change = drastic;
	CHECK(judged(&p, &f, &r) == STEP_STRETCH_CHANGE);
	facts(&f, &r, MAX_DT / 8.0);
	r.stretch_change = drastic;
	CHECK(judged(&p, &f, &r) == STEP_STRETCH_CHANGE);
	facts(&f, &r, MAX_DT / 16.0);
	r.stretch_change = drastic;
	CHECK(judged(&p, &f, &r) == STEP_ACCEPTED);
	facts(&f, &r, MAX_DT / 128.0);
	r.stretch_change = 2.0 * p.stretch_change_floor;
	CHECK(judged(&p, &f, &r) == STEP_STRETCH_CHANGE);
	facts(&f, &r, MAX_DT / 256.0);
	r.stretch_change = 2.0 * p.stretch_change_floor;
	CHECK(judged(&p, &f, &r) == STEP_ACCEPTED);
	/* without adaptive stepping the test is off for backward Euler */
	p.adaptive = false;
	facts(&f, &r, MAX_DT);
	r.stretch_change = 0.9;
	CHECK(judged(&p, &f, &r) == STEP_ACCEPTED);
	/* a wild change is caught right after the solve, down to max_dt / 256 */
	p = policy();
	CHECK(step_judge_wild_possible(&p, MAX_DT / 128.0) && !step_judge_wild_possible(&p, MAX_DT / 256.0));
	CHECK(step_judge_wild(&p, 1.5) && !step_judge_wild(&p, 0.5));
	facts(&f, &r, MAX_DT);
	f.wild = true;
	CHECK(judged(&p, &f, &r) == STEP_STRETCH_CHANGE);
	CHECK(step_judge_raw_counts(&p, MAX_DT / 8.0) && !step_judge_raw_counts(&p, MAX_DT / 16.0));
}

/* Where the strain guarantee comes from the limiter (strain_from_limiter, with the limiter on), a
 * triangle whose every particle is held by a contact or constraint is moved by the body: its
 * strain change, however large, does not reject the step (halving cannot shrink what the body
 * imposes; the strain limiter bounds the strain). The solve's residual on the held particles
 * does: above held_residual the step is rejected, with the held triangle named in the message
 * where no step is left. The free cloth keeps sec. 7's test, on the limited proposal. */
static void test_judge_held_triangle_by_residual(void)
{
	drape_world_def d = drape_default_world_def();
	CHECK(!d.strain_from_limiter); /* off by default */
	d.strain_from_limiter = true;
	step_judge_policy p = step_judge_default_policy(&d);
	CHECK(p.strain_from_limiter && p.held_residual == 10.0 * d.cg_tolerance);
	/* the limited proposal is judged, not the integrator's own, at every step size */
	const step_judge_policy plain = policy();
	CHECK(step_judge_raw_counts(&plain, MAX_DT) && !step_judge_raw_counts(&p, MAX_DT));
	/* the limiter's residual halves the step twice at most (max_dt / 4), not down to max_dt / 64 */
	CHECK(p.limit_any_below == 4.0 && plain.limit_any_below == 64.0);
	step_facts f;
	step_report r;
	facts(&f, &r, MAX_DT);
	f.held_apart = true;
	r.stretch_change = 0.5 * p.stretch_change_limit; /* the free cloth is fine */
	r.held_change = 0.1;                              /* the shirt's armpit: 0.05-0.1 */
	r.held_triangle = 12;
	CHECK(step_judge_held_needs_residual(&p, r.held_change, MAX_DT));
	r.held_residual = 0.5 * p.held_residual;
	CHECK(judged(&p, &f, &r) == STEP_ACCEPTED);
	/* at every step size the body asks */
	for (double k = 1.0; k <= 4096.0; k *= 2.0) {
		facts(&f, &r, MAX_DT / k);
		f.held_apart = true;
		r.held_change = 0.1;
		r.held_triangle = 12;
		r.held_residual = 0.5 * p.held_residual;
		CHECK(judged(&p, &f, &r) == STEP_ACCEPTED);
	}
	/* an unconverged solve on the held particles rejects */
	facts(&f, &r, MAX_DT);
	f.held_apart = true;
	r.held_change = 0.1;
	r.held_triangle = 12;
	r.held_residual = 2.0 * p.held_residual;
	CHECK(judged(&p, &f, &r) == STEP_HELD_RESIDUAL);
	/* ... but not where the held triangles' change passes sec. 7's test anyway */
	r.held_change = 0.5 * p.stretch_change_limit;
	CHECK(!step_judge_held_needs_residual(&p, r.held_change, MAX_DT));
	CHECK(judged(&p, &f, &r) == STEP_ACCEPTED);
	/* the free cloth's change still rejects, whatever the held particles' residual */
	facts(&f, &r, MAX_DT);
	f.held_apart = true;
	r.stretch_change = 2.0 * p.stretch_change_limit;
	r.held_change = 0.1;
	CHECK(judged(&p, &f, &r) == STEP_STRETCH_CHANGE);
	/* a held triangle's blow-up is the divergence test's too */
	d.integrator = DRAPE_INTEGRATOR_FORWARD_EULER;
	d.self_collision = false;
	d.adaptive = false;
	step_judge_policy e = step_judge_default_policy(&d);
	facts(&f, &r, MAX_DT);
	f.held_apart = true;
	r.held_change = 2.0 * e.divergence_strain;
	CHECK(judged(&e, &f, &r) == STEP_DIVERGING);
	/* the message at min_dt names the held triangle and the residual */
	step_control c;
	step_control_init(&c, 0.004, 1e-3);
	memset(&r, 0, sizeof r);
	r.worst_triangle = r.worst_spring = r.held_spring = -1;
	r.held_triangle = 12;
	r.held_change = 0.1;
	r.held_residual = 0.25;
	step_rejection j = {.reason = STEP_HELD_RESIDUAL, .h = 0.0015, .time = 2.0, .left = 0.03, .attempts_left = 1000,
			    .integrator = "backward_euler"};
	p.min_dt = 1e-3;
	c.dt = 0.0015;
	step_verdict v = step_judge_rejection(&p, &c, &j, &r);
	CHECK(v.kind == STEP_VERDICT_FAIL && strstr(v.message, "(|w| of triangle 12 changed by 0.1; relative residual 0.25)") != NULL);
}

/* Crossings into solids and new self-intersections reject down to max_dt / 64. */
static void test_judge_contact_cutoffs(void)
{
	step_judge_policy p = policy();
	step_facts f;
	step_report r;
	facts(&f, &r, MAX_DT / 32.0);
	f.crossings = 1;
	CHECK(judged(&p, &f, &r) == STEP_PENETRATION);
	facts(&f, &r, MAX_DT / 64.0);
	f.crossings = 1;
	CHECK(judged(&p, &f, &r) == STEP_ACCEPTED);
	facts(&f, &r, MAX_DT / 32.0);
	f.intersections_before = 2;
	r.intersections = 3;
	CHECK(judged(&p, &f, &r) == STEP_SELF_INTERSECTION);
	facts(&f, &r, MAX_DT / 32.0);
	f.intersections_before = 3;
	r.intersections = 3; /* no worse than at the start */
	CHECK(judged(&p, &f, &r) == STEP_ACCEPTED);
	facts(&f, &r, MAX_DT / 64.0);
	r.intersections = 1;
	CHECK(judged(&p, &f, &r) == STEP_ACCEPTED);
}

/* Integrators with explicit parts: a strain jump of 25 % (or as much beyond the strain limit
 * before limiting) is divergence, also without adaptive stepping. */
static void test_judge_divergence(void)
{
	drape_world_def d = drape_default_world_def();
	d.integrator = DRAPE_INTEGRATOR_SYMPLECTIC_EULER;
	d.adaptive = false;
	step_judge_policy p = step_judge_default_policy(&d);
	CHECK(p.diverging_scheme && p.explicit_scheme && step_judge_measures_strain(&p));
	step_facts f;
	step_report r;
	facts(&f, &r, MAX_DT);
	r.stretch_change = 0.2;
	CHECK(judged(&p, &f, &r) == STEP_ACCEPTED);
	r.stretch_change = 0.3;
	CHECK(judged(&p, &f, &r) == STEP_DIVERGING);
	r.stretch_change = 0.0;
	r.limit_excess = 0.3;
	CHECK(judged(&p, &f, &r) == STEP_DIVERGING);
	/* fixed steps: nothing could be retried */
	d.min_dt = d.max_dt;
	p = step_judge_default_policy(&d);
	CHECK(!p.diverging_scheme && !p.explicit_scheme);
	d = drape_default_world_def();
	p = step_judge_default_policy(&d);
	CHECK(!p.diverging_scheme && !p.explicit_scheme);
}

/* A closed world under a scheme with explicit parts (docs/reliability.md, "Energy out of nowhere"):
 * a proposal that gains more energy than it started with plus gravity's work (and a floor of the
 * cloth at 1 cm/s) diverged; the cap is half its step, and a cap below max_dt / 16 stops the run
 * with the max_dt that would fit. Not measured, or not a scheme with explicit parts: no rule. */
static void test_judge_closed_energy(void)
{
	drape_world_def d = drape_default_world_def();
	d.integrator = DRAPE_INTEGRATOR_IMEX_BEND_SHEAR;
	step_judge_policy p = step_judge_default_policy(&d);
	CHECK(p.diverging_scheme && !p.explicit_scheme);
	step_facts f;
	step_report r;
	facts(&f, &r, MAX_DT);
	f.energy_measured = true;
	f.mass = 0.1;
	f.energy_start = 1e-3;
	f.energy_work = 1e-3;
	const double floor = 0.5 * 0.1 * 0.01 * 0.01;
	f.energy_gain = 2e-3 + 0.99 * floor;
	CHECK(judged(&p, &f, &r) == STEP_ACCEPTED);
	f.energy_gain = 2e-3 + 1.01 * floor;
	CHECK(judged(&p, &f, &r) == STEP_ENERGY_GROWTH);
	f.energy_measured = false; /* an open world: pins moving, wind, solids */
	CHECK(judged(&p, &f, &r) == STEP_ACCEPTED);
	f.energy_measured = true;
	drape_world_def be = drape_default_world_def();
	step_judge_policy q = step_judge_default_policy(&be);
	CHECK(judged(&q, &f, &r) == STEP_ACCEPTED); /* backward Euler: no explicit part */
	/* the rejection caps max_dt at half the step, like a divergence ... */
	step_control c;
	step_control_init(&c, p.max_dt, p.min_dt);
	step_rejection j = {.reason = STEP_ENERGY_GROWTH, .h = p.max_dt / 8.0, .time = 0.5, .left = 0.03,
			    .attempts_left = 100000, .integrator = "imex_bend_shear"};
	CHECK(step_judge_rejection(&p, &c, &j, &r).kind == STEP_VERDICT_HALVE);
	CHECK(c.max_dt == p.max_dt / 16.0);
	/* ... and a divergence at max_dt / 16 (a cap of max_dt / 32) stops the run, saying what fits */
	j.h = p.max_dt / 16.0;
	step_verdict v = step_judge_rejection(&p, &c, &j, &r);
	CHECK(v.kind == STEP_VERDICT_FAIL && v.reason == STEP_ENERGY_GROWTH);
	CHECK(strstr(v.message, "the explicit part of imex_bend_shear diverged at steps of") != NULL);
	CHECK(strstr(v.message, "set solver.max_dt to at most") != NULL);
}

/* Energy made a share at a time (docs/reliability.md, "Energy made a share at a time"): steps that
 * each pass the one-step rule, but whose gain since the call's start is more than the kinetic +
 * elastic energy then plus gravity's work since, and than the cloth's kinetic energy at 1 m/s,
 * stop the run at once with what was made, when, and the max_dt that would fit. */
static void test_judge_closed_energy_runaway(void)
{
	drape_world_def d = drape_default_world_def();
	d.integrator = DRAPE_INTEGRATOR_IMEX_BEND_SHEAR;
	step_judge_policy p = step_judge_default_policy(&d);
	CHECK(p.closed_runaway_speed == 1.0);
	step_facts f;
	step_report r;
	facts(&f, &r, MAX_DT / 4.0);
	f.energy_measured = true;
	f.mass = 0.1;
	f.energy_start = 0.05; /* this step: a gain of 1 % of it, well within the one-step rule */
	f.energy_work = 0.0;
	f.energy_gain = 5e-4;
	f.runaway_start = 1e-3; /* the call's start, and gravity's work since */
	f.runaway_work = 2e-3;
	const double floor = 0.5 * 0.1 * 1.0 * 1.0;
	f.runaway_gain = 3e-3 + 0.99 * floor;
	CHECK(judged(&p, &f, &r) == STEP_ACCEPTED);
	f.runaway_gain = 3e-3 + 1.01 * floor;
	CHECK(judged(&p, &f, &r) == STEP_ENERGY_RUNAWAY);
	f.energy_gain = 1.0; /* a step that alone more than doubled the energy: the one-step rule first */
	CHECK(judged(&p, &f, &r) == STEP_ENERGY_GROWTH);
	f.energy_gain = 5e-4;
	f.energy_measured = false; /* an open world */
	CHECK(judged(&p, &f, &r) == STEP_ACCEPTED);
	f.energy_measured = true;
	drape_world_def be = drape_default_world_def();
	step_judge_policy q = step_judge_default_policy(&be);
	CHECK(judged(&q, &f, &r) == STEP_ACCEPTED); /* backward Euler: no explicit part */
	/* the rejection stops the run whatever the step and the budget left, saying what fits */
	step_control c;
	step_control_init(&c, p.max_dt, p.min_dt);
	step_rejection j = {.reason = STEP_ENERGY_RUNAWAY, .h = p.max_dt / 4.0, .time = 0.0016, .left = 0.03,
			    .attempts_left = 100000, .integrator = "imex_bend_shear", .since = 0.0, .energy_start = 1e-3,
			    .energy_gain = 0.052, .h_short = p.max_dt / 4.0, .h_long = p.max_dt / 2.0};
	step_verdict v = step_judge_rejection(&p, &c, &j, &r);
	CHECK(v.kind == STEP_VERDICT_FAIL && v.reason == STEP_ENERGY_RUNAWAY);
	CHECK(strstr(v.message, "simulation diverged at t = 0.0016 s: the explicit part of imex_bend_shear made 0.052 J out of nothing since t = 0 s") != NULL);
	CHECK(strstr(v.message, "more than the whole cloth carries at 1 m/s") != NULL);
	char fits[64];
	snprintf(fits, sizeof fits, "set solver.max_dt to at most %.3g s", p.max_dt / 8.0);
	CHECK(strstr(v.message, fits) != NULL);
}

/* The strain limiter's residual (docs/solver.md, "Strain limiting"): a step is halved while halving
 * shrinks the residual's growth per second, not once a retry showed it the same, and not where the
 * cloth was as far out at the step's start or the step is below max_dt / 64. */
static void test_judge_residual_rule(void)
{
	step_judge_policy p = policy();
	const double s = p.strain_limit;
	step_control c;
	step_facts f;
	step_report r;
	/* at the step's start the cloth was within the limit: a residual of 0.4 s halves */
	facts(&f, &r, MAX_DT);
	r.limit_residual = 0.4 * s;
	step_control_init(&c, MAX_DT, 1e-6);
	CHECK(step_judge_step(&p, &c, &f, &r).reason == STEP_STRETCH_CHANGE);
	CHECK(start_measured == 1 && step_control_limit_probing(&c, f.t));
	/* ... not if it was nearly as far out already */
	facts(&f, &r, MAX_DT);
	r.limit_residual = 0.4 * s;
	start_violation = 0.35 * s;
	step_control_init(&c, MAX_DT, 1e-6);
	CHECK(step_judge_step(&p, &c, &f, &r).reason == STEP_ACCEPTED);
	/* ... nor under a quarter of the limit, nor at max_dt / 64 */
	facts(&f, &r, MAX_DT);
	r.limit_residual = 0.2 * s;
	step_control_init(&c, MAX_DT, 1e-6);
	CHECK(step_judge_step(&p, &c, &f, &r).reason == STEP_ACCEPTED);
	facts(&f, &r, MAX_DT / 64.0);
	r.limit_residual = 0.4 * s;
	step_control_init(&c, MAX_DT, 1e-6);
	CHECK(step_judge_step(&p, &c, &f, &r).reason == STEP_ACCEPTED);

	/* An overshoot: the half step's growth is a quarter of the full step's; halving goes on. */
	step_control_init(&c, MAX_DT, 1e-6);
	facts(&f, &r, 0.04);
	r.limit_residual = 0.4 * s;
	CHECK(step_judge_step(&p, &c, &f, &r).reason == STEP_STRETCH_CHANGE);
	facts(&f, &r, 0.02);
	r.limit_residual = 0.1 * s + 1e-12; /* below the rule, but the retry is measured */
	CHECK(step_judge_step(&p, &c, &f, &r).reason == STEP_ACCEPTED && start_measured == 1);
	CHECK(!c.limit_futile);
	/* A creep: the half step grows half as much, the same per second; then a residual under
	 * 3/4 of the limit is tolerated, one beyond it still halves. */
	step_control_init(&c, MAX_DT, 1e-6);
	facts(&f, &r, 0.04);
	r.limit_residual = 0.4 * s;
	CHECK(step_judge_step(&p, &c, &f, &r).reason == STEP_STRETCH_CHANGE);
	facts(&f, &r, 0.02);
	r.limit_residual = 0.2 * s;
	CHECK(step_judge_step(&p, &c, &f, &r).reason == STEP_ACCEPTED);
	CHECK(c.limit_futile);
	facts(&f, &r, 0.04);
	f.t = 1.02;
	r.limit_residual = 0.4 * s;
	CHECK(step_judge_step(&p, &c, &f, &r).reason == STEP_ACCEPTED);
	r.limit_residual = 0.8 * s;
	CHECK(step_judge_step(&p, &c, &f, &r).reason == STEP_STRETCH_CHANGE);
	/* a projection that met its bound ends the state */
	facts(&f, &r, 0.02);
	f.t = 1.09;
	r.limit_residual = 0.0;
	CHECK(step_judge_step(&p, &c, &f, &r).reason == STEP_ACCEPTED);
	CHECK(!c.limit_futile);
}

/* After a rejection: halve, fail at min_dt with the rejection's reason, and cap an explicit
 * scheme that keeps failing at one size. */
static void test_judge_rejection(void)
{
	step_judge_policy p = policy();
	step_control c;
	step_report r;
	memset(&r, 0, sizeof r);
	r.worst_triangle = 7;
	r.worst_spring = -1;
	r.stretch_change = 0.5;
	step_rejection j = {.reason = STEP_STRETCH_CHANGE, .h = 0.004, .time = 2.0, .left = 0.03, .attempts_left = 1000,
			    .integrator = "backward_euler"};
	step_control_init(&c, 0.004, 1e-3);
	CHECK(step_judge_rejection(&p, &c, &j, &r).kind == STEP_VERDICT_HALVE);
	CHECK(c.dt == 0.002);
	j.h = c.dt;
	CHECK(step_judge_rejection(&p, &c, &j, &r).kind == STEP_VERDICT_HALVE);
	j.h = c.dt;
	p.min_dt = 1e-3;
	step_verdict v = step_judge_rejection(&p, &c, &j, &r);
	CHECK(v.kind == STEP_VERDICT_FAIL && v.reason == STEP_STRETCH_CHANGE);
	CHECK(strcmp(v.message, "simulation cannot continue at t = 2 s: the step size fell below min_dt = 0.001 s; last "
				"rejection: a triangle's stretch changed drastically (|w| of triangle 7 changed by 0.5)") == 0);
	/* a step shortened to land on the call's end is judged at its size */
	step_control_init(&c, MAX_DT, 1e-6);
	j.h = 0.01;
	CHECK(step_judge_rejection(&p, &c, &j, &r).kind == STEP_VERDICT_HALVE && c.dt == 0.005);
	/* explicit: the third strain rejection in a row at one size caps max_dt below it */
	drape_world_def d = drape_default_world_def();
	d.integrator = DRAPE_INTEGRATOR_FORWARD_EULER;
	d.self_collision = false;
	p = step_judge_default_policy(&d);
	step_control_init(&c, MAX_DT, 1e-6);
	j.h = 0.01;
	for (int k = 0; k < 3; ++k) {
		c.dt = 0.01;
		CHECK(step_judge_rejection(&p, &c, &j, &r).kind == STEP_VERDICT_HALVE);
		CHECK(c.max_dt == (k < 2 ? MAX_DT : 0.005));
	}
	/* ... and fails when the budget cannot cover the capped steps */
	j.attempts_left = 2;
	c.dt = 0.01;
	v = step_judge_rejection(&p, &c, &j, &r);
	CHECK(v.kind == STEP_VERDICT_FAIL && strstr(v.message, "kept failing the strain-change test") != NULL);
}

/* Bounded work: budget_slack attempts plus budget_per_max_dt per max_dt of the call. */
static void test_judge_budget(void)
{
	step_judge_policy p = policy();
	const int64_t b = step_judge_budget(&p, 2.0 * MAX_DT);
	CHECK(b == p.budget_slack + 100);
	CHECK(step_judge_attempt(b, b, 0.0, 2.0 * MAX_DT, MAX_DT).kind == STEP_VERDICT_ACCEPT);
	step_verdict v = step_judge_attempt(b + 1, b, 0.5, 2.0 * MAX_DT, 1e-5);
	CHECK(v.kind == STEP_VERDICT_FAIL && strstr(v.message, "2100 steps (accepted and rejected) did not cover") != NULL);
}

const test_case step_judge_tests[] = {
	{"judge_accepts_a_good_step", test_judge_accepts_a_good_step},
	{"judge_rejects_bad_proposals", test_judge_rejects_bad_proposals},
	{"judge_stretch_change_cutoffs", test_judge_stretch_change_cutoffs},
	{"judge_contact_cutoffs", test_judge_contact_cutoffs},
	{"judge_held_triangle_by_residual", test_judge_held_triangle_by_residual},
	{"judge_divergence", test_judge_divergence},
	{"judge_closed_energy", test_judge_closed_energy},
	{"judge_closed_energy_runaway", test_judge_closed_energy_runaway},
	{"judge_residual_rule", test_judge_residual_rule},
	{"judge_rejection", test_judge_rejection},
	{"judge_budget", test_judge_budget},
	{NULL, NULL},
};
