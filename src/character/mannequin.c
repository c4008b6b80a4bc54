/* The generated, skinned human body of issue 10 item 3: checks the skeleton, builds the implicit
 * shape (body_shape.c), meshes it into one closed surface (mesh/isosurface.c, mesh/remesh.c) and
 * weighs the vertices to the joints (mannequin_skin.c). See docs/mannequin.md. */
#include "character/mannequin.h"

#include "character/body_shape.h"
#include "character/mannequin_skin.h"
#include "core.h"
#include "mesh/isosurface.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Grid spacings outside this range (metres, for an adult) either cannot resolve the hands and the
 * gaps between limbs or would take minutes and gigabytes. */
#define CELL_MIN 0.005
#define CELL_MAX 0.03

/* Remeshing rounds: the edge-length spread and the smallest angles stop improving after about
 * this many (docs/mannequin.md). */
#define REMESH_PASSES 4

/* The largest box around the body, in m^3 for an adult whose legs are the reference's (below). */
#define BOX_MAX 8.0

static bool check_skeleton(const mannequin_joint* joints, int32_t count, char* err, size_t err_size)
{
	if (!joints || count <= 0) return core_fail(err, err_size, "mannequin: the skeleton has no joints");
	for (int32_t i = 0; i < count; ++i) {
		if (!joints[i].name || !joints[i].name[0])
			return core_fail(err, err_size, "mannequin: joint %d has no name", i);
		if (joints[i].parent < -1 || joints[i].parent >= count || joints[i].parent == i)
			return core_fail(err, err_size, "mannequin: joint %d (%s) has parent %d, not -1 or another joint", i,
					 joints[i].name, joints[i].parent);
		for (int d = 0; d < 3; ++d)
			if (!isfinite(joints[i].pos[d]))
				return core_fail(err, err_size, "mannequin: joint %d (%s) has a non-finite position", i,
						 joints[i].name);
		/* no cycles: the walk to the root ends within count steps */
		int32_t p = joints[i].parent, steps = 0;
		while (p >= 0 && steps <= count) {
			p = joints[p].parent;
			++steps;
		}
		if (p >= 0) return core_fail(err, err_size, "mannequin: joint %d (%s) is in a parent cycle", i, joints[i].name);
	}
	return true;
}

bool mannequin_build(const mannequin_joint* joints, int32_t joint_count, double cell_size, mannequin_mesh* out,
		     char* err, size_t err_size)
{
	memset(out, 0, sizeof *out);
	if (!check_skeleton(joints, joint_count, err, err_size)) return false;
	body_shape* shape = malloc(sizeof *shape);
	if (!shape) return core_fail(err, err_size, "mannequin: out of memory");
	if (!body_shape_make(joints, joint_count, shape, err, err_size)) {
		free(shape);
		return false;
	}
	if (!(cell_size >= CELL_MIN * shape->scale && cell_size <= CELL_MAX * shape->scale)) {
		bool ok = core_fail(err, err_size, "mannequin: cell size %g m is outside [%g, %g] m for this skeleton",
				    cell_size, CELL_MIN * shape->scale, CELL_MAX * shape->scale);
		free(shape);
		return ok;
	}
	/* The box around a human body, scaled by its legs, is 2.5-2.7 m^3 in the rest poses of the BVH
	 * files tested (CMU's, Biovision's) and under 7 m^3 for a T-pose turned 45 degrees about the
	 * vertical; more than 8 m^3 comes from a limb out of proportion. The grid grows with the box (up
	 * to the mesher's 10^8 points): a fuzzed BVH whose toe lay 176 m from its foot spent 25 s in
	 * the mesher under the sanitizers (docs/reliability.md, finding 15). */
	const vec3 box = v3_sub(shape->hi, shape->lo);
	const double k3 = shape->scale * shape->scale * shape->scale;
	if (!(box.x * box.y * box.z <= BOX_MAX * k3)) {
		bool ok = core_fail(err, err_size,
				    "mannequin: the body would fill a box of %.3g x %.3g x %.3g m, more than a human's "
				    "%.3g m^3 for legs of %.3g m (a limb is out of proportion)",
				    box.x, box.y, box.z, BOX_MAX * k3, shape->scale * 0.92);
		free(shape);
		return ok;
	}
	/* a grid aligned to the cell size around the body */
	double lo[3];
	int32_t n[3];
	for (int d = 0; d < 3; ++d) {
		double a = v3_get(shape->lo, d), b = v3_get(shape->hi, d);
		lo[d] = cell_size * floor(a / cell_size);
		n[d] = (int32_t)ceil((b - lo[d]) / cell_size) + 1;
	}
	iso_mesh m;
	if (!iso_extract(body_field_cb, shape, lo, cell_size, n, &m, err, err_size) ||
	    !iso_remesh(&m, body_field_cb, shape, cell_size, REMESH_PASSES, err, err_size)) {
		iso_mesh_free(&m);
		free(shape);
		return false;
	}
	char why[160];
	if (!iso_check_manifold(&m, why, sizeof why)) {
		iso_mesh_free(&m);
		free(shape);
		return core_fail(err, err_size, "mannequin: internal error, the body mesh is not a closed manifold: %s", why);
	}
	out->vertex_count = m.vertex_count;
	out->triangle_count = m.triangle_count;
	out->positions = m.positions;
	out->triangles = m.triangles;
	out->joints = malloc((size_t)m.vertex_count * 4 * sizeof *out->joints);
	out->weights = malloc((size_t)m.vertex_count * 4 * sizeof *out->weights);
	if (!out->joints || !out->weights) {
		mannequin_free(out);
		free(shape);
		return core_fail(err, err_size, "mannequin: out of memory");
	}
	bool ok = mannequin_skin(joints, joint_count, shape, out->positions, out->vertex_count, out->triangles,
				 out->triangle_count, out->joints, out->weights, err, err_size);
	free(shape);
	if (!ok) mannequin_free(out);
	return ok;
}

void mannequin_free(mannequin_mesh* m)
{
	if (!m) return;
	free(m->positions);
	free(m->triangles);
	free(m->joints);
	free(m->weights);
	memset(m, 0, sizeof *m);
}
