/* Preconditioner tests (docs/solver.md, "Preconditioners"): the Cholesky, two-level and multigrid
 * preconditioners give the modified PCG (sec. 5.3) the same answer as block Jacobi on random
 * constrained systems (Cholesky fresh or stale); pins stay exactly on target; results are bit-identical for any thread count; bad
 * settings are refused. */
#include "fixtures.h"
#include "test.h"

#include "io/embedded.h"
#include "io/scene.h"
#include "solver/aggregate.h"
#include "solver/cholesky.h"
#include "step/constraints.h"
#include "solver/filtered.h"
#include "step/implicit.h"
#include "solver/multigrid.h"
#include "solver/pcg.h"
#include "solver/smoothed_prolongator.h"
#include "solver/two_level.h"
#include "world.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A sheet bent by `model` with a random deformation and random velocities, assembled for a step
 * of h. */
static drape_world* random_system_of(const drape_world_def* wd, drape_bend_model model, int res, double h, uint64_t seed)
{
	return fixture_assembled_sheet(wd, model, res, h, seed, false);
}

/* The same with hinges and the default world: the 1-ring pattern the multigrid's level counts
 * below are set for (the tensor elements' second ring would sit in A's scalar part, which the
 * multigrid refuses; docs/solver.md, "Assembly"). */
static drape_world* random_system(int res, double h, uint64_t seed)
{
	drape_world_def wd = drape_default_world_def();
	return random_system_of(&wd, DRAPE_BEND_DIHEDRAL, res, h, seed);
}

/* Every fourth particle constrained, cycling through point, plane and line (eq. 13). */
static void constrain(drape_world* w, uint64_t* seed)
{
	for (int32_t i = 0; i < w->model.particle_count; ++i) {
		w->work.constrained[i] = 0;
		w->work.S[i] = m3_identity();
		w->work.z[i] = v3_zero();
	}
	for (int32_t i = 0; i < w->model.particle_count; i += 4) {
		vec3 p = v3_normalize(v3(fixture_rand(seed), fixture_rand(seed), fixture_rand(seed)));
		vec3 q = v3_normalize(v3_cross(p, v3(0.3, 0.5, 0.7)));
		vec3 target = v3(fixture_rand(seed), fixture_rand(seed), fixture_rand(seed));
		w->work.constrained[i] = 1;
		int kind = (i / 4) % 3;
		mat3 P = m3_outer(p, p);
		if (kind == 2) P = m3_add(P, m3_outer(q, q));
		w->work.S[i] = kind == 0 ? m3_zero() : m3_sub(m3_identity(), P);
		w->work.z[i] = kind == 0 ? target : m3_mulv(P, target);
	}
}

/* Solves the constrained system of `w` with block Jacobi and with a Cholesky factor made from
 * `factor_from` (w itself: exact; another system on the same pattern: stale), and compares. */
