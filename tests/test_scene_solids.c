/* Solids in scene files: every shape's def (values, defaults, rotations), mesh solids from OBJ
 * files without vt, deforming frames, keyframed poses, the errors that need files, and solids in
 * the built world (docs/scene-format.md, "Solids"). Part of the io suite; the errors that need
 * no file are in test_scene.c's table. */
#define _POSIX_C_SOURCE 200809L
#include "test_io.h"

#include "io/scene.h"

#include <stdlib.h>

static bool load_text(const char* json, scene* s, char* err, size_t size)
{
	bool ok = scene_load_text(q(json), "test.json", s, err, size);
	if (!ok) fprintf(stderr, "unexpected: %s\n", err);
	return ok;
}

static void check_quat(const double q[4], double w, double x, double y, double z)
{
	CHECK_NEAR(q[0], w, 1e-15);
	CHECK_NEAR(q[1], x, 1e-15);
	CHECK_NEAR(q[2], y, 1e-15);
	CHECK_NEAR(q[3], z, 1e-15);
}

void test_scene_solid_shapes(void)
{
	const char* json =
		"{'cloths': [{'grid': {}}], 'solids': ["
		"{'shape': 'plane'},"
		"{'name': 'ball', 'shape': 'sphere', 'radius': 0.3, 'position': [0, 0, 0.5],"
		" 'rotation': {'axis': [0, 0, 2], 'angle': 90}, 'thickness': 0.01, 'friction': 0},"
		"{'shape': 'capsule', 'radius': 0.1, 'half_height': 0.4, 'rotation': [2, 0, 0, 2]},"
		"{'shape': 'cylinder', 'radius': 0.2, 'half_height': 0.6, 'rotation': {'axis': [1, 1, 0], 'angle': -180}},"
		"{'name': 'table', 'shape': 'box', 'half_extents': [0.5, 0.4, 0.02], 'friction': 0.8,"
		" 'rotation': [0, 0, -3, 4]}]}";
	scene s;
	char err[512];
	CHECK(load_text(json, &s, err, sizeof err));
	CHECK(s.solid_count == 5 && s.solids != NULL);
	if (s.solid_count != 5) {
		scene_free(&s);
		return;
	}
	const drape_solid_def dflt = drape_default_solid_def();
	static const drape_solid_shape kinds[5] = {DRAPE_SOLID_PLANE, DRAPE_SOLID_SPHERE, DRAPE_SOLID_CAPSULE,
						   DRAPE_SOLID_CYLINDER, DRAPE_SOLID_BOX};
	static const char* const names[5] = {"solid0", "ball", "solid2", "solid3", "table"};
	for (int k = 0; k < 5; ++k) {
		const scene_solid* so = &s.solids[k];
		CHECK(so->def.shape == kinds[k]);
		CHECK(strcmp(so->name, names[k]) == 0 && so->def.name == so->name);
		CHECK(so->def.cookie == dflt.cookie);
		CHECK(so->def.mesh == NULL && so->def.mesh_frames == NULL && so->def.frame_count == 0);
		CHECK(so->def.poses == NULL && so->def.pose_count == 0 && so->poses == NULL);
		CHECK(!so->def.flip_normals);
		if (k != 1) CHECK(so->def.thickness == dflt.thickness);
		if (k != 1 && k != 4) CHECK(so->def.friction == dflt.friction);
		if (k != 1) CHECK(memcmp(so->def.position, dflt.position, sizeof dflt.position) == 0);
	}
	/* The plane keeps every default. */
	const drape_solid_def* d = &s.solids[0].def;
	CHECK(memcmp(d->rotation, dflt.rotation, sizeof d->rotation) == 0);
	CHECK(d->radius == dflt.radius && d->half_height == dflt.half_height);
	CHECK(memcmp(d->half_extents, dflt.half_extents, sizeof d->half_extents) == 0);

	d = &s.solids[1].def;
	CHECK(d->radius == 0.3 && d->thickness == 0.01 && d->friction == 0.0);
	CHECK(d->position[0] == 0.0 && d->position[1] == 0.0 && d->position[2] == 0.5);
	/* 90 degrees about z (any axis length): (cos 45, 0, 0, sin 45). */
	check_quat(d->rotation, sqrt(0.5), 0.0, 0.0, sqrt(0.5));

	d = &s.solids[2].def;
	CHECK(d->radius == 0.1 && d->half_height == 0.4);
	check_quat(d->rotation, sqrt(0.5), 0.0, 0.0, sqrt(0.5)); /* [2, 0, 0, 2] normalised */

	d = &s.solids[3].def;
	CHECK(d->radius == 0.2 && d->half_height == 0.6);
	/* -180 degrees about (1, 1, 0)/sqrt 2: w = cos(-90) = 0, xyz = sin(-90) * axis. */
	check_quat(d->rotation, cos(-3.14159265358979323846 / 2.0), -sqrt(0.5), -sqrt(0.5), 0.0);

	d = &s.solids[4].def;
	CHECK(d->half_extents[0] == 0.5 && d->half_extents[1] == 0.4 && d->half_extents[2] == 0.02);
	CHECK(d->friction == 0.8);
	check_quat(d->rotation, 0.0, 0.0, -0.6, 0.8);
	scene_free(&s);
	CHECK(s.solids == NULL && s.solid_count == 0);

	/* No "solids" and an empty list are the same: no solids. */
	CHECK(load_text("{'cloths': [{'grid': {}}]}", &s, err, sizeof err));
	CHECK(s.solids == NULL && s.solid_count == 0);
	scene_free(&s);
}

