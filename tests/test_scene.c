/* Scene files: the shipped scenes, pins, keyframes, stretch regions and mesh files, and the
 * message of every kind of bad scene, solids' included (docs/scene-format.md). Part of the io
 * suite; solids that load are checked in test_scene_solids.c. */
#define _POSIX_C_SOURCE 200809L
#include "test_io.h"

#include "io/scene.h"

#include <stdlib.h>

#ifndef DRAPE_SOURCE_DIR
#error "DRAPE_SOURCE_DIR must name the repository root"
#endif

/* ---------------------------------------------------------------------------------------------
 * Scenes */

static const char* const shipped[] = {"figure2_sheet", "flag", "wrinkle_band", "sewn_panels"};

static bool load_shipped(const char* name, scene* out)
{
	char path[512], err[512] = "";
	snprintf(path, sizeof path, "%s/scenes/%s.json", DRAPE_SOURCE_DIR, name);
	bool ok = scene_load_file(path, out, err, sizeof err);
	if (!ok) fprintf(stderr, "%s\n", err);
	return ok;
}

void test_scene_shipped(void)
{
	for (size_t k = 0; k < sizeof shipped / sizeof shipped[0]; ++k) {
		scene s;
		CHECK(load_shipped(shipped[k], &s));
		CHECK(s.name && strcmp(s.name, shipped[k]) == 0);
		CHECK(s.cloth_count >= 1);
		CHECK(s.world.max_dt <= 1.0 / s.fps * (1.0 + 1e-9));
		for (int32_t c = 0; c < s.cloth_count; ++c) {
			const drape_mesh* m = &s.cloths[c].mesh;
			for (int32_t t = 0; t < m->triangle_count; ++t) CHECK(uv_area(m, t) > 0.0);
		}
		scene_free(&s);
		scene_free(&s);
	}

	scene s;
	CHECK(load_shipped("flag", &s));
	CHECK(s.cloths[0].mesh.vertex_count == 31 * 21);
	CHECK(s.constraint_count == 21);
	CHECK(s.frames == 150);
	CHECK_NEAR(s.world.air_velocity[0], 6.0, 0.0);
	CHECK_NEAR(s.world.gust_amplitude[1], 1.5, 0.0);
	CHECK_NEAR(s.world.gust_frequency, 0.7, 0.0);
	CHECK_NEAR(s.cloths[0].material.drag, 1.0, 0.0);
	/* Vertical: v runs along +z. */
	CHECK_NEAR(s.cloths[0].mesh.positions[3 * 31 * 20 + 2] - s.cloths[0].mesh.positions[2], 1.0, 1e-12);
	scene_free(&s);

	CHECK(load_shipped("wrinkle_band", &s));
	CHECK(s.cloths[0].mesh.vertex_count == 41 * 25);
	CHECK(s.constraint_count == 2 * 25);
	CHECK(s.cloths[0].stretch_scale != NULL);
	scene_free(&s);

	CHECK(load_shipped("sewn_panels", &s));
	const drape_mesh* m = &s.cloths[0].mesh;
	CHECK(m->vertex_count == 2 * 11 * 13 - 13);
	CHECK(m->uv_count == 2 * 11 * 13);
	CHECK(m->triangle_count == 2 * 2 * 10 * 12);
	CHECK(s.constraint_count == 3);
	/* The seam: some vertex appears with two different uv. */
	int32_t seams = 0;
	int32_t* first_uv = malloc(sizeof(int32_t) * (size_t)m->vertex_count);
	unsigned char* is_seam = calloc((size_t)m->vertex_count, 1);
	for (int32_t i = 0; i < m->vertex_count; ++i) first_uv[i] = -1;
	for (int32_t k = 0; k < 3 * m->triangle_count; ++k) {
		int32_t v = m->triangles[k], uv = m->triangle_uvs[k];
		if (first_uv[v] < 0)
			first_uv[v] = uv;
		else if (first_uv[v] != uv && !is_seam[v])
			is_seam[v] = 1, ++seams;
	}
	CHECK(seams == 13);
	free(first_uv);
	free(is_seam);
	/* uv_scale 0.01: vt in centimetres become metres; translate lifts the top to 1 m. */
	double umax = 0.0, zmax = 0.0;
	for (int32_t i = 0; i < m->uv_count; ++i) umax = fmax(umax, m->uvs[2 * i]);
	for (int32_t i = 0; i < m->vertex_count; ++i) zmax = fmax(zmax, m->positions[3 * i + 2]);
	CHECK_NEAR(umax, 1.1, 1e-12);
	CHECK_NEAR(zmax, 1.0, 1e-12);
	for (int32_t k = 0; k < s.constraint_count; ++k)
		CHECK_NEAR(m->positions[3 * s.constraints[k].def.vertex + 2], 1.0, 1e-12);
	scene_free(&s);
}

static bool same_mesh(const drape_mesh* a, const drape_mesh* b)
{
	return a->vertex_count == b->vertex_count && a->uv_count == b->uv_count &&
	       a->triangle_count == b->triangle_count &&
	       memcmp(a->positions, b->positions, sizeof(double) * 3 * (size_t)a->vertex_count) == 0 &&
	       memcmp(a->uvs, b->uvs, sizeof(double) * 2 * (size_t)a->uv_count) == 0 &&
	       memcmp(a->triangles, b->triangles, sizeof(int32_t) * 3 * (size_t)a->triangle_count) == 0 &&
	       memcmp(a->triangle_uvs, b->triangle_uvs, sizeof(int32_t) * 3 * (size_t)a->triangle_count) == 0;
}

