/* Adaptive step-size control of sec. 7: halve on a rejected step, try doubling after two
 * successes, and back off (up to one try every 40 steps) when growth attempts keep failing. */
#ifndef DRAPE_STEP_CONTROL_H
#define DRAPE_STEP_CONTROL_H

#include <stdbool.h>

#define STEP_CONTROL_FIRST_WAIT 2
#define STEP_CONTROL_MAX_WAIT 40

typedef struct step_control {
	double dt;        /* the step to propose next */
	double max_dt;
	double min_dt;
	int successes;    /* accepted steps since the last change of dt */
	int wait;         /* successes required before the next attempt to grow */
	bool just_grew;   /* the current dt is an attempt to grow */
	double rejected_dt; /* the size of the last rejected step */
	int rejected_runs;  /* rejections at rejected_dt with none at another size between */
	/* The strain limiter's residual (the judge's rule, step/step_judge.c): the last step halved for
	 * it (its start, size and residual growth per second; probe_h 0: none waiting for its retry),
	 * and whether a halving has shown that smaller steps do not shrink that growth. */
	double probe_t, probe_h, probe_rate;
	bool limit_futile;
} step_control;

void step_control_init(step_control* c, double max_dt, double min_dt);
/* An accepted step of the proposed size (not one shortened to land on a frame boundary). */
void step_control_accept(step_control* c);
/* A rejected step: returns false if the halved step would fall below min_dt. */
bool step_control_reject(step_control* c);
/* Records a rejection of a step of size h (before step_control_reject); returns how many
 * rejections in a row were of that size. */
int step_control_repeats(step_control* c, double h);
/* Whether a step from time t is the retry of one halved for its residual (its growth is then
 * needed, even where the rule does not ask for a halving). */
bool step_control_limit_probing(const step_control* c, double t);

#endif
