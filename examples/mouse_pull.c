/* examples/mouse_pull.c: the interactive "mouse" force of Baraff & Witkin sec. 4.4 without a
 * window. A sheet hangs from its two top corners; a zero-length spring (drape_spring_*) grabs the
 * bottom-middle particle and its target is dragged 0.3 m towards the viewer over one second, as a
 * mouse would, then released.  Build: cc mouse_pull.c $(pkg-config --cflags --libs drape) */
#include <drape.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	char err[256];
	drape_world_def wdef = drape_default_world_def();
	drape_world* world = drape_world_create(&wdef);

	drape_grid_def gdef = drape_default_grid_def();
	gdef.size[0] = gdef.size[1] = 0.5;
	gdef.resolution[0] = gdef.resolution[1] = 11;
	/* A vertical sheet: u along x, v along z. */
	gdef.u_axis[0] = 1, gdef.u_axis[1] = 0, gdef.u_axis[2] = 0;
	gdef.v_axis[0] = 0, gdef.v_axis[1] = 0, gdef.v_axis[2] = 1;
	drape_mesh grid;
	if (drape_mesh_make_grid(&gdef, &grid, err, sizeof err) != DRAPE_OK) {
		fprintf(stderr, "grid: %s\n", err);
		return 2;
	}
	drape_cloth_def cdef = drape_default_cloth_def();
	cdef.mesh = &grid;
	drape_cloth_id sheet = drape_cloth_add(world, &cdef);
	if (sheet.index < 0) {
		fprintf(stderr, "%s\n", drape_world_error(world));
		return 2;
	}
	int32_t nu = 11, nv = 11;
	int32_t corners[2] = {(nv - 1) * nu, nv * nu - 1}; /* the top row's ends (v = max) */
	for (int k = 0; k < 2; k++) {
		drape_constraint_def pin = drape_default_constraint_def();
		pin.cloth = sheet;
		pin.vertex = corners[k];
		drape_constraint_add(world, &pin);
	}

	int32_t grabbed = nu / 2; /* bottom row, middle */
	double* x = malloc(sizeof(double) * 3 * (size_t)(nu * nv));
	drape_cloth_get_positions(world, sheet, x);
	double start[3] = {x[3 * grabbed], x[3 * grabbed + 1], x[3 * grabbed + 2]};

	drape_spring_def sdef = drape_default_spring_def();
	sdef.cloth = sheet;
	sdef.vertex = grabbed;
	sdef.stiffness = 50.0;
	sdef.damping = 1.0;
	for (int d = 0; d < 3; d++)
		sdef.target[d] = start[d];
	drape_spring_id spring = drape_spring_add(world, &sdef);

	for (int frame = 1; frame <= 30; frame++) {
		double target[3] = {start[0], start[1] - 0.3 * frame / 30.0, start[2]};
		drape_spring_set_target(world, spring, target);
		if (drape_world_step(world, 1.0 / 30.0) != DRAPE_OK) {
			fprintf(stderr, "step: %s\n", drape_world_error(world));
			return 3;
		}
	}
	drape_cloth_get_positions(world, sheet, x);
	printf("grabbed particle pulled to y = %.3f m (target %.3f m)\n", x[3 * grabbed + 1], start[1] - 0.3);
	drape_spring_remove(world, spring);
	for (int frame = 0; frame < 30; frame++)
		drape_world_step(world, 1.0 / 30.0);
	drape_cloth_get_positions(world, sheet, x);
	printf("released: y = %.3f m after 1 s\n", x[3 * grabbed + 1]);
	free(x);
	drape_mesh_free(&grid);
	drape_world_destroy(world);
	return 0;
}
