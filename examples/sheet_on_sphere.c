/* examples/sheet_on_sphere.c: a 1 m square sheet falls onto a sphere and drapes over it (the
 * scene of the paper's sec. 6 contact tests); frame 0, 10, 20 ... written as OBJ files.
 * Build against an installed drape:  cc sheet_on_sphere.c $(pkg-config --cflags --libs drape)
 * Run:  ./a.out [OUTDIR]   (default: the current folder) */
#include <drape.h>
#include <stdio.h>
#include <stdlib.h>

static int write_obj(const char* path, const drape_mesh* mesh, const double* x, int32_t n)
{
	FILE* f = fopen(path, "w");
	if (f == NULL) {
		perror(path);
		return 1;
	}
	for (int32_t i = 0; i < n; i++)
		fprintf(f, "v %.9g %.9g %.9g\n", x[3 * i], x[3 * i + 1], x[3 * i + 2]);
	for (int32_t t = 0; t < mesh->triangle_count; t++)
		fprintf(f, "f %d %d %d\n", mesh->triangles[3 * t] + 1, mesh->triangles[3 * t + 1] + 1,
			mesh->triangles[3 * t + 2] + 1);
	return fclose(f) != 0;
}

int main(int argc, char** argv)
{
	const char* out = argc > 1 ? argv[1] : ".";
	char err[256];

	drape_world_def wdef = drape_default_world_def();
	drape_world* world = drape_world_create(&wdef);

	drape_grid_def gdef = drape_default_grid_def();
	gdef.size[0] = gdef.size[1] = 1.0;
	gdef.resolution[0] = gdef.resolution[1] = 21;
	gdef.center[2] = 0.5; /* 0.2 m above the sphere's top */
	drape_mesh grid;
	if (drape_mesh_make_grid(&gdef, &grid, err, sizeof err) != DRAPE_OK) {
		fprintf(stderr, "grid: %s\n", err);
		return 2;
	}
	drape_cloth_def cdef = drape_default_cloth_def();
	cdef.mesh = &grid;
	cdef.name = "sheet";
	drape_cloth_id sheet = drape_cloth_add(world, &cdef);

	drape_solid_def sdef = drape_default_solid_def();
	sdef.shape = DRAPE_SOLID_SPHERE;
	sdef.radius = 0.3;
	drape_solid_add(world, &sdef);
	if (sheet.index < 0) {
		fprintf(stderr, "%s\n", drape_world_error(world));
		return 2;
	}

	int32_t n = drape_cloth_vertex_count(world, sheet);
	double* x = malloc(sizeof(double) * 3 * (size_t)n);
	const drape_mesh* mesh = drape_cloth_mesh(world, sheet);
	int status = 0;
	for (int frame = 0; frame <= 60 && status == 0; frame++) {
		if (frame > 0 && drape_world_step(world, 1.0 / 30.0) != DRAPE_OK) {
			fprintf(stderr, "step: %s\n", drape_world_error(world));
			status = 3;
			break;
		}
		if (frame % 10 == 0) {
			char path[1024];
			drape_cloth_get_positions(world, sheet, x);
			snprintf(path, sizeof path, "%s/sheet_%04d.obj", out, frame);
			status = write_obj(path, mesh, x, n);
		}
	}
	/* The sheet's centre rests on the sphere's top: z close to radius + thickness. */
	drape_cloth_get_positions(world, sheet, x);
	printf("t = %.2f s, centre z = %.3f m\n", drape_world_time(world), x[3 * (n / 2) + 2]);
	free(x);
	drape_mesh_free(&grid);
	drape_world_destroy(world);
	return status;
}