void test_scene_default(void)
{
	scene d, f;
	char err[512] = "";
	CHECK(scene_load_default(&d, err, sizeof err));
	if (err[0]) fprintf(stderr, "%s\n", err);
	CHECK(load_shipped("figure1_drape", &f));
	CHECK(strcmp(d.path, "<built-in>/figure1_drape.json") == 0);
	CHECK(d.solid_count == f.solid_count && d.solid_count == 1);
	if (d.solid_count == 1 && f.solid_count == 1) {
		/* the built-in cylinder.obj is the shipped one: same geometry (solids carry no uv) */
		const drape_mesh* a = &d.solids[0].mesh;
		const drape_mesh* b = &f.solids[0].mesh;
		CHECK(a->vertex_count == b->vertex_count && a->triangle_count == b->triangle_count && a->vertex_count > 300);
		if (a->vertex_count == b->vertex_count && a->triangle_count == b->triangle_count) {
			CHECK(memcmp(a->positions, b->positions, 3 * sizeof(double) * (size_t)a->vertex_count) == 0);
			CHECK(memcmp(a->triangles, b->triangles, 3 * sizeof(int32_t) * (size_t)a->triangle_count) == 0);
		}
	}
	CHECK(strcmp(d.name, f.name) == 0);
	CHECK(memcmp(d.world.gravity, f.world.gravity, sizeof d.world.gravity) == 0);
	CHECK(d.world.max_dt == f.world.max_dt && d.world.min_dt == f.world.min_dt);
	CHECK(d.world.cg_tolerance == f.world.cg_tolerance && d.world.cg_max_iterations == f.world.cg_max_iterations);
	CHECK(d.world.adaptive == f.world.adaptive && d.world.threads == f.world.threads);
	CHECK(d.fps == f.fps && d.frames == f.frames);
	CHECK(d.cloth_count == 1 && f.cloth_count == 1);
	CHECK(d.constraint_count == f.constraint_count);
	if (d.cloth_count == 1 && f.cloth_count == 1) {
		CHECK(same_mesh(&d.cloths[0].mesh, &f.cloths[0].mesh));
		CHECK(memcmp(&d.cloths[0].material, &f.cloths[0].material, sizeof(drape_material)) == 0);
		CHECK(strcmp(d.cloths[0].name, f.cloths[0].name) == 0);
	}
	for (int32_t k = 0; k < d.constraint_count && k < f.constraint_count; ++k)
		CHECK(d.constraints[k].def.vertex == f.constraints[k].def.vertex);

	/* The paper's figure 1: a 51 x 51 particle, 1 m sheet dropped onto a cylinder mesh of 322
	 * vertices and 640 faces (Table 1: 2,602 / 4,9442 cloth, 322 / 640 solid). */
	CHECK(d.cloths[0].mesh.vertex_count == 2601);
	CHECK(d.cloths[0].grid_resolution[0] == 51 && d.cloths[0].grid_resolution[1] == 51);
	CHECK(d.fps == 30.0 && d.frames == 90);
	CHECK(d.world.max_dt == 1.0 / 30.0); /* exactly one frame: no sliver steps */
	CHECK_NEAR(d.world.cg_tolerance, 1e-3, 0.0);
	CHECK_NEAR(d.world.gravity[2], -9.81, 0.0);
	CHECK(d.constraint_count == 0);
	CHECK(d.solid_count == 1);
	if (d.solid_count == 1) {
		CHECK(d.solids[0].def.shape == DRAPE_SOLID_MESH);
		CHECK(d.solids[0].mesh.vertex_count == 322 && d.solids[0].mesh.triangle_count == 640);
	}
	/* the cloth starts above the cylinder (top at z = 1.25) */
	for (int32_t i = 0; i < 2601; ++i) CHECK(d.cloths[0].mesh.positions[3 * i + 2] == 1.3);
	scene_free(&d);
	scene_free(&f);
}

static bool load_text(const char* json, scene* s, char* err, size_t size)
{
	bool ok = scene_load_text(q(json), "test.json", s, err, size);
	if (!ok) fprintf(stderr, "unexpected: %s\n", err);
	return ok;
}

void test_scene_pins(void)
{
	/* A 4 x 3 grid: index j * 4 + i. */
	const char* json =
		"{'cloths': [{'grid': {'resolution': [4, 3]}, 'pins': ["
		"{'corner': 'bottom_left'}, {'corner': 'bottom_right'}, {'corner': 'top_left'}, {'corner': 'top_right'},"
		"{'edge': 'left'}, {'edge': 'right'}, {'edge': 'bottom'}, {'edge': 'top'},"
		"{'vertex': 5}, {'vertices': [7, 1, 2]}]}]}";
	static const int32_t expect[] = {0, 3, 8, 11, 0, 4, 8, 3, 7, 11, 0, 1, 2, 3, 8, 9, 10, 11, 5, 7, 1, 2};
	scene s;
	char err[512];
	CHECK(load_text(json, &s, err, sizeof err));
	CHECK(s.constraint_count == (int32_t)(sizeof expect / sizeof expect[0]));
	for (int32_t k = 0; k < s.constraint_count && k < (int32_t)(sizeof expect / sizeof expect[0]); ++k) {
		CHECK(s.constraints[k].def.vertex == expect[k]);
		CHECK(s.constraints[k].cloth == 0);
	}
	CHECK(strcmp(s.cloths[0].name, "cloth0") == 0);
	CHECK(strcmp(s.name, "test") == 0);
	scene_free(&s);
}

