/* `drape bench --scaling`: how the implicit step's cost grows with resolution (issue 12;
 * docs/benchmarks.md, "Scaling"). The figure 2 sheet at 51^2 ... 401^2 (optionally 501^2)
 * particles, one thread: CPU ms per frame, steps per frame, CG iterations per step, the largest
 * warp/weft strain over all frames, peak memory, the fitted exponent of time against particle
 * count, and the block-sparse product's memory bandwidth as a share of memcpy's. */
#include "commands.h"
#include "progress.h"

#include "drape.h"

#include <cjson/cJSON.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

typedef struct scaling_row {
	int particles;
	double ms_per_frame, steps_per_frame, cg_per_step, max_strain;
	double peak_mib;
	double spmv_gbs, copy_gbs;
	bool ok;
} scaling_row;

/* The figure 2 sheet at res x res, cloth/cloth contact off (the flat fine sheet's bogus contacts
 * are issue 12's item 4, not the solver's cost), preconditioner by name (NULL: the default). */
static char* sheet_text(int res, const char* preconditioner)
{
	cJSON* root = cJSON_Parse(drape_builtin_file("figure2_sheet.json"));
	if (!root) return NULL;
	cJSON* grid = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(root, "cloths"), 0), "grid");
	int r[2] = {res, res};
	cJSON_ReplaceItemInObject(grid, "resolution", cJSON_CreateIntArray(r, 2));
	cJSON* cc = cJSON_AddObjectToObject(root, "cloth_contact");
	cJSON_AddBoolToObject(cc, "enabled", false);
	if (preconditioner) cJSON_AddStringToObject(cJSON_GetObjectItem(root, "solver"), "preconditioner", preconditioner);
	char* text = cJSON_PrintUnformatted(root);
	cJSON_Delete(root);
	return text;
}

/* Largest |length / rest - 1| over the grid's warp and weft edges at positions x (3 doubles per
 * particle; what ../shared/tools/strain.py measures on output frames). */
