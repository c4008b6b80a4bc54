/* The step's judge: every rule that decides whether a proposed step stands (sec. 7's adaptive
 * step control and drape's own guards, docs/architecture.md). Its thresholds live in one policy
 * struct; it returns a verdict: accept, reject and halve (with a reason), or fail with a message. */
#ifndef DRAPE_STEP_JUDGE_H
#define DRAPE_STEP_JUDGE_H

#include "step_control.h"

#include "drape.h"

#include <stdbool.h>
#include <stdint.h>

/* Why a step was rejected (or STEP_ACCEPTED). */
typedef enum step_outcome {
	STEP_ACCEPTED = 0,
	STEP_CG_BREAKDOWN,   /* A was not positive definite along a search direction */
	STEP_NONFINITE,      /* the proposal holds NaN or Inf */
	STEP_STRETCH_CHANGE, /* sec. 7: some triangle's stretch changed drastically */
	STEP_PENETRATION,    /* re-solving with new contacts did not stop particles crossing solids */
	STEP_SELF_INTERSECTION, /* more intersecting triangle pairs than at the step's start */
	STEP_FORCED,         /* rejected by the test hook */
	STEP_DIVERGING,      /* an explicit part blew up: strain jumped by > 25 % in a step */
	STEP_CANCELLED,      /* the world's cancel flag was raised mid-step; the step is dropped */
	STEP_CROWDED,        /* the cloth/cloth search went over its budget (collide/cloth_pairs.h) */
	STEP_ENERGY_GROWTH,  /* an explicit part made energy in a closed world (closed_energy_growth) */
	STEP_ENERGY_RUNAWAY, /* ... over the call's steps, each within that rule: the run stops */
	STEP_HELD_RESIDUAL,  /* a held element changed drastically and the solve left a residual on
			      * the held particles (strain_from_limiter) */
} step_outcome;

/* Every threshold of the judge (step_judge_default_policy). Step sizes are fractions of max_dt. */
typedef struct step_judge_policy {
	double max_dt, min_dt;
	/* Sec. 7: the largest change of a triangle's stretch (or a spring's strain) in one step. */
	bool adaptive;
	double stretch_change_limit;
	/* The limit holds down to max_dt / stretch_change_full_below; below, only a change beyond
	 * stretch_change_floor rejects, and below max_dt / stretch_change_any_below none does. */
	double stretch_change_full_below, stretch_change_floor, stretch_change_any_below;
	/* The strain guarantee from the limiter (drape_world_def's strain_from_limiter): the limited
	 * proposal is judged, not the raw one (step_judge_raw_counts); and held elements (every
	 * particle held by a contact or constraint; step/strain_change.h), while the strain limiter is
	 * on, do not reject the step by their change; where it would, the solve's relative residual
	 * on the held particles over held_residual does. docs/solver.md, "The strain guarantee from
	 * the limiter". */
	bool strain_from_limiter;
	double held_residual;
	/* A change beyond this rejects the proposal before the contact passes look at it. */
	double wild_strain;
	/* Particles crossing solids, or a new cloth self-intersection, reject down to this fraction. */
	double contact_any_below;
	/* Schemes with explicit parts: the strain change (or excess over the strain limit) of a
	 * diverging explicit part, and the strain-change rejections in a row at one size after which
	 * a purely explicit scheme never tries that size again. */
	bool diverging_scheme, explicit_scheme;
	double divergence_strain;
	int explicit_repeats;
	/* Schemes with explicit parts in a closed world (step_facts.energy_measured): a proposal whose
	 * kinetic + elastic + gravity energy grew by more than closed_energy_growth times the kinetic +
	 * elastic energy at the step's start and gravity's work in the step, plus the cloth's kinetic
	 * energy at closed_energy_speed, was made by an explicit part beyond its stable step (a
	 * divergence, as divergence_strain). */
	double closed_energy_growth, closed_energy_speed;
	/* Such a divergence stops the run where its cap (half the step) is below max_dt /
	 * closed_energy_stop. */
	double closed_energy_stop;
	/* The same growth measured from the call's start (step_facts.runaway_*) rather than the
	 * step's, with the cloth's kinetic energy at closed_runaway_speed as its floor: energy made a
	 * share at a time by steps that each pass the rule above. It stops the run: the energy made is
	 * in the state already, and no shorter step takes it out. */
	double closed_runaway_speed;
	/* The strain limiter's residual (docs/solver.md, "Strain limiting"), as shares of strain_limit. */
	double strain_limit;
	double limit_residual, limit_worse, limit_any_below, limit_futile_cap, limit_futile_share;
	/* Bounded work: the attempts one call may make (docs/reliability.md, "Bounded work"). */
	int64_t budget_slack;
	double budget_per_max_dt;
} step_judge_policy;