static void compare_with_block_jacobi(drape_world* w, drape_world* factor_from)
{
	const int32_t n = w->model.particle_count;
	vec3* ref = malloc((size_t)n * sizeof *ref);
	pcg_result rb = pcg_solve(&w->work.A, w->work.b, w->work.z, NULL, w->work.S, w->work.constrained, 1e-10, 100000, 1, &w->work.pcg, ref);
	cholesky_precond* chol = cholesky_create(&factor_from->work.A);
	CHECK(chol != NULL);
	if (!chol) {
		free(ref);
		return;
	}
	CHECK(cholesky_factor(chol, &factor_from->work.A, factor_from->work.S, factor_from->work.constrained));
	w->work.pcg.cholesky = chol;
	pcg_result rc = pcg_solve(&w->work.A, w->work.b, w->work.z, NULL, w->work.S, w->work.constrained, 1e-10, 100000, 1, &w->work.pcg, w->work.dv);
	w->work.pcg.cholesky = NULL;
	CHECK(rb.converged && rc.converged);
	/* An exact factor of the filtered matrix converges at once. */
	if (factor_from == w) CHECK(rc.iterations <= 3 && rc.iterations < rb.iterations);
	double worst = 0.0, scale = 0.0;
	int exact_points = 0;
	for (int32_t i = 0; i < n; ++i) {
		worst = fmax(worst, v3_len(v3_sub(ref[i], w->work.dv[i])));
		scale = fmax(scale, v3_len(ref[i]));
		if (!w->work.constrained[i]) continue;
		/* The filter holds the constrained components at z, exactly for points. */
		vec3 c = v3_sub(w->work.dv[i], m3_mulv(w->work.S[i], w->work.dv[i]));
		if (w->work.S[i].m[0][0] == 0.0 && w->work.S[i].m[1][1] == 0.0 && w->work.S[i].m[2][2] == 0.0) {
			CHECK(w->work.dv[i].x == w->work.z[i].x && w->work.dv[i].y == w->work.z[i].y && w->work.dv[i].z == w->work.z[i].z);
			exact_points++;
		} else {
			CHECK(v3_len(v3_sub(c, w->work.z[i])) <= 1e-12 * (1.0 + v3_len(w->work.z[i])));
		}
	}
	CHECK(exact_points > 0);
	CHECK(scale > 0.0);
	CHECK(worst <= 1e-6 * scale);
	cholesky_destroy(chol);
	/* The two-level preconditioner: the same answer in fewer iterations than block Jacobi, with
	 * an exact coarse solve, and with more levels (a coarse limit of 4 aggregates), where the
	 * prolongator is smoothed (smoothed_prolongator.h) and two threads give the same bits. */
	for (int levels = 0; levels < 2; ++levels) {
		two_level* tl = two_level_create(&w->work.A, levels ? 4 : TWO_LEVEL_MAX_FACTORED);
		CHECK(tl != NULL);
		if (tl) {
			CHECK(two_level_coarse_count(tl) > 1 && two_level_coarse_count(tl) < n / 4);
			CHECK(two_level_smoothed(tl) == (levels == 1));
			CHECK(two_level_setup(tl, &w->work.A, w->work.S, w->work.constrained));
			w->work.pcg.two_level = tl;
			vec3* two = malloc((size_t)n * sizeof *two);
			pcg_result r2 = pcg_solve(&w->work.A, w->work.b, w->work.z, NULL, w->work.S, w->work.constrained, 1e-10, 100000, 2, &w->work.pcg, two);
			pcg_result rt = pcg_solve(&w->work.A, w->work.b, w->work.z, NULL, w->work.S, w->work.constrained, 1e-10, 100000, 1, &w->work.pcg, w->work.dv);
			w->work.pcg.two_level = NULL;
			CHECK(rt.converged && rt.iterations < rb.iterations);
			CHECK(two && r2.iterations == rt.iterations && memcmp(two, w->work.dv, (size_t)n * sizeof *two) == 0);
			free(two);
			double worst_t = 0.0;
			for (int32_t i = 0; i < n; ++i) {
				worst_t = fmax(worst_t, v3_len(v3_sub(ref[i], w->work.dv[i])));
				if (w->work.constrained[i] && w->work.S[i].m[0][0] == 0.0 && w->work.S[i].m[1][1] == 0.0 && w->work.S[i].m[2][2] == 0.0)
					CHECK(w->work.dv[i].x == w->work.z[i].x && w->work.dv[i].y == w->work.z[i].y && w->work.dv[i].z == w->work.z[i].z);
			}
			CHECK(worst_t <= 1e-6 * scale);
			two_level_destroy(tl);
		}
	}
	free(ref);
}

/* The smoothed prolongator (smoothed_prolongator.h): each row's weights sum to one (a common
 * translation is a coarse motion exactly), the restriction is P's transpose (r . P x = P^T r . x),
 * and the coarse matrix is the Galerkin P^T A P: x_c . A_c x_c = (P x_c) . A (P x_c). */
