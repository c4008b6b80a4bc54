/* The step of drape_world_step in named stages on one step context, as Box2D v3's b2World_Step
 * runs on its b2StepContext (docs/architecture.md): prepare (topology changes), pose the solids,
 * contacts and constraints (sec. 5), assemble and solve eq. 18 (sec. 3, 5.3), judge the proposal
 * (sec. 7, step_judge.h), then commit it or retry at half the step. Each stage is timed into
 * drape_stats.stage_ms; Table 1's EVAL, CG, cloth/cloth and cloth/solid are measured inside them. */
#ifndef DRAPE_STEP_H
#define DRAPE_STEP_H

#include "implicit.h"
#include "integrators.h"
#include "../world_data.h"
#include "step_grid.h"
#include "step_judge.h"

typedef struct step_context {
	drape_world* w;
	step_judge_policy policy;
	double duration, t_end;
	bool topology_changed; /* the call began with a topology change (workspace_prepare) */
	int64_t budget, attempts;
	/* The steps' grid (step_grid.h). The attempt: the step h on it and its length in the grid's
	 * units, whether it is the control's own size (full) or halved to fit what is left, and the
	 * implicit step's start t and size hs (BDF2's is a backward Euler step of hs <= h). */
	step_grid grid;
	double h, t, hs;
	int64_t units;
	bool full;
	step_report report;
	step_facts facts;
	solve_tally tally;
	/* The contact passes: the scheme and warm start of the solves, and what the last pass found. */
	step_scheme scheme;
	const vec3* guess;
	pcg_result solve;
	int pass;
	bool passes_over; /* a pass ended the step early (an interrupt, a bad or wild proposal) */
	int32_t cloth_crossings, pinched;
	double raw_change; /* the strain change before the strain limiter's projection */
	/* A closed world under a scheme with explicit parts: the judge weighs each proposal's energy
	 * (step_facts.energy_measured); the world's mass, kg. */
	bool closed;
	double mass;
	/* The energy the judge measured at the last accepted proposal: the next step starts there (its
	 * x and v are those very arrays, swapped in by step_commit and not written since within this
	 * call), so its start energy is that value, not measured again. energy_end* hold the attempt's
	 * until it is committed. */
	bool strain_measured; /* the judge measured this attempt's strain change at its final x1 */
	bool energy_ready;
	const vec3 *energy_x, *energy_v;
	double energy_start, energy_gravity;
	double energy_end, energy_end_gravity;
	int32_t raw_worst, raw_spring;
	double stage_clock; /* when the running stage began, ms */
} step_context;

/* The context of one call of drape_world_step for `duration`; starts the PREPARE stage's clock. */
void step_context_init(step_context* c, drape_world* w, double duration);
/* Stage PREPARE, once per call, after workspace_prepare has rebuilt the solver's buffers where the
 * topology changed: unfolds a cloth that the change left through itself, and sets the threads. */
void step_prepare(step_context* c);
/* The head of an attempt (timed with COMMIT): interrupts, the budget, the step's size. */
drape_status step_begin(step_context* c);
/* Stage POSE: the solids' placements at the step's start and end (character/pose.c). */
void step_pose_solids(step_context* c);
/* Stage CONTACTS: pins, solid and cloth contacts at the step's start; false when the cloth is
 * crushed onto itself (or an interrupt came), so that there is nothing to solve. */
bool step_detect_contacts(step_context* c);
/* Stage ASSEMBLE: eq. 18's system for the current contact set. */
void step_assemble(step_context* c);
/* Stage SOLVE: the linear solve, the proposal, Newton iterations and the strain limiter. */
void step_solve(step_context* c);
/* Stage CONTACTS again: crossings and releases the proposal brings; true when the contact set
 * changed and the step is to be solved again (sec. 5.4). */
bool step_contacts_changed(step_context* c);
/* Stage JUDGE: the proposal's measures, and the judge's verdict on them. */
step_verdict step_judge(step_context* c);
/* Stage COMMIT: the proposal becomes the state; or the step is dropped and retried at half the
 * size, unless the verdict (or the judge on the rejection) ends the run. */
drape_status step_commit(step_context* c);
drape_status step_retry(step_context* c, const step_verdict* v);
/* After the call's last step (timed with COMMIT): cloth particles left inside solids. */
void step_finish(step_context* c);

#endif
