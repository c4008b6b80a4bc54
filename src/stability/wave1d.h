/* The 1D wave equation rho u_tt = EA u_xx + rho g of a rod (Boxerman 2003, sec. 3.2) with u = 0 at
 * x = 0 (Dirichlet) and EA u_x = F at x = L (Neumann), discretised on nodes x_j = j h, j = 0..N,
 * by the paper's finite-difference schemes: explicit (7), implicit (13), Crank-Nicolson ADI (sec.
 * 5.2) and On-Off ADI (17). Library-internal: the reference the mass-spring chain is checked
 * against (docs/stability.md), and the PDE side of `drape stability`. */
#ifndef DRAPE_WAVE1D_H
#define DRAPE_WAVE1D_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum wave1d_scheme {
	WAVE1D_EXPLICIT = 0, /* eq. 7: identical to symplectic Euler on the chain */
	WAVE1D_IMPLICIT = 1, /* eq. 13: identical to backward Euler on the chain */
	WAVE1D_CN_ADI = 2,   /* sec. 5.2: explicit and implicit steps alternating */
	WAVE1D_ONOFF = 3,    /* eq. 17: springs off, then on with c1 times their stiffness */
	WAVE1D_SCHEME_COUNT = 4,
} wave1d_scheme;

typedef struct wave1d_def {
	double ea;      /* axial stiffness EA, N */
	double rho;     /* line density, kg/m */
	double gravity; /* body acceleration g along the rod, m/s^2 */
	double force;   /* F at x = L, N */
	double length;  /* L, m */
	int32_t cells;  /* N: h = L / N, unknowns u_1..u_N */
	double dt;      /* k, s */
	wave1d_scheme scheme;
	double c1; /* On-Off: the on step's factor (3 is the consistent value, sec. 5.3) */
	/* CN-ADI and On-Off: the first step is the implicit (on) one when true, else the explicit
	 * (off) one; the steps then alternate. */
	bool implicit_first;
} wave1d_def;

/* The rod of Tables 1-2: EA = 2 N, rho = 0.25 kg/m, g = 9.8, F = 1 N, L = 1 m, h = 0.04 m,
 * k = 0.001 s, explicit, c1 = 3. */
wave1d_def wave1d_default_def(void);

typedef struct wave1d {
	wave1d_def def;
	double h;
	double r;     /* alpha^2 mu^2 = EA k^2 / (rho h^2) */
	int64_t step; /* steps taken */
	/* Node values j = 0..N (u[0] = d[0] = 0 always): the current level u^n, the last change
	 * d^n = u^n - u^n-1, and the scratch of the tridiagonal solve. Each scheme is stepped in this
	 * summed form, d^n+1 = d^n + (the scheme's k^2 u_tt terms), u^n+1 = u^n + d^n+1: algebraically
	 * the paper's two-level recurrences, but their round-off grows like n^1.5 for the smooth modes
	 * (the double root at 1), this form's like n^0.5, which is what lets the PDE and the chain
	 * (which carries velocities) agree to 1e-12 over thousands of steps. */
	double* u;
	double* d;
	double* next;
	double* scratch;
} wave1d;

/* Validates def (message into err) and allocates; the rod starts at rest (u^0 = u^-1 = 0, sec.
 * 6.2) unless u0 and u_prev (N + 1 node values each, u0[0] = u_prev[0] = 0) are given. */
bool wave1d_init(wave1d* w, const wave1d_def* def, const double* u0, const double* u_prev, char* err, size_t err_size);
void wave1d_free(wave1d* w);

/* One step; false if the solution stopped being finite. */
bool wave1d_step(wave1d* w);
double wave1d_time(const wave1d* w);

/* Discrete energy at the current level: kinetic from (u^n - u^n-1)/k with the chain's lumped
 * masses (rho h, rho h / 2 at x = L) plus the springs' EA / (2h) (u_j+1 - u_j)^2. */
double wave1d_energy(const wave1d* w);

/* Which steps are implicit: the scheme and the step's index (0 for the first step). */
bool wave1d_step_is_implicit(const wave1d_def* def, int64_t step);

const char* wave1d_scheme_name(wave1d_scheme s);

#endif
