/* Errors that reach the caller (docs/api.md, "Errors"): drape_world_def_check names the field and
 * the rule, a world's failed calls keep a status and a message, and programmer errors (a NULL
 * world, a bad or stale id) reach the assert function instead of acting on the wrong object. */
#include "test.h"

#include "drape.h"
#include "fixtures.h"

#include <math.h>
#include <string.h>

/* The assert function of these tests: records instead of aborting. */
static int assert_calls;
static char assert_expression[256];

static void record_assert(const char* expression, const char* file, int line)
{
	(void)file;
	(void)line;
	++assert_calls;
	snprintf(assert_expression, sizeof assert_expression, "%s", expression);
}

static void recording_begin(void)
{
	assert_calls = 0;
	assert_expression[0] = '\0';
	drape_set_assert_fcn(record_assert);
}

static void recording_end(void) { drape_set_assert_fcn(NULL); }

/* Each broken rule is reported with the def's member and the value it has. */
static void test_world_def_check_names_field(void)
{
	drape_world_def d = drape_default_world_def();
	drape_def_error e;
	CHECK(drape_world_def_check(&d, &e) == DRAPE_OK);
	CHECK(e.field == NULL && e.reason[0] == '\0');

	d.min_dt = 0.5;
	CHECK(drape_world_def_check(&d, &e) == DRAPE_ERROR_INVALID);
	CHECK(e.field && strcmp(e.field, "min_dt") == 0);
	CHECK(strstr(e.reason, "<= max_dt") && strstr(e.reason, "got 0.5"));
	CHECK(drape_world_create(&d) == NULL);

	d = drape_default_world_def();
	d.gravity[2] = NAN;
	CHECK(drape_world_def_check(&d, &e) == DRAPE_ERROR_INVALID && strcmp(e.field, "gravity") == 0);

	d = drape_default_world_def();
	d.cloth_thickness = 1.0;
	CHECK(drape_world_def_check(&d, &e) == DRAPE_ERROR_INVALID && strcmp(e.field, "cloth_thickness") == 0);
	CHECK(strstr(e.reason, "beyond drape's range") != NULL);

	d = drape_default_world_def();
	d.integrator = DRAPE_INTEGRATOR_SPLIT; /* self_collision stays on: the line solves cannot take it */
	CHECK(drape_world_def_check(&d, &e) == DRAPE_ERROR_INVALID && strcmp(e.field, "self_collision") == 0);
	CHECK(strstr(e.reason, "not split") != NULL);

	d = drape_default_world_def();
	d.newton_iterations = 0;
	CHECK(drape_world_def_check(&d, &e) == DRAPE_ERROR_INVALID && strcmp(e.field, "newton_iterations") == 0);

	drape_world_def raw;
	memset(&raw, 0, sizeof raw); /* never through drape_default_world_def() */
	CHECK(drape_world_def_check(&raw, &e) == DRAPE_ERROR_INVALID && strcmp(e.field, "cookie") == 0);
	CHECK(drape_world_def_check(&raw, NULL) == DRAPE_ERROR_INVALID); /* the report is optional */
}

/* A failed call on a world leaves its status and message; the status of a bad value is INVALID. */
static void test_world_status(void)
{
	drape_world_def d = drape_default_world_def();
	drape_world* w = drape_world_create(&d);
	CHECK(w && drape_world_status(w) == DRAPE_OK && drape_world_error(w)[0] == '\0');
	const double g[3] = {0.0, 0.0, 1e9};
	CHECK(drape_world_set_gravity(w, g) == DRAPE_ERROR_INVALID);
	CHECK(drape_world_status(w) == DRAPE_ERROR_INVALID && strstr(drape_world_error(w), "gravity") != NULL);
	drape_world_destroy(w);
}

/* An id kept past its constraint's removal names nothing, even once its slot is reused: the assert
 * function is called and the new constraint is untouched. */
