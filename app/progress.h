/* A one-line progress bar on a terminal (frames done, simulated time, speed, ETA); silent when
 * stderr is not a terminal, so logs stay clean. */
#ifndef DRAPE_APP_PROGRESS_H
#define DRAPE_APP_PROGRESS_H

#include <stdbool.h>

typedef struct progress {
	bool enabled;
	int total;
	double start_s;
	char label[32];
} progress;

void progress_begin(progress* p, const char* label, int total, bool quiet);
void progress_update(progress* p, int done, double sim_time);
void progress_end(progress* p);
double wall_seconds(void);

#endif
