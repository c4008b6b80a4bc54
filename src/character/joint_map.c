/* Joint names (docs/characters.md, "Joint names"): drape names a skeleton's joints as the CMU motion
 * capture database does (Hips, Spine1, LeftArm ...), because the mannequin (docs/mannequin.md), the
 * dressing pose and keyframes find joints by those names. A file's joints are renamed on import by
 * the scene's joint_map, else by the built-in map of the naming scheme its names match: CMU,
 * Biovision/MotionBuilder (Boxing_Toes.bvh: Ab, Chest, LeftCollar, LeftShoulder = the upper arm ...)
 * or Mixamo (mixamorig:Hips, mixamorig:Spine2 ...). Names are compared without a namespace prefix
 * ("mixamorig:", "Character1:"), so any namespace works. */
#include "character.h"

#include "core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char* const character_drape_joint_names[] = {
	"Hips",         "LHipJoint",    "LeftUpLeg",      "LeftLeg",         "LeftFoot",       "LeftToeBase",
	"RHipJoint",    "RightUpLeg",   "RightLeg",       "RightFoot",       "RightToeBase",   "LowerBack",
	"Spine",        "Spine1",       "Neck",           "Neck1",           "Head",           "LeftShoulder",
	"LeftArm",      "LeftForeArm",  "LeftHand",       "LeftFingerBase",  "LeftHandIndex1", "LFingers",
	"LThumb",       "RightShoulder", "RightArm",      "RightForeArm",    "RightHand",      "RightFingerBase",
	"RightHandIndex1", "RFingers",  "RThumb",
};
const int32_t character_drape_joint_count =
	(int32_t)(sizeof character_drape_joint_names / sizeof character_drape_joint_names[0]);

/* A scheme's names: the file's, then drape's. */
typedef struct scheme_name {
	const char* file;
	const char* drape;
} scheme_name;

/* Biovision's upper arm is its "Shoulder" and its clavicle the "Collar"; the neck and both collars
 * hang from Chest, as CMU's from Spine1. */
static const scheme_name biovision[] = {
	{"Hips", "Hips"},           {"Ab", "Spine"},               {"Chest", "Spine1"},
	{"Neck", "Neck"},           {"Head", "Head"},              {"LeftCollar", "LeftShoulder"},
	{"LeftShoulder", "LeftArm"}, {"LeftElbow", "LeftForeArm"}, {"LeftWrist", "LeftHand"},
	{"LeftHip", "LeftUpLeg"},   {"LeftKnee", "LeftLeg"},       {"LeftAnkle", "LeftFoot"},
	{"LeftToes", "LeftToeBase"}, {"RightCollar", "RightShoulder"}, {"RightShoulder", "RightArm"},
	{"RightElbow", "RightForeArm"}, {"RightWrist", "RightHand"}, {"RightHip", "RightUpLeg"},
	{"RightKnee", "RightLeg"},  {"RightAnkle", "RightFoot"},   {"RightToes", "RightToeBase"},
	{NULL, NULL},
};

/* Mixamo's three spine joints become CMU's LowerBack, Spine and Spine1 (the clavicles hang from
 * Spine2, as CMU's from Spine1); the first thumb joint is CMU's thumb, the other finger joints keep
 * their names and follow the hand (docs/mannequin.md: a joint naming no side belongs to its
 * parent's part). */
static const scheme_name mixamo[] = {
	{"Hips", "Hips"},
	{"Spine", "LowerBack"},
	{"Spine1", "Spine"},
	{"Spine2", "Spine1"},
	{"Neck", "Neck"},
	{"Head", "Head"},
	{"LeftShoulder", "LeftShoulder"},
	{"LeftArm", "LeftArm"},
	{"LeftForeArm", "LeftForeArm"},
	{"LeftHand", "LeftHand"},
	{"LeftHandIndex1", "LeftHandIndex1"},
	{"LeftHandThumb1", "LThumb"},
	{"LeftUpLeg", "LeftUpLeg"},
	{"LeftLeg", "LeftLeg"},
	{"LeftFoot", "LeftFoot"},
	{"LeftToeBase", "LeftToeBase"},
	{"RightShoulder", "RightShoulder"},
	{"RightArm", "RightArm"},
	{"RightForeArm", "RightForeArm"},
	{"RightHand", "RightHand"},
	{"RightHandIndex1", "RightHandIndex1"},
	{"RightHandThumb1", "RThumb"},
	{"RightUpLeg", "RightUpLeg"},
	{"RightLeg", "RightLeg"},
	{"RightFoot", "RightFoot"},
	{"RightToeBase", "RightToeBase"},
	{NULL, NULL},
};

