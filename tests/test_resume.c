/* World state saved mid-run and read into a fresh world of the same scene continues bit-identically
 * (src/world_state.c; docs/reliability.md, "Resume"): pins, moving pins and solids with friction,
 * cloth/cloth contact, wind, BDF2, the mass-spring model, seams, the Cholesky preconditioner. */
#include "test.h"
#include "io/scene.h"
#include "world.h"
#include "world_state.h"
#include "solver/cholesky.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static drape_world* build(const char* path, const char* const* sets, int32_t count, scene* s)
{
	char err[1024];
	CHECK(scene_load_file_set(path, sets, count, s, err, sizeof err));
	drape_world* w = scene_build_world(s, err, sizeof err);
	if (!w) fprintf(stderr, "%s\n", err);
	CHECK(w != NULL);
	return w;
}

/* Frame by frame; seams that have closed merge after each frame, as a run's sewing does. */
static void step_to(drape_world* w, const scene* s, int from, int to)
{
	for (int f = from + 1; f <= to; ++f) {
		world_state_frame_start(w); /* as a run does */
		CHECK(drape_world_step(w, f / s->fps - drape_world_time(w)) == DRAPE_OK);
		if (drape_seam_count(w) > 0) CHECK(drape_world_close_seams(w, NULL) == DRAPE_OK);
	}
}

/* Steps `path` to frame `saved`, saves, goes on to `last`; a second world reads the state and
 * steps to `last` too: positions and velocities must agree to the bit. */
static void round_trip(const char* path, const char* const* sets, int32_t count, int saved, int last)
{
	scene sa, sb;
	drape_world* a = build(path, sets, count, &sa);
	drape_world* b = build(path, sets, count, &sb);
	if (!a || !b) return;
	char why[256];
	CHECK(world_state_supported(a, why, sizeof why));
	step_to(a, &sa, 0, saved);
	FILE* f = tmpfile();
	CHECK(f != NULL);
	CHECK(world_state_write(a, f));
	rewind(f);
	step_to(a, &sa, saved, last);
	char err[256];
	CHECK(world_state_read(b, f, err, sizeof err));
	fclose(f);
	CHECK(drape_world_time(b) == saved / sb.fps);
	step_to(b, &sb, saved, last);
	CHECK(a->model.particle_count == b->model.particle_count);
	size_t bytes = (size_t)a->model.particle_count * sizeof(vec3);
	int same_x = memcmp(a->state.x, b->state.x, bytes) == 0, same_v = memcmp(a->state.v, b->state.v, bytes) == 0;
	if (!same_x || !same_v) fprintf(stderr, "%s: resumed run differs (x %d, v %d)\n", path, same_x, same_v);
	CHECK(same_x && same_v);
	drape_world_destroy(a);
	drape_world_destroy(b);
	scene_free(&sa);
	scene_free(&sb);
}

/* Under the sanitizers (ten times slower) the runs are shortened (SHORT, test.h); the release build
 * covers the moving pins of the tablecloth (from frame 30). */

static void test_pinned_sheet(void) { round_trip(DRAPE_SOURCE_DIR "/scenes/figure2_sheet.json", NULL, 0, SHORT(7, 3), SHORT(15, 6)); }

static void test_solids_moving_pins_friction(void)
{
	/* On the table by frame 20; the pins start pulling at 1 s (frame 30). */
	round_trip(DRAPE_SOURCE_DIR "/scenes/tablecloth_pull.json", NULL, 0, SHORT(28, 4), SHORT(40, 7));
}

/* Under the sanitizers on a 21 x 21 grid, not 41 x 41 (or 51 x 51). */
static const char* const coarse[] = {"cloths.0.grid.resolution.0=21", "cloths.0.grid.resolution.1=21",
				     "solver.integrator=bdf2"};

static void test_cloth_contact(void)
{
	round_trip(DRAPE_SOURCE_DIR "/scenes/sphere_fold.json", coarse, SHORT(0, 2), SHORT(20, 12), SHORT(30, 15));
}

/* The strain limiter holding the wrinkle band's cloth at every step: the step control measures
 * the strain change also from the last proposal before its projection (step/implicit.c,
 * strain_change_judged), so that proposal is part of the state. */
static void test_limiter_reference(void)
{
	static const char* const sets[] = {"cloths.0.grid.resolution=[21,13]", "cloths.0.bend_model=tensor"};
	round_trip(DRAPE_SOURCE_DIR "/scenes/wrinkle_band.json", sets, 2, SHORT(12, 6), SHORT(16, 9));
}

