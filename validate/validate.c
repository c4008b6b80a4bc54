/* `make validate`: runs drape's physical checks and writes docs/validation.md, each with drape's
 * number, the reference it is compared with and the tolerance (docs/bending.md,
 * docs/integrators.md, docs/model.md). Usage: drape_validate OUT.md */
#include "fidelity_lib.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static FILE* out;
static int passed, failed;

static const char* verdict(bool ok)
{
	ok ? ++passed : ++failed;
	return ok ? "pass" : "**fail**";
}

/* Issue 13 asks it of the default bending model: its rows are judged, the other model's are shown
 * beside them for comparison (docs/bending.md). */
static const char* verdict_for(drape_bend_model model, bool ok)
{
	if (model == drape_default_cloth_def().bend_model) return verdict(ok);
	return ok ? "(comparison: within)" : "(comparison: outside)";
}

static void cantilevers(void)
{
	fprintf(out, "## Cantilever (Peirce, ASTM D1388) against the heavy elastica\n\n"
		     "A strip 28 mm wide, clamped by two pinned columns 0.1 cell apart, settles for 4 s under gravity "
		     "(density 0.1 kg/m², B = 2·10⁻⁵ N·m along the strip, 10× that across). Cells have alternating diagonals (drape's grid) unless marked; irregular: interior vertices jittered by up to 0.3 cell, diagonals at random. Reference: the tip drop of "
		     "the heavy elastica B θ'' = −w (L − s) cos θ, θ(0) = 0, θ'(L) = 0, solved by shooting "
		     "(tests/fidelity_lib.c; it reproduces Peirce's 41.5° chord at L = 2c and w L⁴ / (8 B) for small loads), "
		     "with L from the middle of the pinned cell, where the discrete clamp sets the slope to zero "
		     "(docs/bending.md). L/c is the overhang asked for; L is a whole number of cells. Tolerance 3 %%, "
		     "judged for the default model (`%s`); the other is shown for comparison.\n\n"
		     "| bend_model | cells (along × across) | L/c | drape drop (mm) | elastica (mm) | error | tip motion, last s | |\n"
		     "|---|---|---|---|---|---|---|---|\n",
		drape_bend_model_name(drape_default_cloth_def().bend_model));
	const double c = cbrt(2e-5 / (0.1 * 9.81));
	/* width 0: the 28 mm strip. The 2 x 14 mm cells are two across it, every triangle on a free
	 * edge; the 112 mm strip (8 across) tells the long cells from the free-edge closure. */
	struct {
		const char* name;
		double along, across;
		strip_mesh mesh;
		bool weft;
		double width;
	} cases[] = {
		{"4 × 4 mm, warp", 0.004, 0.004, STRIP_GRID, false, 0}, {"4 × 4 mm, weft", 0.004, 0.004, STRIP_GRID, true, 0},
		{"2 × 2 mm, warp", 0.002, 0.002, STRIP_GRID, false, 0},
		{"4 × 4 mm, diagonals one way", 0.004, 0.004, STRIP_GRID_UNIFORM, false, 0},
		{"2 × 2 mm, diagonals one way", 0.002, 0.002, STRIP_GRID_UNIFORM, false, 0},
		{"7 × 1 mm (1:7)", 0.007, 0.001, STRIP_GRID, false, 0},
		{"2 × 14 mm (1:7)", 0.002, 0.014, STRIP_GRID, false, 0},
		{"2 × 14 mm (1:7), strip 112 mm wide", 0.002, 0.014, STRIP_GRID, false, 0.112},
		{"4 mm irregular", 0.004, 0.004, STRIP_IRREGULAR, false, 0},
		{"2 mm irregular", 0.002, 0.002, STRIP_IRREGULAR, false, 0},
	};
	const double ratios[3] = {1.5, 2.25, 3.0};
	for (int m = 0; m < DRAPE_BEND_MODEL_COUNT; ++m)
		for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k)
			for (int r = 0; r < 3; ++r) {
				cantilever_def d = default_cantilever();
				d.bend_model = (drape_bend_model)m;
				d.overhang = ratios[r] * c;
				d.width = cases[k].width > 0.0 ? cases[k].width : 0.028;
				d.cell_along = cases[k].along;
				d.cell_across = cases[k].across;
				d.mesh = cases[k].mesh;
				d.weft = cases[k].weft;
				cantilever_result res = run_cantilever(&d);
				double err = res.drop / res.reference - 1.0;
				fprintf(out, "| %s | %s | %.2f | %.2f | %.2f | %+.1f %% | %.1e m | %s |\n", drape_bend_model_name(d.bend_model),
					cases[k].name, ratios[r], 1e3 * res.drop, 1e3 * res.reference, 100.0 * err, res.last_motion,
					verdict_for(d.bend_model, res.ok && fabs(err) <= 0.03));
				fflush(out);
			}
	fprintf(out, "\n");
}