/* The joints a scheme must have to be recognised: those the mannequin hangs its body on. */
static const char* const needed[] = {"Hips",     "Spine1",      "Head",     "LeftUpLeg", "LeftLeg",
				     "LeftFoot", "LeftArm",     "LeftForeArm", "LeftHand", "RightUpLeg",
				     "RightLeg", "RightFoot",   "RightArm", "RightForeArm", "RightHand"};

static const char* without_namespace(const char* name)
{
	const char* colon = strrchr(name, ':');
	return colon ? colon + 1 : name;
}

/* scheme == NULL: CMU, drape's own names. */
static const char* scheme_drape_name(const scheme_name* scheme, const char* file_name)
{
	const char* n = without_namespace(file_name);
	if (!scheme) {
		for (int32_t k = 0; k < character_drape_joint_count; ++k)
			if (strcmp(character_drape_joint_names[k], n) == 0) return character_drape_joint_names[k];
		return NULL;
	}
	for (const scheme_name* e = scheme; e->file; ++e)
		if (strcmp(e->file, n) == 0) return e->drape;
	return NULL;
}

/* How many of the names the scheme knows; -1 when a needed joint is missing. */
static int32_t scheme_score(const scheme_name* scheme, const char* const* names, int32_t count)
{
	int32_t score = 0;
	bool have[sizeof needed / sizeof needed[0]] = {false};
	for (int32_t i = 0; i < count; ++i) {
		const char* d = scheme_drape_name(scheme, names[i]);
		if (!d) continue;
		++score;
		for (size_t k = 0; k < sizeof needed / sizeof needed[0]; ++k)
			if (strcmp(needed[k], d) == 0) have[k] = true;
	}
	for (size_t k = 0; k < sizeof needed / sizeof needed[0]; ++k)
		if (!have[k]) return -1;
	return score;
}

const char* character_detect_map(const char* const* names, int32_t count, const char** renamed)
{
	static const char* const scheme_names[] = {"CMU", "Biovision", "Mixamo"};
	const scheme_name* schemes[] = {NULL, biovision, mixamo};
	int best = -1;
	int32_t best_score = -1;
	/* The scheme that knows the most names wins (a Mixamo skeleton has CMU's Spine1 and LeftArm
	 * too, but also Spine2 and the thumbs); CMU on a tie. */
	for (int s = 0; s < 3; ++s) {
		int32_t score = scheme_score(schemes[s], names, count);
		if (score > best_score) best = s, best_score = score;
	}
	for (int32_t i = 0; i < count; ++i) renamed[i] = best >= 0 ? scheme_drape_name(schemes[best], names[i]) : NULL;
	return best >= 0 ? scheme_names[best] : NULL;
}

static int32_t drape_name_index(const char* name)
{
	for (int32_t k = 0; k < character_drape_joint_count; ++k)
		if (strcmp(character_drape_joint_names[k], name) == 0) return k;
	return -1;
}

static bool map_fail(character_error_at* at, character_input what, int32_t index, char* err, size_t err_size,
		     const char* msg)
{
	if (at) at->what = what, at->index = index;
	return core_fail(err, err_size, "%s", msg);
}

/* The scene's joint_map: drape name -> the file's joint, every name drape's and every joint the
 * file's, each at most once. */
