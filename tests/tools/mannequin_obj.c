/* Writes the mannequin built on the CMU skeleton (tests/cmu_skeleton.c) as an OBJ file, in its
 * rest pose or in the test pose of tests/test_mannequin.c, and prints its size and build time: for
 * looking at it (docs/mannequin.md's picture) and for measuring. Usage:
 * mannequin_obj OUT.obj [cell_size] [metres per BVH unit] [pose] */
#include "character/mannequin.h"
#include "cmu_skeleton.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char** argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: mannequin_obj OUT.obj [cell_size] [metres per BVH unit] [pose]\n");
		return 2;
	}
	double cell = argc > 2 ? atof(argv[2]) : MANNEQUIN_DEFAULT_CELL;
	double scale = argc > 3 ? atof(argv[3]) : CMU_TEST_SCALE;
	mannequin_joint j[CMU_JOINT_COUNT];
	cmu_skeleton(scale, 1.0, j);
	mannequin_mesh m;
	char err[256];
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (!mannequin_build(j, CMU_JOINT_COUNT, cell, &m, err, sizeof err)) {
		fprintf(stderr, "mannequin_obj: %s\n", err);
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double zmin = 1e9, zmax = -1e9;
	for (int v = 0; v < m.vertex_count; ++v) {
		double z = m.positions[3 * v + 2];
		zmin = z < zmin ? z : zmin;
		zmax = z > zmax ? z : zmax;
	}
	printf("vertices %d triangles %d height %.4f m build %.3f s\n", m.vertex_count, m.triangle_count, zmax - zmin,
	       (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
	FILE* f = fopen(argv[1], "w");
	if (!f) {
		fprintf(stderr, "mannequin_obj: cannot write %s\n", argv[1]);
		mannequin_free(&m);
		return 2;
	}
	if (argc > 4 && strcmp(argv[4], "pose") == 0) {
		double local[CMU_JOINT_COUNT][9];
		cmu_test_pose(local);
		double* y = malloc((size_t)m.vertex_count * 3 * sizeof *y);
		cmu_skin(j, (const double(*)[9])local, &m, y);
		memcpy(m.positions, y, (size_t)m.vertex_count * 3 * sizeof *y);
		free(y);
	}
	for (int v = 0; v < m.vertex_count; ++v)
		fprintf(f, "v %.6f %.6f %.6f\n", m.positions[3 * v], m.positions[3 * v + 1], m.positions[3 * v + 2]);
	for (int t = 0; t < m.triangle_count; ++t)
		fprintf(f, "f %d %d %d\n", m.triangles[3 * t] + 1, m.triangles[3 * t + 1] + 1, m.triangles[3 * t + 2] + 1);
	fclose(f);
	mannequin_free(&m);
	return 0;
}
