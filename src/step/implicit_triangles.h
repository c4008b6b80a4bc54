/* An implicit plan's triangle terms (stretch, shear, their strain-limit stiffening and drag, paper
 * sec. 4.2-4.5) four triangles at a time in vector lanes; the bits of step/implicit.c's
 * assemble_triangle. */
#ifndef DRAPE_IMPLICIT_TRIANGLES_H
#define DRAPE_IMPLICIT_TRIANGLES_H

#include "../world.h"

/* The scalar path for one triangle, for those the lanes do not take (a springs-only triangle, one
 * with w_u or w_v of no positive length, a tile's last few). */
typedef void (*implicit_triangle_fn)(drape_world* w, const triangle_elem* e, vec3 wind, double h, const assembly_plan* p);

/* Whether a plan's triangle terms can go through the lanes: every triangle family implicit (one
 * group of terms per triangle; a later contact pass re-forms only some triangles' b terms, by the
 * scalar path). */
bool implicit_triangles_lanes(const drape_world* w, const assembly_plan* p);

/* Every triangle's terms into A and b (and, with rec, each triangle's b terms at rec[3 t], used[t]
 * set: the first pass's record, step/implicit.c), coloured tiles in order as the assembly's other
 * element loops go, each tile's triangles in tile order: the same sums in the same order as one
 * at a time. */
void implicit_triangles_assemble(drape_world* w, vec3 wind, double h, const assembly_plan* p, vec3* rec, uint8_t* used,
				 implicit_triangle_fn one);

#endif
