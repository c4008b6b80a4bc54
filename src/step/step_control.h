/* Adaptive step-size control of sec. 7: halve on a rejected step, try doubling after two
 * successes, and back off (up to one try every 40 steps) when growth attempts keep failing. Its
 * state, struct step_control, is part of the world's state (world_data.h). */
#ifndef DRAPE_STEP_CONTROL_H
#define DRAPE_STEP_CONTROL_H

#include "../world_data.h"

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