static double distance(const double* a, const double* b)
{
	const double d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
	return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

static double grid_strain(const double* x, int res, double rest)
{
	double worst = 0.0;
	for (int j = 0; j < res; ++j)
		for (int i = 0; i < res; ++i) {
			const double* p = &x[3 * (j * res + i)];
			if (i + 1 < res) worst = fmax(worst, fabs(distance(&x[3 * (j * res + i + 1)], p) / rest - 1.0));
			if (j + 1 < res) worst = fmax(worst, fabs(distance(&x[3 * ((j + 1) * res + i)], p) / rest - 1.0));
		}
	return worst;
}

static scaling_row run_size(int res, int frames, const char* preconditioner)
{
	scaling_row r = {0};
	char err[1024];
	char* text = sheet_text(res, preconditioner);
	drape_scene* s = text ? drape_scene_load_text(text, "<bench>/figure2_sheet.json", err, sizeof err) : NULL;
	if (!s) {
		fprintf(stderr, "drape bench: %s\n", text ? err : "out of memory");
		free(text);
		return r;
	}
	free(text);
	drape_world_def def = drape_scene_world_def(s);
	def.threads = 1;
	drape_world* w = drape_scene_create_world(s, &def, err, sizeof err);
	double* x = malloc(3 * (size_t)res * (size_t)res * sizeof *x);
	if (!w || !x) {
		fprintf(stderr, "drape bench: %s\n", w ? "out of memory" : err);
		drape_world_destroy(w);
		drape_scene_destroy(s);
		free(x);
		return r;
	}
	const double rest = 1.0 / (res - 1); /* the sheet is 1 m square */
	double dt = 1.0 / drape_scene_fps(s), elapsed = 0.0;
	r.ok = true;
	for (int f = 1; f <= frames && r.ok; ++f) {
		double t0 = cpu_seconds();
		r.ok = drape_world_step(w, f * dt - drape_world_time(w)) == DRAPE_OK;
		elapsed += cpu_seconds() - t0;
		drape_cloth_get_positions(w, (drape_cloth_id){0}, x);
		r.max_strain = fmax(r.max_strain, grid_strain(x, res, rest));
	}
	if (!r.ok) fprintf(stderr, "drape bench: %s\n", drape_world_error(w));
	drape_stats st = drape_world_get_stats(w);
	r.particles = drape_cloth_vertex_count(w, (drape_cloth_id){0});
	r.ms_per_frame = 1e3 * elapsed / frames;
	r.steps_per_frame = (double)st.steps / frames;
	r.cg_per_step = st.steps ? (double)st.cg_iterations / (double)st.steps : 0.0;
	drape_world_measure_bandwidth(w, 20, &r.spmv_gbs, &r.copy_gbs);
	r.spmv_gbs *= 1e-9;
	r.copy_gbs *= 1e-9;
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	r.peak_mib = (double)ru.ru_maxrss / 1024.0;
	drape_world_destroy(w);
	drape_scene_destroy(s);
	free(x);
	return r;
}

int command_bench_scaling(int argc, char** argv)
{
	long frames = 10, largest = 401;
	const char* preconditioner = NULL;
	/* --scaling itself is in the table: command_bench passes the whole command line. */
	enum { OPT_SCALING = 256, OPT_LARGEST, OPT_PRECONDITIONER };
	static const struct option options[] = {
		{"scaling", no_argument, NULL, OPT_SCALING},
		{"frames", required_argument, NULL, 'n'},
		{"largest", required_argument, NULL, OPT_LARGEST},
		{"preconditioner", required_argument, NULL, OPT_PRECONDITIONER},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	optind = 1;
	opterr = 0;
	int opt;
	while ((opt = getopt_long(argc, argv, "n:h", options, NULL)) != -1) {
		switch (opt) {
		case OPT_SCALING: break;
		case 'h':
			printf("usage: drape bench --scaling [options]\n"
			       "\n"
			       "The figure 2 sheet (cloth/cloth contact off) at 51^2, 101^2, 201^2, 401^2 particles and, with\n"
			       "--largest 501, 501^2, for N frames on one thread. Prints a Markdown table: CPU ms per\n"
			       "frame, steps per frame, CG iterations per step, the largest warp/weft strain over the frames,\n"
			       "peak memory (getrusage, so far), and the sparse matrix-vector product's bandwidth as a share of\n"
			       "memcpy's; then the exponent p of time ~ particles^p fitted from 51^2 to 401^2.\n"
			       "\n"
			       "options (a value may also be given as --option=VALUE):\n"
			       "  -n, --frames N            frames per size, 1 to 100000 (default 10)\n"
			       "  --largest RES             the largest grid, 51 to 1001 (default 401; 501 adds 501^2)\n"
			       "  --preconditioner NAME     block_jacobi, cholesky, two_level or multigrid\n"
			       "                            (default: the solver's)\n"
			       "  -h, --help                show this help\n");
			return EXIT_OK;
		case 'n':
			if (!cli_int_option("bench", "--frames", optarg, 1, 100000, &frames))
				return EXIT_BAD_INPUT;
			break;
		case OPT_LARGEST:
			if (!parse_int_arg(optarg, 51, 1001, &largest)) {
				fprintf(stderr, "drape bench: --largest needs a grid resolution from 51 to 1001, got '%s'\n", optarg);
				return EXIT_BAD_INPUT;
			}
			break;
		case OPT_PRECONDITIONER: {
			preconditioner = optarg;
			drape_preconditioner p;
			if (!drape_preconditioner_from_name(preconditioner, &p)) {
				fprintf(stderr, "drape bench: --preconditioner: unknown preconditioner '%s' (block_jacobi, cholesky, two_level, multigrid)\n",
					preconditioner);
				return EXIT_BAD_INPUT;
			}
			if (!drape_preconditioner_available(p)) {
				fprintf(stderr, "drape bench: preconditioner '%s' needs CHOLMOD, which this build lacks\n", preconditioner);
				return EXIT_BAD_INPUT;
			}
			break;
		}
		default:
			cli_report_bad_option("bench --scaling", argc, argv, optopt, options);
			return EXIT_BAD_INPUT;
		}
	}
	if (!cli_no_operands("bench --scaling", argc, argv)) return EXIT_BAD_INPUT;
	const int sizes[] = {51, 101, 201, 401, 501};
	double sx = 0, sy = 0, sxx = 0, sxy = 0;
	int fitted = 0, status = EXIT_OK;
	printf("figure 2 sheet, cloth/cloth contact off, %ld frames, 1 thread, preconditioner %s\n\n", frames,
	       preconditioner ? preconditioner : drape_preconditioner_name(drape_default_world_def().preconditioner));
	printf("| particles | CPU ms / frame | steps / frame | CG iterations / step | max warp/weft strain | peak memory (MiB) | "
	       "SpMV GB/s | copy GB/s | SpMV / copy |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	fflush(stdout);
	for (size_t k = 0; k < sizeof sizes / sizeof sizes[0] && sizes[k] <= largest; ++k) {
		scaling_row r = run_size(sizes[k], (int)frames, preconditioner);
		if (!r.ok) status = EXIT_DIVERGED;
		printf("| %d | %.1f | %.2f | %.1f | %.2f %% | %.0f | %.2f | %.2f | %.0f %% |\n", r.particles, r.ms_per_frame,
		       r.steps_per_frame, r.cg_per_step, 100.0 * r.max_strain, r.peak_mib, r.spmv_gbs, r.copy_gbs,
		       r.copy_gbs > 0.0 ? 100.0 * r.spmv_gbs / r.copy_gbs : 0.0);
		fflush(stdout);
		if (r.ok && sizes[k] <= 401 && r.ms_per_frame > 0.0) {
			double x = log((double)r.particles), y = log(r.ms_per_frame);
			sx += x, sy += y, sxx += x * x, sxy += x * y;
			fitted++;
		}
	}
	if (fitted >= 2)
		printf("\nfitted exponent (time ~ particles^p, least squares over %d sizes up to 401^2): p = %.2f\n", fitted,
		       (fitted * sxy - sx * sy) / (fitted * sxx - sx * sx));
	return status;
}
