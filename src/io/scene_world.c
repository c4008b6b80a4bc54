/* A scene's world settings (docs/scene-format.md): "gravity", "wind", "cloth_contact" and
 * "solver", read through one table of keys into a drape_world_def and checked by the library's own
 * drape_world_def_check, so a scene and a program calling drape_world_create meet the same rules
 * with the same words; this file adds only the file, line and JSON path, and the rules that tie
 * the settings to the output's frame rate (paper sec. 7: a step never spans more than a frame). */
#include "scene_internal.h"

#include "drape_limits.h"
#include "integrator.h"

#include <stddef.h>
#include <string.h>

typedef enum setting_kind {
	SETTING_NUMBER,
	SETTING_INTEGER,
	SETTING_BOOL,
	SETTING_VECTOR3,
	SETTING_INTEGRATOR,
	SETTING_PRECONDITIONER,
} setting_kind;

/* One optional key: where it lives in the file (section NULL: the top level), what it holds, and
 * the drape_world_def member it fills, whose name drape_world_def_check reports. */
typedef struct world_setting {
	const char* section;
	const char* key;
	setting_kind kind;
	size_t offset;
	const char* field;
} world_setting;

#define SETTING(section, key, kind, member) {section, key, kind, offsetof(drape_world_def, member), #member}

static const world_setting settings[] = {
	SETTING(NULL, "gravity", SETTING_VECTOR3, gravity),
	SETTING("wind", "velocity", SETTING_VECTOR3, air_velocity),
	SETTING("wind", "gust_amplitude", SETTING_VECTOR3, gust_amplitude),
	SETTING("wind", "gust_frequency", SETTING_NUMBER, gust_frequency),
	SETTING("cloth_contact", "enabled", SETTING_BOOL, self_collision),
	SETTING("cloth_contact", "thickness", SETTING_NUMBER, cloth_thickness),
	SETTING("cloth_contact", "stiffness", SETTING_NUMBER, cloth_repulsion),
	SETTING("cloth_contact", "damping", SETTING_NUMBER, cloth_repulsion_damping),
	SETTING("cloth_contact", "friction_damping", SETTING_NUMBER, cloth_friction_damping),
	SETTING("solver", "max_dt", SETTING_NUMBER, max_dt),
	SETTING("solver", "min_dt", SETTING_NUMBER, min_dt),
	SETTING("solver", "cg_tolerance", SETTING_NUMBER, cg_tolerance),
	SETTING("solver", "cg_max_iterations", SETTING_INTEGER, cg_max_iterations),
	SETTING("solver", "warm_start", SETTING_BOOL, warm_start),
	SETTING("solver", "adaptive", SETTING_BOOL, adaptive),
	SETTING("solver", "stretch_change_limit", SETTING_NUMBER, stretch_change_limit),
	SETTING("solver", "strain_limit", SETTING_NUMBER, strain_limit),
	SETTING("solver", "threads", SETTING_INTEGER, threads),
	SETTING("solver", "integrator", SETTING_INTEGRATOR, integrator),
	SETTING("solver", "onoff_c1", SETTING_NUMBER, onoff_c1),
	SETTING("solver", "preconditioner", SETTING_PRECONDITIONER, preconditioner),
	SETTING("solver", "refactor_iterations", SETTING_INTEGER, refactor_iterations),
	SETTING("solver", "newton_iterations", SETTING_INTEGER, newton_iterations),
	SETTING("solver", "strain_from_limiter", SETTING_BOOL, strain_from_limiter),
	SETTING("solver", "contact_bounds", SETTING_BOOL, contact_bounds),
};
#define SETTING_COUNT ((int)(sizeof settings / sizeof settings[0]))

static const char* const sections[] = {"wind", "cloth_contact", "solver"};

static bool same(const char* a, const char* b) { return a == b || (a && b && strcmp(a, b) == 0); }

/* The node of a section (section NULL: the root); false when the file does not have it. */
static bool section_node(const jnode* root, const char* section, jnode* out)
{
	if (!section) {
		*out = *root;
		return true;
	}
	const cJSON* item = json_get(root, section);
	if (item) *out = json_node(root, item);
	return item != NULL;
}

/* Reads one present key into its member: the type and the names here, the ranges in
 * drape_world_def_check. */
