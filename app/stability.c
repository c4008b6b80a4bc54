/* `drape stability`: the largest stable time step of each integrator on the settings of Boxerman
 * 2003, sec. 6.3-6.5 (rod as PDE and as chain, in-plane sheet, 3D sheet), by bisection, in units of
 * sqrt(m / k_s); a table next to the paper's values, CSV and a PNG chart (docs/stability.md). */
#include "commands.h"
#include "progress.h"
#include "stability_report.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void format_limit(const drape_stab_limit* l, const drape_stab_options* o, char* buf, size_t n)
{
	switch (l->kind) {
	case DRAPE_STAB_LIMIT_FOUND:
		if (l->non_monotone) snprintf(buf, n, "%.3g*", l->k);
		else snprintf(buf, n, "%.3g", l->k);
		break;
	case DRAPE_STAB_LIMIT_ABOVE: snprintf(buf, n, "> %g", o->k_max); break;
	case DRAPE_STAB_LIMIT_BELOW: snprintf(buf, n, "< %g", o->k_min); break;
	default: snprintf(buf, n, "-"); break;
	}
}

static void format_paper(double v, char* buf, size_t n)
{
	if (isnan(v)) snprintf(buf, n, "-");
	else if (isinf(v)) snprintf(buf, n, "uncond.");
	else snprintf(buf, n, "%.3g", v);
}

static const char* kind_name(drape_stab_limit_kind k)
{
	switch (k) {
	case DRAPE_STAB_LIMIT_FOUND: return "found";
	case DRAPE_STAB_LIMIT_ABOVE: return "above_range";
	case DRAPE_STAB_LIMIT_BELOW: return "below_range";
	default: return "not_applicable";
	}
}

/* Writes the CSV to path via a temporary file renamed into place. */
static bool write_csv(const stab_report* r, const char* path)
{
	char tmp[4096];
	if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
		fprintf(stderr, "drape stability: CSV path too long: %s\n", path);
		return false;
	}
	FILE* f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "drape stability: cannot write %s: %s\n", path, strerror(errno));
		return false;
	}
	fprintf(f, "setting,scheme,result,k_stable,k_unstable,non_monotone,k_stable_again,unit_s,dt_stable_s,trials,grid,"
		   "time_s,min_steps,energy_factor,paper_k\n");
	for (int s = 0; s < DRAPE_STAB_SETTING_COUNT; ++s)
		for (int i = 0; i < DRAPE_INTEGRATOR_COUNT; ++i) {
			const stab_cell* c = &r->cell[i][s];
			if (!c->wanted) continue;
			const drape_stab_limit* l = &c->limit;
			double unit = drape_stab_unit((drape_stab_setting)s, r->options.grid);
			double paper = drape_stab_paper_limit((drape_integrator)i, (drape_stab_setting)s);
			fprintf(f, "%s,%s,%s,%.6g,%.6g,%d,%.6g,%.6g,%.6g,%d,%d,%g,%d,%g,%.4g\n", drape_stab_setting_name((drape_stab_setting)s),
				drape_integrator_name((drape_integrator)i), kind_name(l->kind), l->k, l->k_unstable, l->non_monotone,
				l->k_stable_again, unit, l->k * unit, l->trials, r->options.grid, r->options.time,
				r->options.min_steps, r->options.energy_factor, paper);
		}
	bool ok = !ferror(f);
	ok = (fclose(f) == 0) && ok;
	if (ok && rename(tmp, path) != 0) ok = false;
	if (!ok) {
		fprintf(stderr, "drape stability: cannot write %s: %s\n", path, strerror(errno));
		remove(tmp);
	}
	return ok;
}