/* What a step measured, for the judge (and Table 1's timings). */
typedef struct step_report {
	step_outcome outcome;
	int cg_iterations;
	bool cg_converged;
	double eval_ms;
	double cg_ms;
	double cs_ms; /* cloth/solid contact detection and handling */
	double cc_ms; /* cloth/cloth contact detection and handling */
	int32_t intersections; /* intersecting triangle pairs in the proposal */
	double stretch_change; /* largest | |w_u| or |w_v| change | over triangles (the free ones
				* where held elements are judged apart, strain_from_limiter) */
	int32_t worst_triangle;
	int32_t worst_spring; /* a mass-spring stretch spring whose strain changed most, or -1 */
	/* Where held elements are judged apart: the same over them, and the solve's relative residual
	 * on the held particles (measured only where held_change would reject; 0 otherwise). */
	double held_change;
	int32_t held_triangle, held_spring;
	double held_residual;
	double limit_excess;  /* largest strain beyond strain_limit before limiting (step/strain_limit.h) */
	double limit_residual; /* the same after limiting (the last contact pass) */
	int limit_newton;
	int solves;         /* linear solves (contact passes, Newton iterations) */
	int release_solves; /* passes solved again because contacts were released (sec. 5.4) */
	int released;       /* contacts released within the step */
} step_report;

/* The facts of one step attempt beyond its report: where it was when the passes stopped. */
typedef struct step_facts {
	double t, h;             /* the run's time at the step's start; the implicit step's size */
	bool cancelled;          /* the world's cancel flag was raised during the step */
	bool crowded_start;      /* the cloth at the step's start is crushed onto itself: no proposal */
	bool forced;             /* the test hook asks for a rejection */
	bool breakdown, finite, wild, crowded;
	bool held_apart;         /* held elements are judged apart (strain_from_limiter, the limiter on) */
	int32_t crossings;       /* particles still crossing into solids */
	int32_t intersections_before; /* intersecting triangle pairs at the step's start */
	/* A closed world (gravity the only source of energy: no moving pin, solid, wind, user spring
	 * or seam) under a scheme with explicit parts: its energy was measured. gain: the proposal's
	 * kinetic + elastic + gravity energy minus the start's; start: kinetic + elastic energy at
	 * the step's start; work: |gravity's work| in the step; mass: the world's, kg. */
	bool energy_measured;
	double energy_gain, energy_start, energy_work, mass;
	/* The same from the call's start (its first step's start) to the proposal: the gain, the
	 * kinetic + elastic energy at the call's start, |gravity's work| since. */
	double runaway_gain, runaway_start, runaway_work;
	/* The strain beyond the limit at the step's start: measured only when a rule needs it. */
	double (*limit_start)(const void* ctx);
	const void* limit_ctx;
} step_facts;

typedef enum step_verdict_kind {
	STEP_VERDICT_ACCEPT,
	STEP_VERDICT_HALVE, /* reject the step and retry at half the size */
	STEP_VERDICT_FAIL,  /* stop the run: message says why */
} step_verdict_kind;

typedef struct step_verdict {
	step_verdict_kind kind;
	step_outcome reason;
	char message[512];
} step_verdict;

/* Where a rejection leaves the run (step_judge_rejection). */
typedef struct step_rejection {
	step_outcome reason;
	double h;            /* the rejected step's size */
	double time, left;   /* the run's time and what is left of the call's duration */
	int64_t attempts_left;
	const char* integrator; /* its name, for messages */
	int32_t spring_v[2];    /* the worst spring's particles, when report->worst_spring >= 0 */
	/* STEP_ENERGY_RUNAWAY: when the call began, its energy then (kinetic + elastic), the gain
	 * since, and the shortest and longest steps accepted since. */
	double since, energy_start, energy_gain, h_short, h_long;
} step_rejection;

step_judge_policy step_judge_default_policy(const drape_world_def* def);

/* The step attempts one call of `duration` may make. */
int64_t step_judge_budget(const step_judge_policy* p, double duration);
/* Fails the run when `attempts` went over the budget. */
step_verdict step_judge_attempt(int64_t attempts, int64_t budget, double time, double duration, double dt);

/* Whether the judge looks at strain changes at all (adaptive stepping or an explicit part). */
bool step_judge_measures_strain(const step_judge_policy* p);
/* Whether a step of size h may be found wild (step_judge_wild), so its strain change is worth
 * measuring right after the solve; and whether a change makes it so: then no contact pass turns
 * the proposal into a good step. */
bool step_judge_wild_possible(const step_judge_policy* p, double h);
bool step_judge_wild(const step_judge_policy* p, double change);
/* Whether the strain change before the strain limiter's projection stands for the step's at h. */
bool step_judge_raw_counts(const step_judge_policy* p, double h);
/* Whether a held elements' change of held_change at h would fail sec. 7's test, so that the solve's
 * residual on the held particles is to be measured (strain_from_limiter). */
bool step_judge_held_needs_residual(const step_judge_policy* p, double held_change, double h);

/* The verdict on a proposal (an interrupted step fails with the reason STEP_CANCELLED). Judging
 * the strain limiter's residual updates the control's probe (step_control.h). */
step_verdict step_judge_step(const step_judge_policy* p, step_control* c, const step_facts* f, const step_report* r);

/* After a rejection: caps the control's max_dt where an explicit part is unstable, halves the
 * step, and fails the run where no step can make progress. */
step_verdict step_judge_rejection(const step_judge_policy* p, step_control* c, const step_rejection* j, const step_report* r);

/* A rejection's reason in words (the message users see). */
const char* step_outcome_text(step_outcome o);

#endif