/* Issue 13 item 2: statics settle at the default tolerances; the tip's largest displacement over
 * the run's last second, from cantilevers. */
static void cantilever_settles(void)
{
	fprintf(out, "## Statics settle at the default tolerances\n\n"
		     "The cantilever above at L/c = 3 (its slowest rows), default `cg_tolerance`: the tip's largest "
		     "displacement over the last second of the run. Goal: under 1 µm. The 7 × 1 mm strip's first mode "
		     "decays with a time constant of about 1.5 s under the tensor model, so after 4 s it still moves by "
		     "tens of µm; the same at `cg_tolerance` 10⁻⁶, so that is motion, not a residual's creep "
		     "(docs/bending.md). It is judged after 12 s.\n\n"
		     "| bend_model | cells | settled for | tip motion, last s | |\n|---|---|---|---|---|\n");
	const double c = cbrt(2e-5 / (0.1 * 9.81));
	struct {
		const char* name;
		double along, across, settle;
		bool judged;
	} cases[] = {{"4 × 4 mm", 0.004, 0.004, 4.0, true}, {"7 × 1 mm (1:7)", 0.007, 0.001, 4.0, false},
		     {"7 × 1 mm (1:7)", 0.007, 0.001, 12.0, true}};
	for (int m = 0; m < DRAPE_BEND_MODEL_COUNT; ++m)
		for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
			cantilever_def d = default_cantilever();
			d.bend_model = (drape_bend_model)m;
			d.overhang = 3.0 * c;
			d.width = 0.028;
			d.cell_along = cases[k].along;
			d.cell_across = cases[k].across;
			d.settle = cases[k].settle;
			cantilever_result res = run_cantilever(&d);
			fprintf(out, "| %s | %s | %.0f s | %.1e m | %s |\n", drape_bend_model_name(d.bend_model), cases[k].name,
				d.settle, res.last_motion,
				cases[k].judged ? verdict(res.ok && res.last_motion < 1e-6) : "(comparison)");
			fflush(out);
		}
	fprintf(out, "\n");
}

/* The same strip at L/c = 1.5 with the rigidity across it varied: a discretization that is a
 * plate with no Poisson coupling bends the same whatever it is (docs/bending.md, "Why L/c = 1.5
 * came out soft"). */
