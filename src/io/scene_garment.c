/* Garments in scene files (docs/scene-format.md "Garments", docs/garments.md): a cloth's
 * "garment" holds its panels and seams (or names a JSON pattern file beside the scene that does)
 * and the sewing settings; the garment is meshed and placed here (garment/garment.c) and its
 * seams become scene_seam entries that scene_build_world hands to drape_seam_add. */
#include "scene_internal.h"

#include "character/character.h"
#include "collide/solid.h"
#include "core.h"
#include "garment/garment.h"
#include "world_data.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool read_text(const json_ctx* c, const jnode* at, const char* path, char** out)
{
	FILE* f = fopen(path, "rb");
	if (!f) return json_fail(c, at, "cannot open pattern file '%s': %s", path, strerror(errno));
	size_t size = 0, cap = 4096;
	char* text = malloc(cap);
	while (text) {
		if (size + 1 >= cap) {
			char* grown = realloc(text, cap * 2);
			if (!grown) {
				free(text);
				text = NULL;
				break;
			}
			text = grown, cap *= 2;
		}
		size_t got = fread(text + size, 1, cap - size - 1, f);
		size += got;
		if (got == 0) break;
	}
	fclose(f);
	if (!text) return scene_out_of_memory(c);
	text[size] = '\0';
	*out = text;
	return true;
}

static bool load_point(const json_ctx* c, const jnode* n, pattern_point* p)
{
	static const char* const keys[] = {"at", "corner", "quad", "cubic", "arc", NULL};
	if (!json_check_object(c, n, keys)) return false;
	memset(p, 0, sizeof *p);
	const cJSON* at = json_get(n, "at");
	if (!at) return json_fail(c, n, "missing required key 'at' ([x, y] in metres)");
	jnode an = json_node(n, at);
	if (!json_vector(c, &an, 2, p->at)) return false;
	const cJSON* corner = json_get(n, "corner");
	if (corner) {
		jnode cn = json_node(n, corner);
		if (!json_string(c, &cn, &p->corner)) return false;
	}
	const cJSON* quad = json_get(n, "quad");
	const cJSON* cubic = json_get(n, "cubic");
	const cJSON* arc = json_get(n, "arc");
	if ((quad != NULL) + (cubic != NULL) + (arc != NULL) > 1)
		return json_fail(c, n, "an outline point continues by at most one of 'quad', 'cubic', 'arc'");
	if (quad) {
		jnode qn = json_node(n, quad);
		p->curve = CURVE_QUAD;
		if (!json_vector(c, &qn, 2, p->ctrl)) return false;
	} else if (cubic) {
		jnode cn = json_node(n, cubic);
		int count;
		if (!json_array(c, &cn, &count)) return false;
		if (count != 2) return json_fail(c, &cn, "expected two control points [[x, y], [x, y]], got %d", count);
		int k = 0;
		for (const cJSON* e = cubic->child; e; e = e->next, ++k) {
			jnode en = json_node(&cn, e);
			if (!json_vector(c, &en, 2, &p->ctrl[2 * k])) return false;
		}
		p->curve = CURVE_CUBIC;
	} else if (arc) {
		jnode an2 = json_node(n, arc);
		p->curve = CURVE_ARC;
		if (!json_number(c, &an2, &p->bulge)) return false;
	}
	return true;
}

static const char* const side_names[] = {"front", "left", "back", "right", NULL};

/* The character solid a panel's around.bone is on: around.character names it, else the scene's only
 * one (solids load before cloths, scene.c). */
