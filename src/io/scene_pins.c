/* Pins in scene files: select particles (grid corners and edges, vertex indices) and expand each
 * into one constraint of paper sec. 5.1: point, line or plane, fixed, moving at constant velocity
 * or keyframed, active over an interval of time. */
#include "scene_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char* const corner_names[] = {"bottom_left", "bottom_right", "top_left", "top_right", NULL};
static const char* const edge_names[] = {"left", "right", "bottom", "top", NULL};
static const char* const kind_names[] = {"point", "line", "plane", NULL};

static int name_index(const char* const* names, const char* s)
{
	for (int k = 0; names[k]; ++k)
		if (strcmp(names[k], s) == 0) return k;
	return -1;
}

static void name_list(const char* const* names, char* buf, size_t size)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int k = 0; names[k] && used + 1 < size; ++k) {
		int n = snprintf(buf + used, size - used, "%s%s", k ? ", " : "", names[k]);
		if (n < 0) break;
		used += (size_t)n;
	}
}

/* The particles of a named grid corner or edge. Grid vertex (i, j) has index j * nu + i, with u
 * growing to the right and v upwards, so "left" is u = 0 and "top" is v = max. */
static bool select_grid(loader* L, const jnode* at, const scene_cloth* cloth, bool corner, int32_t** sel,
			int32_t* count)
{
	const json_ctx* c = &L->c;
	const char* what = corner ? "corner" : "edge";
	if (cloth->grid_resolution[0] == 0)
		return json_fail(
			c, at,
			"named corners and edges exist only on grid cloths, and cloth '%s' is a mesh: use \"vertex\" or \"vertices\"",
			cloth->name);
	const char* s;
	if (!json_string(c, at, &s)) return false;
	const char* const* names = corner ? corner_names : edge_names;
	int which = name_index(names, s);
	if (which < 0) {
		char list[96];
		name_list(names, list, sizeof list);
		return json_fail(c, at, "unknown %s '%s' (valid: %s)", what, s, list);
	}
	int32_t nu = cloth->grid_resolution[0], nv = cloth->grid_resolution[1];
	int32_t n = corner ? 1 : (which < 2 ? nv : nu);
	int32_t* v = malloc(sizeof(int32_t) * (size_t)n);
	if (!v) return scene_out_of_memory(c);
	if (corner) {
		int32_t i = (which & 1) ? nu - 1 : 0, j = (which & 2) ? nv - 1 : 0;
		v[0] = j * nu + i;
	} else {
		for (int32_t k = 0; k < n; ++k) {
			switch (which) {
			case 0: v[k] = k * nu; break;             /* left: u = 0 */
			case 1: v[k] = k * nu + nu - 1; break;    /* right: u = max */
			case 2: v[k] = k; break;                  /* bottom: v = 0 */
			default: v[k] = (nv - 1) * nu + k; break; /* top: v = max */
			}
		}
	}
	*sel = v;
	*count = n;
	return true;
}

static bool vertex_index(loader* L, const jnode* at, const scene_cloth* cloth, int32_t* out)
{
	if (!json_integer(&L->c, at, INT32_MIN, INT32_MAX, out)) return false;
	if (*out < 0 || *out >= cloth->mesh.vertex_count)
		return json_fail(&L->c, at, "%d is out of range (cloth '%s' has %d vertices)", (int)*out, cloth->name,
				 (int)cloth->mesh.vertex_count);
	return true;
}

static bool select_vertices(loader* L, const jnode* at, const scene_cloth* cloth, int32_t** sel, int32_t* count)
{
	const json_ctx* c = &L->c;
	int n;
	if (!json_array(c, at, &n)) return false;
	if (n == 0) return json_fail(c, at, "must list at least one vertex");
	int32_t* v = malloc(sizeof(int32_t) * (size_t)n);
	unsigned char* seen = calloc((size_t)cloth->mesh.vertex_count, 1);
	if (!v || !seen) {
		free(v);
		free(seen);
		return scene_out_of_memory(c);
	}
	int32_t k = 0;
	for (const cJSON* e = at->item->child; e; e = e->next, ++k) {
		jnode en = json_node(at, e);
		if (!vertex_index(L, &en, cloth, &v[k])) break;
		if (seen[v[k]]) {
			json_fail(c, &en, "vertex %d is listed twice", (int)v[k]);
			break;
		}
		seen[v[k]] = 1;
	}
	free(seen);
	if (k < n) {
		free(v);
		return false;
	}
	*sel = v;
	*count = n;
	return true;
}

/* Parsed "keyframes": times, and per key either an offset from each particle's start position
 * or (single-particle pins) an absolute position. */
