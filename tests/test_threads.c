/* Automatic thread count (solver/thread_policy.c, docs/solver.md): the count stays within its
 * bounds, leaves out a core another process keeps busy, and a world that re-chooses it at every
 * call gives the same bits as one and two fixed threads. */
#define _POSIX_C_SOURCE 200809L
#include "fixtures.h"
#include "test.h"

#include "solver/thread_policy.h"

#include <omp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void test_threads_policy_bounds(void)
{
	CHECK(thread_policy_free_cores(1) == 1);
	CHECK(thread_policy_free_cores(0) == 1);
	for (int max = 2; max <= 8; max *= 2) {
		int n = thread_policy_free_cores(max);
		CHECK(n >= 1 && n <= max);
	}
}

static void test_threads_policy_sees_busy_process(void)
{
	/* A child spinning on a core is another process's runnable thread: at most all cores but
	 * one are left (where this process may use every processor of the machine). */
	pid_t child = fork();
	CHECK(child >= 0);
	if (child < 0) return; /* never kill(-1, ...) */
	if (child == 0) {
		volatile unsigned long spin = 0;
		for (;;) ++spin;
	}
	struct timespec pause = {0, 50 * 1000 * 1000};
	nanosleep(&pause, NULL);
	int mine = omp_get_num_procs();
	int n = thread_policy_free_cores(mine);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	if (sysconf(_SC_NPROCESSORS_ONLN) == mine) CHECK(n <= (mine > 1 ? mine - 1 : 1));
}

static void run(int threads, int frames, double* out, int* n)
{
	drape_world_def wd = drape_default_world_def();
	wd.threads = threads;
	drape_cloth_id c;
	drape_world* w = make_sheet(&wd, NULL, 41, 1.0, true, &c);
	/* one call per frame: an automatic world re-chooses its count at each */
	for (int f = 0; f < frames; ++f) CHECK(drape_world_step(w, 1.0 / 30.0) == DRAPE_OK);
	*n = drape_cloth_vertex_count(w, c);
	drape_cloth_get_positions(w, c, out);
	drape_cloth_get_velocities(w, c, out + 3 * *n);
	drape_world_destroy(w);
}

static void test_threads_automatic_bit_identical(void)
{
	int n = 41 * 41;
	double* r[3];
	for (int k = 0; k < 3; ++k) r[k] = malloc(6 * (size_t)n * sizeof(double));
	run(0, 12, r[0], &n);
	run(1, 12, r[1], &n);
	run(2, 12, r[2], &n);
	CHECK(memcmp(r[0], r[1], 6 * (size_t)n * sizeof(double)) == 0);
	CHECK(memcmp(r[1], r[2], 6 * (size_t)n * sizeof(double)) == 0);
	for (int k = 0; k < 3; ++k) free(r[k]);
}

const test_case threads_tests[] = {
	{"threads_policy_bounds", test_threads_policy_bounds},
	{"threads_policy_sees_busy_process", test_threads_policy_sees_busy_process},
	{"threads_automatic_bit_identical", test_threads_automatic_bit_identical},
	{NULL, NULL},
};