static bool find_character(const json_ctx* c, const jnode* n, const loader* L, const drape_character** out)
{
	const cJSON* named = json_get(n, "character");
	const char* name = NULL;
	jnode cn = json_node(n, named);
	if (named && !json_string(c, &cn, &name)) return false;
	/* the scene's solids, then (for a scene entry) the world's */
	const int32_t own = L->s->solid_count, total = own + (L->world ? L->world->model.solid_count : 0);
	int32_t found = 0, name_count = 0;
	const char* names[64];
	for (int32_t i = 0; i < total; ++i) {
		const drape_character* ch = i < own ? L->s->solids[i].character : L->world->model.solids[i - own].character;
		const char* sname = i < own ? L->s->solids[i].name : L->world->model.solids[i - own].name;
		if (!ch || !sname) continue;
		if (name_count < 64) names[name_count++] = sname;
		if (name && strcmp(sname, name) != 0) continue;
		if (found++ == 0) *out = ch;
	}
	if (name && found == 0) {
		const char* near = drape_closest_name(name, names, name_count);
		return json_fail(c, &cn, "no character solid named '%s'%s%s%s", name, near ? " (did you mean '" : "",
				 near ? near : "", near ? "'?)" : "");
	}
	if (found == 0)
		return json_fail(c, n, "'bone' places the panel around a bone of a character, and the scene has no "
				       "character solid (\"shape\": \"character\" in solids%s); give 'axis' and 'radius' instead",
				 L->world ? ", or in the world before the garment" : "");
	if (found > 1)
		return json_fail(c, n, "the scene has %d character solids; name the one the panel is on with 'character'",
				 (int)found);
	return true;
}