void test_scene_pin_motion(void)
{
	const char* json =
		"{'cloths': [{'name': 'a', 'grid': {'resolution': [2, 2]}}, {'name': 'b', 'grid': {'resolution': [3, 2], "
		"'size': [2, 1], 'center': [10, 0, 0]}, 'pins': ["
		"{'edge': 'bottom', 'keyframes': [{'time': 0, 'offset': [0, 0, 0]}, {'time': 1.5, 'offset': [0.5, 0, -1]}]},"
		"{'vertex': 4, 'keyframes': [{'time': 0.25, 'position': [1, 2, 3]}], 'start': 0.1, 'end': 2},"
		"{'corner': 'top_right', 'velocity': [0, 0, 0.5]},"
		"{'vertex': 3, 'kind': 'line', 'axis': [0, 0, 2]},"
		"{'vertices': [0], 'kind': 'plane', 'axis': [1, 0, 0], 'start': 3}]}]}";
	scene s;
	char err[512];
	CHECK(load_text(json, &s, err, sizeof err));
	CHECK(s.constraint_count == 3 + 1 + 1 + 1 + 1);
	if (s.constraint_count != 7) {
		scene_free(&s);
		return;
	}
	drape_constraint_def dflt = drape_default_constraint_def();
	const drape_mesh* m = &s.cloths[1].mesh;
	for (int k = 0; k < 3; ++k) {
		const scene_constraint* c = &s.constraints[k];
		CHECK(c->cloth == 1);
		CHECK(c->def.vertex == k);
		CHECK(c->def.motion == DRAPE_MOTION_KEYFRAMES && !c->def.use_position);
		CHECK(c->def.keyframe_count == 2 && c->def.keyframes == c->keyframes);
		CHECK(c->keyframes[1].time == 1.5);
		const double* x0 = m->positions + 3 * k;
		CHECK_NEAR(c->keyframes[0].position[0], x0[0], 0.0);
		CHECK_NEAR(c->keyframes[1].position[0], x0[0] + 0.5, 1e-15);
		CHECK_NEAR(c->keyframes[1].position[2], x0[2] - 1.0, 1e-15);
		CHECK(c->def.start_time == dflt.start_time && c->def.end_time == dflt.end_time);
	}
	const scene_constraint* c = &s.constraints[3];
	CHECK(c->def.vertex == 4 && c->def.keyframe_count == 1);
	CHECK(c->keyframes[0].time == 0.25 && c->keyframes[0].position[1] == 2.0);
	CHECK(c->def.start_time == 0.1 && c->def.end_time == 2.0);
	c = &s.constraints[4];
	CHECK(c->def.vertex == 5 && c->def.motion == DRAPE_MOTION_VELOCITY && c->def.velocity[2] == 0.5);
	CHECK(!c->def.use_position && c->keyframes == NULL);
	c = &s.constraints[5];
	CHECK(c->def.kind == DRAPE_CONSTRAINT_LINE && c->def.axis[2] == 2.0 && c->def.motion == DRAPE_MOTION_FIXED);
	c = &s.constraints[6];
	CHECK(c->def.kind == DRAPE_CONSTRAINT_PLANE && c->def.axis[0] == 1.0 && c->def.start_time == 3.0);
	scene_free(&s);
}

void test_scene_stretch_regions(void)
{
	/* 5 x 3 particles over 4 x 2 m: unit cells; later regions override earlier ones. */
	const char* json = "{'cloths': [{'grid': {'resolution': [5, 3], 'size': [4, 2]}, 'stretch_regions': ["
			   "{'uv_min': [1, 0], 'uv_max': [2, 2], 'bu': 1.3, 'bv': 0.9},"
			   "{'uv_min': [0, 1], 'uv_max': [4, 2], 'bu': 0.8}]}]}";
	scene s;
	char err[512];
	CHECK(load_text(json, &s, err, sizeof err));
	const drape_mesh* m = &s.cloths[0].mesh;
	const double* b = s.cloths[0].stretch_scale;
	CHECK(b != NULL);
	int in_first = 0;
	for (int32_t t = 0; b && t < m->triangle_count; ++t) {
		double cu = 0.0, cv = 0.0;
		for (int k = 0; k < 3; ++k) {
			cu += m->uvs[2 * m->triangle_uvs[3 * t + k]] / 3.0;
			cv += m->uvs[2 * m->triangle_uvs[3 * t + k] + 1] / 3.0;
		}
		double bu = 1.0, bv = 1.0;
		if (cu >= 1.0 && cu <= 2.0) bu = 1.3, bv = 0.9, ++in_first;
		if (cv >= 1.0) bu = 0.8, bv = 1.0;
		CHECK(b[2 * t] == bu && b[2 * t + 1] == bv);
	}
	CHECK(in_first == 4);
	scene_free(&s);

	CHECK(load_text("{'cloths': [{'grid': {}, 'stretch_regions': []}]}", &s, err, sizeof err));
	CHECK(s.cloths[0].stretch_scale == NULL);
	scene_free(&s);

	/* A band 0 <= u <= 1 with b_v = 0.8 over a 9 x 2 m strip of unit cells, tapered over 4 m in u:
	 * b_v = 1 - 0.2 (1 - d / 4) at a centroid d beyond the box, and 1 from d = 4 on; no taper in
	 * v, where the box spans the strip. */
	json = "{'cloths': [{'grid': {'resolution': [10, 3], 'size': [9, 2]}, 'stretch_regions': ["
	       "{'uv_min': [0, 0], 'uv_max': [1, 2], 'bv': 0.8, 'taper': [4, 0]}]}]}";
	CHECK(load_text(json, &s, err, sizeof err));
	m = &s.cloths[0].mesh;
	b = s.cloths[0].stretch_scale;
	int tapered = 0;
	for (int32_t t = 0; b && t < m->triangle_count; ++t) {
		double cu = 0.0;
		for (int k = 0; k < 3; ++k) cu += m->uvs[2 * m->triangle_uvs[3 * t + k]] / 3.0;
		const double d = cu > 1.0 ? cu - 1.0 : 0.0;
		const double bv = d >= 4.0 ? 1.0 : 1.0 - 0.2 * (1.0 - d / 4.0);
		CHECK(b[2 * t] == 1.0 && fabs(b[2 * t + 1] - bv) < 1e-12);
		tapered += d > 0.0 && d < 4.0;
	}
	CHECK(tapered == 16); /* centroids at u = 1 1/3 ... 4 2/3 */
	scene_free(&s);
}