static void cantilever_across(void)
{
	fprintf(out, "## Cantilever: the rigidity across the strip\n\n"
		     "The strip above (4 × 4 mm cells, L/c = 1.5) with the rigidity across it 1, 10 (the rows above), 100 "
		     "and 1000 times that along it, and with the default in-plane stiffness or 100× stretch and 1000× shear "
		     "(10⁵ and 10⁴ N/m). The plate has no Poisson coupling, so the elastica holds for every row; a "
		     "discretization whose hinges mix bending along the strip with twist or bending across it drops "
		     "further when the across rigidity is low. Reported for comparison, not as checks.\n\n"
		     "| bend_model | cells | across / along | in-plane | drape drop (mm) | elastica (mm) | error |\n"
		     "|---|---|---|---|---|---|---|\n");
	const double c = cbrt(2e-5 / (0.1 * 9.81));
	struct {
		const char* name;
		strip_mesh mesh;
	} cases[] = {{"alternating diagonals", STRIP_GRID}, {"diagonals one way", STRIP_GRID_UNIFORM}};
	const double across[4] = {1.0, 10.0, 100.0, 1000.0};
	for (int m = 0; m < DRAPE_BEND_MODEL_COUNT; ++m)
		for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k)
			for (int a = 0; a < 5; ++a) {
				cantilever_def d = default_cantilever();
				d.bend_model = (drape_bend_model)m;
				d.overhang = 1.5 * c;
				d.width = 0.028;
				d.mesh = cases[k].mesh;
				d.across = a < 4 ? across[a] : 10.0;
				if (a == 4) {
					d.stretch = 1e5;
					d.shear = 1e4;
				}
				cantilever_result res = run_cantilever(&d);
				fprintf(out, "| %s | %s | %g | %s | %.2f | %.2f | %+.1f %% |\n", drape_bend_model_name(d.bend_model),
					cases[k].name, d.across, a == 4 ? "stiff" : "default", 1e3 * res.drop, 1e3 * res.reference,
					100.0 * (res.drop / res.reference - 1.0));
				fflush(out);
			}
	fprintf(out, "\n");
}

/* A one-triangle cloth in free fall from rest, fixed steps h for T: its height. */
static double fall(drape_integrator ig, double h, double T)
{
	double pos[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0}, uv[6] = {0, 0, 1, 0, 0, 1};
	int32_t tri[3] = {0, 1, 2};
	drape_mesh mesh = {3, pos, 3, uv, 1, tri, tri};
	drape_world_def wd = drape_default_world_def();
	wd.integrator = ig;
	wd.max_dt = h;
	wd.adaptive = false;
	wd.self_collision = false;
	drape_world* w = drape_world_create(&wd);
	drape_cloth_def cd = drape_default_cloth_def();
	cd.mesh = &mesh;
	cd.material.drag = 0.0;
	drape_cloth_id id = drape_cloth_add(w, &cd);
	drape_world_step(w, T);
	double x[9];
	drape_cloth_get_positions(w, id, x);
	drape_world_destroy(w);
	return x[2];
}

static void free_fall(void)
{
	const double g = 9.81, T = 0.5, h = 1.0 / 30.0;
	const int N = 15;
	fprintf(out, "## Free fall against the integrators' closed forms\n\n"
		     "A cloth falls from rest for %.1f s at fixed steps of 1/30 s (no drag). Backward Euler: "
		     "v_{n+1} = v_n − g h, x_{n+1} = x_n + h v_{n+1}, so x_N = −g h² N (N + 1)/2. BDF2: one backward "
		     "Euler step, then x_{n+1} = 4/3 x_n − 1/3 x_{n−1} + 2/3 h v_{n+1} (and the same for v with −g). "
		     "Tolerance 10⁻⁹ m; the order is the error ratio against −g T²/2 when the step halves.\n\n"
		     "| integrator | drape z(T) (m) | closed form (m) | difference | error ratio h/2 | |\n|---|---|---|---|---|---|\n",
		T);
	double be = -g * h * h * N * (N + 1) / 2.0;
	double xp = 0.0, vp = 0.0, v = -g * h, x = h * v;
	for (int k = 1; k < N; ++k) {
		double vn = 4.0 / 3.0 * v - 1.0 / 3.0 * vp - 2.0 / 3.0 * h * g;
		double xn = 4.0 / 3.0 * x - 1.0 / 3.0 * xp + 2.0 / 3.0 * h * vn;
		xp = x, vp = v, x = xn, v = vn;
	}
	const double exact = -0.5 * g * T * T;
	struct {
		drape_integrator ig;
		double ref, order;
	} rows[2] = {{DRAPE_INTEGRATOR_BACKWARD_EULER, be, 2.0}, {DRAPE_INTEGRATOR_BDF2, x, 4.0}};
	for (int k = 0; k < 2; ++k) {
		double z = fall(rows[k].ig, h, T);
		double ratio = fabs(fall(rows[k].ig, T / 20, T) - exact) / fabs(fall(rows[k].ig, T / 40, T) - exact);
		fprintf(out, "| %s | %.9f | %.9f | %.1e | %.2f (expected %.0f) | %s |\n", drape_integrator_name(rows[k].ig), z,
			rows[k].ref, fabs(z - rows[k].ref), ratio, rows[k].order,
			verdict(fabs(z - rows[k].ref) <= 1e-9 && fabs(ratio - rows[k].order) < 0.1 * rows[k].order));
	}
	fprintf(out, "\n");
}