static void test_smoothed_prolongator_galerkin(void)
{
	for (int split = 0; split < 2; ++split) {
		uint64_t seed = 41;
		drape_world_def wd = drape_default_world_def();
		drape_world* w = random_system_of(&wd, split ? DRAPE_BEND_TENSOR : DRAPE_BEND_DIHEDRAL, 9, 0.02, 7);
		CHECK(w != NULL);
		if (!w) return;
		const int32_t n = w->model.particle_count;
		constrain(w, &seed);
		CHECK(!split || w->work.A.iso_start != NULL);
		int32_t* agg = malloc((size_t)n * sizeof *agg);
		const int32_t nc = agg ? aggregate_greedy(n, w->work.A.row_start, w->work.A.cols, agg) : 0;
		smoothed_prolongator p;
		bsr coarse = {0};
		CHECK(agg && nc > 1 && smoothed_prolongator_init(&p, &w->work.A, agg, nc, &coarse));
		vec3 *x = malloc((size_t)n * sizeof *x), *r = malloc((size_t)n * sizeof *r);
		vec3 *xc = malloc((size_t)nc * sizeof *xc), *Acx = malloc((size_t)nc * sizeof *Acx);
		CHECK(x && r && xc && Acx);
		if (agg && nc > 1 && x && r && xc && Acx) {
			for (int32_t i = 0; i < n; ++i) {
				double sum = 0.0;
				for (int32_t e = p.P.start[i]; e < p.P.start[i + 1]; ++e) sum += p.w[e];
				CHECK(fabs(sum - 1.0) < 1e-14);
				r[i] = v3(fixture_rand(&seed), fixture_rand(&seed), fixture_rand(&seed));
			}
			for (int32_t a = 0; a < nc; ++a) xc[a] = v3(fixture_rand(&seed), fixture_rand(&seed), fixture_rand(&seed));
			double lhs = 0.0, rhs = 0.0;
			for (int32_t i = 0; i < n; ++i) {
				x[i] = smoothed_prolongator_prolong(&p, xc, i);
				lhs += v3_dot(r[i], x[i]);
			}
			for (int32_t a = 0; a < nc; ++a) rhs += v3_dot(smoothed_prolongator_restrict(&p, r, a), xc[a]);
			CHECK(fabs(lhs - rhs) <= 1e-12 * fabs(lhs));
			/* The filtered matrix's energy, A's blocks and scalar part through filtered.h. */
			bsr_zero(&coarse, 1);
			smoothed_prolongator_galerkin(&p, &w->work.A, w->work.S, w->work.constrained, &coarse);
			double fine = 0.0;
			for (int32_t I = 0; I < n; ++I) {
				vec3 s = v3_zero();
				for (int32_t k = w->work.A.row_start[I]; k < w->work.A.row_start[I + 1]; ++k)
					s = v3_add(s, m3_mulv(filtered_block(&w->work.A, k, I, w->work.A.cols[k], w->work.S, w->work.constrained), x[w->work.A.cols[k]]));
				for (int32_t k = bsr_iso_begin(&w->work.A, I); k < bsr_iso_end(&w->work.A, I); ++k)
					s = v3_add(s, m3_mulv(filtered_iso(&w->work.A, k, I, w->work.S, w->work.constrained), x[w->work.A.iso_cols[k]]));
				fine += v3_dot(x[I], s);
			}
			bsr_mul(&coarse, xc, Acx, 1);
			double coarse_energy = 0.0;
			for (int32_t a = 0; a < nc; ++a) coarse_energy += v3_dot(xc[a], Acx[a]);
			CHECK(fine > 0.0 && fabs(coarse_energy - fine) <= 1e-10 * fine);
			/* Symmetric, as P^T A P is. */
			for (int32_t a = 0; a < nc; ++a)
				for (int32_t k = coarse.row_start[a]; k < coarse.row_start[a + 1]; ++k) {
					int32_t t = bsr_find(&coarse, coarse.cols[k], a);
					CHECK(t >= 0);
					for (int u = 0; t >= 0 && u < 3; ++u)
						for (int v = 0; v < 3; ++v)
							CHECK(fabs(coarse.blocks[k].m[u][v] - coarse.blocks[t].m[v][u]) <=
							      1e-12 * (1.0 + fabs(coarse.blocks[k].m[u][v])));
				}
			smoothed_prolongator_free(&p);
		}
		bsr_free(&coarse);
		free(agg);
		free(x);
		free(r);
		free(xc);
		free(Acx);
		drape_world_destroy(w);
	}
}

/* Tensor bending's second ring in A's scalar part (bsr.h) against the same system with every
 * coupling in blocks (the pattern the multigrid coarsens): the same products, and the two-level
 * preconditioner on the split matrix gives the modified PCG the full matrix's answer. */