static void test_wind(void) { round_trip(DRAPE_SOURCE_DIR "/scenes/flag.json", NULL, 0, SHORT(9, 3), SHORT(18, 6)); }

static void test_bdf2(void)
{
	round_trip(DRAPE_SOURCE_DIR "/scenes/figure1_drape.json", SHORT(coarse + 2, coarse), SHORT(1, 3), SHORT(6, 3),
		   SHORT(14, 6));
}

static void test_mass_spring(void) { round_trip(DRAPE_SOURCE_DIR "/scenes/mass_spring_sheet.json", NULL, 0, SHORT(5, 3), SHORT(12, 6)); }

/* A garment tube whose two seams merge after frame 1: saved right after the merge (topology
 * changed, solver not yet rebuilt) and later, sewn. The resumed world must have the merged
 * particle count, elements and masses, or it cannot continue to the bit. */
static void test_seams(void)
{
	scene s;
	drape_world* w = build(DRAPE_SOURCE_DIR "/scenes/garment_tube.json", NULL, 0, &s);
	if (!w) return;
	const int32_t before = w->model.particle_count;
	step_to(w, &s, 0, 1);
	CHECK(drape_seam_count(w) == 2 && drape_seam_merged(w, (drape_seam_id){0}) && drape_seam_merged(w, (drape_seam_id){1}));
	CHECK(w->model.particle_count < before);
	drape_world_destroy(w);
	scene_free(&s);
	round_trip(DRAPE_SOURCE_DIR "/scenes/garment_tube.json", NULL, 0, 1, SHORT(8, 4));
	round_trip(DRAPE_SOURCE_DIR "/scenes/garment_tube.json", NULL, 0, SHORT(5, 3), SHORT(10, 5));
	/* tensor bending: its elements are rebuilt at the merge and saved with the topology */
	static const char* const tensor[] = {"cloths.0.bend_model=tensor"};
	round_trip(DRAPE_SOURCE_DIR "/scenes/garment_tube.json", tensor, 1, 1, SHORT(8, 4));
}

/* The Cholesky factor is kept across steps (here for as long as it works) but not saved: a run
 * makes it afresh at each frame's first step, so the resumed world takes the same steps. Without
 * world_state_frame_start the resumed run factors where the other reuses, and differs. */
static void test_cholesky(void)
{
	if (!cholesky_available()) return;
	static const char* const sets[] = {"solver.preconditioner=cholesky", "solver.refactor_iterations=1000"};
	round_trip(DRAPE_SOURCE_DIR "/scenes/flag.json", sets, 2, SHORT(7, 3), SHORT(14, 6));
}

static void test_unsupported_named(void)
{
	scene s;
	drape_world* w = build(DRAPE_SOURCE_DIR "/scenes/figure2_sheet.json", NULL, 0, &s);
	drape_spring_def sd = drape_default_spring_def();
	sd.stiffness = 1.0;
	CHECK(w && drape_spring_add(w, &sd).index >= 0);
	char why[256];
	CHECK(w && !world_state_supported(w, why, sizeof why));
	CHECK(strstr(why, "user springs"));
	drape_world_destroy(w);
	scene_free(&s);
	/* a state of another scene is refused, naming the counts */
	scene sa, sb;
	drape_world* a = build(DRAPE_SOURCE_DIR "/scenes/figure2_sheet.json", NULL, 0, &sa);
	drape_world* b = build(DRAPE_SOURCE_DIR "/scenes/flag.json", NULL, 0, &sb);
	FILE* f = tmpfile();
	CHECK(world_state_write(a, f));
	rewind(f);
	char err[256];
	CHECK(!world_state_read(b, f, err, sizeof err));
	CHECK(strstr(err, "particles"));
	fclose(f);
	drape_world_destroy(a);
	drape_world_destroy(b);
	scene_free(&sa);
	scene_free(&sb);
}

const test_case resume_tests[] = {
	{"pinned_sheet", test_pinned_sheet},
	{"solids_moving_pins_friction", test_solids_moving_pins_friction},
	{"cloth_contact", test_cloth_contact},
	{"wind", test_wind},
	{"limiter_reference", test_limiter_reference},
	{"bdf2", test_bdf2},
	{"mass_spring", test_mass_spring},
	{"seams", test_seams},
	{"cholesky", test_cholesky},
	{"unsupported_named", test_unsupported_named},
	{NULL, NULL},
};
