/* An all-explicit plan's triangle forces (stretch eq. 10, shear sec. 4.3, drag sec. 4.4; the force
 * of eq. 7 with the damping of eq. 11, no Jacobians): b += h f, the general assembly's numbers
 * bit for bit (step/implicit.c, assemble_triangle). */
#ifndef DRAPE_EXPLICIT_TRIANGLES_H
#define DRAPE_EXPLICIT_TRIANGLES_H

#include "../world_data.h"

/* b += h f for every triangle, colour by colour and tile by tile as the assembly goes (the same
 * order of additions into b), with the family scales of plan p and the wind at the pass's time. */
void explicit_triangles_assemble(drape_world* w, vec3 wind, double h, const assembly_plan* p);

#endif
