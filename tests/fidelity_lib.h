/* Physical checks shared by the fidelity tests (tests/test_fidelity.c) and the validation page
 * (validate/validate.c, `make validate`): a heavy-elastica solver, a settled cantilever strip
 * (Peirce's test, ASTM D1388) and the strip meshes it runs on. */
#ifndef DRAPE_FIDELITY_LIB_H
#define DRAPE_FIDELITY_LIB_H

#include "drape.h"

/* A clamped-free strip of length L under its own weight w (N/m per unit width) with rigidity B
 * (N*m per unit width): B theta'' = -w (L - s) cos theta, theta(0) = 0, theta'(L) = 0, solved by
 * shooting on theta'(0) (bisection, RK4). Returns the tip's drop below the clamp; *tip_x (may be
 * NULL) its horizontal distance. */
double elastica_tip_drop(double L, double w, double B, double* tip_x);

typedef enum strip_mesh {
	STRIP_GRID = 0,      /* rectangular cells, alternating diagonals */
	STRIP_IRREGULAR = 1, /* interior vertices jittered by up to 0.3 cell, diagonals at random */
	STRIP_GRID_UNIFORM = 2, /* rectangular cells, every diagonal the same way */
} strip_mesh;

typedef struct cantilever_def {
	double overhang;     /* free length beyond the clamp, m */
	double width;        /* m */
	double cell_along;   /* cell size along the strip, m */
	double cell_across;  /* ... across it */
	strip_mesh mesh;
	bool weft;           /* the strip runs along v (measures bend_u); else along u (bend_v) */
	drape_bend_model bend_model;
	drape_integrator integrator;
	double bend;         /* N*m, the rigidity along the strip */
	double across;       /* the rigidity across the strip, in units of bend */
	double clamp_cell;   /* length of the pinned cell (between the two clamp columns), in cells */
	double stretch, shear; /* N/m; 0: the default material's */
	double density;      /* kg/m^2 */
	double settle;       /* seconds simulated */
	double cg_tolerance; /* 0: the default */
} cantilever_def;

cantilever_def default_cantilever(void);

typedef struct cantilever_result {
	bool ok;
	double drop;         /* mean tip drop below the clamp, m */
	double reference;    /* elastica_tip_drop for the free length from the pinned cell's middle */
	double free_length;  /* that length, m */
	double last_motion;  /* largest tip displacement over the last second, m */
	int32_t particles;
} cantilever_result;

cantilever_result run_cantilever(const cantilever_def* def);

/* The swinging sheet (docs/validation.md, docs/integrators.md "Where the swing's energy goes"): a
 * 0.3 m sheet, 21 x 21, held at one corner, released from horizontal, cloth/cloth contact off. */
typedef struct swing_def {
	drape_integrator integrator;
	bool adaptive;
	double max_dt, cg_tolerance; /* 0: the default */
	bool undamped;               /* no stretch, shear or bend damping */
	bool no_drag;                /* no air drag */
	bool no_strain_limit;
	int32_t newton_iterations;   /* 0: the default */
	int32_t threads;             /* 0: the default */
} swing_def;

swing_def default_swing(void);

typedef struct swing_result {
	bool ok;
	double lost;        /* share of the swing energy gone at 0.5 s (negative: gained) */
	double lost_lowest; /* ... at the lowest point of [0, 0.5] s, sampled every 1/30 s */
	double swing;       /* mechanical energy at the start minus that of the hanging rest state, J */
	int64_t steps, rejected, cg_iterations;
} swing_result;

/* Mechanical energy is kinetic + gravity + elastic (drape_world_elastic_energy). The rest state
 * is the same sheet settled for 10 s with the default material and steps (its damping and drag do
 * not move the equilibrium; an undamped sheet would still be swinging). */
swing_result run_swing(const swing_def* def);

/* A mesh for a rectangle of nx x ny vertices spanning lx x ly (world x, y at height z), uv = (x, y)
 * or, when swap_uv, (y, x); the first column of cells is `first` long (0: like the others). Caller
 * frees with drape_mesh_free. */
bool strip_mesh_make(int nx, int ny, double lx, double ly, double z, strip_mesh kind, bool swap_uv, uint64_t seed,
		     double first, drape_mesh* out);

#endif
