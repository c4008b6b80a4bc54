/* Adaptive time stepping (sec. 7). The paper says: after two successes at a reduced step, try a
 * larger one; if that fails, reduce again and wait longer before the next try, at most 40 steps.
 * We double the wait after each failed growth attempt (2, 4, 8, 16, 32, 40) and return it to 2
 * once a growth attempt has held. docs/solver.md. */
#include "step_control.h"

void step_control_init(step_control* c, double max_dt, double min_dt)
{
	c->dt = max_dt;
	c->max_dt = max_dt;
	c->min_dt = min_dt;
	c->successes = 0;
	c->wait = STEP_CONTROL_FIRST_WAIT;
	c->just_grew = false;
	c->rejected_dt = 0.0;
	c->rejected_runs = 0;
	c->probe_t = c->probe_h = c->probe_rate = 0.0;
	c->limit_futile = false;
}

void step_control_accept(step_control* c)
{
	if (c->just_grew) {
		c->just_grew = false;
		c->wait = STEP_CONTROL_FIRST_WAIT;
	}
	c->successes++;
	if (c->dt < c->max_dt && c->successes >= c->wait) {
		c->dt = 2.0 * c->dt < c->max_dt ? 2.0 * c->dt : c->max_dt;
		c->successes = 0;
		c->just_grew = true;
	}
}

bool step_control_reject(step_control* c)
{
	if (c->just_grew) {
		c->wait = 2 * c->wait < STEP_CONTROL_MAX_WAIT ? 2 * c->wait : STEP_CONTROL_MAX_WAIT;
		c->just_grew = false;
	}
	c->successes = 0;
	c->dt *= 0.5;
	return c->dt >= c->min_dt;
}

int step_control_repeats(step_control* c, double h)
{
	if (h == c->rejected_dt) return ++c->rejected_runs;
	c->rejected_dt = h;
	return c->rejected_runs = 1;
}

bool step_control_limit_probing(const step_control* c, double t) { return c->probe_h > 0.0 && t == c->probe_t; }
