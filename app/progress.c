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

double cpu_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void progress_begin(progress* p, const char* label, int total, bool quiet)
{
	p->enabled = !quiet && isatty(STDERR_FILENO);
	p->total = total > 0 ? total : 1;
	p->start_s = wall_seconds();
	snprintf(p->label, sizeof p->label, "%s", label);
	p->unit = "frames";
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
	char t[48] = "";
	if (sim_time >= 0.0) snprintf(t, sizeof t, "  t=%.2f s", sim_time);
	fprintf(stderr, "\r%s [%s] %d/%d %s%s  %.1f %s/s  ETA %d:%02d ", p->label, bar, done, p->total, p->unit, t, rate,
		p->unit, (int)eta / 60, (int)eta % 60);
	fflush(stderr);
}

void progress_clear(progress* p)
{
	if (p->enabled) fprintf(stderr, "\r\033[K");
}

void progress_end(progress* p)
{
	if (p->enabled) fprintf(stderr, "\n");
}