static void usage(FILE* f)
{
	fprintf(f,
		"usage: drape stability (--all | --scheme NAME | --setting NAME ...) [options]\n"
		"\n"
		"Finds the largest stable time step of each integrator by bisection (ADI Cloth, sec. 6.3-6.5)\n"
		"and prints it in units of sqrt(m/k_s), next to the paper's values.\n"
		"\n"
		"  --all            every scheme on every setting\n"
		"  --scheme NAME    backward_euler, forward_euler, symplectic_euler, imex_bend,\n"
		"                   imex_bend_shear, cn_adi, onoff_adi, split (repeatable)\n"
		"  --setting NAME   wave1d (the rod as finite-difference PDE), rod1d (as mass-spring chain),\n"
		"                   sheet2d (forces in the plane), sheet3d (gravity and force out of it)\n"
		"                   (repeatable); a scheme without a setting runs on all settings and\n"
		"                   vice versa\n"
		"  --grid N         particles along the 1 m rod / each side of the 1 m sheet (default 26:\n"
		"                   h = 0.04 m, m = 0.01 kg, k_s = 50 N/m as in the paper's Table 2)\n"
		"  --time T         simulated seconds per trial (default 1; at least 400 steps are taken)\n"
		"  --range LO:HI    search range in units of sqrt(m/k_s), 0 < LO < HI (default 0.05:20);\n"
		"                   also --range=LO:HI; the old --range LO HI still works but is deprecated\n"
		"  --csv PATH       write the results as CSV\n"
		"  --png PATH       draw the chart as PNG\n"
		"  -j, --threads N  threads for the implicit solves (default 1)\n"
		"  --c1 C           On-Off's stiffness factor c1 (default 2, the consistent value; the\n"
		"                   paper's analysis gives 3)\n"
		"  -q, --quiet      no progress bar\n"
		"  -h, --help       show this help\n"
		"a value may also be given as --option=VALUE\n"
		"\n"
		"A trial is stable when every step succeeds, the rod does not tangle and the kinetic + elastic\n"
		"energy stays below 10x the peak of a symplectic Euler run at 0.2 sqrt(m/k_s), judging each\n"
		"pair of steps by its better state (docs/stability.md). '> HI': stable over the whole range;\n"
		"'< LO': unstable at LO; '*': stable again at some larger scanned step (see the CSV).\n");
}

/* --range's value LO:HI: two finite numbers, 0 < LO < HI. The deprecated two-argument form gives
 * LO alone (no colon) and HI in `next`, taken when it is a number, and then *used_next is set. */
static bool parse_range(const char* value, const char* next, double* lo, double* hi, bool* used_next)
{
	*used_next = false;
	const char* colon = strchr(value, ':');
	char lo_text[64];
	double a, b;
	if (colon) {
		size_t n = (size_t)(colon - value);
		if (n >= sizeof lo_text) return false;
		memcpy(lo_text, value, n);
		lo_text[n] = '\0';
		if (!parse_double_arg(lo_text, -INFINITY, INFINITY, &a) || !parse_double_arg(colon + 1, -INFINITY, INFINITY, &b))
			return false;
	} else {
		if (!parse_double_arg(value, -INFINITY, INFINITY, &a) || !next || !parse_double_arg(next, -INFINITY, INFINITY, &b))
			return false;
		*used_next = true;
	}
	if (!(a > 0.0 && a < b)) return false;
	*lo = a;
	*hi = b;
	return true;
}

