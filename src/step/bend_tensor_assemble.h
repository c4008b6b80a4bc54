/* Tensor bending in the implicit system (docs/bending.md): its constant stiffness and damping
 * summed once into a scalar sparse matrix, then added to A and b every pass (sec. 3, eq. 18). */
#ifndef DRAPE_BEND_TENSOR_ASSEMBLE_H
#define DRAPE_BEND_TENSOR_ASSEMBLE_H

#include "../world_data.h"

/* Frees the summed matrix w->work.bq_* (built by workspace_prepare: the rows by
 * bend_tensor_rows_build, their slots in A by bsr_place_entries). */
void bend_tensor_free(drape_world* w);
/* Adds the bend family's terms as plan p says: b += h f + h^2 K (v0 + y/h) (implicit roles) or
 * b += h f (explicit), and, if matrix, A += h D + h^2 Q for the implicit role. */
void bend_tensor_assemble(drape_world* w, double h, const assembly_plan* p, bool matrix);
/* The bending energy at x (bend_tensor_rows_energy's sum, bit for bit) and, in the same pass over
 * the rows, the explicit force at (x, v) with the family's scale s into bend_f1: the judge's measure
 * of a proposal, whose force the next step then reads (bend_tensor_keep) instead of forming it. */
double bend_tensor_energy_force(drape_world* w, const vec3* x, const vec3* v, double s);
/* After an accepted step: whether bend_f1 was formed for the proposal now the state (formed); then
 * it is the state's force, else none is kept. */
void bend_tensor_keep(drape_world* w, bool formed);

#endif
