/* Grid-line solves for the ADI and Split schemes (Boxerman, "ADI Cloth", sec. 5, eq. 19): when A
 * holds only one stretch family's couplings, it is block-tridiagonal along that family's grid
 * lines, and each line is solved in O(length) by block Thomas elimination. */
#ifndef DRAPE_LINE_SOLVE_H
#define DRAPE_LINE_SOLVE_H

#include "../world_data.h"

/* Fills w->line_slots for every mass-spring cloth (after the matrix pattern is built). */
void line_slots_build(drape_world* w);

/* Solves A out = rhs line by line along u rows (dir 0) or v columns (dir 1), with the filter of
 * sec. 5.3 applied exactly: [S A S + (I - S)] u = S (rhs - A z), out = S u + z, so pinned
 * particles get exactly z. A must have no couplings across the lines. False on a singular pivot. */
bool line_solve(drape_world* w, int dir, const vec3* rhs, vec3* out);

#endif
