/* The io suite's scene-entry tests (drape_world_add_scene_cloth / _solid, include/drape.h): entries
 * added to a world one by one give what the scene file gives, with the world's own names; bad
 * entries fail with the key's path and leave the world as it was; what belongs to a run is told. */
#include "test_io.h"

#ifndef DRAPE_SOURCE_DIR
#error "DRAPE_SOURCE_DIR must name the repository root"
#endif

static const char* tube_garment =
	"{'name': 'sleeve', 'material': {'density': 0.15, 'stretch': 2000, 'shear': 20, 'bend': 5e-6},"
	" 'garment': {'triangle_size': 0.04, 'sewing': {'stiffness': 50, 'tolerance': 0.006, 'time_limit': 1.5},"
	"  'panels': ["
	"   {'name': 'front', 'outline': [{'at': [0, 0], 'corner': 'a'}, {'at': [0.36, 0], 'corner': 'b'},"
	"     {'at': [0.36, 0.5], 'corner': 'c'}, {'at': [0, 0.5], 'corner': 'd'}],"
	"    'around': {'axis': [[-0.3, 0, 1], [0.3, 0, 1]], 'radius': 0.13, 'side': 'front', 'front': [0, 0, 1]}},"
	"   {'name': 'back', 'outline': [{'at': [0, 0], 'corner': 'a'}, {'at': [0.36, 0], 'corner': 'b'},"
	"     {'at': [0.36, 0.5], 'corner': 'c'}, {'at': [0, 0.5], 'corner': 'd'}],"
	"    'around': {'axis': [[-0.3, 0, 1], [0.3, 0, 1]], 'radius': 0.13, 'side': 'back', 'front': [0, 0, 1]}}],"
	"  'seams': [{'name': 's1', 'a': {'panel': 'front', 'from': 'b', 'to': 'c'},"
	"             'b': {'panel': 'back', 'from': 'a', 'to': 'd', 'direction': 'backward'}}]}}";

void test_scene_entries(void)
{
	char err[1024];
	drape_world_def wd = drape_default_world_def();
	drape_world* w = drape_world_create(&wd);
	/* A grid with a pin, unnamed: the world's next name. */
	const char* grid = "{'grid': {'size': [0.2, 0.2], 'resolution': [3, 3]}, 'pins': [{'corner': 'top_left'}]}";
	CHECK(drape_world_add_scene_cloth(w, q(grid), NULL, err, sizeof err).index == 0);
	CHECK(strcmp(drape_cloth_name(w, (drape_cloth_id){0}), "cloth0") == 0);
	CHECK(drape_cloth_vertex_count(w, (drape_cloth_id){0}) == 9);
	/* A garment: meshed, placed, its seam added; the run's sewing settings are told. */
	drape_cloth_id g = drape_world_add_scene_cloth(w, q(tube_garment), NULL, err, sizeof err);
	CHECK(g.index == 1);
	CHECK(drape_seam_count(w) == 1 && strcmp(drape_seam_name(w, (drape_seam_id){0}), "s1") == 0);
	CHECK(!drape_seam_merged(w, (drape_seam_id){0}));
	CHECK_HAS(drape_world_warnings(w), "cloth 'sleeve': garment.sewing.time_limit");
	/* A mesh solid, relative to base_dir. */
	CHECK(drape_world_add_scene_solid(w, q("{'shape': 'mesh', 'mesh': {'file': 'cylinder.obj'}, 'position': [0, 0, 1]}"),
					  DRAPE_SOURCE_DIR "/scenes", err, sizeof err)
		      .index == 0);
	CHECK(drape_solid_count(w) == 1);

	/* Refusals: the key's path, no file name of a text that has none, nothing added. */
	CHECK(drape_world_add_scene_cloth(w, q("{'grid': {'size': [0.2, 0.2], 'resolution': [3, 3]}, 'materal': {}}"), NULL,
					  err, sizeof err)
		      .index < 0);
	CHECK(strncmp(err, "materal: unknown key (did you mean 'material'?)", 47) == 0);
	CHECK(drape_world_add_scene_cloth(w, q("{'name': 'sleeve', 'grid': {'size': [0.2, 0.2], 'resolution': [3, 3]}}"), NULL,
					  err, sizeof err)
		      .index < 0);
	CHECK_HAS(err, "name: the world has a cloth named 'sleeve' already");
	CHECK(drape_world_add_scene_solid(w, q("{'shape': 'mesh', 'mesh': {'file': 'nowhere.obj'}}"), "/nonexistent", err,
					  sizeof err)
		      .index < 0);
	CHECK_HAS(err, "/nonexistent/nowhere.obj");
	CHECK_HAS(err, "of the entry");
	CHECK(!strstr(err, "<scene entry>"));
	CHECK(drape_world_add_scene_solid(w, "{not json", NULL, err, sizeof err).index < 0);
	CHECK(drape_world_add_scene_cloth(w, NULL, NULL, err, sizeof err).index < 0);
	CHECK(drape_cloth_count(w) == 2 && drape_solid_count(w) == 1 && drape_seam_count(w) == 1);

	/* The garment sews in the world as in a run: seams merge when closed. */
	int32_t closed = 0;
	for (int f = 1; f <= 30 && closed == 0; ++f) {
		CHECK(drape_world_step(w, f / 30.0 - drape_world_time(w)) == DRAPE_OK);
		CHECK(drape_world_close_seams(w, &closed) == DRAPE_OK);
	}
	CHECK(closed == 1 && drape_seam_merged(w, (drape_seam_id){0}));
	drape_world_destroy(w);
}