void test_scene_solid_poses(void)
{
	const char* json = "{'cloths': [{'grid': {}}], 'solids': [{'name': 'lift', 'shape': 'box',"
			   " 'half_extents': [0.3, 0.3, 0.05], 'poses': ["
			   "{'time': 0},"
			   "{'time': 0.5, 'position': [0, 0, 0.4]},"
			   "{'time': 2, 'position': [1, 0, 0.4], 'rotation': {'axis': [0, 0, 1], 'angle': 90}},"
			   "{'time': 3, 'rotation': [0, 0, 0, 5]}]}]}";
	scene s;
	char err[512];
	CHECK(load_text(json, &s, err, sizeof err));
	CHECK(s.solid_count == 1);
	if (s.solid_count != 1) {
		scene_free(&s);
		return;
	}
	const scene_solid* so = &s.solids[0];
	CHECK(so->def.pose_count == 4 && so->def.poses == so->poses);
	if (so->def.pose_count == 4) {
		const drape_pose* p = so->poses;
		CHECK(p[0].time == 0.0 && p[1].time == 0.5 && p[2].time == 2.0 && p[3].time == 3.0);
		/* Missing parts default as the static pose's: at the origin, not rotated. */
		CHECK(p[0].position[0] == 0.0 && p[0].position[1] == 0.0 && p[0].position[2] == 0.0);
		check_quat(p[0].rotation, 1.0, 0.0, 0.0, 0.0);
		CHECK(p[1].position[2] == 0.4);
		check_quat(p[1].rotation, 1.0, 0.0, 0.0, 0.0);
		CHECK(p[2].position[0] == 1.0 && p[2].position[2] == 0.4);
		check_quat(p[2].rotation, sqrt(0.5), 0.0, 0.0, sqrt(0.5));
		CHECK(p[3].position[0] == 0.0 && p[3].position[2] == 0.0);
		check_quat(p[3].rotation, 0.0, 0.0, 0.0, 1.0);
	}
	scene_free(&s);
}

/* A unit square as two triangles, without vt (and one corner style of each kind OBJ allows). */
static const char square_obj[] = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0 0\nvn 0 0 1\n"
				 "f 1 2//1 3\nf 1/1 3 4/1/1\n";