static bool read_setting(const json_ctx* c, const jnode* at, const world_setting* k, drape_world_def* w)
{
	void* member = (char*)w + k->offset;
	const char* name;
	switch (k->kind) {
	case SETTING_NUMBER: return json_number(c, at, (double*)member);
	case SETTING_INTEGER: return json_integer(c, at, INT32_MIN, INT32_MAX, (int32_t*)member);
	case SETTING_BOOL: return json_bool(c, at, (bool*)member);
	case SETTING_VECTOR3: return json_vector(c, at, 3, (double*)member);
	case SETTING_INTEGRATOR:
		if (!json_string(c, at, &name)) return false;
		if (!drape_integrator_from_name(name, (drape_integrator*)member))
			return json_fail(c, at,
					 "unknown integrator '%s' (backward_euler, forward_euler, symplectic_euler, imex_bend, "
					 "imex_bend_shear, cn_adi, onoff_adi, split, bdf2)",
					 name);
		return true;
	case SETTING_PRECONDITIONER:
		if (!json_string(c, at, &name)) return false;
		if (!drape_preconditioner_from_name(name, (drape_preconditioner*)member))
			return json_fail(c, at, "unknown preconditioner '%s' (block_jacobi, cholesky, two_level, multigrid)", name);
		return true;
	}
	return false;
}

bool scene_read_world(const json_ctx* c, const jnode* root, drape_world_def* w)
{
	for (size_t s = 0; s < sizeof sections / sizeof sections[0]; ++s) {
		jnode sn;
		if (!section_node(root, sections[s], &sn)) continue;
		const char* keys[SETTING_COUNT + 1];
		int n = 0;
		for (int k = 0; k < SETTING_COUNT; ++k)
			if (same(settings[k].section, sections[s])) keys[n++] = settings[k].key;
		keys[n] = NULL;
		if (!json_check_object(c, &sn, keys)) return false;
	}
	for (int k = 0; k < SETTING_COUNT; ++k) {
		jnode sn;
		if (!section_node(root, settings[k].section, &sn)) continue;
		const cJSON* item = json_get(&sn, settings[k].key);
		if (!item) continue;
		jnode at = json_node(&sn, item);
		if (!read_setting(c, &at, &settings[k], w)) return false;
	}
	return true;
}

/* Whether the file gives a setting's key; *at is then its node. */
static bool given(const jnode* root, const char* field, jnode* sn, jnode* at)
{
	for (int k = 0; k < SETTING_COUNT; ++k) {
		if (strcmp(settings[k].field, field) != 0) continue;
		if (!section_node(root, settings[k].section, sn)) return false;
		const cJSON* item = json_get(sn, settings[k].key);
		if (item) *at = json_node(sn, item);
		return item != NULL;
	}
	return false;
}

/* A broken rule, at the member's key when the file gives it, else at its section (or the file)
 * naming the key whose default broke it. */
static bool blame(const json_ctx* c, const jnode* root, const drape_def_error* e)
{
	jnode sn, at;
	if (given(root, e->field, &sn, &at)) return json_fail(c, &at, "%s", e->reason);
	for (int k = 0; k < SETTING_COUNT; ++k) {
		if (strcmp(settings[k].field, e->field) != 0) continue;
		const char* sec = settings[k].section;
		if (sec && section_node(root, sec, &sn)) return json_fail(c, &sn, "%s (default): %s", settings[k].key, e->reason);
		return json_fail(c, NULL, "%s%s%s (default): %s", sec ? sec : "", sec ? "." : "", settings[k].key, e->reason);
	}
	return json_fail(c, NULL, "%s: %s", e->field, e->reason);
}

bool scene_check_world(const json_ctx* c, const jnode* root, double fps, drape_world_def* w)
{
	jnode sn, at;
	const double frame = 1.0 / fps;
	if (!given(root, "max_dt", &sn, &at)) w->max_dt = frame;
	/* A relative slack of 1e-9 accepts a frame written out in decimal (0.0333333333). */
	else if (w->max_dt > frame * (1.0 + 1e-9))
		return json_fail(c, &at,
				 "must be <= one frame (1/fps = %g s), got %g: a step never spans more than a frame (paper "
				 "sec. 7)",
				 frame, w->max_dt);
	/* Cloth/cloth contact is on by default; the explicit and line integrators cannot take it, so it
	 * is off for them unless the scene asks for it (then drape_world_def_check refuses it). */
	if (!integrator_supports_cloth_contact(w->integrator) && !given(root, "self_collision", &sn, &at))
		w->self_collision = false;
	drape_def_error e;
	if (drape_world_def_check(w, &e) != DRAPE_OK) return blame(c, root, &e);
	const double steps = frame / w->max_dt;
	if (given(root, "max_dt", &sn, &at) && !(steps <= LIMIT_STEPS_PER_FRAME))
		return json_fail(c, &at,
				 "one output frame (1/fps = %g s) would take %.3g steps of max_dt = %g s, beyond drape's limit "
				 "of %g: raise fps or max_dt",
				 frame, steps, w->max_dt, LIMIT_STEPS_PER_FRAME);
	return true;
}
