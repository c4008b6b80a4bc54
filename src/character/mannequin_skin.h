/* Skinning weights of the generated mannequin (mannequin_skin.c, docs/mannequin.md). */
#ifndef DRAPE_MANNEQUIN_SKIN_H
#define DRAPE_MANNEQUIN_SKIN_H

#include "character/body_shape.h"

/* Four (joint, weight) pairs per vertex of the closed mesh, weights nonnegative and summing to 1; unused slots repeat
 * the first joint with weight 0. */
bool mannequin_skin(const mannequin_joint* joints, int32_t count, const body_shape* s, const double* positions,
		    int32_t vertex_count, const int32_t* triangles, int32_t triangle_count, int32_t* out_joints,
		    double* out_weights, char* err, size_t err_size);

#endif