void test_scene_solid_mesh(void)
{
	scratch sc;
	scratch_open(&sc);
	write_text(scratch_path(&sc, "square.obj"), square_obj);
	/* Frames: the same four vertices, moved; their faces (any, here a quad) are not used. */
	write_text(scratch_path(&sc, "square_0.obj"), "v 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\nf 1 2 3 4\n");
	write_text(scratch_path(&sc, "square_1.obj"),
		   "v 0 0 2\nv 1 0 2\nv 1 1 2\nv 0 1 3\nvt 0 0\nf 1/1 2/1 3/1 4/1\n");
	const char* path = scratch_path(&sc, "scene.json");
	write_text(path, q("{'cloths': [{'grid': {}}], 'solids': ["
			   "{'name': 'ground', 'shape': 'mesh', 'mesh': {'file': 'square.obj', 'scale': 2,"
			   " 'translate': [1, 2, 3], 'flip_normals': true}, 'position': [0, 0, -1]},"
			   "{'name': 'skin', 'shape': 'mesh', 'mesh': {'file': 'square.obj', 'translate': [0, 0, 0.5]},"
			   " 'frames': [{'time': 0, 'file': 'square_0.obj'}, {'time': 0.04, 'file': 'square_1.obj'}],"
			   " 'thickness': 0.002}]}"));
	scene s;
	char err[1024] = "";
	CHECK(scene_load_file(path, &s, err, sizeof err));
	if (err[0]) fprintf(stderr, "%s\n", err);
	if (s.solid_count != 2) {
		CHECK(s.solid_count == 2);
		scene_free(&s);
		scratch_close(&sc);
		return;
	}
	const scene_solid* g = &s.solids[0];
	CHECK(g->def.shape == DRAPE_SOLID_MESH && g->def.mesh == &g->mesh && g->def.flip_normals);
	CHECK(g->mesh.vertex_count == 4 && g->mesh.triangle_count == 2);
	CHECK(g->mesh.uv_count == 0 && g->mesh.uvs == NULL && g->mesh.triangle_uvs == NULL);
	static const int32_t tris[6] = {0, 1, 2, 0, 2, 3};
	CHECK(memcmp(g->mesh.triangles, tris, sizeof tris) == 0);
	/* Scaled, then translated: (1, 1, 0) -> (3, 4, 3). */
	CHECK(g->mesh.positions[6] == 3.0 && g->mesh.positions[7] == 4.0 && g->mesh.positions[8] == 3.0);
	CHECK(g->def.position[2] == -1.0);
	CHECK(g->def.frame_count == 0 && g->def.mesh_frames == NULL && g->frames == NULL);

	const scene_solid* k = &s.solids[1];
	CHECK(!k->def.flip_normals && k->def.thickness == 0.002);
	CHECK(k->mesh.positions[2] == 0.5);
	CHECK(k->def.frame_count == 2);
	CHECK(k->def.frame_times == k->frame_times && k->frame_times[0] == 0.0 && k->frame_times[1] == 0.04);
	CHECK(k->def.mesh_frames == (const double* const*)k->frames);
	/* The frames get the mesh's translate too. */
	CHECK(k->frames[0][2] == 1.5 && k->frames[0][3] == 1.0);
	CHECK(k->frames[1][2] == 2.5 && k->frames[1][11] == 3.5);
	scene_free(&s);
	scratch_close(&sc);
}