static bool user_map(const drape_character* c, const drape_character_def* d, const char* const* file_names,
		     const char** renamed, character_error_at* at, char* err, size_t err_size)
{
	char msg[512];
	for (int32_t k = 0; k < d->joint_map_count; ++k) {
		const drape_joint_name* e = &d->joint_map[k];
		if (!e->name || drape_name_index(e->name) < 0) {
			const char* near = e->name ? drape_closest_name(e->name, character_drape_joint_names,
									character_drape_joint_count)
						   : NULL;
			if (near)
				snprintf(msg, sizeof msg, "drape has no joint named '%s' (did you mean '%s'?)",
					 e->name ? e->name : "", near);
			else
				snprintf(msg, sizeof msg,
					 "drape has no joint named '%s' (its names are CMU's: Hips, Spine, Spine1, "
					 "Neck, Head, LeftShoulder, LeftArm, LeftForeArm, LeftHand, LeftUpLeg, LeftLeg, "
					 "LeftFoot, LeftToeBase, Right...)",
					 e->name ? e->name : "");
			return map_fail(at, CHARACTER_INPUT_MAP_NAME, k, err, err_size, msg);
		}
		for (int32_t m = 0; m < k; ++m)
			if (strcmp(d->joint_map[m].name, e->name) == 0) {
				snprintf(msg, sizeof msg, "%s is mapped twice", e->name);
				return map_fail(at, CHARACTER_INPUT_MAP_NAME, k, err, err_size, msg);
			}
		int32_t j = -1;
		for (int32_t i = 0; e->file_joint && i < c->joint_count && j < 0; ++i)
			if (strcmp(file_names[i], e->file_joint) == 0) j = i;
		if (j < 0) {
			const char* near = e->file_joint ? drape_closest_name(e->file_joint, file_names, c->joint_count) : NULL;
			int n = snprintf(msg, sizeof msg, "the file has no joint named '%s'", e->file_joint ? e->file_joint : "");
			if (near && n > 0) snprintf(msg + n, sizeof msg - (size_t)n, " (did you mean '%s'?)", near);
			return map_fail(at, CHARACTER_INPUT_MAP_JOINT, k, err, err_size, msg);
		}
		if (renamed[j]) {
			snprintf(msg, sizeof msg, "the file's joint '%s' is named twice (as %s and as %s)",
				 e->file_joint, renamed[j], e->name);
			return map_fail(at, CHARACTER_INPUT_MAP_JOINT, k, err, err_size, msg);
		}
		renamed[j] = e->name;
	}
	return true;
}

bool character_map_joints(drape_character* c, const drape_character_def* d, character_error_at* at, char* err,
			  size_t err_size)
{
	int32_t n = c->joint_count;
	const char** file_names = malloc((size_t)(n > 0 ? n : 1) * sizeof *file_names);
	const char** renamed = calloc((size_t)(n > 0 ? n : 1), sizeof *renamed);
	bool ok = file_names && renamed;
	if (!ok) core_fail(err, err_size, "out of memory");
	for (int32_t i = 0; ok && i < n; ++i) file_names[i] = c->joints[i].file_name;
	if (ok && d->joint_map_count > 0) ok = user_map(c, d, file_names, renamed, at, err, err_size);
	else if (ok) character_detect_map(file_names, n, renamed);
	/* A joint the map leaves alone keeps its name, which must not be one the map gave another. */
	for (int32_t i = 0; ok && i < n; ++i) {
		if (!renamed[i]) continue;
		for (int32_t k = 0; k < n && ok; ++k) {
			const char* other = renamed[k] ? renamed[k] : file_names[k];
			if (k == i || strcmp(other, renamed[i]) != 0) continue;
			char msg[512];
			snprintf(msg, sizeof msg,
				 "'%s' becomes %s, but the file's joint '%s' is also called %s; map that one too",
				 file_names[i], renamed[i], file_names[k], other);
			int32_t entry = 0;
			for (int32_t m = 0; m < d->joint_map_count; ++m)
				if (d->joint_map[m].name && strcmp(d->joint_map[m].name, renamed[i]) == 0) entry = m;
			ok = map_fail(at, d->joint_map_count > 0 ? CHARACTER_INPUT_MAP_NAME : CHARACTER_INPUT_FILE, entry, err,
				      err_size, msg);
		}
	}
	for (int32_t i = 0; ok && i < n; ++i) {
		if (!renamed[i] || strcmp(renamed[i], c->joints[i].name) == 0) continue;
		char* s = strdup(renamed[i]);
		if (!s) {
			ok = core_fail(err, err_size, "out of memory");
			break;
		}
		free(c->joints[i].name);
		c->joints[i].name = s;
	}
	free(file_names);
	free(renamed);
	return ok;
}

int32_t character_find_joint(const drape_character* c, const char* name)
{
	for (int32_t i = 0; i < c->joint_count; ++i)
		if (strcmp(c->joints[i].name, name) == 0) return i;
	for (int32_t i = 0; i < c->joint_count; ++i)
		if (c->joints[i].file_name && strcmp(c->joints[i].file_name, name) == 0) return i;
	return -1;
}
