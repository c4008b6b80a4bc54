/* Finite-difference schemes for the rod's wave equation (Boxerman 2003, eqs. 7, 13, 17 and sec.
 * 5.2), with the Dirichlet end at x = 0 and the Neumann force at x = L.
 *
 * The Neumann condition EA u_x(L) = F uses the ghost node u_N+1 = u_N-1 + 2hF/EA (sec. 3.2), so
 * the last row reads u_N^n+1 = 2u_N^n - u_N^n-1 + r (2u_N-1 - 2u_N) + 2k^2 F / (rho h) + k^2 g.
 * That is exactly the chain's last particle with half the interior mass (rho h / 2) and F applied
 * as an external force, which is what makes the PDE and the chain agree to round-off. The ghost
 * term 2k^2 F / (rho h) is kept as a source, outside the operator D+D-: in the On-Off scheme the
 * force then acts in both the off and the on step, as an external force does on the chain, rather
 * than being switched off and scaled by c1 with the springs (docs/stability.md). */
#include "stability/wave1d.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

wave1d_def wave1d_default_def(void)
{
	wave1d_def d;
	memset(&d, 0, sizeof d);
	d.ea = 2.0;
	d.rho = 0.25;
	d.gravity = 9.8;
	d.force = 1.0;
	d.length = 1.0;
	d.cells = 25;
	d.dt = 0.001;
	d.scheme = WAVE1D_EXPLICIT;
	d.c1 = 3.0;
	d.implicit_first = false;
	return d;
}

const char* wave1d_scheme_name(wave1d_scheme s)
{
	switch (s) {
	case WAVE1D_EXPLICIT: return "explicit";
	case WAVE1D_IMPLICIT: return "implicit";
	case WAVE1D_CN_ADI: return "cn_adi";
	case WAVE1D_ONOFF: return "onoff_adi";
	default: return "?";
	}
}

bool wave1d_init(wave1d* w, const wave1d_def* def, const double* u0, const double* u_prev, char* err, size_t err_size)
{
	memset(w, 0, sizeof *w);
	const char* bad = NULL;
	if (!(isfinite(def->ea) && def->ea > 0.0)) bad = "EA must be a positive number";
	else if (!(isfinite(def->rho) && def->rho > 0.0)) bad = "the density must be a positive number";
	else if (!(isfinite(def->length) && def->length > 0.0)) bad = "the length must be a positive number";
	else if (!(isfinite(def->dt) && def->dt > 0.0)) bad = "the time step must be a positive number";
	else if (!isfinite(def->gravity) || !isfinite(def->force)) bad = "gravity and force must be finite";
	else if (def->cells < 1 || def->cells > 100000000) bad = "the number of cells must be in 1..1e8";
	else if ((int)def->scheme < 0 || def->scheme >= WAVE1D_SCHEME_COUNT) bad = "unknown scheme";
	else if (def->scheme == WAVE1D_ONOFF && !(isfinite(def->c1) && def->c1 > 0.0)) bad = "c1 must be a positive number";
	if (bad) {
		snprintf(err, err_size, "%s", bad);
		return false;
	}
	size_t n = (size_t)def->cells + 1;
	w->def = *def;
	w->h = def->length / def->cells;
	w->r = def->ea * def->dt * def->dt / (def->rho * w->h * w->h);
	w->u = calloc(n, sizeof(double));
	w->d = calloc(n, sizeof(double));
	w->next = calloc(n, sizeof(double));
	w->scratch = calloc(n, sizeof(double));
	if (!w->u || !w->d || !w->next || !w->scratch) {
		wave1d_free(w);
		snprintf(err, err_size, "out of memory");
		return false;
	}
	if (u0) memcpy(w->u, u0, n * sizeof(double));
	for (size_t j = 1; j < n; ++j) w->d[j] = w->u[j] - (u_prev ? u_prev[j] : 0.0);
	w->u[0] = w->d[0] = 0.0;
	return true;
}