/* A 0.2 x 0.2 m sheet (21 x 21), edge v = 0 pinned; each particle of the opposite edge pulled by a
 * constant force (stretch: along v; shear: along u, with the edge held on lines along u). Returns
 * the mean displacement of that edge along the force after settling, gravity off. */
static double loaded_sheet(bool shear, double total_force)
{
	/* Shear: a wide, low sheet, so that the free side edges (where the shear stress must vanish)
	 * disturb little of it. */
	const int n = shear ? 41 : 21, rows = shear ? 6 : 21;
	const double size = shear ? 0.4 : 0.2, height = shear ? 0.05 : 0.2;
	drape_mesh mesh;
	strip_mesh_make(n, rows, size, height, 0.0, STRIP_GRID, false, 1, 0.0, &mesh);
	drape_world_def wd = drape_default_world_def();
	wd.gravity[2] = 0.0;
	wd.self_collision = false;
	wd.cg_tolerance = 1e-8;
	drape_world* w = drape_world_create(&wd);
	drape_cloth_def cd = drape_default_cloth_def();
	cd.mesh = &mesh;
	cd.material.stretch_damping = 5.0;
	cd.material.shear_damping = 0.5;
	drape_cloth_id id = drape_cloth_add(w, &cd);
	for (int i = 0; i < n; ++i) {
		drape_constraint_def c = drape_default_constraint_def();
		c.cloth = id;
		c.vertex = i;
		drape_constraint_add(w, &c);
		int top = (rows - 1) * n + i;
		if (shear) {
			drape_constraint_def l = drape_default_constraint_def();
			l.cloth = id;
			l.vertex = top;
			l.kind = DRAPE_CONSTRAINT_LINE;
			l.axis[0] = 1.0;
			drape_constraint_add(w, &l);
		}
		/* The edge's particles carry half a cell of width at the ends: share the load likewise. */
		double share = (i == 0 || i == n - 1) ? 0.5 / (n - 1) : 1.0 / (n - 1);
		drape_spring_def s = drape_default_spring_def();
		s.cloth = id;
		s.vertex = top;
		s.stiffness = 0.0; /* a constant force only */
		s.force[shear ? 0 : 1] = total_force * share;
		drape_spring_add(w, &s);
	}
	drape_world_step(w, 6.0);
	double* x = malloc(3 * (size_t)mesh.vertex_count * sizeof *x);
	drape_cloth_get_positions(w, id, x);
	double d = 0.0;
	for (int i = 0; i < n; ++i) {
		int top = (rows - 1) * n + i;
		d += shear ? x[3 * top] - mesh.positions[3 * top] : x[3 * top + 1] - mesh.positions[3 * top + 1];
	}
	free(x);
	drape_world_destroy(w);
	drape_mesh_free(&mesh);
	return d / n;
}

