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
	const char* unit; /* what is counted: "frames" unless changed after progress_begin */
} progress;

void progress_begin(progress* p, const char* label, int total, bool quiet);
/* sim_time < 0: no simulated time to show. */
void progress_update(progress* p, int done, double sim_time);
void progress_end(progress* p);
/* Erases the bar's line so that other output can be printed on the terminal; the next update
 * draws it again. */
void progress_clear(progress* p);
double wall_seconds(void);
/* This process's CPU seconds: what a benchmark costs on a shared machine, whatever else runs. */
double cpu_seconds(void);

#endif