void test_scene_solid_file_errors(void)
{
	scratch sc;
	scratch_open(&sc);
	write_text(scratch_path(&sc, "square.obj"), square_obj);
	write_text(scratch_path(&sc, "tri.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
	write_text(scratch_path(&sc, "flat.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\n");
	write_text(scratch_path(&sc, "bad.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3/4\n");
	const char* path = scratch_path(&sc, "scene.json");
	char err[1024], expect[700];
	scene s;

	/* A frame with another vertex count names its file and the mesh's. */
	write_text(path, q("{'cloths': [{'grid': {}}],\n'solids': [{'shape': 'mesh', 'mesh': {'file': 'square.obj'},\n"
			   " 'frames': [{'time': 0, 'file': 'square.obj'},\n  {'time': 1, 'file': 'tri.obj'}]}]}"));
	CHECK(!scene_load_file(path, &s, err, sizeof err));
	snprintf(expect, sizeof expect,
		 "scene.json:4: solids[0].frames[1].file: %s/tri.obj has 3 vertices, but the solid's mesh %s/square.obj has 4",
		 sc.dir, sc.dir);
	CHECK_HAS(err, expect);
	CHECK(s.solids == NULL && s.solid_count == 0);

	/* A missing frame file, and a frame OBJ with an error, each with the OBJ's own message. */
	write_text(path, q("{'cloths': [{'grid': {}}], 'solids': [{'shape': 'mesh', 'mesh': {'file': 'square.obj'},"
			   " 'frames': [{'time': 0, 'file': 'square.obj'}, {'time': 1, 'file': 'gone.obj'}]}]}"));
	CHECK(!scene_load_file(path, &s, err, sizeof err));
	snprintf(expect, sizeof expect, "%s/gone.obj: cannot open: No such file or directory", sc.dir);
	CHECK_HAS(err, expect);
	CHECK_HAS(err, "(solids[0].frames[1].file of ");

	write_text(path, q("{'cloths': [{'grid': {}}], 'solids': [{'shape': 'mesh', 'mesh': {'file': 'tri.obj'},"
			   " 'frames': [{'time': 0, 'file': 'bad.obj'}]}]}"));
	CHECK(!scene_load_file(path, &s, err, sizeof err));
	snprintf(expect, sizeof expect,
		 "%s/bad.obj:4: face refers to texture coordinate 4 but no texture coordinates are defined so far", sc.dir);
	CHECK_HAS(err, expect);

	/* Frame times, keys and list. */
	static const struct {
		const char* frames;
		const char* expect;
	} frame_cases[] = {
		{"[]", "solids[0].frames: must list at least one frame"},
		{"[{'time': 0}]", "solids[0].frames[0]: missing required key 'file'"},
		{"[{'file': 'tri.obj'}]", "solids[0].frames[0]: missing required key 'time'"},
		{"[{'time': -0.5, 'file': 'tri.obj'}]", "solids[0].frames[0].time: must be >= 0, got -0.5"},
		{"[{'time': 0.2, 'file': 'tri.obj'}, {'time': 0.2, 'file': 'tri.obj'}]",
		 "solids[0].frames[1].time: must be greater than the previous frame's time (0.2), got 0.2"},
		{"[{'time': 0, 'file': 'tri.obj', 'translate': [0, 0, 1]}]",
		 "solids[0].frames[0].translate: unknown key (valid keys here: time, file)"},
		{"{'time': 0, 'file': 'tri.obj'}", "solids[0].frames: expected an array, got an object"},
	};
	for (size_t k = 0; k < sizeof frame_cases / sizeof frame_cases[0]; ++k) {
		char json[512];
		snprintf(json, sizeof json,
			 "{'cloths': [{'grid': {}}], 'solids': [{'shape': 'mesh', 'mesh': {'file': 'tri.obj'}, 'frames': %s}]}",
			 frame_cases[k].frames);
		write_text(path, q(json));
		CHECK(!scene_load_file(path, &s, err, sizeof err));
		CHECK_HAS(err, frame_cases[k].expect);
	}

	/* The mesh's OBJ: errors keep their file:line; vt are optional but checked when given. */
	write_text(path, q("{'cloths': [{'grid': {}}], 'solids': [{'shape': 'plane'},"
			   " {'shape': 'mesh', 'mesh': {'file': 'flat.obj'}}]}"));
	CHECK(!scene_load_file(path, &s, err, sizeof err));
	snprintf(expect, sizeof expect, "%s/flat.obj: no faces (f): a solid mesh needs triangles (solids[1].mesh.file of %s)",
		 sc.dir, path);
	CHECK_HAS(err, expect);
	write_text(path, q("{'cloths': [{'grid': {}}], 'solids': [{'shape': 'mesh',"
			   " 'mesh': {'file': 'tri.obj', 'translate': [0, 1.7e308, 0], 'scale': 1e307}}]}"));
	CHECK(!scene_load_file(path, &s, err, sizeof err));
	snprintf(expect, sizeof expect,
		 "solids[0].mesh.file: vertex 3 of %s/tri.obj is out of range after scale and translate", sc.dir);
	CHECK_HAS(err, expect);
	write_text(path, q("{'cloths': [{'grid': {}}], 'solids': [{'shape': 'mesh', 'mesh': {'file': 'bad.obj'}}]}"));
	CHECK(!scene_load_file(path, &s, err, sizeof err));
	snprintf(expect, sizeof expect, "%s/bad.obj:4: face refers to texture coordinate 4", sc.dir);
	CHECK_HAS(err, expect);
	scratch_close(&sc);
}

void test_scene_solid_build_world(void)
{
	/* Solids follow the cloths; a solid the world refuses is named by index and name. */
	scratch sc;
	scratch_open(&sc);
	write_text(scratch_path(&sc, "square.obj"), square_obj);
	const char* path = scratch_path(&sc, "scene.json");
	write_text(path, q("{'cloths': [{'grid': {'center': [0, 0, 1]}}], 'solids': ["
			   "{'name': 'floor', 'shape': 'plane'},"
			   "{'name': 'ball', 'shape': 'sphere', 'radius': 0.2, 'position': [0, 0, 0.5]},"
			   "{'name': 'pad', 'shape': 'mesh', 'mesh': {'file': 'square.obj'},"
			   " 'frames': [{'time': 0, 'file': 'square.obj'}, {'time': 1, 'file': 'square.obj'}],"
			   " 'poses': [{'time': 0}, {'time': 1, 'rotation': {'axis': [0, 0, 1], 'angle': 30}}]}]}"));
	scene s;
	char err[1024] = "";
	CHECK(scene_load_file(path, &s, err, sizeof err));
	if (err[0]) fprintf(stderr, "%s\n", err);
	drape_world* w = scene_build_world(&s, err, sizeof err);
	CHECK(w != NULL);
	if (w) {
		CHECK(drape_cloth_count(w) == 1);
		CHECK(drape_solid_count(w) == 3);
		drape_world_destroy(w);
	} else {
		fprintf(stderr, "%s\n", err);
	}
	if (s.solid_count == 3) {
		s.solids[1].def.thickness = -1.0; /* past the loader's checks */
		CHECK(scene_build_world(&s, err, sizeof err) == NULL);
		char expect[700];
		snprintf(expect, sizeof expect, "%s: solids[1] 'ball': ", path);
		CHECK_HAS(err, expect);
		CHECK_HAS(err, "thickness");
	}
	scene_free(&s);
	scratch_close(&sc);
}
