/* `drape bench --integrators`: cost per step and per simulated second of each integrator on the
 * 3D sheet of the stability experiments (ADI Cloth sec. 6.5) at 50^2 ... 500^2 particles, each at
 * its own largest stable step (measured by the stability search on the 26 x 26 sheet, in units of
 * sqrt(m / k_s), and rescaled to each grid). Shows the line schemes' O(n) cost per step against the
 * CG-based implicit step (docs/stability.md). */
#include "commands.h"
#include "progress.h"

#include "drape_stability.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Steps are taken at this fraction of the measured limit (the limit varies by about 1% with h). */
#define SAFETY 0.9
/* Unconditionally stable schemes: the top of the search range, but at most one 1/30 s frame. */
#define FRAME (1.0 / 30.0)

typedef struct bench_case {
	double ms_per_step; /* median over runs */
	double cg_per_step;
	double dt;
	int64_t steps;
	bool ok;
} bench_case;

static int compare_doubles(const void* a, const void* b)
{
	double x = *(const double*)a, y = *(const double*)b;
	return x < y ? -1 : (x > y ? 1 : 0);
}

/* Times `integrator` on the grid x grid sheet at step dt: one untimed step, then `steps` timed
 * steps, `runs` times. The same steps from rest on every grid: with dt in units of
 * sqrt(m / k_s) = h / alpha, n steps carry the waves from the pinned edge and the pulled corner
 * over the same number of cells, so the state (and the CG work) is alike across grids. */
static bench_case time_case(drape_integrator integrator, int32_t grid, double dt, int runs, int steps, int threads)
{
	bench_case r = {0};
	r.dt = dt;
	r.ok = true;
	double ms[16];
	char err[256];
	for (int k = 0; k < runs && r.ok; ++k) {
		drape_stab_case* c = drape_stab_case_create(DRAPE_STAB_SHEET3D, integrator, grid, dt, threads, 0.0, 0.0, err, sizeof err);
		if (!c) {
			fprintf(stderr, "drape bench: %s\n", err);
			r.ok = false;
			break;
		}
		r.ok = drape_stab_case_step(c);
		drape_world_reset_stats(drape_stab_case_world(c));
		double t0 = wall_seconds();
		int64_t n = 0;
		while (r.ok && n < steps) {
			r.ok = drape_stab_case_step(c);
			++n;
		}
		double el = wall_seconds() - t0;
		r.ok = r.ok && isfinite(drape_stab_case_energy(c));
		drape_stats st = drape_world_get_stats(drape_stab_case_world(c));
		ms[k] = 1e3 * el / (double)n;
		r.steps = n;
		r.cg_per_step = st.steps ? (double)st.cg_iterations / (double)st.steps : 0.0;
		if (!r.ok) fprintf(stderr, "drape bench: %s on %d^2 failed: %s\n", drape_integrator_name(integrator), grid,
				   drape_world_error(drape_stab_case_world(c)));
		drape_stab_case_destroy(c);
	}
	if (r.ok) {
		qsort(ms, (size_t)runs, sizeof ms[0], compare_doubles);
		r.ms_per_step = runs % 2 ? ms[runs / 2] : 0.5 * (ms[runs / 2 - 1] + ms[runs / 2]);
	}
	return r;
}