static void test_tensor_scalar_part_same_system(void)
{
	if (!cholesky_available()) return; /* a build without CHOLMOD: bad_preconditioner_settings covers it */
	const double h = 1.0 / 30.0;
	drape_world* sys[2];
	for (int full = 0; full < 2; ++full) {
		drape_world_def wd = drape_default_world_def();
		wd.preconditioner = full ? DRAPE_PRECONDITIONER_MULTIGRID : DRAPE_PRECONDITIONER_TWO_LEVEL;
		drape_world* w = random_system_of(&wd, DRAPE_BEND_TENSOR, 13, h, 41);
		uint64_t cseed = 43;
		constrain(w, &cseed);
		sys[full] = w;
	}
	drape_world *split = sys[0], *full = sys[1];
	const int32_t n = split->model.particle_count;
	CHECK(full->work.A.iso_start == NULL);
	CHECK(split->work.A.iso_start != NULL && split->work.A.iso_start[n] > 0);
	CHECK(split->work.A.nnz < full->work.A.nnz);
	vec3* x = malloc((size_t)n * sizeof *x);
	vec3* ys = malloc((size_t)n * sizeof *ys);
	vec3* yf = malloc((size_t)n * sizeof *yf);
	uint64_t seed = 47;
	for (int32_t i = 0; i < n; ++i) x[i] = v3(fixture_rand(&seed), fixture_rand(&seed), fixture_rand(&seed));
	bsr_mul(&split->work.A, x, ys, 1);
	bsr_mul(&full->work.A, x, yf, 1);
	double worst = 0.0, scale = 0.0, worst_b = 0.0;
	for (int32_t i = 0; i < n; ++i) {
		worst = fmax(worst, v3_len(v3_sub(ys[i], yf[i])));
		scale = fmax(scale, v3_len(yf[i]));
		worst_b = fmax(worst_b, v3_len(v3_sub(split->work.b[i], full->work.b[i])));
	}
	CHECK(scale > 0.0 && worst <= 1e-12 * scale);
	CHECK(worst_b <= 1e-12);
	pcg_result rf = pcg_solve(&full->work.A, full->work.b, full->work.z, NULL, full->work.S, full->work.constrained, 1e-10, 100000, 1, &full->work.pcg, yf);
	two_level* tl = two_level_create(&split->work.A, TWO_LEVEL_MAX_FACTORED);
	CHECK(tl != NULL);
	if (tl) {
		CHECK(two_level_setup(tl, &split->work.A, split->work.S, split->work.constrained));
		split->work.pcg.two_level = tl;
		pcg_result rs = pcg_solve(&split->work.A, split->work.b, split->work.z, NULL, split->work.S, split->work.constrained, 1e-10, 100000, 1, &split->work.pcg, ys);
		split->work.pcg.two_level = NULL;
		CHECK(rf.converged && rs.converged && rs.iterations < rf.iterations);
		double diff = 0.0, size = 0.0;
		for (int32_t i = 0; i < n; ++i) {
			diff = fmax(diff, v3_len(v3_sub(ys[i], yf[i])));
			size = fmax(size, v3_len(yf[i]));
		}
		CHECK(size > 0.0 && diff <= 1e-6 * size);
		two_level_destroy(tl);
	}
	free(x);
	free(ys);
	free(yf);
	drape_world_destroy(split);
	drape_world_destroy(full);
}

static void test_cholesky_same_answer_as_block_jacobi(void)
{
	if (!cholesky_available()) return; /* a build without CHOLMOD: bad_preconditioner_settings covers it */
	for (uint64_t s = 1; s <= 3; ++s) {
		drape_world* w = random_system(9 + 2 * (int)s, 1.0 / 30.0, 100 + s);
		uint64_t seed = 7 * s;
		constrain(w, &seed);
		compare_with_block_jacobi(w, w);
		drape_world_destroy(w);
	}
}

/* A factor of another state (same pattern, other deformation, velocities and constraints): only
 * the iteration count may suffer, never the answer. */
static void test_stale_cholesky_same_answer(void)
{
	if (!cholesky_available()) return; /* a build without CHOLMOD: bad_preconditioner_settings covers it */
	drape_world* w = random_system(13, 1.0 / 30.0, 5);
	drape_world* old = random_system(13, 1.0 / 60.0, 6);
	uint64_t seed = 9, seed_old = 10;
	constrain(w, &seed);
	constrain(old, &seed_old);
	compare_with_block_jacobi(w, old);
	drape_world_destroy(w);
	drape_world_destroy(old);
}

/* The multigrid preconditioner on the random constrained systems: symmetric, the same answer as
 * block Jacobi in fewer iterations, points pinned exactly, with rotations in the coarse space or
 * without, with one (factored) level and with several (a factored level of at most 12 block rows). */
