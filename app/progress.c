/* Progress bar for long commands (run, bench). */
#include "progress.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

double wall_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void progress_begin(progress* p, const char* label, int total, bool quiet)
{
	p->enabled = !quiet && isatty(STDERR_FILENO);
	p->total = total > 0 ? total : 1;
	p->start_s = wall_seconds();
	snprintf(p->label, sizeof p->label, "%s", label);
}

void progress_update(progress* p, int done, double sim_time)
{
	if (!p->enabled) return;
	const int width = 30;
	double frac = (double)done / p->total;
	int fill = (int)(frac * width + 0.5);
	char bar[64];
	for (int i = 0; i < width; ++i) bar[i] = i < fill ? '#' : '.';
	bar[width] = '\0';
	double elapsed = wall_seconds() - p->start_s;
	double rate = elapsed > 0.0 ? done / elapsed : 0.0;
	double eta = rate > 0.0 ? (p->total - done) / rate : 0.0;
	fprintf(stderr, "\r%s [%s] %d/%d frames  t=%.2f s  %.1f frames/s  ETA %d:%02d ", p->label, bar, done, p->total,
		sim_time, rate, (int)eta / 60, (int)eta % 60);
	fflush(stderr);
}

void progress_end(progress* p)
{
	if (p->enabled) fprintf(stderr, "\n");
}