void test_scene_mesh_file(void)
{
	scratch sc;
	scratch_open(&sc);
	write_text(scratch_path(&sc, "quad.obj"), "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"
						  "vt 0 0\nvt 100 0\nvt 100 100\nvt 0 100\nf 1/1 2/2 3/3 4/4\n");
	const char* path = scratch_path(&sc, "scene.json");
	write_text(path,
		   q("{'name': 'quad', 'cloths': [{'mesh': {'file': 'quad.obj', 'uv_scale': 0.01, 'scale': 2,"
		     " 'translate': [1, 2, 3]}, 'velocity': [0, 1, 0], 'material': {'bend': 1e-4, 'density': 0.2}}]}"));
	scene s;
	char err[512] = "";
	CHECK(scene_load_file(path, &s, err, sizeof err));
	if (err[0]) fprintf(stderr, "%s\n", err);
	if (s.cloth_count == 1) {
		const drape_mesh* m = &s.cloths[0].mesh;
		CHECK(m->vertex_count == 4 && m->triangle_count == 2);
		CHECK_NEAR(m->positions[3 * 2 + 0], 3.0, 0.0);
		CHECK_NEAR(m->positions[3 * 2 + 1], 4.0, 0.0);
		CHECK_NEAR(m->positions[3 * 2 + 2], 3.0, 0.0);
		CHECK_NEAR(m->uvs[2 * 2], 1.0, 1e-15);
		CHECK(s.cloths[0].grid_resolution[0] == 0);
		CHECK(s.cloths[0].velocity[1] == 1.0);
		CHECK(s.cloths[0].material.bend_u == 1e-4 && s.cloths[0].material.bend_v == 1e-4);
		CHECK(s.cloths[0].material.density == 0.2);
	}
	scene_free(&s);
	scratch_close(&sc);
}

/* An error case: scene text (with ' for ") and fragments the message must contain. */
typedef struct scene_case {
	const char* json;
	const char* expect[2];
} scene_case;

#define GRID "'grid': {'resolution': [51, 51]}"