static void test_multigrid_same_answer_as_block_jacobi(void)
{
	if (!cholesky_available()) return; /* a build without CHOLMOD: bad_preconditioner_settings covers it */
	for (uint64_t s = 1; s <= 3; ++s) {
		drape_world* w = random_system(SHORT(13, 9) + 4 * (int)s, 1.0 / 30.0, 200 + s);
		uint64_t seed = 11 * s;
		constrain(w, &seed);
		const int32_t n = w->model.particle_count;
		vec3* ref = malloc((size_t)n * sizeof *ref);
		vec3* u = malloc(4 * (size_t)n * sizeof *u);
		pcg_result rb = pcg_solve(&w->work.A, w->work.b, w->work.z, NULL, w->work.S, w->work.constrained, 1e-10, 100000, 1, &w->work.pcg, ref);
		CHECK(rb.converged);
		double scale = 0.0;
		for (int32_t i = 0; i < n; ++i) scale = fmax(scale, v3_len(ref[i]));
		CHECK(scale > 0.0);
		for (int rotations = 0; rotations < 2; ++rotations)
			for (int levels = 0; levels < 2; ++levels) {
				multigrid* mg = multigrid_create(&w->work.A, levels ? 12 : INT32_MAX, rotations);
				CHECK(mg != NULL);
				if (!mg) continue;
				CHECK(levels ? multigrid_level_count(mg) >= 3 : multigrid_level_count(mg) == 1);
				CHECK(multigrid_setup(mg, &w->work.A, w->work.S, w->work.constrained, w->state.x, 1));
				/* Symmetric: u^T P^-1 v = v^T P^-1 u, to round-off. */
				for (int32_t i = 0; i < 2 * n; ++i) u[i] = v3(fixture_rand(&seed), fixture_rand(&seed), fixture_rand(&seed));
				multigrid_apply(mg, u, u + 2 * n);
				multigrid_apply(mg, u + n, u + 3 * n);
				double uv = 0.0, vu = 0.0, mag = 0.0;
				for (int32_t i = 0; i < n; ++i) {
					uv += v3_dot(u[i], u[3 * n + i]);
					vu += v3_dot(u[n + i], u[2 * n + i]);
					mag += v3_len(u[i]) * v3_len(u[3 * n + i]);
				}
				CHECK(fabs(uv - vu) <= 1e-10 * mag);
				w->work.pcg.multigrid = mg;
				pcg_result rm = pcg_solve(&w->work.A, w->work.b, w->work.z, NULL, w->work.S, w->work.constrained, 1e-10, 100000, 1, &w->work.pcg, w->work.dv);
				w->work.pcg.multigrid = NULL;
				if (getenv("DRAPE_TEST_VERBOSE"))
					fprintf(stderr, "n %d rotations %d levels %d: %d iterations (block Jacobi %d)\n", n, rotations,
						multigrid_level_count(mg), rm.iterations, rb.iterations);
				CHECK(rm.converged && rm.iterations < rb.iterations);
				double worst = 0.0;
				for (int32_t i = 0; i < n; ++i) {
					worst = fmax(worst, v3_len(v3_sub(ref[i], w->work.dv[i])));
					if (w->work.constrained[i] && w->work.S[i].m[0][0] == 0.0 && w->work.S[i].m[1][1] == 0.0 && w->work.S[i].m[2][2] == 0.0)
						CHECK(w->work.dv[i].x == w->work.z[i].x && w->work.dv[i].y == w->work.z[i].y && w->work.dv[i].z == w->work.z[i].z);
				}
				CHECK(worst <= 1e-6 * scale);
				multigrid_destroy(mg);
			}
		free(ref);
		free(u);
		drape_world_destroy(w);
	}
}

/* A contact pass of a step refreshes only the finest level (implicit.c): with the coarse levels of
 * other constraints, the same answer as block Jacobi, points pinned exactly. */
static void test_multigrid_refresh_same_answer(void)
{
	if (!cholesky_available()) return; /* a build without CHOLMOD: bad_preconditioner_settings covers it */
	drape_world* w = random_system(SHORT(19, 13), 1.0 / 30.0, 300);
	uint64_t seed = 31;
	constrain(w, &seed);
	multigrid* mg = multigrid_create(&w->work.A, 12, true);
	CHECK(mg != NULL && multigrid_setup(mg, &w->work.A, w->work.S, w->work.constrained, w->state.x, 1));
	constrain(w, &seed); /* other planes, lines and targets */
	const int32_t n = w->model.particle_count;
	vec3* ref = malloc((size_t)n * sizeof *ref);
	pcg_result rb = pcg_solve(&w->work.A, w->work.b, w->work.z, NULL, w->work.S, w->work.constrained, 1e-10, 100000, 1, &w->work.pcg, ref);
	CHECK(mg != NULL && multigrid_refresh(mg, &w->work.A, w->work.S, w->work.constrained, 1));
	w->work.pcg.multigrid = mg;
	pcg_result rm = pcg_solve(&w->work.A, w->work.b, w->work.z, NULL, w->work.S, w->work.constrained, 1e-10, 100000, 1, &w->work.pcg, w->work.dv);
	w->work.pcg.multigrid = NULL;
	CHECK(rb.converged && rm.converged && rm.iterations < rb.iterations);
	double worst = 0.0, scale = 0.0;
	for (int32_t i = 0; i < n; ++i) {
		worst = fmax(worst, v3_len(v3_sub(ref[i], w->work.dv[i])));
		scale = fmax(scale, v3_len(ref[i]));
		if (w->work.constrained[i] && w->work.S[i].m[0][0] == 0.0 && w->work.S[i].m[1][1] == 0.0 && w->work.S[i].m[2][2] == 0.0)
			CHECK(w->work.dv[i].x == w->work.z[i].x && w->work.dv[i].y == w->work.z[i].y && w->work.dv[i].z == w->work.z[i].z);
	}
	CHECK(worst <= 1e-6 * scale);
	multigrid_destroy(mg);
	free(ref);
	drape_world_destroy(w);
}