int command_bench_integrators(int argc, char** argv)
{
	long runs = 3, threads = 1, max_grid = 500, steps = 10;
	const char* csv_path = NULL;
	bool quiet = false;
	/* --integrators itself is in the table: command_bench passes the whole command line. */
	enum { OPT_INTEGRATORS = 256, OPT_RUNS, OPT_MAX_GRID, OPT_STEPS, OPT_CSV };
	static const struct option options[] = {
		{"integrators", no_argument, NULL, OPT_INTEGRATORS},
		{"runs", required_argument, NULL, OPT_RUNS},
		{"threads", required_argument, NULL, 'j'},
		{"max-grid", required_argument, NULL, OPT_MAX_GRID},
		{"steps", required_argument, NULL, OPT_STEPS},
		{"csv", required_argument, NULL, OPT_CSV},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	optind = 1;
	opterr = 0;
	int opt;
	while ((opt = getopt_long(argc, argv, "j:qh", options, NULL)) != -1) {
		switch (opt) {
		case OPT_INTEGRATORS: break;
		case 'h':
			printf("usage: drape bench --integrators [options]\n"
			       "\n"
			       "Cost of each integrator on the 3D sheet of `drape stability` (left edge pinned, gravity\n"
			       "and a corner force out of plane, no shear or bend) with 50^2, 100^2, 200^2 and 500^2\n"
			       "particles (up to N^2), each at 0.9x its largest stable step measured on\n"
			       "the 26^2 sheet and rescaled by sqrt(m/k_s); unconditionally stable schemes at\n"
			       "20 sqrt(m/k_s) or one 1/30 s frame, whichever is smaller. Each case takes one untimed\n"
			       "and S timed steps from rest, R times; the table gives the\n"
			       "median ms per step, ns per step and particle, CG iterations per step and ms per\n"
			       "simulated second. A last row, backward@frame, runs backward Euler at one 1/30 s\n"
			       "frame on every grid.\n"
			       "\n"
			       "options (a value may also be given as --option=VALUE):\n"
			       "  --runs R          runs of each case, 1 to 15 (default 3); the median is reported\n"
			       "  -j, --threads T   threads, 1 to 1024 (default 1)\n"
			       "  --max-grid N      the largest grid, 50 to 2000 (default 500)\n"
			       "  --steps S         timed steps per case, 1 to 100000 (default 10)\n"
			       "  --csv FILE        also write the rows as CSV\n"
			       "  -q, --quiet       no progress bar\n"
			       "  -h, --help        show this help\n");
			return EXIT_OK;
		case OPT_RUNS:
			if (!cli_int_option("bench", "--runs", optarg, 1, 15, &runs))
				return EXIT_BAD_INPUT;
			break;
		case 'j':
			if (!cli_int_option("bench", "--threads", optarg, 1, 1024, &threads))
				return EXIT_BAD_INPUT;
			break;
		case OPT_MAX_GRID:
			if (!cli_int_option("bench", "--max-grid", optarg, 50, 2000, &max_grid))
				return EXIT_BAD_INPUT;
			break;
		case OPT_STEPS:
			if (!cli_int_option("bench", "--steps", optarg, 1, 100000, &steps))
				return EXIT_BAD_INPUT;
			break;
		case OPT_CSV: csv_path = optarg; break;
		case 'q': quiet = true; break;
		default:
			cli_report_bad_option("bench --integrators", argc, argv, optopt, options);
			return EXIT_BAD_INPUT;
		}
	}
	if (!cli_no_operands("bench --integrators", argc, argv)) return EXIT_BAD_INPUT;
	FILE* csv = NULL;
	if (csv_path) {
		csv = fopen(csv_path, "w");
		if (!csv) {
			fprintf(stderr, "drape bench: cannot write %s: %s\n", csv_path, strerror(errno));
			return EXIT_IO;
		}
		fprintf(csv, "scheme,particles,limit_units,dt_s,steps_timed,runs,ms_per_step,ns_per_particle_step,cg_per_step,"
			     "ms_per_sim_second\n");
	}
	/* The limits, from the stability search on the default sheet. */
	drape_stab_options o = drape_stab_default_options();
	double e_ref = drape_stab_reference_energy(DRAPE_STAB_SHEET3D, &o);
	if (!(isfinite(e_ref) && e_ref > 0.0)) {
		fprintf(stderr, "drape bench: the sheet3d reference run failed\n");
		if (csv) fclose(csv);
		return EXIT_DIVERGED;
	}
	double limit[DRAPE_INTEGRATOR_COUNT];
	progress bar;
	progress_begin(&bar, "limits", DRAPE_INTEGRATOR_COUNT, quiet);
	for (int i = 0; i < DRAPE_INTEGRATOR_COUNT; ++i) {
		drape_stab_limit l = drape_stab_find_limit(DRAPE_STAB_SHEET3D, (drape_integrator)i, e_ref, &o);
		limit[i] = l.kind == DRAPE_STAB_LIMIT_FOUND ? SAFETY * l.k : (l.kind == DRAPE_STAB_LIMIT_ABOVE ? o.k_max : NAN);
		progress_update(&bar, i + 1, 0.0);
	}
	progress_end(&bar);
	const int32_t grids[] = {50, 100, 200, 500, 1000, 2000};
	printf("sheet3d, %ld run(s) each, %ld thread(s); dt in units of sqrt(m/k_s) (0.9x the measured limit, or 20 capped\n"
	       "at 1/30 s); ms/step median; ns/(step particle); CG iterations per step; ms per simulated second\n",
	       runs, threads);
	printf("%-16s %9s %8s %10s %6s %10s %10s %8s %12s\n", "scheme", "particles", "dt units", "dt s", "timed", "ms/step",
	       "ns/(st n)", "CG/step", "ms/sim s");
	int status = EXIT_OK;
	/* The last row: backward Euler at one 1/30 s frame on every grid, the step an animation takes,
	 * which grows in units of sqrt(m / k_s) = h / alpha as the grid refines: CG's iterations grow
	 * with it (sec. 2.2's O(n^1.5)), which the line solves do not have. */
	for (int i = 0; i <= DRAPE_INTEGRATOR_COUNT; ++i) {
		const bool frame_row = i == DRAPE_INTEGRATOR_COUNT;
		drape_integrator it = frame_row ? DRAPE_INTEGRATOR_BACKWARD_EULER : (drape_integrator)i;
		const char* name = frame_row ? "backward@frame" : drape_integrator_name(it);
		if (!frame_row && isnan(limit[i])) {
			printf("%-16s no stable step in [%g, %g] sqrt(m/k_s): not timed\n", drape_integrator_name(it), o.k_min, o.k_max);
			continue;
		}
		for (size_t g = 0; g < sizeof grids / sizeof grids[0] && grids[g] <= max_grid; ++g) {
			int32_t n = grids[g];
			double unit = drape_stab_unit(DRAPE_STAB_SHEET3D, n);
			double dt = frame_row ? FRAME : limit[i] * unit;
			if (!frame_row && limit[i] >= o.k_max && dt > FRAME) dt = FRAME;
			bench_case r = time_case(it, n, dt, (int)runs, (int)steps, (int)threads);
			double particles = (double)n * n;
			if (!r.ok) {
				printf("%-16s %9.0f %8.3f %10.3e  failed\n", name, particles, dt / unit, dt);
				status = EXIT_DIVERGED;
				continue;
			}
			printf("%-16s %9.0f %8.3f %10.3e %6lld %10.3f %10.1f %8.1f %12.1f\n", name, particles,
			       dt / unit, dt, (long long)r.steps, r.ms_per_step, 1e6 * r.ms_per_step / particles, r.cg_per_step,
			       r.ms_per_step / dt);
			fflush(stdout);
			if (csv)
				fprintf(csv, "%s,%.0f,%.4f,%.6e,%lld,%ld,%.4f,%.2f,%.2f,%.2f\n", name, particles, dt / unit,
					dt, (long long)r.steps, runs, r.ms_per_step, 1e6 * r.ms_per_step / particles, r.cg_per_step,
					r.ms_per_step / dt);
		}
	}
	if (csv && fclose(csv) != 0) {
		fprintf(stderr, "drape bench: cannot write %s\n", csv_path);
		status = EXIT_IO;
	}
	return status;
}