int command_stability(int argc, char** argv)
{
	stab_report* r = calloc(1, sizeof *r);
	if (!r) {
		fprintf(stderr, "drape stability: out of memory\n");
		return EXIT_IO;
	}
	r->options = drape_stab_default_options();
	bool all = false, quiet = false;
	bool want_scheme[DRAPE_INTEGRATOR_COUNT] = {false}, any_scheme = false;
	bool want_setting[DRAPE_STAB_SETTING_COUNT] = {false}, any_setting = false;
	const char *csv_path = NULL, *png_path = NULL;
	int status = EXIT_BAD_INPUT;
	enum { OPT_ALL = 256, OPT_SCHEME, OPT_SETTING, OPT_GRID, OPT_TIME, OPT_RANGE, OPT_C1, OPT_CSV, OPT_PNG };
	static const struct option options[] = {
		{"all", no_argument, NULL, OPT_ALL},		{"scheme", required_argument, NULL, OPT_SCHEME},
		{"setting", required_argument, NULL, OPT_SETTING}, {"grid", required_argument, NULL, OPT_GRID},
		{"time", required_argument, NULL, OPT_TIME},	{"range", required_argument, NULL, OPT_RANGE},
		{"threads", required_argument, NULL, 'j'},	{"c1", required_argument, NULL, OPT_C1},
		{"csv", required_argument, NULL, OPT_CSV},	{"png", required_argument, NULL, OPT_PNG},
		{"quiet", no_argument, NULL, 'q'},		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	optind = 1;
	opterr = 0;
	int opt;
	while ((opt = getopt_long(argc, argv, "j:qh", options, NULL)) != -1) {
		long v;
		switch (opt) {
		case 'h':
			usage(stdout);
			free(r);
			return EXIT_OK;
		case OPT_ALL: all = true; break;
		case 'q': quiet = true; break;
		case OPT_SCHEME: {
			drape_integrator it;
			if (!drape_integrator_from_name(optarg, &it)) {
				fprintf(stderr, "drape stability: unknown scheme '%s' (see `drape stability --help`)\n", optarg);
				goto done;
			}
			want_scheme[it] = any_scheme = true;
			break;
		}
		case OPT_SETTING: {
			drape_stab_setting st;
			if (!drape_stab_setting_from_name(optarg, &st)) {
				fprintf(stderr, "drape stability: unknown setting '%s' (wave1d, rod1d, sheet2d or sheet3d)\n", optarg);
				goto done;
			}
			want_setting[st] = any_setting = true;
			break;
		}
		case OPT_GRID:
			if (!cli_int_option("stability", "--grid", optarg, 3, 2000, &v))
				goto done;
			r->options.grid = (int32_t)v;
			break;
		case OPT_TIME:
			if (!parse_double_arg(optarg, -INFINITY, INFINITY, &r->options.time)) {
				fprintf(stderr, "drape stability: --time needs a number of seconds, got '%s'\n", optarg);
				goto done;
			}
			break;
		case OPT_RANGE: {
			/* The deprecated `--range LO HI` only where LO came as its own argument (not
			 * --range=LO), so that HI is the argument after it. */
			bool separate = optarg == argv[optind - 1], used_next;
			const char* next = separate && optind < argc ? argv[optind] : NULL;
			if (!parse_range(optarg, next, &r->options.k_min, &r->options.k_max, &used_next)) {
				fprintf(stderr, "drape stability: --range needs LO:HI, two numbers with 0 < LO < HI, got '%s%s%s'\n",
					optarg, used_next ? " " : "", used_next ? next : "");
				goto done;
			}
			if (used_next)
				fprintf(stderr, "drape stability: `--range LO HI` is deprecated; write --range %s:%s\n", optarg, next);
			if (used_next) ++optind; /* getopt_long counts HI among the options it has seen */
			break;
		}
		case 'j':
			if (!cli_int_option("stability", "--threads", optarg, 1, 1024, &v))
				goto done;
			r->options.threads = (int32_t)v;
			break;
		case OPT_C1:
			if (!parse_double_arg(optarg, -INFINITY, INFINITY, &r->options.onoff_c1) || !(r->options.onoff_c1 > 0.0)) {
				fprintf(stderr, "drape stability: --c1 needs a number > 0, got '%s'\n", optarg);
				goto done;
			}
			break;
		case OPT_CSV: csv_path = optarg; break;
		case OPT_PNG: png_path = optarg; break;
		default:
			cli_report_bad_option("stability", argc, argv, optopt, options);
			goto done;
		}
	}
	if (!cli_no_operands("stability", argc, argv)) goto done;
	const char* bad = drape_stab_check_options(&r->options);
	if (bad) {
		fprintf(stderr, "drape stability: %s\n", bad);
		goto done;
	}
	if (!all && !any_scheme && !any_setting) {
		fprintf(stderr, "drape stability: say what to measure: --all, --scheme NAME or --setting NAME\n");
		goto done;
	}
	int jobs = 0;
	for (int i = 0; i < DRAPE_INTEGRATOR_COUNT; ++i)
		for (int s = 0; s < DRAPE_STAB_SETTING_COUNT; ++s) {
			bool w = all || ((!any_scheme || want_scheme[i]) && (!any_setting || want_setting[s]));
			w = w && drape_stab_applicable((drape_stab_setting)s, (drape_integrator)i);
			r->cell[i][s].wanted = w;
			jobs += w;
		}
	if (jobs == 0) {
		fprintf(stderr, "drape stability: the wave1d setting has only symplectic_euler, backward_euler, cn_adi and onoff_adi\n");
		goto done;
	}
	/* The reference energies, one per setting in use. */
	double e_ref[DRAPE_STAB_SETTING_COUNT];
	for (int s = 0; s < DRAPE_STAB_SETTING_COUNT; ++s) {
		bool used = false;
		for (int i = 0; i < DRAPE_INTEGRATOR_COUNT; ++i) used = used || r->cell[i][s].wanted;
		e_ref[s] = used ? drape_stab_reference_energy((drape_stab_setting)s, &r->options) : NAN;
		if (used && !(isfinite(e_ref[s]) && e_ref[s] > 0.0)) {
			fprintf(stderr, "drape stability: the %s reference run (symplectic Euler at 0.2 sqrt(m/k_s)) failed\n",
				drape_stab_setting_name((drape_stab_setting)s));
			status = EXIT_DIVERGED;
			goto done;
		}
	}
	progress bar;
	progress_begin(&bar, "stability", jobs, quiet);
	int done_jobs = 0;
	double t0 = wall_seconds();
	for (int s = 0; s < DRAPE_STAB_SETTING_COUNT; ++s)
		for (int i = 0; i < DRAPE_INTEGRATOR_COUNT; ++i) {
			if (!r->cell[i][s].wanted) continue;
			r->cell[i][s].limit = drape_stab_find_limit((drape_stab_setting)s, (drape_integrator)i, e_ref[s], &r->options);
			progress_update(&bar, ++done_jobs, 0.0);
		}
	progress_end(&bar);

	const drape_stab_options* o = &r->options;
	printf("largest stable step k / sqrt(m/k_s): grid %d (h = %.4g m, sqrt(m/k_s) = %.4g s), trials of max(%g s, %d steps),\n"
	       "stable = every step succeeds, no tangled rod, kinetic + elastic energy <= %g x reference; %.0f s\n",
	       o->grid, 1.0 / (o->grid - 1), drape_stab_unit(DRAPE_STAB_ROD1D, o->grid), o->time, o->min_steps, o->energy_factor,
	       wall_seconds() - t0);
	printf("%-17s", "scheme");
	for (int s = 0; s < DRAPE_STAB_SETTING_COUNT; ++s) printf(" %9s", drape_stab_setting_name((drape_stab_setting)s));
	printf(" %9s %9s\n", "paper 1D", "paper 2D");
	for (int i = 0; i < DRAPE_INTEGRATOR_COUNT; ++i) {
		bool any = false;
		for (int s = 0; s < DRAPE_STAB_SETTING_COUNT; ++s) any = any || r->cell[i][s].wanted;
		if (!any) continue;
		printf("%-17s", drape_integrator_name((drape_integrator)i));
		char buf[32];
		for (int s = 0; s < DRAPE_STAB_SETTING_COUNT; ++s) {
			if (r->cell[i][s].wanted) format_limit(&r->cell[i][s].limit, o, buf, sizeof buf);
			else snprintf(buf, sizeof buf, "-");
			printf(" %9s", buf);
		}
		format_paper(drape_stab_paper_limit((drape_integrator)i, DRAPE_STAB_ROD1D), buf, sizeof buf);
		printf(" %9s", buf);
		format_paper(drape_stab_paper_limit((drape_integrator)i, DRAPE_STAB_SHEET2D), buf, sizeof buf);
		printf(" %9s\n", buf);
	}
	status = EXIT_OK;
	if (csv_path && !write_csv(r, csv_path)) status = EXIT_IO;
	char err[512];
	if (png_path && !stability_chart_png(r, png_path, err, sizeof err)) {
		fprintf(stderr, "drape stability: %s\n", err);
		status = EXIT_IO;
	}
done:
	free(r);
	return status;
}