static const scene_case scene_cases[] = {
	/* Syntax: the missing comma is found at the '{' on line 4, column 5. */
	{"{\n  'cloths': [\n    {'grid': {}}\n    {}\n  ]\n}", {"test.json:4:5: JSON syntax error near '{}'", NULL}},
	{"{'cloths': [{'grid': {}}]", {"test.json:1:25: JSON syntax error: unexpected end of text", NULL}},
	{"{'cloths': [{'grid': {}}]} x", {"test.json:1:28: JSON syntax error near 'x'", NULL}},
	{"{\n  // a comment\n  'cloths': []\n}",
	 {"test.json:2:3: JSON syntax error near '// a comment' (JSON has no comments)", NULL}},
	{"  \n", {"test.json:1:1: JSON syntax error: the text is empty", NULL}},
	/* Keys. */
	{"{\n  'cloths': [\n    {\n      " GRID
	 ",\n      'material': {\n        'density': 0.1,\n        'strech': 5\n      }\n    }\n  ]\n}",
	 {"test.json:7: cloths[0].material.strech: unknown key (did you mean 'stretch'?)", NULL}},
	/* Line numbers come from walking the text to the offending member, not from searching
	 * for its key: pins[0] also has a 'vertex'. */
	{"{'cloths': [\n  {'name': 'sheet',\n   " GRID
	 ",\n   'pins': [\n     {'vertex': 1},\n     {'vertex': 3000}\n   ]}\n]}",
	 {"test.json:6: cloths[0].pins[1].vertex: 3000 is out of range", NULL}},
	{"{'gravty': [0, 0, 1], 'cloths': [{" GRID "}]}",
	 {"test.json:1: gravty: unknown key (did you mean 'gravity'?)", NULL}},
	{"{'foo': 1, 'cloths': [{" GRID "}]}",
	 {"foo: unknown key (valid keys here: name, gravity, wind, solver, output, cloths, solids, cloth_contact)", NULL}},
	{"{'cloths': [{" GRID ", 'pins': [{'corner': 'top_left', 'knd': 'line'}]}]}",
	 {"cloths[0].pins[0].knd: unknown key (did you mean 'kind'?)", NULL}},
	{"{'name': 'a', 'name': 'b', 'cloths': [{" GRID "}]}", {"test.json:1: name: duplicate key", NULL}},
	{"{'gravity': [0, 0, -9.81]}", {"test.json: missing required key 'cloths'", NULL}},
	{"{'cloths': []}", {"cloths: must list at least one cloth", NULL}},
	{"[1, 2]", {"test.json: expected an object, got an array", NULL}},
	/* Types and ranges. */
	{"{'cloths': [{" GRID ", 'material': {'density': 'heavy'}}]}",
	 {"cloths[0].material.density: expected a number, got a string", NULL}},
	{"{'cloths': [{" GRID ", 'material': {'density': -2}}]}",
	 {"cloths[0].material.density: must be > 0, got -2", NULL}},
	{"{'cloths': [{" GRID ", 'material': {'shear': -1}}]}",
	 {"cloths[0].material.shear: must be >= 0, got -1", NULL}},
	{"{'cloths': [{" GRID ", 'material': {'stretch': 1e400}}]}",
	 {"cloths[0].material.stretch: must be a finite number", NULL}},
	{"{'cloths': [{'grid': {'resolution': [2.5, 3]}}]}",
	 {"cloths[0].grid.resolution[0]: expected an integer, got 2.5", NULL}},
	{"{'cloths': [{'grid': {'resolution': [1, 3]}}]}", {"cloths[0].grid.resolution[0]: must be >= 2, got 1", NULL}},
	{"{'cloths': [{'grid': {'resolution': [3]}}]}",
	 {"cloths[0].grid.resolution: expected an array of 2 integers, got 1 element", NULL}},
	{"{'cloths': [{'grid': {'size': [1, 0]}}]}", {"cloths[0].grid.size[1]: must be > 0, got 0", NULL}},
	{"{'cloths': [{'grid': {'center': [0, 0]}}]}",
	 {"cloths[0].grid.center: expected an array of 3 numbers, got 2 elements", NULL}},
	{"{'cloths': [{'grid': {'v_axis': [2, 0, 0]}}]}",
	 {"cloths[0].grid: grid u_axis and v_axis are parallel", NULL}},
	{"{'gravity': [0, 0, '1'], 'cloths': [{" GRID "}]}",
	 {"gravity[2]: expected a number, got a string (\"1\")", NULL}},
	{"{'solver': {'adaptive': 1}, 'cloths': [{" GRID "}]}",
	 {"solver.adaptive: expected true or false, got a number", NULL}},
	{"{'cloth_contact': {'thickness': 0}, 'cloths': [{" GRID "}]}",
	 {"cloth_contact.thickness: must be > 0, got 0", NULL}},
	{"{'cloth_contact': {'stiffnes': 10}, 'cloths': [{" GRID "}]}",
	 {"cloth_contact.stiffnes: unknown key (did you mean 'stiffness'?)", NULL}},
	{"{'cloth_contact': {'enabled': 1}, 'cloths': [{" GRID "}]}",
	 {"cloth_contact.enabled: expected true or false", NULL}},
	{"{'solver': {'warm_start': 'yes'}, 'cloths': [{" GRID "}]}",
	 {"solver.warm_start: expected true or false, got a string", NULL}},
	{"{'output': {'fps': 30}, 'solver': {'max_dt': 0.05}, 'cloths': [{" GRID "}]}",
	 {"solver.max_dt: must be <= one frame (1/fps = 0.0333333 s), got 0.05", NULL}},
	{"{'output': {'fps': 10}, 'cloths': [{" GRID "}]}", {NULL, NULL}}, /* max_dt follows fps: fine */
	{"{'solver': {'min_dt': 0.04}, 'cloths': [{" GRID "}]}", {"solver.min_dt: must be > 0 and <= max_dt (0.0333333 s), got 0.04", NULL}},
	/* The rules are drape_world_def_check's; the loader adds where (a default is named as such). */
	{"{'solver': {'newton_iterations': 3, 'integrator': 'imex_bend'}, 'cloths': [{" GRID "}]}",
	 {"solver.newton_iterations: above 1 needs a fully implicit integrator (backward_euler or bdf2), not imex_bend",
	  NULL}},
	{"{'solver': {'strain_limit': 0.7}, 'cloths': [{" GRID "}]}",
	 {"solver.strain_limit: must lie in [0, 0.5]", NULL}},
	{"{'solver': {'max_dt': 0.001}, 'cloth_contact': {}, 'cloths': [{" GRID "}]}", {NULL, NULL}},
	{"{'output': {'fps': 2000000}, 'cloths': [{" GRID "}]}",
	 {"test.json: solver.min_dt (default): must be > 0 and <= max_dt (5e-07 s), got 1e-06", NULL}},
	{"{'solver': {'cg_tolerance': 1}, 'cloths': [{" GRID "}]}",
	 {"solver.cg_tolerance: must be > 0 and < 1, got 1", NULL}},
	{"{'solver': {'cg_max_iterations': 0}, 'cloths': [{" GRID "}]}",
	 {"solver.cg_max_iterations: must be >= 1, got 0", NULL}},
	{"{'solver': {'threads': -1}, 'cloths': [{" GRID "}]}", {"solver.threads: must be >= 0, got -1", NULL}},
	{"{'output': {'frames': 1.5}, 'cloths': [{" GRID "}]}", {"output.frames: expected an integer, got 1.5", NULL}},
	{"{'output': {'fps': 0}, 'cloths': [{" GRID "}]}", {"output.fps: must be > 0, got 0", NULL}},
	{"{'wind': {'gust_frequency': -1}, 'cloths': [{" GRID "}]}",
	 {"wind.gust_frequency: must be >= 0, got -1", NULL}},
	/* Cloths. */
	{"{'cloths': [{" GRID ", 'mesh': {'file': 'x.obj'}}]}",
	 {"cloths[0].mesh: a cloth has either 'grid' or 'mesh', not both", NULL}},
	{"{'cloths': [{'name': 'x'}]}", {"cloths[0]: missing 'grid' or 'mesh'", NULL}},
	{"{'cloths': [{'name': 'a', " GRID "}, {'name': 'a', " GRID "}]}",
	 {"cloths[1].name: duplicate cloth name 'a' (cloths[0] has it too)", NULL}},
	{"{'cloths': [{'name': '', " GRID "}]}", {"cloths[0].name: must not be empty", NULL}},
	{"{'cloths': [{'mesh': {'file': 'missing.obj'}}]}",
	 {"missing.obj: cannot open: No such file or directory", "cloths[0].mesh.file"}},
	{"{'cloths': [{'mesh': {'uv_scale': 1}}]}", {"cloths[0].mesh: missing required key 'file'", NULL}},
	{"{'cloths': [{" GRID ", 'material': {'bend': 1, 'bend_v': 2}}]}",
	 {"cloths[0].material.bend: give either 'bend' (both directions) or 'bend_u'/'bend_v', not both", NULL}},
	{"{'cloths': [{" GRID ", 'velocity': [0, 0]}]}", {"cloths[0].velocity: expected an array of 3 numbers", NULL}},
	{"{'cloths': [{" GRID ", 'stretch_regions': [{'uv_min': [0, 0], 'uv_max': [0.5, 0.5], 'bu': 0}]}]}",
	 {"cloths[0].stretch_regions[0].bu: must be > 0, got 0", NULL}},
	{"{'cloths': [{" GRID ", 'stretch_regions': [{'uv_min': [0, 0]}]}]}",
	 {"cloths[0].stretch_regions[0]: missing required key 'uv_max'", NULL}},
	{"{'cloths': [{" GRID ", 'stretch_regions': [{'uv_min': [0.5, 0], 'uv_max': [0.4, 1]}]}]}",
	 {"cloths[0].stretch_regions[0].uv_max: must be greater than uv_min", NULL}},
	{"{'cloths': [{" GRID ", 'stretch_regions': [{'uv_min': [0, 0], 'uv_max': [0.5, 0.5], 'taper': [0.1, -1]}]}]}",
	 {"cloths[0].stretch_regions[0].taper: must be >= 0 in both u and v", NULL}},
	{"{'cloths': [{" GRID ", 'stretch_regions': [{'uv_min': [5, 5], 'uv_max': [6, 6]}]}]}",
	 {"cloths[0].stretch_regions[0]: no triangle of cloth 'cloth0' has its uv centroid in", NULL}},
	/* Pins. */
	{"{'cloths': [{'name': 'sheet', " GRID ", 'pins': [{'vertex': 0}, {'vertex': 1}, {'vertex': 2700}]}]}",
	 {"cloths[0].pins[2].vertex: 2700 is out of range (cloth 'sheet' has 2601 vertices)", NULL}},
	{"{'cloths': [{" GRID ", 'pins': [{'vertices': [1, -1]}]}]}",
	 {"cloths[0].pins[0].vertices[1]: -1 is out of range (cloth 'cloth0' has 2601 vertices)", NULL}},
	{"{'cloths': [{" GRID ", 'pins': [{'vertices': [1, 2, 1]}]}]}",
	 {"cloths[0].pins[0].vertices[2]: vertex 1 is listed twice", NULL}},
	{"{'cloths': [{" GRID ", 'pins': [{'vertices': []}]}]}",
	 {"cloths[0].pins[0].vertices: must list at least one vertex", NULL}},
	{"{'cloths': [{" GRID ", 'pins': [{'vertex': 1.5}]}]}",
	 {"cloths[0].pins[0].vertex: expected an integer, got 1.5", NULL}},
	{"{'cloths': [{" GRID ", 'pins': [{'corner': 'top_middle'}]}]}",
	 {"cloths[0].pins[0].corner: unknown corner 'top_middle' (valid: bottom_left, bottom_right, top_left, top_right)",
	  NULL}},
	{"{'cloths': [{" GRID ", 'pins': [{'edge': 'north'}]}]}",
	 {"cloths[0].pins[0].edge: unknown edge 'north' (valid: left, right, bottom, top)", NULL}},
	{"{'cloths': [{" GRID ", 'pins': [{'corner': 'top_left', 'edge': 'top'}]}]}",
	 {"cloths[0].pins[0].edge: a pin has exactly one of", "(this one also has 'corner')"}},
	{"{'cloths': [{" GRID ", 'pins': [{'kind': 'point'}]}]}",
	 {"cloths[0].pins[0]: a pin needs one of 'corner', 'edge', 'vertex' or 'vertices'", NULL}},
	{"{'cloths': [{" GRID ", 'pins': [{'vertex': 3, 'kind': 'curve'}]}]}",
	 {"cloths[0].pins[0].kind: unknown kind 'curve' (valid: point, line, plane)", NULL}},
	{"{'cloths': [{" GRID ", 'pins': [{'vertex': 3, 'kind': 'line'}]}]}",
	 {"cloths[0].pins[0]: a line pin needs an \"axis\"", NULL}},
	{"{'cloths': [{" GRID ", 'pins': [{'vertex': 3, 'kind': 'plane', 'axis': [0, 0, 0]}]}]}",
	 {"cloths[0].pins[0].axis: must not be zero", NULL}},
	{"{'cloths': [{" GRID ", 'pins': [{'vertex': 3, 'axis': [0, 0, 1]}]}]}",
	 {"cloths[0].pins[0].axis: only \"line\" and \"plane\" pins take an axis", NULL}},
	{"{'cloths': [{" GRID
	 ", 'pins': [{'vertex': 3, 'velocity': [1, 0, 0], 'keyframes': [{'time': 0, 'offset': [0, 0, 0]}]}]}]}",
	 {"cloths[0].pins[0].velocity: a pin moves either with 'velocity' or along 'keyframes', not both", NULL}},
	{"{'cloths': [{" GRID ", 'pins': [{'vertex': 3, 'keyframes': []}]}]}",
	 {"cloths[0].pins[0].keyframes: must have at least one key", NULL}},
	{"{'cloths': [{" GRID
	 ", 'pins': [{'vertex': 3, 'keyframes': [{'time': 1, 'offset': [0, 0, 0]}, {'time': 1, 'offset': [1, 0, 0]}]}]}]}",
	 {"cloths[0].pins[0].keyframes[1].time: must be greater than the previous key's time (1), got 1", NULL}},
	{"{'cloths': [{" GRID ", 'pins': [{'vertex': 3, 'keyframes': [{'time': -1, 'offset': [0, 0, 0]}]}]}]}",
	 {"cloths[0].pins[0].keyframes[0].time: must be >= 0, got -1", NULL}},
	{"{'cloths': [{" GRID ", 'pins': [{'vertex': 3, 'keyframes': [{'time': 0}]}]}]}",
	 {"cloths[0].pins[0].keyframes[0]: missing 'offset'", NULL}},
	{"{'cloths': [{" GRID ", 'pins': [{'edge': 'top', 'keyframes': [{'time': 0, 'position': [0, 0, 1]}]}]}]}",
	 {"cloths[0].pins[0].keyframes[0].position: 'position' is only allowed when the pin selects one particle (this pin selects 51)",
	  NULL}},
	{"{'cloths': [{" GRID
	 ", 'pins': [{'vertex': 3, 'keyframes': [{'time': 0, 'position': [0, 0, 1], 'offset': [0, 0, 0]}]}]}]}",
	 {"cloths[0].pins[0].keyframes[0].position: a key has either 'offset' or 'position', not both", NULL}},
	{"{'cloths': [{" GRID ", 'pins': [{'vertex': 3, 'start': 2, 'end': 1}]}]}",
	 {"cloths[0].pins[0].end: end (1) must be greater than start (2)", NULL}},
	{"{'cloths': [{" GRID ", 'pins': [{'vertex': 3, 'start': -1}]}]}",
	 {"cloths[0].pins[0].start: must be >= 0, got -1", NULL}},
	{"{'cloths': [{" GRID ", 'pins': {'vertex': 3}}]}", {"cloths[0].pins: expected an array, got an object", NULL}},
	/* Solids. */
	{"{'cloths': [{" GRID "}],\n 'solids': [\n  {'shape': 'plane'},\n  {'shape': 'sphere',\n   'radius': -1}]}",
	 {"test.json:5: solids[1].radius: must be > 0, got -1", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': []}", {NULL, NULL}},
	{"{'cloths': [{" GRID "}], 'solids': {'shape': 'plane'}}", {"solids: expected an array, got an object", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': ['plane']}", {"solids[0]: expected an object, got a string", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'cube'}]}",
	 {"solids[0].shape: unknown shape 'cube' (expected plane, sphere, capsule, cylinder, box, mesh or character)", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 3}]}", {"solids[0].shape: expected a string, got a number", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'radius': 1}]}",
	 {"solids[0]: missing required key 'shape' (plane, sphere, capsule, cylinder, box, mesh or character)", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'sphere', 'raduis': 1}]}",
	 {"solids[0].raduis: unknown key (did you mean 'radius'?)", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'box', 'half_extents': [1, 1, 1], 'radius': 1}]}",
	 {"solids[0].radius: not used by a box (only by spheres, capsules and cylinders)", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'sphere', 'radius': 1, 'half_height': 1}]}",
	 {"solids[0].half_height: not used by a sphere (only by capsules and cylinders)", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'plane', 'half_extents': [1, 1, 1]}]}",
	 {"solids[0].half_extents: not used by a plane (only by boxes)", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'cylinder', 'radius': 1, 'half_height': 1, 'mesh': {}}]}",
	 {"solids[0].mesh: not used by a cylinder (only by mesh solids)", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'sphere', 'radius': 1, 'frames': []}]}",
	 {"solids[0].frames: not used by a sphere (only by mesh solids)", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'sphere'}]}",
	 {"solids[0]: missing required key 'radius' (a sphere needs it)", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'sphere', 'radius': 1, 'sides': 'both'}]}",
	 {"solids[0].sides: not used by a sphere (only by mesh and character solids)", NULL}},
	{"{'cloths': [{" GRID "}],\n 'solids': [{'shape': 'mesh', 'mesh': {'file': 'quad.obj'},\n  'sides': 'inside'}]}",
	 {"test.json:3: solids[0].sides: unknown sides 'inside' (expected \"both\"", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'mesh', 'mesh': {'file': 'quad.obj'}, 'sides': true}]}",
	 {"solids[0].sides: expected a string, got", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'capsule', 'radius': 0.1}]}",
	 {"solids[0]: missing required key 'half_height' (a capsule needs it)", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'box'}]}",
	 {"solids[0]: missing required key 'half_extents' (a box needs it)", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'mesh'}]}",
	 {"solids[0]: missing required key 'mesh' (a mesh needs it)", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'cylinder', 'radius': 1, 'half_height': 0}]}",
	 {"solids[0].half_height: must be > 0, got 0", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'box', 'half_extents': [1, 1, 0]}]}",
	 {"solids[0].half_extents[2]: must be > 0, got 0", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'box', 'half_extents': [1, 1]}]}",
	 {"solids[0].half_extents: expected an array of 3 numbers, got 2 elements", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'sphere', 'radius': '1'}]}",
	 {"solids[0].radius: expected a number, got a string (\"1\")", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'plane', 'thickness': 0}]}",
	 {"solids[0].thickness: must be > 0, got 0", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'plane', 'friction': -0.1}]}",
	 {"solids[0].friction: must be >= 0, got -0.1", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'plane', 'position': [0, 0]}]}",
	 {"solids[0].position: expected an array of 3 numbers, got 2 elements", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'name': 'floor', 'shape': 'plane'}, {'name': 'floor', 'shape': 'plane'}]}",
	 {"solids[1].name: duplicate solid name 'floor' (solids[0] has it too)", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'plane'}, {'name': 'solid0', 'shape': 'plane'}]}",
	 {"solids[1].name: duplicate solid name 'solid0' (solids[0] has it too)", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'name': '', 'shape': 'plane'}]}",
	 {"solids[0].name: must not be empty", NULL}},
	/* Rotations. */
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'plane', 'rotation': [0, 0, 0, 0]}]}",
	 {"solids[0].rotation: must not be the zero quaternion", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'plane', 'rotation': [1, 0, 0]}]}",
	 {"solids[0].rotation: expected an array of 4 numbers, got 3 elements", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'plane', 'rotation': 90}]}",
	 {"solids[0].rotation: expected {\"axis\": [x, y, z], \"angle\": degrees} or a quaternion [w, x, y, z], got a number",
	  NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'plane', 'rotation': {'axis': [0, 0, 0], 'angle': 90}}]}",
	 {"solids[0].rotation.axis: must not be zero", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'plane', 'rotation': {'axis': [1, 0, 0]}}]}",
	 {"solids[0].rotation: missing required key 'angle'", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'plane', 'rotation': {'axis': [1, 0, 0], 'angel': 90}}]}",
	 {"solids[0].rotation.angel: unknown key (did you mean 'angle'?)", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'plane', 'rotation': {'axis': [1, 0, 0], 'angle': '90'}}]}",
	 {"solids[0].rotation.angle: expected a number, got a string", NULL}},
	/* Poses. */
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'plane', 'position': [0, 0, 1], 'poses': [{'time': 0}]}]}",
	 {"solids[0].position: a solid has either a static 'position'/'rotation' or keyframed 'poses', not both", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'plane', 'poses': [{'time': 0}], 'rotation': [1, 0, 0, 0]}]}",
	 {"solids[0].rotation: a solid has either a static 'position'/'rotation' or keyframed 'poses', not both", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'plane', 'poses': []}]}",
	 {"solids[0].poses: must list at least one pose", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'plane', 'poses': [{'position': [0, 0, 1]}]}]}",
	 {"solids[0].poses[0]: missing required key 'time'", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'plane', 'poses': [{'time': -1}]}]}",
	 {"solids[0].poses[0].time: must be >= 0, got -1", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'plane', 'poses': [{'time': 1}, {'time': 0.5}]}]}",
	 {"solids[0].poses[1].time: must be greater than the previous pose's time (1), got 0.5", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'plane', 'poses': [{'time': 0, 'rotation': [0, 0, 0, 0]}]}]}",
	 {"solids[0].poses[0].rotation: must not be the zero quaternion", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'plane', 'poses': [{'time': 0, 'velocity': [0, 0, 0]}]}]}",
	 {"solids[0].poses[0].velocity: unknown key (valid keys here: time, position, rotation)", NULL}},
	/* Mesh solids (those that need files: test_scene_solid_file_errors). */
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'mesh', 'mesh': {'scale': 2}}]}",
	 {"solids[0].mesh: missing required key 'file'", NULL}},
	/* a new user's first try: the OBJ on the solid itself */
	{"{'cloths': [{" GRID "}],\n 'solids': [{'shape': 'mesh',\n   'file': 'body.obj'}]}",
	 {"test.json:3: solids[0].file: unknown key (did you mean 'mesh.file'?", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'mesh', 'mesh': {'file': 'a.obj'}, 'scale': 2}]}",
	 {"solids[0].scale: unknown key (did you mean 'mesh.scale'?", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'mesh', 'mesh': {'file': 'missing.obj'}}]}",
	 {"missing.obj: cannot open: No such file or directory", "(solids[0].mesh.file of test.json)"}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'mesh', 'mesh': {'file': 'a.obj', 'scale': 0}}]}",
	 {"solids[0].mesh.scale: must be > 0, got 0", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'mesh', 'mesh': {'file': 'a.obj', 'flip_normals': 1}}]}",
	 {"solids[0].mesh.flip_normals: expected true or false, got a number", NULL}},
	{"{'cloths': [{" GRID "}], 'solids': [{'shape': 'mesh', 'mesh': {'file': 'a.obj', 'uv_scale': 1}}]}",
	 {"solids[0].mesh.uv_scale: unknown key (did you mean 'scale'?)", NULL}},
};