static void test_stale_constraint_id(void)
{
	drape_world_def wd = drape_default_world_def();
	wd.threads = 1;
	drape_cloth_id c;
	drape_world* w = make_sheet(&wd, NULL, 5, 0.3, false, &c);
	drape_constraint_def d = drape_default_constraint_def();
	d.cloth = c;
	d.vertex = 0;
	drape_constraint_id old = drape_constraint_add(w, &d);
	CHECK(old.index == 0);
	drape_constraint_remove(w, old);
	d.vertex = 4;
	drape_constraint_id fresh = drape_constraint_add(w, &d);
	CHECK(fresh.index == old.index && fresh.generation != old.generation); /* the slot is reused */

	recording_begin();
	drape_constraint_remove(w, old); /* would have removed `fresh` */
	CHECK(assert_calls == 1 && strstr(assert_expression, "constraint_live") != NULL);
	double f[3] = {1.0, 1.0, 1.0};
	drape_constraint_get_force(w, old, f);
	CHECK(assert_calls == 2 && f[0] == 0.0 && f[1] == 0.0 && f[2] == 0.0);
	recording_end();

	/* fresh still holds its particle */
	CHECK(drape_world_step(w, 0.1) == DRAPE_OK);
	double x[75];
	drape_cloth_get_positions(w, c, x);
	CHECK_NEAR(x[3 * 4 + 2], 1.0, 1e-12);
	drape_constraint_remove(w, fresh);

	/* springs too */
	drape_spring_def sd = drape_default_spring_def();
	sd.cloth = c;
	drape_spring_id s = drape_spring_add(w, &sd);
	drape_spring_remove(w, s);
	drape_spring_id s2 = drape_spring_add(w, &sd);
	CHECK(s2.index == s.index && s2.generation != s.generation);
	recording_begin();
	drape_spring_remove(w, s);
	CHECK(assert_calls == 1);
	drape_spring_remove(w, s2); /* the live one goes without complaint */
	CHECK(assert_calls == 1);
	recording_end();
	drape_world_destroy(w);
}

/* Bad ids and NULL worlds: the assert function, then a harmless "none". */
static void test_null_world_and_bad_ids(void)
{
	recording_begin();
	CHECK(drape_cloth_count(NULL) == 0);
	CHECK(assert_calls == 1 && strstr(assert_expression, "w != NULL") != NULL);
	CHECK(isnan(drape_world_time(NULL)));
	CHECK(assert_calls == 2);
	drape_constraint_def cd = drape_default_constraint_def();
	CHECK(drape_constraint_add(NULL, &cd).index < 0);
	CHECK(assert_calls == 3);
	CHECK(drape_world_error(NULL)[0] == '\0' && assert_calls == 4);

	drape_world_def wd = drape_default_world_def();
	drape_cloth_id c;
	drape_world* w = make_sheet(&wd, NULL, 3, 0.3, false, &c);
	CHECK(drape_cloth_vertex_count(w, (drape_cloth_id){7}) == 0);
	CHECK(assert_calls == 5);
	CHECK(drape_seam_merge(w, (drape_seam_id){0}) == DRAPE_ERROR_INVALID && assert_calls == 6);
	CHECK(drape_solid_set_hold(w, (drape_solid_id){-1}, 1.0) == DRAPE_ERROR_INVALID && assert_calls == 7);
	drape_constraint_id never = {0, 0}; /* a zeroed id names nothing */
	drape_constraint_remove(w, never);
	CHECK(assert_calls == 8);
	CHECK(drape_cloth_vertex_count(w, c) == 9 && assert_calls == 8); /* good calls stay silent */
	recording_end();
	drape_world_destroy(w);
}

const test_case errors_tests[] = {
	{"world_def_check_names_field", test_world_def_check_names_field},
	{"world_status", test_world_status},
	{"stale_constraint_id", test_stale_constraint_id},
	{"null_world_and_bad_ids", test_null_world_and_bad_ids},
	{NULL, NULL},
};
