/* The world's energy at given positions and velocities (drape_world_kinetic_energy and
 * drape_world_elastic_energy at its own state), for tools that test boundedness and for the step's
 * judge, which weighs a proposal before it is accepted (step/step_judge.c, "closed_energy"). */
#ifndef DRAPE_WORLD_ENERGY_H
#define DRAPE_WORLD_ENERGY_H

#include "world_data.h"

/* 1/2 sum m_i |v_i|^2, J. */
double world_kinetic_energy_at(const drape_world* w, const vec3* v);
/* The energy stored in all cloths' internal forces at positions x (both models: stretch, shear,
 * bend; not seams, contacts or user springs), J. */
double world_elastic_energy_at(const drape_world* w, const vec3* x);
/* The same where every triangle's w at x is known (tw[t] = tri_w_at of triangle t at x: the step
 * control's strain measure formed them, step/strain_change.c), or the tensor bending's summed-rows
 * energy at x (*btens, from bend_tensor_energy_force; only where the rows are built for this model:
 * work.bq_k and not model.dirty): bit for bit the same sum. Either may be NULL. */
double world_elastic_energy_known(const drape_world* w, const vec3* x, const tri_w* tw, const double* btens);
/* -sum m_i g.x_i: the potential of gravity at positions x, J (zero at the origin). */
double world_gravity_energy_at(const drape_world* w, const vec3* x);

#endif
