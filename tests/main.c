/* Test runner: `drape_tests SUITE [FILTER]` runs the suite's cases whose names contain FILTER.
 * CTest registers one test per suite (CMakeLists.txt). */
#include "test.h"

#include "progress.h" /* cpu_seconds: each case's CPU time, which says more than wall time on a shared machine */

#include <stdlib.h>
#include <string.h>

int test_failures = 0;
int test_checks = 0;

extern const test_case forces_tests[];
extern const test_case mesh_tests[];
extern const test_case solver_tests[];
extern const test_case world_tests[];
extern const test_case resume_tests[];
extern const test_case io_tests[];
extern const test_case physics_tests[];
extern const test_case bvh_tests[];
extern const test_case draw_tests[];
extern const test_case contact_tests[];
extern const test_case thin_tests[];
extern const test_case collide_tests[];
extern const test_case cloth_pairs_tests[];
extern const test_case mass_spring_tests[];
extern const test_case view_tests[];
extern const test_case wave1d_tests[];
extern const test_case stability_tests[];
extern const test_case mannequin_tests[];
extern const test_case garment_tests[];
extern const test_case precond_tests[];
extern const test_case character_tests[];
extern const test_case skinning_tests[];
extern const test_case rest_tests[];
extern const test_case threads_tests[];
extern const test_case fidelity_tests[];
extern const test_case errors_tests[];
extern const test_case step_judge_tests[];
extern const test_case layers_tests[];
extern const test_case svg_tests[];
extern const test_case dxf_tests[];
extern const test_case bounds_tests[];

typedef struct suite {
	const char* name;
	const test_case* cases;
} suite;

static const suite suites[] = {
	{"forces", forces_tests}, {"mesh", mesh_tests}, {"solver", solver_tests},
	{"world", world_tests},   {"io", io_tests},     {"physics", physics_tests},
	{"bvh", bvh_tests},
	{"draw", draw_tests},
	{"contact", contact_tests},
	{"bounds", bounds_tests},
	{"thin", thin_tests},
	{"layers", layers_tests},
	{"collide", collide_tests},
	{"cloth_pairs", cloth_pairs_tests},
	{"mass_spring", mass_spring_tests},
	{"precond", precond_tests},
	{"character", character_tests},
	{"skinning", skinning_tests},
	{"resume", resume_tests},
	{"view", view_tests},
	{"wave1d", wave1d_tests},
	{"stability", stability_tests},
	{"mannequin", mannequin_tests},
	{"garment", garment_tests},
	{"svg", svg_tests},
	{"dxf", dxf_tests},
	{"rest", rest_tests},
	{"threads", threads_tests},
	{"fidelity", fidelity_tests},
	{"errors", errors_tests},
	{"step_judge", step_judge_tests},
};

int main(int argc, char** argv)
{
	const char* want = argc > 1 ? argv[1] : NULL;
	const char* filter = argc > 2 ? argv[2] : NULL;
	int ran = 0, failed_cases = 0;
	for (size_t s = 0; s < sizeof suites / sizeof suites[0]; ++s) {
		if (want && strcmp(want, "all") != 0 && strcmp(want, suites[s].name) != 0) continue;
		for (const test_case* t = suites[s].cases; t->name; ++t) {
			if (filter && !strstr(t->name, filter)) continue;
			int before = test_failures;
			double t0 = cpu_seconds();
			t->fn();
			double cpu = cpu_seconds() - t0;
			++ran;
			int bad = test_failures - before;
			if (bad) ++failed_cases;
			printf("%-8s %-48s %-6s %7.2f s cpu\n", suites[s].name, t->name, bad ? "FAILED" : "ok", cpu);
			fflush(stdout);
		}
	}
	if (ran == 0) {
		fprintf(stderr, "no test matched '%s'%s%s\n", want ? want : "", filter ? " / " : "", filter ? filter : "");
		return 1;
	}
	printf("%d passed, %d failed (%d checks)\n", ran - failed_cases, failed_cases, test_checks);
	return failed_cases ? 1 : 0;
}