typedef struct key_list {
	int count;
	double* time;
	double* value; /* 3 per key */
	bool* absolute;
} key_list;

static void key_list_free(key_list* k)
{
	free(k->time);
	free(k->value);
	free(k->absolute);
}

static bool load_keys(loader* L, const jnode* at, int32_t particles, key_list* keys)
{
	const json_ctx* c = &L->c;
	int n;
	if (!json_array(c, at, &n)) return false;
	if (n == 0) return json_fail(c, at, "must have at least one key");
	keys->count = n;
	keys->time = malloc(sizeof(double) * (size_t)n);
	keys->value = malloc(sizeof(double) * 3 * (size_t)n);
	keys->absolute = malloc(sizeof(bool) * (size_t)n);
	if (!keys->time || !keys->value || !keys->absolute) return scene_out_of_memory(c);
	static const char* const names[] = {"time", "offset", "position", NULL};
	int k = 0;
	for (const cJSON* e = at->item->child; e; e = e->next, ++k) {
		jnode en = json_node(at, e);
		if (!json_check_object(c, &en, names)) return false;
		const cJSON* t = json_get(&en, "time");
		if (!t) return json_fail(c, &en, "missing required key 'time'");
		jnode tn = json_node(&en, t);
		if (!json_number(c, &tn, &keys->time[k]) || !json_nonnegative(c, &tn, keys->time[k])) return false;
		if (k > 0 && !(keys->time[k] > keys->time[k - 1]))
			return json_fail(c, &tn, "must be greater than the previous key's time (%g), got %g",
					 keys->time[k - 1], keys->time[k]);
		const cJSON* off = json_get(&en, "offset");
		const cJSON* pos = json_get(&en, "position");
		if (off && pos) {
			jnode pn = json_node(&en, pos);
			return json_fail(c, &pn, "a key has either 'offset' or 'position', not both");
		}
		if (!off && !pos)
			return json_fail(c, &en, "missing 'offset' (or 'position' for a single-particle pin)");
		jnode vn = json_node(&en, off ? off : pos);
		if (!json_vector(c, &vn, 3, keys->value + 3 * k)) return false;
		keys->absolute[k] = pos != NULL;
		/* One absolute path for many particles would pull them onto one point. */
		if (pos && particles != 1)
			return json_fail(
				c, &vn,
				"'position' is only allowed when the pin selects one particle (this pin selects %d): use 'offset'",
				(int)particles);
	}
	return true;
}

static bool push_constraint(loader* L, scene_constraint* sc)
{
	scene* s = L->s;
	if (s->constraint_count == L->constraint_cap) {
		int32_t next = L->constraint_cap > 0 ? 2 * L->constraint_cap : 64;
		scene_constraint* grown = realloc(s->constraints, sizeof *grown * (size_t)next);
		if (!grown) return scene_out_of_memory(&L->c);
		s->constraints = grown;
		L->constraint_cap = next;
	}
	s->constraints[s->constraint_count++] = *sc;
	return true;
}

/* Everything of a pin except which particles it holds. */
typedef struct pin_spec {
	drape_constraint_kind kind;
	double axis[3];
	drape_motion motion;
	double velocity[3];
	double start, end;
} pin_spec;

static bool load_spec(loader* L, const jnode* n, pin_spec* p)
{
	const json_ctx* c = &L->c;
	drape_constraint_def d = drape_default_constraint_def();
	p->kind = DRAPE_CONSTRAINT_POINT;
	memcpy(p->axis, d.axis, sizeof p->axis);
	p->motion = DRAPE_MOTION_FIXED;
	memset(p->velocity, 0, sizeof p->velocity);
	p->start = d.start_time;
	p->end = d.end_time;

	const cJSON* kind = json_get(n, "kind");
	if (kind) {
		jnode kn = json_node(n, kind);
		const char* s;
		if (!json_string(c, &kn, &s)) return false;
		int k = name_index(kind_names, s);
		if (k < 0) return json_fail(c, &kn, "unknown kind '%s' (valid: point, line, plane)", s);
		p->kind = (drape_constraint_kind)k;
	}
	const cJSON* axis = json_get(n, "axis");
	jnode an = json_node(n, axis);
	if (p->kind == DRAPE_CONSTRAINT_POINT && axis)
		return json_fail(c, &an, "only \"line\" and \"plane\" pins take an axis");
	if (p->kind != DRAPE_CONSTRAINT_POINT) {
		if (!axis)
			return json_fail(c, n, "a %s pin needs an \"axis\" (the %s)", kind_names[p->kind],
					 p->kind == DRAPE_CONSTRAINT_LINE ? "line's direction" : "plane's normal");
		if (!json_vector(c, &an, 3, p->axis)) return false;
		if (!(p->axis[0] != 0.0 || p->axis[1] != 0.0 || p->axis[2] != 0.0))
			return json_fail(c, &an, "must not be zero");
	}

	const cJSON* vel = json_get(n, "velocity");
	if (vel && json_get(n, "keyframes")) {
		jnode vn = json_node(n, vel);
		return json_fail(c, &vn, "a pin moves either with 'velocity' or along 'keyframes', not both");
	}
	if (vel) {
		p->motion = DRAPE_MOTION_VELOCITY;
		if (!json_opt_vector(c, n, "velocity", 3, p->velocity)) return false;
	}
	if (json_get(n, "keyframes")) p->motion = DRAPE_MOTION_KEYFRAMES;

	if (!json_opt_nonnegative(c, n, "start", &p->start) || !json_opt_number(c, n, "end", &p->end)) return false;
	if (!(p->end > p->start)) {
		const cJSON* e = json_get(n, "end");
		jnode en = json_node(n, e);
		return json_fail(c, e ? &en : n, "end (%g) must be greater than start (%g)", p->end, p->start);
	}
	return true;
}