/* Separate pieces too small to aggregate (here pairs of particles, each pair an aggregate of as
 * many unknowns as a coarse node with rotations): the hierarchy stops at the level that cannot
 * coarsen and factors it, which solves exactly. */
static void test_multigrid_separate_pieces(void)
{
	if (!cholesky_available()) return; /* a build without CHOLMOD: bad_preconditioner_settings covers it */
	const int32_t n = 40;
	int32_t pairs[20][2];
	for (int32_t e = 0; e < n / 2; ++e) pairs[e][0] = 2 * e, pairs[e][1] = 2 * e + 1;
	bsr A;
	bsr_builder b;
	CHECK(bsr_builder_init(&b, n) && bsr_builder_add_elements(&b, pairs, n / 2, 2, sizeof pairs[0]) && bsr_builder_finish(&b, &A));
	for (int32_t i = 0; i < n; ++i)
		for (int32_t k = A.row_start[i]; k < A.row_start[i + 1]; ++k)
			A.blocks[k] = A.cols[k] == i ? m3_diag(3.0 + i) : m3_diag(-1.0);
	uint8_t none[40] = {0};
	vec3 x[40], r[40], s[40], q[40];
	for (int32_t i = 0; i < n; ++i) x[i] = v3(i, 0.5 * i, 1.0), r[i] = v3(1.0, -2.0, 0.25 * i);
	multigrid* mg = multigrid_create(&A, 4, true);
	CHECK(mg != NULL);
	if (mg) {
		CHECK(multigrid_level_count(mg) == 1);
		CHECK(multigrid_setup(mg, &A, NULL, none, x, 1));
		multigrid_apply(mg, r, s);
		bsr_mul(&A, s, q, 1);
		for (int32_t i = 0; i < n; ++i) CHECK(v3_len(v3_sub(q[i], r[i])) <= 1e-12 * v3_len(r[i]) + 1e-12);
		multigrid_destroy(mg);
	}
	bsr_free(&A);
}

/* The figure 2 sheet, small: positions and velocities after 8 frames. */
static double* run_sheet(drape_preconditioner pc, int threads, int res, int* count, int64_t* factorizations)
{
	drape_world_def wd = drape_default_world_def();
	wd.preconditioner = pc;
	wd.threads = threads;
	wd.cg_tolerance = 1e-9; /* tight enough that the preconditioner cannot change the motion */
	drape_cloth_id c;
	drape_world* w = make_sheet(&wd, NULL, res, 1.0, true, &c);
	if (pc == DRAPE_PRECONDITIONER_MULTIGRID) {
		/* Below MULTIGRID_MAX_FACTORED the hierarchy is one factored level: force three. */
		CHECK(workspace_prepare(w) == DRAPE_OK);
		multigrid_destroy(w->work.multigrid);
		w->work.multigrid = multigrid_create(&w->work.A, 24, true);
		CHECK(w->work.multigrid != NULL && multigrid_level_count(w->work.multigrid) >= 3);
	}
	int n = drape_cloth_vertex_count(w, c);
	double* x0 = malloc(3 * (size_t)n * sizeof *x0);
	drape_cloth_get_positions(w, c, x0);
	for (int f = 1; f <= 8; ++f) CHECK(drape_world_step(w, f / 30.0 - drape_world_time(w)) == DRAPE_OK);
	double* out = malloc(6 * (size_t)n * sizeof *out);
	drape_cloth_get_positions(w, c, out);
	drape_cloth_get_velocities(w, c, out + 3 * n);
	/* The two pinned corners stay bit-exactly where they started. */
	int pinned = 0;
	for (int i = 0; i < n; ++i) pinned += memcmp(&out[3 * i], &x0[3 * i], 3 * sizeof(double)) == 0;
	CHECK(pinned == 2);
	if (factorizations) *factorizations = drape_world_get_stats(w).factorizations;
	*count = n;
	free(x0);
	drape_world_destroy(w);
	return out;
}

static void pins_exact_and_threads_bit_identical(drape_preconditioner pc)
{
	if (!cholesky_available()) return; /* a build without CHOLMOD: bad_preconditioner_settings covers it */
	int n1, n2, nb;
	int64_t f1 = 0;
	double* one = run_sheet(pc, 1, 21, &n1, &f1);
	double* two = run_sheet(pc, 2, 21, &n2, NULL);
	double* bj = run_sheet(DRAPE_PRECONDITIONER_BLOCK_JACOBI, 1, 21, &nb, NULL);
	CHECK(f1 > 0);
	CHECK(n1 == n2 && n1 == nb);
	CHECK(memcmp(one, two, 6 * (size_t)n1 * sizeof(double)) == 0);
	/* The same motion as block Jacobi, to within the CG tolerance's effect over 8 frames. */
	double worst = 0.0;
	for (int i = 0; i < 3 * n1; ++i) worst = fmax(worst, fabs(one[i] - bj[i]));
	CHECK(worst < 1e-6);
	if (!(worst < 1e-6)) fprintf(stderr, "cholesky vs block Jacobi: %g\n", worst);
	free(one);
	free(two);
	free(bj);
}