static void units(void)
{
	drape_material m = drape_default_material();
	double fs = 0.2, ft = 0.008;
	double ds = loaded_sheet(false, fs), dt = loaded_sheet(true, ft);
	/* Stretch: strain F / (W stretch) over the length; shear: angle tau / shear, tau = F / W. */
	double rs = fs / (0.2 * m.stretch) * 0.2, rt = tan(asin(ft / (0.4 * m.shear))) * 0.05;
	fprintf(out, "## Stretch and shear units under a known load\n\n"
		     "A sheet (default material) with one edge pinned and the opposite edge pulled by a constant total "
		     "force shared along it, gravity off, settled for 6 s. Stretch: 0.2 × 0.2 m (21 × 21), the edge "
		     "moves by strain × length with strain = F / (W · stretch). Shear: 0.4 m wide, 0.05 m high "
		     "(41 × 6), the pulled edge slides on lines (simple shear; the free side edges, where the shear "
		     "stress must vanish, disturb a strip about as wide as the sheet is high); drape's shear condition is w_u · w_v = sin γ, so the edge moves by "
		     "H tan(asin(F / (W · shear))). Tolerance 3 %%.\n\n"
		     "| load | force (N) | drape (mm) | reference (mm) | error | |\n|---|---|---|---|---|---|\n");
	fprintf(out, "| stretch (%g N/m) | %g | %.4f | %.4f | %+.2f %% | %s |\n", m.stretch, fs, 1e3 * ds, 1e3 * rs,
		100.0 * (ds / rs - 1.0), verdict(fabs(ds / rs - 1.0) <= 0.03));
	fprintf(out, "| shear (%g N/m) | %g | %.3f | %.3f | %+.2f %% | %s |\n\n", m.shear, ft, 1e3 * dt, 1e3 * rt,
		100.0 * (dt / rt - 1.0), verdict(fabs(dt / rt - 1.0) <= 0.03));
}

static void momentum(void)
{
	drape_grid_def g = drape_default_grid_def();
	g.size[0] = g.size[1] = 0.5;
	g.resolution[0] = g.resolution[1] = 21;
	drape_mesh mesh;
	char err[128];
	drape_mesh_make_grid(&g, &mesh, err, sizeof err);
	uint64_t seed = 5;
	for (int i = 0; i < 3 * mesh.vertex_count; ++i) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		mesh.positions[i] += 0.004 * ((double)(seed >> 11) / 9007199254740992.0 - 0.5);
	}
	drape_world_def wd = drape_default_world_def();
	wd.gravity[2] = 0.0;
	drape_world* w = drape_world_create(&wd);
	drape_cloth_def cd = drape_default_cloth_def();
	cd.mesh = &mesh;
	cd.material.drag = 0.0;
	cd.velocity[0] = 0.3;
	cd.velocity[2] = 0.1;
	drape_cloth_id id = drape_cloth_add(w, &cd);
	int n = mesh.vertex_count;
	double* v = malloc(3 * (size_t)n * sizeof *v);
	double* m = malloc((size_t)n * sizeof *m);
	double p0[3] = {0}, p1[3] = {0};
	drape_cloth_get_masses(w, id, m);
	drape_cloth_get_velocities(w, id, v);
	for (int i = 0; i < n; ++i)
		for (int k = 0; k < 3; ++k) p0[k] += m[i] * v[3 * i + k];
	drape_world_step(w, 1.0);
	drape_cloth_get_velocities(w, id, v);
	for (int i = 0; i < n; ++i)
		for (int k = 0; k < 3; ++k) p1[k] += m[i] * v[3 * i + k];
	double d = sqrt(pow(p1[0] - p0[0], 2) + pow(p1[1] - p0[1], 2) + pow(p1[2] - p0[2], 2));
	double rel = d / sqrt(p0[0] * p0[0] + p0[1] * p0[1] + p0[2] * p0[2]);
	drape_stats st = drape_world_get_stats(w);
	fprintf(out, "## Linear momentum at default settings\n\n"
		     "A free 0.5 m sheet (21 × 21, no gravity, no drag, default cg_tolerance 10⁻³) moving at "
		     "(0.3, 0, 0.1) m/s, its particles displaced at random by up to 2 mm (strong stretch forces), for "
		     "1 s. Reference: conservation. Tolerance 10⁻³ relative.\n\n"
		     "| relative change of momentum | CG iterations | |\n|---|---|---|\n| %.1e | %lld | %s |\n\n",
		rel, (long long)st.cg_iterations, verdict(rel <= 1e-3));
	free(v);
	free(m);
	drape_world_destroy(w);
	drape_mesh_free(&mesh);
}

/* One run of the swinging sheet (tests/fidelity_lib.c, run_swing): its energy lost at 0.5 s and at
 * the lowest point of [0, 0.5] s, as shares of the swing energy. */
typedef struct swing_config {
	const char* label;
	swing_def def;
	bool judged;
} swing_config;

