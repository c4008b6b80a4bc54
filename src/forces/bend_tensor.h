/* Curvature-tensor bending of a triangle (docs/bending.md): a quadratic fitted to the triangle and
 * its three edge neighbours, the rotation-free Morley curvature that averages two such fits'
 * slopes across each edge, and the constant energy matrix. */
#ifndef DRAPE_BEND_TENSOR_H
#define DRAPE_BEND_TENSOR_H

#include "../math/vec3.h"

#include <stdbool.h>
#include <stdint.h>

/* Nodes of an element: corners 0..2, the flap across edge k at 3 + k, and the neighbour across
 * edge k's two other flaps at 6 + 2k, 7 + 2k (its flap across the shared edge is corner k). */
#define BEND_TENSOR_NODES 12

/* A triangle's corners in its own uv, and for each edge k (corners k+1, k+2, opposite corner k)
 * whether a neighbour shares it and, if so, the neighbour's uv of corner k+1, corner k+2 and its
 * own opposite corner (the flap), in the neighbour's uv (seams may place it elsewhere). */
typedef struct bend_tensor_input {
	double uv[3][2];
	bool has_flap[3];
	double flap_uv[3][3][2];
} bend_tensor_input;

/* The quadratic fitted to a triangle's 6 nodes (corners 0..2, flap of edge k at 3 + k), as linear
 * functionals of the node positions: alpha[c] its Hessian component c (uu, vv, uv), exact for
 * quadratic fields when all flaps exist (a free edge closes the fit with the plate's M_nn = 0,
 * c_uu, c_vv weighing it); jump[k] the jump of the linear interpolants' gradient across edge k
 * along its outward normal n_k (zero for a free edge); eta[k] what the fit's curvature adds to the
 * linear interpolant's slope n_k . grad at edge k's midpoint; weight[k] = |e_k| / A (n_u^2, n_v^2,
 * n_u n_v), the Morley curvature's weights (bend_tensor_morley). */
typedef struct bend_tensor_fit {
	double alpha[3][6];
	double jump[3][6];
	double eta[3][6];
	double weight[3][3];
	double area;
} bend_tensor_fit;

/* Returns false for a degenerate triangle or neighbour. */
bool bend_tensor_fit_make(const bend_tensor_input* in, double c_uu, double c_vv, bend_tensor_fit* out);

/* The element's Hessian weights: alpha[c][m] over the BEND_TENSOR_NODES nodes. nb[k] is the fit
 * of the neighbour across edge k (NULL for a free edge) and nb_edge[k] that edge's index in it;
 * nb_slot[k][m] the element node that the neighbour's node m is. Exact for quadratic fields where
 * both fits are, and conservative: summed over a mesh, area times curvature is the distributional
 * Hessian of the piecewise linear field, so a bounded field has no mean curvature. */
void bend_tensor_morley(const bend_tensor_fit* own, const bend_tensor_fit* const nb[3], const int nb_edge[3],
			const int nb_slot[3][6], double alpha[3][BEND_TENSOR_NODES]);

/* A tensor-bending element (forces/bend_tensor.h): a triangle's corners v[0..2], the flaps
 * across its edges v[3..5], and for edge k the two flaps of that neighbour across its other
 * edges v[6 + 2k], v[7 + 2k] (a missing node repeats v[0] with zero weights); the Hessian
 * weights alpha, the uv area and the stiffness against curvature along u and v. v must stay
 * first. */
typedef struct bend_tensor_elem {
	int32_t v[BEND_TENSOR_NODES];
	double alpha[3][BEND_TENSOR_NODES];
	double area;
	double c_uu, c_vv, damping;
} bend_tensor_elem;

/* Whether element node i carries weight (a missing node repeats v[0] with zero weights, so an
 * element's used nodes are distinct). */
static inline bool bend_tensor_node_used(const bend_tensor_elem* el, int i)
{
	return el->alpha[0][i] != 0.0 || el->alpha[1][i] != 0.0 || el->alpha[2][i] != 0.0;
}

/* The elements' stiffness Q and damping D, summed once per topology into scalar rows (one per
 * particle 0..n-1, CSR: *start has n + 1 entries, *col, *k and *d one per entry), each row's
 * columns ascending and each entry summed over the elements in element order, so that the sums
 * are the same for any mesh numbering of the rows and any thread count. With no element only
 * *start is made (all zero). False, with what was made left for the caller to free, without
 * memory. */
bool bend_tensor_rows_build(const bend_tensor_elem* els, int32_t count, int32_t n, int32_t** start, int32_t** col,
			    double** k, double** d);

/* 1/2 sum q_ij x_i.x_j over the elements at positions x, J. */
double bend_tensor_energy(const bend_tensor_elem* els, int32_t count, const vec3* x);
/* The same from the summed rows of bend_tensor_rows_build (n rows): a quarter of the work of
 * forming every element's matrix, for the step judge's energy twice a step (issue 31, stalls). */
double bend_tensor_rows_energy(int32_t n, const int32_t* start, const int32_t* col, const double* k, const vec3* x);

/* q = area * (c_uu a_uu a_uu^T + c_vv a_vv a_vv^T + 2 sqrt(c_uu c_vv) a_uv a_uv^T): E = 1/2 sum q_ij x_i.x_j. */
void bend_tensor_matrix(const double alpha[3][BEND_TENSOR_NODES], double area, double c_uu, double c_vv,
			double q[BEND_TENSOR_NODES][BEND_TENSOR_NODES]);
/* Row i of the same q. */
void bend_tensor_matrix_row(const double alpha[3][BEND_TENSOR_NODES], double area, double c_uu, double c_vv, int i,
			    double row[BEND_TENSOR_NODES]);

#endif