static void test_cholesky_pins_exact_and_threads_bit_identical(void) { pins_exact_and_threads_bit_identical(DRAPE_PRECONDITIONER_CHOLESKY); }
static void test_two_level_pins_exact_and_threads_bit_identical(void) { pins_exact_and_threads_bit_identical(DRAPE_PRECONDITIONER_TWO_LEVEL); }
static void test_multigrid_pins_exact_and_threads_bit_identical(void) { pins_exact_and_threads_bit_identical(DRAPE_PRECONDITIONER_MULTIGRID); }

static void test_bad_preconditioner_settings(void)
{
	char err[1024] = "";
	scene s;
	bool ok = scene_load_text("{\"solver\": {\"preconditioner\": \"amg\"}, \"cloths\": [{\"grid\": {\"resolution\": [4, 4]}}]}",
				  "bad.json", &s, err, sizeof err);
	CHECK(!ok);
	if (ok) scene_free(&s);
	CHECK(strstr(err, "unknown preconditioner 'amg'") != NULL);
	CHECK(strstr(err, "block_jacobi") != NULL && strstr(err, "cholesky") != NULL && strstr(err, "two_level") != NULL &&
	      strstr(err, "multigrid") != NULL);
	ok = scene_load_text("{\"solver\": {\"refactor_iterations\": 0}, \"cloths\": [{\"grid\": {\"resolution\": [4, 4]}}]}",
			     "bad.json", &s, err, sizeof err);
	CHECK(!ok);
	if (ok) scene_free(&s);
	/* A build without CHOLMOD names what is missing. */
	ok = scene_load_text("{\"solver\": {\"preconditioner\": \"two_level\"}, \"cloths\": [{\"grid\": {\"resolution\": [4, 4]}}]}",
			     "bad.json", &s, err, sizeof err);
	CHECK(ok == cholesky_available());
	if (ok) scene_free(&s);
	else CHECK(strstr(err, "needs CHOLMOD") != NULL);
	drape_world_def wd = drape_default_world_def();
	wd.preconditioner = DRAPE_PRECONDITIONER_COUNT;
	CHECK(drape_world_create(&wd) == NULL);
	CHECK(drape_preconditioner_available(DRAPE_PRECONDITIONER_BLOCK_JACOBI));
	drape_preconditioner p;
	CHECK(drape_preconditioner_from_name("cholesky", &p) && p == DRAPE_PRECONDITIONER_CHOLESKY);
	CHECK(drape_preconditioner_from_name("multigrid", &p) && p == DRAPE_PRECONDITIONER_MULTIGRID);
	CHECK(strcmp(drape_preconditioner_name(DRAPE_PRECONDITIONER_MULTIGRID), "multigrid") == 0);
	CHECK(!drape_preconditioner_from_name("ilu", &p));
	CHECK(strcmp(drape_preconditioner_name(DRAPE_PRECONDITIONER_BLOCK_JACOBI), "block_jacobi") == 0);
}

/* Largest warp/weft strain of a built-in grid scene (figure1_drape.json, figure2_sheet.json) at
 * res x res over `frames` frames, with `solver` (a JSON object's members, or "") added to its
 * solver settings. */
