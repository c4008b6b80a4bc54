/* Automatic thread count (docs/solver.md, "Determinism and threads"). The solver's threads meet
 * at a barrier every few tens of microseconds (PCG, sec. 5.3). When another process keeps one of
 * the cores busy, the thread sharing that core runs only in the scheduler's time slices, and
 * every barrier waits for it: two threads then run slower than one, from 1.4 to 16 times on a
 * two-core machine. So before each drape_world_step an automatic world counts the runnable
 * threads of other processes (Linux: /proc/loadavg's running count, less this process's own
 * running threads from /proc/self/task) and uses only the cores left free. A sample is cheap
 * (a few small /proc reads, some tens of microseconds, once per drape_world_step call) and
 * instantaneous: a process that starts during a call is seen at the next one. */
#define _POSIX_C_SOURCE 200809L
#include "thread_policy.h"

#include <dirent.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Runnable scheduling entities on the whole machine (the fourth field of /proc/loadavg, "R/T"),
 * or -1. */
static int machine_running(void)
{
	FILE* f = fopen("/proc/loadavg", "r");
	if (!f) return -1;
	double a, b, c;
	int running = -1, total;
	if (fscanf(f, "%lf %lf %lf %d/%d", &a, &b, &c, &running, &total) != 5) running = -1;
	fclose(f);
	return running;
}

/* This process's threads in state R (running or runnable), or -1. OpenMP's idle workers spin
 * for a while after a parallel region and count here, not as competitors. */
static int own_running(void)
{
	DIR* dir = opendir("/proc/self/task");
	if (!dir) return -1;
	int running = 0;
	struct dirent* e;
	while ((e = readdir(dir)) != NULL) {
		if (e->d_name[0] == '.') continue;
		char path[64], buf[256];
		snprintf(path, sizeof path, "/proc/self/task/%.20s/stat", e->d_name);
		FILE* f = fopen(path, "r");
		if (!f) continue;
		size_t n = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
		buf[n] = '\0';
		/* "tid (comm) S ...": the state follows the last ')' (comm may hold one) */
		const char* p = strrchr(buf, ')');
		if (p && p[1] == ' ' && p[2] == 'R') ++running;
	}
	closedir(dir);
	return running;
}

int thread_policy_free_cores(int max)
{
	if (max <= 1) return 1;
	int all = machine_running(), own = own_running();
	if (all < 0 || own < 0) return max;
	int others = all - own;
	if (others < 0) others = 0;
	/* /proc/loadavg counts the whole machine; where this process may use only some of its
	 * processors (a container, an affinity mask), assume the others spread evenly over them */
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	int mine = omp_get_num_procs();
	if (online > mine) others = (int)(((long)others * mine + online - 1) / online);
	int free_cores = mine - others;
	if (free_cores < 1) free_cores = 1;
	return free_cores < max ? free_cores : max;
}