static void swing_row(const swing_config* k)
{
	swing_result r = run_swing(&k->def);
	/* Kept: at most 40 % gone at the lowest point of [0, 0.5] s, and no more than 40 % gained or
	 * lost at 0.5 s (a gain is no better than a loss). */
	bool kept = r.lost_lowest <= 0.4 && fabs(r.lost) <= 0.4;
	fprintf(out, "| %s | %s | %.0f %% | %.0f %% | %lld, %lld | %s |\n", drape_integrator_name(k->def.integrator), k->label,
		100.0 * r.lost, 100.0 * r.lost_lowest, (long long)r.steps, (long long)r.rejected,
		!r.ok ? verdict(false) : k->judged ? verdict(kept) : "(comparison)");
	fflush(out);
}

/* A row's settings: fixed steps of 1/steps s unless steps is 0 (adaptive). */
static swing_def swing_setting(drape_integrator integrator, int steps, double cg_tolerance, bool undamped, bool no_drag,
			       int newton)
{
	swing_def d = default_swing();
	d.integrator = integrator;
	d.adaptive = steps == 0;
	d.max_dt = steps > 0 ? 1.0 / steps : 0.0;
	d.cg_tolerance = cg_tolerance;
	d.undamped = undamped;
	d.no_drag = no_drag;
	d.newton_iterations = newton;
	return d;
}

static void swinging(void)
{
	fprintf(out, "## Swinging sheet: energy kept\n\n"
		     "A 0.3 m sheet (21 × 21, default material, no cloth/cloth contact) held at one corner swings down from "
		     "horizontal. Swing energy: mechanical energy (kinetic + gravity + elastic) at the start minus that of "
		     "the hanging rest state (the sheet settled for 10 s); lost: the share of it gone at 0.5 s, and at the "
		     "lowest point of [0, 0.5] s, sampled every 1/30 s. Issue 13's goal for BDF2: at most 40 %% lost at "
		     "fixed 1/30 s steps with the default settings (and no more than 40 %% gained). The default material's "
		     "air drag alone takes about half the swing energy by 0.5 s in the converged motion (the 1/3840 s rows; "
		     "docs/integrators.md, \"Where the swing's energy goes\"), so no integrator can meet that goal; the "
		     "second judged row is the fair variant: no air drag, the step's nonlinear system solved by Newton "
		     "iterations (`newton_iterations` 8).\n\n"
		     "| integrator | steps | lost at 0.5 s | lost, lowest point | steps, rejected | |\n"
		     "|---|---|---|---|---|---|\n");
	const drape_integrator be = DRAPE_INTEGRATOR_BACKWARD_EULER, bdf2 = DRAPE_INTEGRATOR_BDF2;
	const swing_config rows[] = {
		{"fixed 1/30 s", swing_setting(be, 30, 0.0, false, false, 0), false},
		{"fixed 1/30 s", swing_setting(bdf2, 30, 0.0, false, false, 0), true},
		{"adaptive", swing_setting(be, 0, 0.0, false, false, 0), false},
		{"adaptive", swing_setting(bdf2, 0, 0.0, false, false, 0), false},
		{"fixed 1/30 s, newton_iterations 8", swing_setting(be, 30, 0.0, false, false, 8), false},
		{"fixed 1/30 s, newton_iterations 8", swing_setting(bdf2, 30, 0.0, false, false, 8), false},
		{"fixed 1/480 s, cg_tolerance 10⁻⁸", swing_setting(be, 480, 1e-8, false, false, 0), false},
		{"fixed 1/480 s, cg_tolerance 10⁻⁸", swing_setting(bdf2, 480, 1e-8, false, false, 0), false},
		{"fixed 1/3840 s, cg_tolerance 10⁻⁸ (converged)", swing_setting(bdf2, 3840, 1e-8, false, false, 0), false},
		{"fixed 1/30 s, no drag", swing_setting(be, 30, 0.0, false, true, 0), false},
		{"fixed 1/30 s, no drag", swing_setting(bdf2, 30, 0.0, false, true, 0), false},
		{"fixed 1/30 s, no drag, newton_iterations 8", swing_setting(be, 30, 0.0, false, true, 8), false},
		{"fixed 1/30 s, no drag, newton_iterations 8", swing_setting(bdf2, 30, 0.0, false, true, 8), true},
		{"fixed 1/480 s, cg_tolerance 10⁻⁸, no drag", swing_setting(bdf2, 480, 1e-8, false, true, 0), false},
		{"fixed 1/3840 s, cg_tolerance 10⁻⁸, no drag (converged)", swing_setting(bdf2, 3840, 1e-8, false, true, 0), false},
		{"fixed 1/3840 s, cg_tolerance 10⁻⁸, no drag, undamped (converged)", swing_setting(bdf2, 3840, 1e-8, true, true, 0), false},
	};
	for (size_t k = 0; k < sizeof rows / sizeof rows[0]; ++k) swing_row(&rows[k]);
	fprintf(out, "\nWith the default material the converged motion loses about 56 %% (air drag about 50, the "
		     "material's damping about 5); without drag, 9 %%. At 1/30 s the single linearised step of eq. 18 "
		     "loses 75–80 %% whatever the integrator; with the step's nonlinear system solved (Newton iterations), "
		     "BDF2 comes within about 15 points of the converged motion and backward Euler keeps its first-order "
		     "damping (docs/integrators.md, \"Where the swing's energy goes\").\n\n");
}