bool scene_load_pin(loader* L, const jnode* n, int32_t ci)
{
	const json_ctx* c = &L->c;
	const scene_cloth* cloth = &L->s->cloths[ci];
	static const char* const keys[] = {"corner",   "edge",      "vertex", "vertices", "kind", "axis",
					   "velocity", "keyframes", "start",  "end",      NULL};
	if (!json_check_object(c, n, keys)) return false;

	static const char* const selectors[] = {"corner", "edge", "vertex", "vertices"};
	const cJSON* chosen = NULL;
	int which = -1;
	for (int k = 0; k < 4; ++k) {
		const cJSON* item = json_get(n, selectors[k]);
		if (!item) continue;
		if (chosen) {
			jnode sn = json_node(n, item);
			return json_fail(
				c, &sn,
				"a pin has exactly one of 'corner', 'edge', 'vertex' or 'vertices' (this one also has '%s')",
				selectors[which]);
		}
		chosen = item;
		which = k;
	}
	if (!chosen) return json_fail(c, n, "a pin needs one of 'corner', 'edge', 'vertex' or 'vertices'");

	pin_spec spec;
	if (!load_spec(L, n, &spec)) return false;

	jnode sn = json_node(n, chosen);
	int32_t* sel = NULL;
	int32_t count = 0;
	bool ok;
	if (which <= 1) {
		ok = select_grid(L, &sn, cloth, which == 0, &sel, &count);
	} else if (which == 2) {
		sel = malloc(sizeof(int32_t));
		ok = sel ? vertex_index(L, &sn, cloth, sel) : scene_out_of_memory(c);
		count = 1;
	} else {
		ok = select_vertices(L, &sn, cloth, &sel, &count);
	}
	key_list keys_in;
	memset(&keys_in, 0, sizeof keys_in);
	const cJSON* kf = json_get(n, "keyframes");
	if (ok && kf) {
		jnode kn = json_node(n, kf);
		ok = load_keys(L, &kn, count, &keys_in);
	}

	for (int32_t k = 0; ok && k < count; ++k) {
		scene_constraint sc;
		memset(&sc, 0, sizeof sc);
		sc.cloth = ci;
		sc.def = drape_default_constraint_def();
		sc.def.vertex = sel[k];
		sc.def.kind = spec.kind;
		memcpy(sc.def.axis, spec.axis, sizeof spec.axis);
		sc.def.motion = spec.motion;
		/* Fixed and moving pins hold the particle where it is when the pin activates. */
		sc.def.use_position = false;
		memcpy(sc.def.velocity, spec.velocity, sizeof spec.velocity);
		sc.def.start_time = spec.start;
		sc.def.end_time = spec.end;
		if (kf) {
			sc.keyframes = malloc(sizeof(drape_keyframe) * (size_t)keys_in.count);
			if (!sc.keyframes) {
				ok = scene_out_of_memory(c);
				break;
			}
			const double* x0 = cloth->mesh.positions + 3 * (size_t)sel[k];
			for (int q = 0; q < keys_in.count; ++q) {
				sc.keyframes[q].time = keys_in.time[q];
				for (int a = 0; a < 3; ++a)
					sc.keyframes[q].position[a] =
						keys_in.value[3 * q + a] + (keys_in.absolute[q] ? 0.0 : x0[a]);
			}
			sc.def.keyframes = sc.keyframes;
			sc.def.keyframe_count = keys_in.count;
		}
		if (!push_constraint(L, &sc)) {
			free(sc.keyframes);
			ok = false;
		}
	}
	key_list_free(&keys_in);
	free(sel);
	return ok;
}
