/* Curvature-tensor bending of a triangle and its three edge neighbours (docs/bending.md): the
 * per-triangle Hessian estimate of the position field and its constant 6x6 energy matrix. */
#ifndef DRAPE_BEND_TENSOR_H
#define DRAPE_BEND_TENSOR_H

#include "../math/vec3.h"

#include <stdbool.h>

/* A triangle's corners in its own uv, and for each edge k (corners k+1, k+2, opposite corner k)
 * whether a neighbour shares it and, if so, the neighbour's uv of corner k+1, corner k+2 and its
 * own opposite corner (the flap), in the neighbour's uv (seams may place it elsewhere). */
typedef struct bend_tensor_input {
	double uv[3][2];
	bool has_flap[3];
	double flap_uv[3][3][2];
} bend_tensor_input;

/* Nodes 0..2 are the corners, 3 + k the flap across edge k. alpha[c][m]: the Hessian component c
 * (uu, vv, uv) of the position field is sum_m alpha[c][m] x_m, exact for quadratic fields when all
 * flaps exist. A free edge closes the system with the plate's M_nn = 0 (c_uu, c_vv weigh it).
 * Returns false for a degenerate triangle or neighbour; *area is the uv area. */
bool bend_tensor_element(const bend_tensor_input* in, double c_uu, double c_vv, double alpha[3][6], double* area);
/* q = area * (c_uu a_uu a_uu^T + c_vv a_vv a_vv^T + 2 sqrt(c_uu c_vv) a_uv a_uv^T): E = 1/2 sum q_ij x_i.x_j. */
void bend_tensor_matrix(const double alpha[3][6], double area, double c_uu, double c_vv, double q[6][6]);
double bend_tensor_energy(const double q[6][6], const vec3 x[6]);

#endif