/* Projected (shadow) area of the cloth on the xy plane by rasterising its triangles. */
static double shadow_area(const double* x, const drape_mesh* m, double half)
{
	const int R = 500;
	const double cell = 2.0 * half / R;
	unsigned char* hit = calloc((size_t)R * R, 1);
	for (int t = 0; t < m->triangle_count; ++t) {
		const double* a = &x[3 * m->triangles[3 * t]];
		const double* b = &x[3 * m->triangles[3 * t + 1]];
		const double* c = &x[3 * m->triangles[3 * t + 2]];
		double lo[2], hi[2];
		for (int k = 0; k < 2; ++k) {
			lo[k] = fmin(a[k], fmin(b[k], c[k]));
			hi[k] = fmax(a[k], fmax(b[k], c[k]));
		}
		int i0 = (int)floor((lo[0] + half) / cell), i1 = (int)ceil((hi[0] + half) / cell);
		int j0 = (int)floor((lo[1] + half) / cell), j1 = (int)ceil((hi[1] + half) / cell);
		double det = (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
		if (fabs(det) < 1e-18) continue;
		for (int j = j0 < 0 ? 0 : j0; j <= j1 && j < R; ++j)
			for (int i = i0 < 0 ? 0 : i0; i <= i1 && i < R; ++i) {
				double px = -half + (i + 0.5) * cell, py = -half + (j + 0.5) * cell;
				double l1 = ((b[0] - px) * (c[1] - py) - (c[0] - px) * (b[1] - py)) / det;
				double l2 = ((c[0] - px) * (a[1] - py) - (a[0] - px) * (c[1] - py)) / det;
				if (l1 >= 0 && l2 >= 0 && l1 + l2 <= 1) hit[j * R + i] = 1;
			}
	}
	double area = 0.0;
	for (int k = 0; k < R * R; ++k) area += hit[k];
	free(hit);
	return area * cell * cell;
}

static void cusick(void)
{
	fprintf(out, "## Cusick drape test (ISO 9073-9), three resolutions\n\n"
		     "A square 0.30 m cloth (default material) centred on a disc of radius 0.09 m (a thin cylinder) "
		     "drapes for 4 s. Drape coefficient DC = (shadow area − disc area) / (cloth area − disc area), the "
		     "shadow rasterised from the triangles. Goal: the DC at three resolutions within 3 %% of the "
		     "finest, judged for the default model on cells of 10, 7.5 and 5 mm (31, 41 and 61 particles a side). "
		     "15 mm cells (21 × 21) are shown beside them, not judged "
		     "(docs/bending.md, \"Tensor is the default\").\n\n| bend_model | particles | DC | vs finest | |\n|---|---|---|---|---|\n");
	for (int m = 0; m < DRAPE_BEND_MODEL_COUNT; ++m) {
		/* Judged on the three finest; 15 mm cells (21 x 21) are reported beside them. */
		enum { RESOLUTIONS = 4 };
		int res[RESOLUTIONS] = {21, 31, 41, 61};
		double dc[RESOLUTIONS];
		for (int k = 0; k < RESOLUTIONS; ++k) {
			drape_grid_def g = drape_default_grid_def();
			g.size[0] = g.size[1] = 0.3;
			g.resolution[0] = g.resolution[1] = res[k];
			g.center[2] = 0.02;
			drape_mesh mesh;
			char err[128];
			drape_mesh_make_grid(&g, &mesh, err, sizeof err);
			drape_world_def wd = drape_default_world_def();
			drape_world* w = drape_world_create(&wd);
			drape_cloth_def cd = drape_default_cloth_def();
			cd.mesh = &mesh;
			cd.bend_model = (drape_bend_model)m;
			drape_cloth_id id = drape_cloth_add(w, &cd);
			drape_solid_def sd = drape_default_solid_def();
			sd.shape = DRAPE_SOLID_CYLINDER;
			sd.radius = 0.09;
			sd.half_height = 0.01;
			sd.thickness = 0.002;
			sd.friction = 0.5;
			drape_solid_add(w, &sd);
			bool ok = drape_world_step(w, 4.0) == DRAPE_OK;
			double* x = malloc(3 * (size_t)mesh.vertex_count * sizeof *x);
			drape_cloth_get_positions(w, id, x);
			double disc = M_PI * 0.09 * 0.09;
			dc[k] = ok ? (shadow_area(x, &mesh, 0.2) - disc) / (0.09 - disc) : NAN;
			free(x);
			drape_world_destroy(w);
			drape_mesh_free(&mesh);
		}
		for (int k = 0; k < RESOLUTIONS; ++k) {
			double rel = dc[k] / dc[RESOLUTIONS - 1] - 1.0;
			bool ok = isfinite(rel) && fabs(rel) <= 0.03;
			fprintf(out, "| %s | %d × %d | %.3f | %+.1f %% | %s |\n", drape_bend_model_name((drape_bend_model)m), res[k],
				res[k], dc[k], 100.0 * rel,
				k == 0 ? (ok ? "(coarser than judged: within)" : "(coarser than judged: outside)")
				       : verdict_for((drape_bend_model)m, ok));
			fflush(out);
		}
	}
	fprintf(out, "\n");
}

int main(int argc, char** argv)
{
	if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
		const bool help = argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0);
		fprintf(help ? stdout : stderr,
			"usage: drape_validate [OUT.md]\n\nRuns every physical check (docs/validation.md) and writes the "
			"report to OUT.md (default docs/validation.md); a few minutes.\n");
		return help ? 0 : 2;
	}
	const char* path = argc > 1 ? argv[1] : "docs/validation.md";
	char tmp[1024];
	snprintf(tmp, sizeof tmp, "%s.part", path);
	out = fopen(tmp, "w");
	if (!out) {
		fprintf(stderr, "drape_validate: cannot write %s\n", tmp);
		return 2;
	}
	fprintf(out, "# Validation\n\nMade by `make validate` (validate/validate.c; the shared helpers are in "
		     "tests/fidelity_lib.c): every physical check with drape's number, the reference and the tolerance. "
		     "Rows marked **fail** are goals drape does not meet yet; they are reported, not hidden "
		     "(docs/bending.md, docs/integrators.md).\n\n");
	free_fall();
	units();
	momentum();
	swinging();
	cantilevers();
	cantilever_settles();
	cantilever_across();
	cusick();
	fprintf(out, "---\n%d checks pass, %d fail.\n", passed, failed);
	fclose(out);
	if (rename(tmp, path) != 0) {
		fprintf(stderr, "drape_validate: cannot write %s\n", path);
		return 2;
	}
	printf("%s: %d checks pass, %d fail\n", path, passed, failed);
	return 0;
}