void wave1d_free(wave1d* w)
{
	free(w->u);
	free(w->d);
	free(w->next);
	free(w->scratch);
	memset(w, 0, sizeof *w);
}

double wave1d_time(const wave1d* w) { return (double)w->step * w->def.dt; }

bool wave1d_step_is_implicit(const wave1d_def* def, int64_t step)
{
	switch (def->scheme) {
	case WAVE1D_EXPLICIT: return false;
	case WAVE1D_IMPLICIT: return true;
	default: return ((step & 1) == 0) == def->implicit_first;
	}
}

/* Solves (I - s D+D-) x = b for x_1..x_N in place in b (Thomas): rows 1..N-1 are
 * -s x_j-1 + (1 + 2s) x_j - s x_j+1, row N is -2s x_N-1 + (1 + 2s) x_N (ghost node). The matrix is
 * strictly diagonally dominant, so no pivoting is needed. */
static void solve_line(int32_t n, double s, double* b, double* c)
{
	double diag = 1.0 + 2.0 * s;
	/* c[j] holds the eliminated super-diagonal, b[j] the eliminated right-hand side. */
	double piv = diag;
	c[1] = n > 1 ? -s / piv : 0.0;
	b[1] /= piv;
	for (int32_t j = 2; j <= n; ++j) {
		double sub = j == n ? -2.0 * s : -s;
		piv = diag - sub * c[j - 1];
		c[j] = j < n ? -s / piv : 0.0;
		b[j] = (b[j] - sub * b[j - 1]) / piv;
	}
	for (int32_t j = n - 1; j >= 1; --j) b[j] -= c[j] * b[j + 1];
}

bool wave1d_step(wave1d* w)
{
	const wave1d_def* d = &w->def;
	int32_t n = d->cells;
	double k2 = d->dt * d->dt;
	double* u = w->u;
	double* x = w->next; /* the new change d^n+1 */
	bool implicit = wave1d_step_is_implicit(d, w->step);
	/* The spring term's factor in this step: explicit 1, implicit 1, off 0, on c1. */
	double s = w->r;
	if (d->scheme == WAVE1D_ONOFF) s = implicit ? d->c1 * w->r : 0.0;
	/* d^n+1 = d^n + s D+D- u^(n or n+1) + k^2 g (+ the ghost node's 2 k^2 F / (rho h) at N). With
	 * u^n+1 = u^n + d^n+1 the implicit case reads (I - s D+D-) d^n+1 = d^n + s D+D- u^n + source. */
	for (int32_t j = 1; j <= n; ++j) x[j] = w->d[j] + k2 * d->gravity;
	x[n] += 2.0 * k2 * d->force / (d->rho * w->h);
	if (s != 0.0) {
		for (int32_t j = 1; j < n; ++j) x[j] += s * (u[j + 1] - 2.0 * u[j] + u[j - 1]);
		x[n] += s * (2.0 * u[n - 1] - 2.0 * u[n]);
	}
	if (implicit) solve_line(n, s, x, w->scratch);
	bool finite = true;
	for (int32_t j = 1; j <= n; ++j) {
		u[j] += x[j];
		finite = finite && isfinite(u[j]);
	}
	x[0] = 0.0;
	/* The new change becomes d; the old d's storage is the next step's buffer. */
	w->next = w->d;
	w->d = x;
	++w->step;
	return finite;
}

double wave1d_energy(const wave1d* w)
{
	const wave1d_def* d = &w->def;
	double m = d->rho * w->h, ks = d->ea / w->h, e = 0.0;
	for (int32_t j = 1; j <= d->cells; ++j) {
		double v = w->d[j] / d->dt;
		double du = w->u[j] - w->u[j - 1];
		e += 0.5 * (j == d->cells ? 0.5 * m : m) * v * v + 0.5 * ks * du * du;
	}
	return e;
}