void test_scene_errors(void)
{
	char err[1024];
	for (size_t k = 0; k < sizeof scene_cases / sizeof scene_cases[0]; ++k) {
		const scene_case* c = &scene_cases[k];
		scene s;
		memset(&s, 0xab, sizeof s);
		err[0] = '\0';
		bool ok = scene_load_text(q(c->json), "test.json", &s, err, sizeof err);
		if (!c->expect[0]) {
			CHECK(ok);
			if (!ok) fprintf(stderr, "case %zu: %s\n", k, err);
			scene_free(&s);
			continue;
		}
		CHECK(!ok);
		if (ok) {
			fprintf(stderr, "case %zu loaded but should fail with: %s\n", k, c->expect[0]);
			scene_free(&s);
			continue;
		}
		for (int e = 0; e < 2; ++e)
			if (c->expect[e]) CHECK_HAS(err, c->expect[e]);
		/* A failed load leaves nothing to free. */
		CHECK(s.path == NULL && s.cloths == NULL && s.constraints == NULL && s.cloth_count == 0);
		CHECK(s.solids == NULL && s.solid_count == 0);
	}
}

void test_scene_file_errors(void)
{
	scratch sc;
	scratch_open(&sc);
	char err[1024];
	scene s;

	const char* missing = scratch_path(&sc, "nope.json");
	CHECK(!scene_load_file(missing, &s, err, sizeof err));
	CHECK_HAS(err, "nope.json: cannot open: No such file or directory");

	/* An OBJ error keeps its own file:line first and says which scene entry loaded it. */
	write_text(scratch_path(&sc, "bad.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
	const char* path = scratch_path(&sc, "scene.json");
	write_text(path, q("{'cloths': [{'name': 'c', 'mesh': {'file': 'bad.obj'}}]}"));
	CHECK(!scene_load_file(path, &s, err, sizeof err));
	char expect[700];
	snprintf(expect, sizeof expect, "%s/bad.obj:4: face corner 1 has no texture coordinate (vt)", sc.dir);
	CHECK_HAS(err, expect);
	CHECK_HAS(err, "cloths[0].mesh.file of ");
	CHECK_HAS(err, "scene.json)");

	/* Corners and edges need a grid. */
	write_text(scratch_path(&sc, "tri.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\nf 1/1 2/2 3/3\n");
	write_text(path,
		   q("{'cloths': [{'name': 'c', 'mesh': {'file': 'tri.obj'}, 'pins': [{'corner': 'top_left'}]}]}"));
	CHECK(!scene_load_file(path, &s, err, sizeof err));
	CHECK_HAS(
		err,
		"cloths[0].pins[0].corner: named corners and edges exist only on grid cloths, and cloth 'c' is a mesh");

	/* Syntax errors from a file carry its name, line and column. */
	write_text(path, "{\n  \"cloths\": [\n    {\"grid\": {},}\n  ]\n}\n");
	CHECK(!scene_load_file(path, &s, err, sizeof err));
	snprintf(expect, sizeof expect, "%s:3:17: JSON syntax error near '}'", path);
	CHECK_HAS(err, expect);
	scratch_close(&sc);
}

void test_scene_build_world(void)
{
	for (size_t k = 0; k < sizeof shipped / sizeof shipped[0]; ++k) {
		scene s;
		if (!load_shipped(shipped[k], &s)) {
			CHECK(false);
			continue;
		}
		char err[512] = "";
		drape_world* w = scene_build_world(&s, err, sizeof err);
		CHECK(w != NULL);
		if (!w) {
			fprintf(stderr, "%s: %s\n", shipped[k], err);
		} else {
			CHECK(drape_cloth_count(w) == s.cloth_count);
			for (int32_t c = 0; c < s.cloth_count; ++c) {
				drape_cloth_id id = {c};
				CHECK(drape_cloth_vertex_count(w, id) == s.cloths[c].mesh.vertex_count);
				CHECK(strcmp(drape_cloth_name(w, id), s.cloths[c].name) == 0);
			}
			drape_world_destroy(w);
		}
		scene_free(&s);
	}
}
