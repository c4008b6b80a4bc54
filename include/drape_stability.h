/* drape's research API: the stability experiments of Boxerman's "ADI Cloth" (sec. 6.3-6.5), the
 * largest stable time step of each integrator on a rod and on a sheet, found by bisection and given
 * in units of sqrt(m / k_s). Apart from drape.h, as the ADI research code is apart from the
 * product's step (src/stability/); used by `drape stability`, `drape bench --integrators` and the
 * tests. Criterion and settings: docs/stability.md. */
#ifndef DRAPE_STABILITY_H
#define DRAPE_STABILITY_H

#include "drape.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum drape_stab_setting {
	DRAPE_STAB_WAVE1D = 0,  /* the rod as the finite-difference PDE (stability/wave1d.h) */
	DRAPE_STAB_ROD1D = 1,   /* the rod as a mass-spring chain (sec. 6.3) */
	DRAPE_STAB_SHEET2D = 2, /* a sheet, left edge pinned, forces in its plane (sec. 6.4) */
	DRAPE_STAB_SHEET3D = 3, /* the same sheet with gravity and the force out of its plane (sec. 6.5) */
	DRAPE_STAB_SETTING_COUNT = 4,
} drape_stab_setting;

const char* drape_stab_setting_name(drape_stab_setting s);
bool drape_stab_setting_from_name(const char* name, drape_stab_setting* out);

/* Whether the setting can run the integrator (the PDE has only the paper's four schemes). */
bool drape_stab_applicable(drape_stab_setting s, drape_integrator integrator);

/* The paper's limit for the scheme in 1D (settings wave1d, rod1d) or 2D/3D (sheet2d, sheet3d), in
 * units of sqrt(m / k_s): INFINITY for "unconditional", NAN where the paper gives none (Boxerman
 * 2003, sec. 6.3-6.5). */
double drape_stab_paper_limit(drape_integrator integrator, drape_stab_setting s);

typedef struct drape_stab_options {
	int32_t grid;        /* particles along the rod / along each side of the sheet (h = 1 m / (grid - 1)) */
	double time;         /* simulated seconds per trial (at least min_steps steps are taken) */
	int32_t min_steps;
	double k_min, k_max; /* search range in units of sqrt(m / k_s) */
	double resolution;   /* bisection stops when k_hi / k_lo < 1 + resolution */
	double energy_factor; /* unstable when the energy exceeds this multiple of the reference */
	int32_t threads;
	double onoff_c1; /* On-Off's c1; <= 0: the world's default (2) */
} drape_stab_options;

/* grid 26 (h = 0.04 m: m = 0.01 kg, k_s = 50 N/m, Table 2's first row), 1 s, 400 steps,
 * 0.05 ... 20, 1%, energy factor 10, one thread. */
drape_stab_options drape_stab_default_options(void);
/* NULL if the options are usable, else a sentence saying what is wrong. */
const char* drape_stab_check_options(const drape_stab_options* o);

/* One trial's system: the setting's rod or sheet with `integrator` at a fixed step, or the rod's
 * PDE (wave1d) for DRAPE_STAB_WAVE1D. An opaque handle. */
typedef struct drape_stab_case drape_stab_case;

/* sqrt(m / k_s) of the setting at this grid, s (no world needed). */
double drape_stab_unit(drape_stab_setting s, int32_t grid);

/* Builds the case; dt in seconds; cg_tolerance and onoff_c1 <= 0 keep the world's defaults (1e-3
 * and 2). NULL with a message in err if the world rejects it or memory runs out. */
drape_stab_case* drape_stab_case_create(drape_stab_setting s, drape_integrator integrator, int32_t grid, double dt,
					int32_t threads, double cg_tolerance, double onoff_c1, char* err, size_t err_size);
void drape_stab_case_destroy(drape_stab_case* c);
/* The case's world (the rod's or the sheet's cloth is cloth 0), for its stats and positions; NULL
 * for DRAPE_STAB_WAVE1D. */
drape_world* drape_stab_case_world(const drape_stab_case* c);
/* One step of dt; false if the step failed or the state is not finite. */
bool drape_stab_case_step(drape_stab_case* c);
/* Kinetic plus elastic energy, J. */
double drape_stab_case_energy(const drape_stab_case* c);
/* Whether the rod has tangled, the sign of a grid-scale mode grown to the size of the mesh: a
 * spring shorter than a quarter of its rest length or turned over. The loads pull every spring of
 * the rod, so stable runs never come near that; an unstable mode on the chain can saturate there
 * (a turned-over spring has a second rest state) with bounded energy. Always false on the sheets:
 * with no shear or bend stiffness their springs legitimately collapse (docs/stability.md). */
bool drape_stab_case_tangled(drape_stab_case* c);

typedef struct drape_stab_trial {
	bool stable;
	bool failed;       /* a step failed (diverged, not finite) */
	bool tangled;      /* the rod tangled (drape_stab_case_tangled) */
	bool exceeded;     /* the energy passed energy_factor x the reference (the trial stops) */
	double max_energy; /* over the trial (pairs of steps, below), J */
	int64_t steps;
} drape_stab_trial;

/* The energy scale: the largest kinetic + elastic energy of symplectic Euler at 0.2 sqrt(m / k_s)
 * over the trial time (stable in every setting; no numerical damping, so it reaches the full work
 * of the loads). */
double drape_stab_reference_energy(drape_stab_setting s, const drape_stab_options* o);

/* Runs integrator at k (units of sqrt(m / k_s)) for max(time, min_steps k) steps. Unstable when a
 * step fails, the rod tangles, or the energy exceeds energy_factor x the reference: without
 * damping a stable scheme keeps the energy near the work the loads do, an unstable mode grows
 * geometrically (or, on a nonlinear mesh, saturates in garbage far above the reference). The ADI
 * schemes are two-step schemes, so each pair of steps is judged by its better state. */
drape_stab_trial drape_stab_run_trial(drape_stab_setting s, drape_integrator integrator, double k, double e_ref, const drape_stab_options* o);

typedef enum drape_stab_limit_kind {
	DRAPE_STAB_LIMIT_FOUND = 0,  /* stable at k_lo, unstable at k_hi = k_lo (1 + resolution) */
	DRAPE_STAB_LIMIT_ABOVE = 1,  /* stable at every scanned k up to k_max */
	DRAPE_STAB_LIMIT_BELOW = 2,  /* unstable already at k_min */
	DRAPE_STAB_LIMIT_NOT_APPLICABLE = 3,
} drape_stab_limit_kind;

typedef struct drape_stab_limit {
	drape_stab_limit_kind kind;
	double k;              /* FOUND: the largest stable k found (units) */
	double k_unstable;     /* FOUND: the smallest unstable k found */
	bool non_monotone;     /* some scanned k above the limit was stable again */
	double k_stable_again; /* the largest such k */
	int32_t trials;
} drape_stab_limit;

/* Scans k_min ... k_max on a coarse log grid (0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20 within the
 * range) up to the first unstable value, tries k_max too, then bisects between the last stable
 * and the first unstable value. */
drape_stab_limit drape_stab_find_limit(drape_stab_setting s, drape_integrator integrator, double e_ref, const drape_stab_options* o);

#ifdef __cplusplus
}
#endif
#endif
