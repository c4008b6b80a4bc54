/* The public calls a tool needs to show or replay a run without the library's insides (issue 30:
 * `drape render` and `drape view` use only these): built-in scenes by path, the scene's camera,
 * OBJ geometry, folders, and a run's sewing driven frame by frame. Part of the io suite. */
#include "test_io.h"

#include <sys/stat.h>

void test_scene_replay_api(void)
{
	char err[1024];
	/* the built-in default scene by its path, and a built-in name that does not exist */
	drape_scene* s = drape_scene_load(DRAPE_DEFAULT_SCENE, err, sizeof err);
	CHECK(s != NULL && drape_scene_fps(s) > 0.0);
	drape_scene_destroy(s);
	CHECK(drape_scene_load("<built-in>/nope.json", err, sizeof err) == NULL);
	CHECK_HAS(err, "no built-in scene 'nope.json'");

	/* output.camera as the file has it */
	s = drape_scene_load(DRAPE_SOURCE_DIR "/scenes/character.json", err, sizeof err);
	CHECK(s != NULL);
	double eye[3], target[3], up[3], fov = 0.0;
	CHECK(s && drape_scene_camera(s, eye, target, up, &fov));
	CHECK(eye[0] == 1.7 && eye[1] == -2.9 && target[2] == 1.05 && up[2] == 1.0 && fov == 38.0);
	drape_scene_destroy(s);

	/* geometry only: the same vertices as the full reader, no uv */
	drape_mesh full, geometry;
	CHECK(drape_mesh_load_obj(DRAPE_SOURCE_DIR "/scenes/sewn_panels.obj", 1.0, &full, err, sizeof err) == DRAPE_OK);
	CHECK(drape_mesh_load_obj_geometry(DRAPE_SOURCE_DIR "/scenes/sewn_panels.obj", &geometry, err, sizeof err) == DRAPE_OK);
	CHECK(geometry.uv_count == 0 && geometry.vertex_count == full.vertex_count &&
	      memcmp(geometry.positions, full.positions, 3 * (size_t)full.vertex_count * sizeof(double)) == 0);
	drape_mesh_free(&full);
	drape_mesh_free(&geometry);

	/* mkdir -p, and a folder that cannot be made (under a file) named in the message */
	scratch d;
	scratch_open(&d);
	struct stat st;
	CHECK(drape_make_dirs(scratch_path(&d, "a/b/c"), err, sizeof err) == DRAPE_OK);
	CHECK(stat(scratch_path(&d, "a/b/c"), &st) == 0 && S_ISDIR(st.st_mode));
	write_text(scratch_path(&d, "file"), "x");
	CHECK(drape_make_dirs(scratch_path(&d, "file/sub"), err, sizeof err) == DRAPE_ERROR_IO);
	CHECK_HAS(err, "file");
	scratch_close(&d);

	/* a garment sewn frame by frame: every seam open at first, all merged within 9 frames (as
	 * the viewer's test sees), gravity restored once they are */
	s = drape_scene_load(DRAPE_SOURCE_DIR "/scenes/garment_tube.json", err, sizeof err);
	CHECK(s != NULL);
	if (!s) return;
	drape_world_def def = drape_scene_world_def(s);
	def.threads = 1;
	drape_world* w = drape_scene_create_world(s, &def, err, sizeof err);
	drape_sewing* sew = w ? drape_sewing_create(s, w) : NULL;
	CHECK(sew != NULL);
	drape_sewing_info info = drape_sewing_get_info(sew);
	CHECK(info.seam_count > 0 && info.open == info.seam_count && info.sewn_at < 0.0 && info.motion_start < 0.0);
	double fps = drape_scene_fps(s);
	for (int frame = 1; sew && frame <= 9; ++frame) {
		drape_sewing_before_frame(sew, w);
		CHECK(drape_world_step(w, frame / fps - drape_world_time(w)) == DRAPE_OK);
		CHECK(drape_sewing_after_frame(sew, w, err, sizeof err) == DRAPE_OK);
	}
	info = drape_sewing_get_info(sew);
	CHECK(info.open == 0 && info.sewn_at > 0.0);
	double g[3];
	drape_sewing_before_frame(sew, w);
	drape_world_get_gravity(w, g);
	CHECK(g[0] == def.gravity[0] && g[1] == def.gravity[1] && g[2] == def.gravity[2]);
	drape_sewing_destroy(sew);
	drape_world_destroy(w);
	drape_scene_destroy(s);
}