static double scene_strain(const char* name, int res, int frames, const char* solver)
{
	cJSON* root = cJSON_Parse(embedded_text(name));
	cJSON* grid = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(root, "cloths"), 0), "grid");
	int r[2] = {res, res};
	cJSON_ReplaceItemInObject(grid, "resolution", cJSON_CreateIntArray(r, 2));
	char members[256];
	snprintf(members, sizeof members, "{%s}", solver);
	cJSON* extra = cJSON_Parse(members);
	CHECK(extra != NULL);
	if (!cJSON_GetObjectItem(root, "solver")) cJSON_AddObjectToObject(root, "solver");
	for (cJSON* m = extra ? extra->child : NULL; m; m = m->next)
		cJSON_AddItemToObject(cJSON_GetObjectItem(root, "solver"), m->string, cJSON_Duplicate(m, true));
	cJSON_Delete(extra);
	char* text = cJSON_PrintUnformatted(root);
	cJSON_Delete(root);
	char err[1024], path[128];
	snprintf(path, sizeof path, EMBEDDED_PREFIX "%s", name);
	scene s;
	bool ok = scene_load_text(text, path, &s, err, sizeof err);
	free(text);
	CHECK(ok);
	if (!ok) return INFINITY;
	drape_world* w = scene_build_world(&s, err, sizeof err);
	CHECK(w != NULL);
	double worst = 0.0, rest = 1.0 / (res - 1);
	for (int f = 1; w && f <= frames; ++f) {
		CHECK(drape_world_step(w, f / (double)s.fps - drape_world_time(w)) == DRAPE_OK);
		for (int j = 0; j < res; ++j)
			for (int i = 0; i < res; ++i) {
				vec3 p = w->state.x[j * res + i];
				if (i + 1 < res) worst = fmax(worst, fabs(v3_len(v3_sub(w->state.x[j * res + i + 1], p)) / rest - 1.0));
				if (j + 1 < res) worst = fmax(worst, fabs(v3_len(v3_sub(w->state.x[(j + 1) * res + i], p)) / rest - 1.0));
			}
	}
	drape_world_destroy(w);
	scene_free(&s);
	return worst;
}

/* Issue 12: no tuning, warp/weft strain at most 2 %. The figure 1 drape (coarse, short: the fall
 * onto the cylinder and the first drape) went past it under the old step control (limit 0.1); the
 * figure 2 sheet's pinned corners went past it under any step control before strain limiting
 * (docs/solver.md, "Strain limiting"). */
static void test_default_strain_within_two_percent(void)
{
	double now = scene_strain("figure1_drape.json", 21, 30, "");
	double before = scene_strain("figure1_drape.json", 26, 30, "\"stretch_change_limit\": 0.1, \"strain_limit\": 0");
	CHECK(now <= 0.02);
	CHECK(before > 0.02);
	if (!(now <= 0.02) || !(before > 0.02)) fprintf(stderr, "figure 1 strain: default %.4f, old %.4f\n", now, before);
	/* the shipped resolution; coarser and shorter under the sanitizers (the corner strain grows
	 * with resolution: 3.0 % unlimited at 31^2 over 12 frames, 5.9 % at 51^2) */
	const int res = SHORT(51, 31), frames = SHORT(24, 12);
	const double over = SHORT(0.04, 0.025);
	double sheet = scene_strain("figure2_sheet.json", res, frames, "");
	double unlimited = scene_strain("figure2_sheet.json", res, frames, "\"strain_limit\": 0");
	CHECK(sheet <= 0.02);
	CHECK(unlimited > over);
	if (!(sheet <= 0.02) || !(unlimited > over)) fprintf(stderr, "figure 2 strain: default %.4f, unlimited %.4f\n", sheet, unlimited);
}

/* The figure 1 drape (contact passes: the later passes of a step refresh only the finest level)
 * with the multigrid preconditioner, a hierarchy of two levels or more: it runs, within the strain
 * bound of the default. */
static void test_multigrid_figure1(void)
{
	if (!cholesky_available()) return; /* a build without CHOLMOD: bad_preconditioner_settings covers it */
	double strain = scene_strain("figure1_drape.json", SHORT(25, 19), SHORT(20, 10), "\"preconditioner\": \"multigrid\"");
	CHECK(strain <= 0.02);
	if (!(strain <= 0.02)) fprintf(stderr, "figure 1 strain with multigrid: %.4f\n", strain);
}

const test_case precond_tests[] = {
	{"default_strain_within_two_percent", test_default_strain_within_two_percent},
	{"cholesky_same_answer_as_block_jacobi", test_cholesky_same_answer_as_block_jacobi},
	{"stale_cholesky_same_answer", test_stale_cholesky_same_answer},
	{"tensor_scalar_part_same_system", test_tensor_scalar_part_same_system},
	{"cholesky_pins_exact_and_threads_bit_identical", test_cholesky_pins_exact_and_threads_bit_identical},
	{"two_level_pins_exact_and_threads_bit_identical", test_two_level_pins_exact_and_threads_bit_identical},
	{"smoothed_prolongator_galerkin", test_smoothed_prolongator_galerkin},
	{"multigrid_same_answer_as_block_jacobi", test_multigrid_same_answer_as_block_jacobi},
	{"multigrid_pins_exact_and_threads_bit_identical", test_multigrid_pins_exact_and_threads_bit_identical},
	{"multigrid_refresh_same_answer", test_multigrid_refresh_same_answer},
	{"multigrid_separate_pieces", test_multigrid_separate_pieces},
	{"multigrid_figure1", test_multigrid_figure1},
	{"bad_preconditioner_settings", test_bad_preconditioner_settings},
	{NULL, NULL},
};