/* A placement's "bone": one of the character's joints, or a did-you-mean. */
static bool find_bone(const json_ctx* c, const jnode* n, const drape_character* ch, const char** out)
{
	jnode bn = json_node(n, json_get(n, "bone"));
	if (!json_string(c, &bn, out)) return false;
	if (character_find_joint(ch, *out) >= 0) return true;
	const char** names = malloc((size_t)(ch->joint_count > 0 ? ch->joint_count : 1) * sizeof *names);
	if (!names) return scene_out_of_memory(c);
	for (int32_t i = 0; i < ch->joint_count; ++i) names[i] = ch->joints[i].name;
	const char* near = drape_closest_name(*out, names, ch->joint_count);
	bool r = json_fail(c, &bn, "the character has no bone '%s'%s%s%s; bones are its joints, by drape's names or "
				   "the file's (docs/characters.md, \"Joint names\")",
			   *out, near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
	free(names);
	return r;
}

/* around.bone: the axis, front and radii from the character's body (garment_bone.c). */
static bool load_bone(const json_ctx* c, const jnode* n, const loader* L, pattern_panel* p)
{
	static const char* const computed[] = {"axis", "radius", "top_radius", NULL};
	for (int k = 0; computed[k]; ++k)
		if (json_get(n, computed[k]))
			return json_fail(c, n, "'%s' is computed from the bone; with 'bone' give 'clearance' and "
					       "'top_clearance' (m between the body and the panel) instead",
					 computed[k]);
	if (!p->points)
		return json_fail(c, n, "'bone' places panels with an outline; a garment mesh's charts take 'axis' and "
				       "'radius'");
	const drape_character* ch = NULL;
	const char* bone = NULL;
	if (!find_character(c, n, L, &ch) || !find_bone(c, n, ch, &bone)) return false;
	bone_fit fit = {BONE_CLEARANCE, -1.0, json_get(n, "front") != NULL, false, BONE_UP, 0.0};
	if (!json_opt_nonnegative(c, n, "clearance", &fit.clearance) ||
	    !json_opt_nonnegative(c, n, "top_clearance", &fit.top_clearance) || !json_opt_number(c, n, "forward", &fit.forward))
		return false;
	const cJSON* vertical = json_get(n, "vertical");
	jnode vn = json_node(n, vertical);
	if (vertical && !json_bool(c, &vn, &fit.vertical)) return false;
	const cJSON* direction = json_get(n, "direction");
	if (direction) {
		static const char* const directions[] = {"up", "head_to_tail", "tail_to_head", NULL};
		jnode dn = json_node(n, direction);
		const char* str;
		if (!json_string(c, &dn, &str)) return false;
		int which = -1;
		for (int i = 0; directions[i]; ++i)
			if (strcmp(directions[i], str) == 0) which = i;
		if (which < 0) return json_fail(c, &dn, "unknown direction '%s' (up, head_to_tail, tail_to_head)", str);
		fit.direction = (bone_direction)which;
		if (fit.vertical && fit.direction != BONE_UP)
			return json_fail(c, &dn, "a 'vertical' axis points up; 'direction' turns a bone's own axis");
	}
	if (fit.top_clearance < 0.0) fit.top_clearance = fit.clearance;
	char msg[512];
	if (!garment_place_on_bone(p, ch, bone, &fit, msg, sizeof msg)) {
		scene_note_failure(c, DRAPE_ERROR_INVALID, msg);
		return json_fail(c, n, "%s", msg);
	}
	return true;
}

/* A "side" key: front, left, back, right as degrees counter-clockwise about the up axis. */
static bool load_side_angle(const json_ctx* c, const jnode* n, double* degrees)
{
	const cJSON* side = json_get(n, "side");
	if (!side) return true;
	jnode sn = json_node(n, side);
	const char* str;
	if (!json_string(c, &sn, &str)) return false;
	for (int i = 0; side_names[i]; ++i)
		if (strcmp(side_names[i], str) == 0) {
			*degrees = 90.0 * i;
			return true;
		}
	return json_fail(c, &sn, "unknown side '%s' (front, left, back, right)", str);
}

/* "flat": the panel in a plane, e.g. front and back panels either side of a body that seams
 * then pull together (docs/garments.md, "Placing"), given in metres or placed on a bone. */
static bool load_flat(const json_ctx* c, const jnode* n, const loader* L, pattern_panel* p)
{
	static const char* const keys[] = {"center", "normal", "up",	    "bone",  "side",
					   "offset", "clearance", "character", "front", NULL};
	if (!json_check_object(c, n, keys)) return false;
	if (json_get(n, "bone")) {
		static const char* const given[] = {"center", "normal", "up", NULL};
		for (int k = 0; given[k]; ++k)
			if (json_get(n, given[k]))
				return json_fail(c, n, "'%s' is computed from the bone; with 'bone' give 'side', 'offset' and "
						       "'clearance' instead",
						 given[k]);
		const drape_character* ch = NULL;
		const char* bone = NULL;
		if (!find_character(c, n, L, &ch) || !find_bone(c, n, ch, &bone)) return false;
		bone_fit fit = {BONE_CLEARANCE, -1.0, json_get(n, "front") != NULL, false, BONE_UP, 0.0};
		double angle = 0.0;
		if (!json_opt_nonnegative(c, n, "clearance", &fit.clearance) || !json_opt_number(c, n, "offset", &p->offset) ||
		    !json_opt_vector(c, n, "front", 3, p->front) || !load_side_angle(c, n, &angle))
			return false;
		char msg[512];
		if (!garment_place_flat_on_bone(p, ch, bone, &fit, angle * 3.14159265358979323846 / 180.0, msg, sizeof msg)) {
			scene_note_failure(c, DRAPE_ERROR_INVALID, msg);
			return json_fail(c, n, "%s", msg);
		}
		return true;
	}
	static const char* const bone_only[] = {"side", "offset", "clearance", "character", "front", NULL};
	for (int k = 0; bone_only[k]; ++k)
		if (json_get(n, bone_only[k])) return json_fail(c, n, "'%s' belongs to a placement on a 'bone'", bone_only[k]);
	if (!json_get(n, "center")) return json_fail(c, n, "missing required key 'center' ([x, y, z]) or 'bone'");
	if (!json_get(n, "normal")) return json_fail(c, n, "missing required key 'normal' ([x, y, z], the side the panel faces)");
	p->flat = true;
	p->plane_up[0] = 0.0, p->plane_up[1] = 0.0, p->plane_up[2] = 1.0;
	return json_opt_vector(c, n, "center", 3, p->plane_center) && json_opt_vector(c, n, "normal", 3, p->plane_normal) &&
	       json_opt_vector(c, n, "up", 3, p->plane_up);
}

static bool load_around(const json_ctx* c, const jnode* pn, const loader* L, pattern_panel* p)
{
	const cJSON* item = json_get(pn, "around");
	const cJSON* flat = json_get(pn, "flat");
	if (item && flat) return json_fail(c, pn, "give either 'around' or 'flat', not both");
	if (flat) {
		jnode fn = json_node(pn, flat);
		return load_flat(c, &fn, L, p);
	}
	if (!item)
		return json_fail(c, pn, "missing required key 'around' or 'flat' (where the panel goes: an axis and radius, "
					"a bone, or a plane)");
	jnode n = json_node(pn, item);
	static const char* const keys[] = {"axis",	    "bone",	     "radius",	  "top_radius", "side",
					   "angle",	    "offset",	     "front",	  "character",	"clearance",
					   "top_clearance", "vertical", "direction", "forward", NULL};
	if (!json_check_object(c, &n, keys)) return false;
	const cJSON* bone = json_get(&n, "bone");
	if (!bone) {
		static const char* const bone_only[] = {"character", "clearance", "top_clearance", "vertical", "direction",
							"forward",   NULL};
		for (int k = 0; bone_only[k]; ++k)
			if (json_get(&n, bone_only[k]))
				return json_fail(c, &n, "'%s' belongs to a placement on a 'bone'", bone_only[k]);
		const cJSON* axis = json_get(&n, "axis");
		if (!axis) return json_fail(c, &n, "missing required key 'axis' ([[x, y, z], [x, y, z]]) or 'bone'");
		jnode xn = json_node(&n, axis);
		int count;
		if (!json_array(c, &xn, &count)) return false;
		if (count != 2) return json_fail(c, &xn, "expected two points [[x, y, z], [x, y, z]], got %d", count);
		int k = 0;
		for (const cJSON* e = axis->child; e; e = e->next, ++k) {
			jnode en = json_node(&xn, e);
			if (!json_vector(c, &en, 3, p->axis[k])) return false;
		}
		if (!json_get(&n, "radius")) return json_fail(c, &n, "missing required key 'radius' (m)");
	}
	p->front[0] = 0.0, p->front[1] = -1.0, p->front[2] = 0.0;
	double angle = 0.0;
	if (!json_opt_positive(c, &n, "radius", &p->radius) || !json_opt_positive(c, &n, "top_radius", &p->top_radius) ||
	    !json_opt_number(c, &n, "angle", &angle) ||
	    !json_opt_number(c, &n, "offset", &p->offset) || !json_opt_vector(c, &n, "front", 3, p->front))
		return false;
	if (json_get(&n, "side") && json_get(&n, "angle")) return json_fail(c, &n, "give either 'side' or 'angle', not both");
	if (!load_side_angle(c, &n, &angle)) return false;
	p->angle = angle * 3.14159265358979323846 / 180.0;
	return !bone || load_bone(c, &n, L, p);
}

static bool load_regions(const json_ctx* c, const jnode* pn, stretch_region** out, int32_t* count_out)
{
	const cJSON* item = json_get(pn, "stretch_regions");
	if (!item) return true;
	jnode rn = json_node(pn, item);
	int count;
	if (!json_array(c, &rn, &count)) return false;
	stretch_region* r = calloc((size_t)(count > 0 ? count : 1), sizeof *r);
	if (!r) return scene_out_of_memory(c);
	*out = r;
	*count_out = count;
	int k = 0;
	for (const cJSON* e = item->child; e; e = e->next, ++k) {
		jnode n = json_node(&rn, e);
		if (!scene_load_stretch_region(c, &n, &r[k])) return false;
	}
	return true;
}

static bool load_side(const json_ctx* c, const jnode* sn, const char* key, pattern_seam_side* side)
{
	const cJSON* item = json_get(sn, key);
	if (!item) return json_fail(c, sn, "missing required key '%s' ({\"panel\", \"from\", \"to\"})", key);
	jnode n = json_node(sn, item);
	static const char* const keys[] = {"panel", "from", "to", "direction", NULL};
	if (!json_check_object(c, &n, keys)) return false;
	const char* names[3] = {"panel", "from", "to"};
	const char** dst[3] = {&side->panel, &side->from, &side->to};
	for (int k = 0; k < 3; ++k) {
		const cJSON* v = json_get(&n, names[k]);
		if (!v) return json_fail(c, &n, "missing required key '%s'", names[k]);
		jnode vn = json_node(&n, v);
		if (!json_string(c, &vn, dst[k])) return false;
	}
	const cJSON* dir = json_get(&n, "direction");
	if (dir) {
		jnode dn = json_node(&n, dir);
		const char* s;
		if (!json_string(c, &dn, &s)) return false;
		if (strcmp(s, "backward") == 0) side->backward = true;
		else if (strcmp(s, "forward") != 0) return json_fail(c, &dn, "unknown direction '%s' (forward, backward)", s);
	}
	return true;
}

/* An outline given as JSON points into *points (malloc'd) and p's points. */
static bool load_outline(const json_ctx* c, const jnode* on, pattern_panel* p, pattern_point** points)
{
	int pc;
	if (!json_array(c, on, &pc)) return false;
	if (pc < 2) return json_fail(c, on, "panel '%s': an outline needs at least 3 points (2 with a curve), got %d", p->name, pc);
	*points = calloc((size_t)pc, sizeof(pattern_point));
	if (!*points) return scene_out_of_memory(c);
	int k = 0;
	for (const cJSON* q = on->item->child; q; q = q->next, ++k) {
		jnode qn = json_node(on, q);
		if (!load_point(c, &qn, &(*points)[k])) return false;
	}
	p->points = *points;
	p->point_count = pc;
	return true;
}

/* Panels and seams from `n` (the garment object or a pattern file's root) into def's arrays. */
static bool load_pattern(const json_ctx* c, const jnode* n, const loader* L, garment_def* def, pattern_panel** panels, pattern_point*** points,
			 stretch_region*** regions, pattern_seam** seams)
{
	const cJSON* pl = json_get(n, "panels");
	if (!pl) return json_fail(c, n, "missing required key 'panels'");
	jnode pln = json_node(n, pl);
	int count;
	if (!json_array(c, &pln, &count)) return false;
	if (count == 0) return json_fail(c, &pln, "must list at least one panel");
	*panels = calloc((size_t)count, sizeof **panels);
	*points = calloc((size_t)count, sizeof **points);
	*regions = calloc((size_t)count, sizeof **regions);
	if (!*panels || !*points || !*regions) return scene_out_of_memory(c);
	def->panels = *panels;
	def->panel_count = count;
	static const char* const keys[] = {"name", "outline", "grain", "around", "flat", "stretch_regions", NULL};
	int i = 0;
	for (const cJSON* e = pl->child; e; e = e->next, ++i) {
		pattern_panel* p = &(*panels)[i];
		jnode pn = json_node(&pln, e);
		if (!json_check_object(c, &pn, keys)) return false;
		const cJSON* name = json_get(&pn, "name");
		if (!name) return json_fail(c, &pn, "missing required key 'name'");
		jnode nn = json_node(&pn, name);
		if (!json_string(c, &nn, &p->name)) return false;
		const cJSON* ol = json_get(&pn, "outline");
		if (!ol) return json_fail(c, &pn, "missing required key 'outline'");
		jnode on = json_node(&pn, ol);
		p->grain[0] = 1.0, p->grain[1] = 0.0;
		const bool dxf = cJSON_IsObject(ol) && json_get(&on, "dxf");
		if (!(dxf ? scene_load_dxf_outline(c, &on, p, &(*points)[i])
			  : cJSON_IsObject(ol) ? scene_load_svg_outline(c, &on, p, &(*points)[i]) : load_outline(c, &on, p, &(*points)[i])))
			return false;
		if (!json_opt_vector(c, &pn, "grain", 2, p->grain) || !load_around(c, &pn, L, p)) return false;
		if (!(hypot(p->grain[0], p->grain[1]) > 0.0))
			return json_fail(c, &pn, "panel '%s': the grain line has zero length", p->name);
		stretch_region* r = NULL;
		int32_t rc = 0;
		bool ok = load_regions(c, &pn, &r, &rc);
		(*regions)[i] = r;
		p->regions = r;
		p->region_count = rc;
		if (!ok) return false;
	}
	const cJSON* sl = json_get(n, "seams");
	if (!sl) return true;
	jnode sln = json_node(n, sl);
	if (!json_array(c, &sln, &count)) return false;
	*seams = calloc((size_t)(count > 0 ? count : 1), sizeof **seams);
	if (!*seams) return scene_out_of_memory(c);
	def->seams = *seams;
	def->seam_count = count;
	static const char* const skeys[] = {"name", "a", "b", "ease", NULL};
	i = 0;
	for (const cJSON* e = sl->child; e; e = e->next, ++i) {
		pattern_seam* s = &(*seams)[i];
		jnode sn = json_node(&sln, e);
		if (!json_check_object(c, &sn, skeys)) return false;
		const cJSON* name = json_get(&sn, "name");
		if (!name) return json_fail(c, &sn, "missing required key 'name'");
		jnode nn = json_node(&sn, name);
		if (!json_string(c, &nn, &s->name) || !load_side(c, &sn, "a", &s->side[0]) || !load_side(c, &sn, "b", &s->side[1]) ||
		    !json_opt_nonnegative(c, &sn, "ease", &s->ease))
			return false;
		for (int j = 0; j < i; ++j)
			if (strcmp((*seams)[j].name, s->name) == 0)
				return json_fail(c, &nn, "duplicate seam name '%s'", s->name);
	}
	return true;
}

static bool load_sewing(const json_ctx* c, const jnode* gn, scene* s, scene_seam* proto)
{
	drape_seam_def d = drape_default_seam_def();
	proto->stiffness = d.stiffness;
	proto->damping = d.damping;
	/* The two sides of an open seam are not contacts (cloth_pairs.sewn), so they close fully
	 * whether cloth contact is on or not (docs/garments.md). */
	proto->tolerance = d.tolerance;
	proto->max_speed = d.max_speed;
	proto->free_gap = d.free_gap;
	const cJSON* item = json_get(gn, "sewing");
	if (!item) return true;
	jnode n = json_node(gn, item);
	static const char* const keys[] = {"stiffness",	  "damping", "tolerance", "max_speed", "free_gap", "time_limit",
					   "relax_energy", "gravity", "regions",   NULL};
	if (!(json_check_object(c, &n, keys) && json_opt_positive(c, &n, "stiffness", &proto->stiffness) &&
	      json_opt_nonnegative(c, &n, "damping", &proto->damping) && json_opt_positive(c, &n, "tolerance", &proto->tolerance) &&
	      json_opt_positive(c, &n, "max_speed", &proto->max_speed) && json_opt_positive(c, &n, "free_gap", &proto->free_gap) &&
	      json_opt_positive(c, &n, "time_limit", &s->sew_time_limit) &&
	      json_opt_positive(c, &n, "relax_energy", &s->relax_energy) && json_opt_nonnegative(c, &n, "gravity", &s->sew_gravity)))
		return false;
	const cJSON* regions = json_get(&n, "regions");
	if (regions) {
		jnode rn = json_node(&n, regions);
		const char* when;
		if (!json_string(c, &rn, &when)) return false;
		if (strcmp(when, "after_sewing") == 0) s->sew_regions_after = true;
		else if (strcmp(when, "start") == 0) s->sew_regions_after = false;
		else return json_fail(c, &rn, "unknown value '%s' (start, after_sewing)", when);
	}
	return true;
}

/* Moves g's mesh, b_u/b_v and seams into the scene (seam names from `names` or g). */
static bool take_garment(const json_ctx* c, scene* s, int32_t index, garment* g, const pattern_seam* named,
			 const scene_seam* proto)
{
	scene_cloth* cloth = &s->cloths[index];
	cloth->mesh = g->mesh;
	memset(&g->mesh, 0, sizeof g->mesh);
	cloth->stretch_scale = g->stretch_scale;
	g->stretch_scale = NULL;
	scene_seam* grown = realloc(s->seams, (size_t)(s->seam_count + g->seam_count + 1) * sizeof *grown);
	if (!grown) return scene_out_of_memory(c);
	s->seams = grown;
	for (int32_t k = 0; k < g->seam_count; ++k) {
		scene_seam* sm = &s->seams[s->seam_count];
		*sm = *proto;
		sm->cloth = index;
		sm->name = scene_copy_string(named ? named[k].name : g->seam_names[k]);
		sm->pairs = g->seam_pairs[k];
		sm->pair_count = g->seam_pair_count[k];
		g->seam_pairs[k] = NULL;
		s->seam_count++;
		if (!sm->name) return scene_out_of_memory(c);
	}
	return true;
}

/* "mesh": a garment OBJ whose uv is its pattern; "panels" place its uv charts. */
static bool load_garment_mesh(loader* L, const jnode* n, int32_t index, const scene_seam* proto)
{
	const json_ctx* c = &L->c;
	scene* s = L->s;
	const cJSON* mesh = json_get(n, "mesh");
	jnode mn = json_node(n, mesh);
	static const char* const mkeys[] = {"file", "uv_scale", NULL};
	if (!json_check_object(c, &mn, mkeys)) return false;
	if (json_get(n, "seams") || json_get(n, "pattern"))
		return json_fail(c, &mn, "a garment 'mesh' brings its own seams (vertices with several uv); no 'seams' or 'pattern'");
	const cJSON* f = json_get(&mn, "file");
	if (!f) return json_fail(c, &mn, "missing required key 'file'");
	jnode fn = json_node(&mn, f);
	const char* file;
	double uv_scale = 1.0;
	if (!json_string(c, &fn, &file) || !json_opt_positive(c, &mn, "uv_scale", &uv_scale)) return false;
	const cJSON* pl = json_get(n, "panels");
	if (!pl) return json_fail(c, n, "missing required key 'panels' (one {\"name\", \"around\"} per uv chart)");
	jnode pln = json_node(n, pl);
	int count;
	if (!json_array(c, &pln, &count)) return false;
	pattern_panel* panels = calloc((size_t)(count > 0 ? count : 1), sizeof *panels);
	if (!panels) return scene_out_of_memory(c);
	static const char* const pkeys[] = {"name", "around", "flat", NULL};
	int i = 0;
	bool ok = true;
	for (const cJSON* e = pl->child; ok && e; e = e->next, ++i) {
		jnode pn = json_node(&pln, e);
		const cJSON* name = json_get(&pn, "name");
		jnode nn = json_node(&pn, name);
		ok = json_check_object(c, &pn, pkeys) && (name ? json_string(c, &nn, &panels[i].name) : json_fail(c, &pn, "missing required key 'name'")) &&
		     load_around(c, &pn, L, &panels[i]);
		panels[i].grain[0] = 1.0;
	}
	char* path = ok ? scene_file_path(c->file, file) : NULL;
	drape_mesh m;
	memset(&m, 0, sizeof m);
	char msg[512];
	if (ok && !path) ok = scene_out_of_memory(c);
	drape_status st = ok ? drape_mesh_load_obj(path, uv_scale, &m, msg, sizeof msg) : DRAPE_OK;
	if (st != DRAPE_OK) {
		scene_note_failure(c, st, msg);
		char where[256];
		json_path(&fn, where, sizeof where);
		snprintf(c->err, c->err_size, "%s (%s of %s)", msg, where, c->file);
		ok = false;
	}
	garment g;
	memset(&g, 0, sizeof g);
	if (ok && !garment_from_mesh(&m, panels, count, &g, msg, sizeof msg)) {
		scene_note_failure(c, DRAPE_ERROR_INVALID, msg);
		char where[256];
		json_path(&mn, where, sizeof where);
		snprintf(c->err, c->err_size, "%s: %s: cloth '%s': %s: %s", c->file, where, s->cloths[index].name, path, msg);
		ok = false;
	}
	ok = ok && take_garment(c, s, index, &g, NULL, proto);
	garment_free(&g);
	drape_mesh_free(&m);
	free(path);
	free(panels);
	return ok;
}

bool scene_load_garment(loader* L, const jnode* n, int32_t index)
{
	const json_ctx* c = &L->c;
	scene* s = L->s;
	scene_cloth* cloth = &s->cloths[index];
	static const char* const keys[] = {"triangle_size", "panels", "seams", "pattern", "sewing", "mesh", NULL};
	if (!json_check_object(c, n, keys)) return false;
	scene_seam proto = {0};
	if (!load_sewing(c, n, s, &proto)) return false;
	if (json_get(n, "mesh")) return load_garment_mesh(L, n, index, &proto);
	const cJSON* ts = json_get(n, "triangle_size");
	if (!ts) return json_fail(c, n, "missing required key 'triangle_size' (m)");
	garment_def def = {0};
	if (!json_opt_positive(c, n, "triangle_size", &def.triangle_size)) return false;

	pattern_panel* panels = NULL;
	pattern_point** points = NULL;
	stretch_region** regions = NULL;
	pattern_seam* seams = NULL;
	cJSON* file_root = NULL;
	char* file_text = NULL;
	char* file_path = NULL;
	json_ctx fc = *c;
	const cJSON* pattern = json_get(n, "pattern");
	bool ok;
	if (pattern) {
		jnode pn = json_node(n, pattern);
		const char* file;
		if (json_get(n, "panels") || json_get(n, "seams"))
			return json_fail(c, &pn, "give either 'pattern' (a file) or 'panels' and 'seams', not both");
		if (!json_string(c, &pn, &file)) return false;
		file_path = scene_file_path(c->file, file);
		if (!file_path) return scene_out_of_memory(c);
		ok = read_text(c, &pn, file_path, &file_text);
		if (ok) {
			fc.text = file_text;
			fc.file = file_path;
			file_root = json_parse(&fc);
			ok = file_root != NULL;
		}
		if (ok) {
			jnode rn = json_node(NULL, file_root);
			static const char* const fkeys[] = {"panels", "seams", NULL};
			ok = json_check_object(&fc, &rn, fkeys) && load_pattern(&fc, &rn, L, &def, &panels, &points, &regions, &seams);
		}
	} else {
		ok = load_pattern(c, n, L, &def, &panels, &points, &regions, &seams);
	}
	garment g;
	memset(&g, 0, sizeof g);
	if (ok) {
		char msg[512];
		ok = garment_build(&def, &g, msg, sizeof msg);
		if (!ok) {
			scene_note_failure(c, DRAPE_ERROR_INVALID, msg);
			char where[256];
			json_path(n, where, sizeof where);
			snprintf(c->err, c->err_size, "%s: %s: cloth '%s': %s", pattern ? file_path : c->file, where, cloth->name, msg);
		}
	}
	ok = ok && take_garment(c, s, index, &g, def.seams, &proto);
	garment_free(&g);
	for (int32_t i = 0; points && i < def.panel_count; ++i) free(points[i]);
	for (int32_t i = 0; regions && i < def.panel_count; ++i) free(regions[i]);
	free(points);
	free(regions);
	free(panels);
	free(seams);
	cJSON_Delete(file_root);
	free(file_text);
	free(file_path);
	return ok;
}
