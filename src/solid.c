/* Adding solids (sec. 2.1, 6): validation of the def, copies of the mesh, poses and frames, and the
 * per-solid buffers the per-step placement needs. */
#include "character/character.h"
#include "collide/solid.h"
#include "api_assert.h"
#include "core.h"
#include "drape_limits.h"
#include "world_error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

drape_solid_def drape_default_solid_def(void)
{
	drape_solid_def d;
	memset(&d, 0, sizeof d);
	d.shape = DRAPE_SOLID_PLANE;
	d.radius = 0.5;
	d.half_height = 0.5;
	d.half_extents[0] = d.half_extents[1] = d.half_extents[2] = 0.5;
	d.rotation[0] = 1.0;
	d.thickness = 0.005;
	d.friction = 0.3;
	d.cookie = DRAPE_COOKIE;
	return d;
}

static bool finite_n(const double* a, size_t n)
{
	for (size_t i = 0; i < n; ++i)
		if (!isfinite(a[i])) return false;
	return true;
}

static bool unit_quaternion(const double q[4])
{
	double l = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
	return finite_n(q, 4) && fabs(l - 1.0) < 1e-6;
}

static drape_status check_def(drape_world* w, const drape_solid_def* d, const char* name)
{
	if (!(isfinite(d->thickness) && d->thickness > 0.0))
		return world_fail(w, "solid '%s': thickness must be finite and > 0, got %g", name, d->thickness);
	if (!(isfinite(d->friction) && d->friction >= 0.0))
		return world_fail(w, "solid '%s': friction must be finite and >= 0, got %g", name, d->friction);
	if (!finite_n(d->position, 3)) return world_fail(w, "solid '%s': position is not finite", name);
	if (!unit_quaternion(d->rotation)) return world_fail(w, "solid '%s': rotation must be a unit quaternion (w, x, y, z)", name);
	if (d->sides != DRAPE_SIDES_AUTO && d->sides != DRAPE_SIDES_OUTSIDE && d->sides != DRAPE_SIDES_BOTH)
		return world_fail(w, "solid '%s': unknown sides %d", name, (int)d->sides);
	if (d->sides == DRAPE_SIDES_BOTH && d->shape != DRAPE_SOLID_MESH)
		return world_fail(w, "solid '%s': only a mesh solid can hold cloth on both sides (an analytic shape has an inside)",
				  name);
	switch (d->shape) {
	case DRAPE_SOLID_PLANE:
		break;
	case DRAPE_SOLID_SPHERE:
	case DRAPE_SOLID_CAPSULE:
	case DRAPE_SOLID_CYLINDER:
		if (!(isfinite(d->radius) && d->radius > 0.0)) return world_fail(w, "solid '%s': radius must be > 0", name);
		if (d->shape != DRAPE_SOLID_SPHERE && !(isfinite(d->half_height) && d->half_height > 0.0))
			return world_fail(w, "solid '%s': half_height must be > 0", name);
		break;
	case DRAPE_SOLID_BOX:
		for (int k = 0; k < 3; ++k)
			if (!(isfinite(d->half_extents[k]) && d->half_extents[k] > 0.0))
				return world_fail(w, "solid '%s': half_extents must be > 0", name);
		break;
	case DRAPE_SOLID_MESH: {
		const drape_mesh* m = d->mesh;
		if (!m || m->vertex_count < 3 || m->triangle_count < 1 || !m->positions || !m->triangles)
			return world_fail(w, "solid '%s': a mesh solid needs a mesh with vertices and triangles", name);
		if (!finite_n(m->positions, 3 * (size_t)m->vertex_count))
			return world_fail(w, "solid '%s': the mesh has a non-finite vertex position", name);
		for (int32_t t = 0; t < m->triangle_count; ++t)
			for (int c = 0; c < 3; ++c)
				if (m->triangles[3 * t + c] < 0 || m->triangles[3 * t + c] >= m->vertex_count)
					return world_fail(w, "solid '%s': triangle %d refers to vertex %d, but the mesh has %d vertices",
							  name, t, m->triangles[3 * t + c], m->vertex_count);
		if (d->frame_count < 0 || (d->frame_count > 0 && (!d->mesh_frames || !d->frame_times)))
			return world_fail(w, "solid '%s': frame_count > 0 needs mesh_frames and frame_times", name);
		for (int32_t f = 0; f < d->frame_count; ++f) {
			if (!isfinite(d->frame_times[f]) || (f > 0 && !(d->frame_times[f] > d->frame_times[f - 1])))
				return world_fail(w, "solid '%s': frame %d's time must be finite and later than the one before", name, f);
			if (!d->mesh_frames[f] || !finite_n(d->mesh_frames[f], 3 * (size_t)m->vertex_count))
				return world_fail(w, "solid '%s': frame %d has a non-finite vertex position", name, f);
		}
		break;
	}
	default:
		return world_fail(w, "solid '%s': unknown shape %d", name, (int)d->shape);
	}
	if (d->pose_count < 0 || (d->pose_count > 0 && !d->poses)) return world_fail(w, "solid '%s': pose_count > 0 needs poses", name);
	for (int32_t k = 0; k < d->pose_count; ++k) {
		const drape_pose* p = &d->poses[k];
		if (!isfinite(p->time) || !finite_n(p->position, 3) || !unit_quaternion(p->rotation) ||
		    (k > 0 && !(p->time > d->poses[k - 1].time)))
			return world_fail(w, "solid '%s': pose %d must be finite, have a unit rotation and come later than the one before",
					  name, k);
		/* drape_limits.h (docs/reliability.md, "Limits") */
		double speed = k > 0 ? v3_len(v3_sub(v3_load(p->position), v3_load(d->poses[k - 1].position))) /
					       (p->time - d->poses[k - 1].time)
				     : 0.0;
		if (!limits_positions(p->position, 1, NULL, 0) || !(speed <= LIMIT_SCRIPTED_SPEED))
			return world_fail(w,
					  "solid '%s': pose %d is beyond drape's range (+-%g m, reached at up to %g m/s; "
					  "here %g m/s)",
					  name, k, LIMIT_COORDINATE, LIMIT_SCRIPTED_SPEED, speed);
	}
	return DRAPE_OK;
}

typedef struct directed_edge {
	uint64_t key; /* sorted vertex pair */
	int32_t forward; /* 1 if the triangle runs from the lower to the higher vertex */
	int32_t from, to;
	int32_t face, corner; /* the edge runs from the face's corner to the next */
} directed_edge;

static int compare_directed(const void* a, const void* b)
{
	const directed_edge* x = a;
	const directed_edge* y = b;
	return x->key < y->key ? -1 : (x->key > y->key ? 1 : x->forward - y->forward);
}

/* A closed, consistently oriented mesh has every edge in exactly two triangles, run in opposite
 * directions. An open mesh (some edge in one triangle only) holds cloth on both sides unless the
 * def asks for the outside only (docs/collide.md, "Open meshes: both sides"); the edges of one
 * triangle only are marked in s->open_edges. Otherwise "inside" loses its meaning: warn. False
 * on allocation failure (a warning's included). */
static bool check_closed(drape_world* w, solid_data* s, drape_solid_sides sides, const char* name)
{
	size_t count = 3 * (size_t)s->triangle_count;
	directed_edge* e = core_alloc_array(count, sizeof *e);
	s->open_edges = calloc((size_t)s->triangle_count, 1);
	if (!e || !s->open_edges) {
		free(e);
		return false;
	}
	for (int32_t t = 0; t < s->triangle_count; ++t)
		for (int k = 0; k < 3; ++k) {
			int32_t a = s->triangles[3 * t + k], b = s->triangles[3 * t + (k + 1) % 3];
			uint32_t lo = (uint32_t)(a < b ? a : b), hi = (uint32_t)(a < b ? b : a);
			e[3 * t + k] = (directed_edge){((uint64_t)lo << 32) | hi, a < b, a, b, t, k};
		}
	qsort(e, count, sizeof *e, compare_directed);
	int32_t open = 0, flipped = 0, crowded = 0;
	directed_edge first_open = {0}, first_flipped = {0};
	for (size_t i = 0; i < count;) {
		size_t j = i + 1;
		while (j < count && e[j].key == e[i].key) ++j;
		if (j - i == 1) {
			if (open++ == 0) first_open = e[i];
			s->open_edges[e[i].face] |= (uint8_t)(1u << e[i].corner);
		} else if (j - i == 2) {
			if (e[i].forward == e[i + 1].forward && flipped++ == 0) first_flipped = e[i];
		} else {
			crowded++;
		}
		i = j;
	}
	free(e);
	s->two_sided = sides == DRAPE_SIDES_BOTH || (sides == DRAPE_SIDES_AUTO && open > 0);
	if (open == 0 && !s->two_sided) {
		s->face_kinds = calloc((size_t)s->triangle_count, 1);
		if (!s->face_kinds) return false;
	}
	/* corners on an open edge of any face: bit 3 + k of each face using the vertex at corner k */
	uint8_t* rim = calloc((size_t)s->vertex_count, 1);
	if (!rim) return false;
	for (int32_t t = 0; t < s->triangle_count; ++t)
		for (int k = 0; k < 3; ++k)
			if (s->open_edges[t] & (1u << k)) rim[s->triangles[3 * t + k]] = rim[s->triangles[3 * t + (k + 1) % 3]] = 1;
	for (int32_t t = 0; t < s->triangle_count; ++t)
		for (int k = 0; k < 3; ++k)
			if (rim[s->triangles[3 * t + k]]) s->open_edges[t] |= (uint8_t)(8u << k);
	free(rim);
	if (s->two_sided) return true; /* both sides hold: neither openness nor winding matters */
	bool ok = true;
	if (open)
		ok = world_warn(w,
			   "solid '%s': the mesh is open (%d boundary edges, e.g. vertices %d-%d) but sides is \"outside\"; "
			   "each face keeps particles on its outer side only, and the mesh encloses no volume",
			   name, open, first_open.from, first_open.to);
	if (flipped)
		ok = world_warn(w,
			   "solid '%s': the mesh is inconsistently oriented (%d edges run the same way in both their "
			   "triangles, e.g. vertices %d-%d); each face's outside is taken from its own winding",
			   name, flipped, first_flipped.from, first_flipped.to) && ok;
	if (crowded) ok = world_warn(w, "solid '%s': %d edges are shared by more than two triangles", name, crowded) && ok;
	return ok;
}

static drape_solid_id add_solid(drape_world* w, const drape_solid_def* d);

/* A character is a mesh solid whose vertices it poses at every step: its rest mesh is the pose at
 * t = 0; the solid keeps its own copy of the character. */
static drape_solid_id add_character(drape_world* w, const drape_solid_def* d)
{
	drape_solid_id none = {-1};
	const char* name = d->name ? d->name : "character";
	if (d->shape != DRAPE_SOLID_MESH || d->mesh || d->frame_count || d->pose_count) {
		world_fail(w, "solid '%s': a character solid is a mesh without its own mesh, frames or poses", name);
		return none;
	}
	const drape_character* c = d->character;
	drape_mesh m = {0};
	m.vertex_count = c->vertex_count;
	m.triangle_count = c->triangle_count;
	m.triangles = c->triangles;
	m.positions = malloc(3 * (size_t)c->vertex_count * sizeof *m.positions);
	drape_character* copy = character_clone(c);
	double* p0 = malloc(3 * (size_t)c->vertex_count * sizeof *p0);
	double* p1 = malloc(3 * (size_t)c->vertex_count * sizeof *p1);
	if (!m.positions || !copy || !p0 || !p1) {
		free(m.positions), free(p0), free(p1);
		drape_character_destroy(copy);
		world_fail_status(w, DRAPE_ERROR_MEMORY, "out of memory adding solid '%s'", name);
		return none;
	}
	character_pose(c, 0.0, m.positions);
	drape_solid_def mesh_def = *d;
	mesh_def.character = NULL;
	mesh_def.mesh = &m;
	drape_solid_id id = add_solid(w, &mesh_def);
	free(m.positions);
	if (id.index < 0) {
		free(p0), free(p1);
		drape_character_destroy(copy);
		return id;
	}
	solid_data* s = &w->model.solids[id.index];
	if (c->warnings) world_warn(w, "solid '%s': %s", name, c->warnings);
	s->character = copy;
	s->pose0 = p0;
	s->pose1 = p1;
	s->posed0 = s->posed1 = NAN;
	return id;
}

drape_solid_id drape_solid_add(drape_world* w, const drape_solid_def* d)
{
	drape_solid_id none = {-1};
	API_REQUIRE(w != NULL, none);
	if (!d || d->cookie != DRAPE_COOKIE) {
		world_fail(w, "solid def not initialised with drape_default_solid_def()");
		return none;
	}
	return d->character ? add_character(w, d) : add_solid(w, d);
}

static drape_solid_id add_solid(drape_world* w, const drape_solid_def* d)
{
	drape_solid_id none = {-1};
	char fallback[32];
	snprintf(fallback, sizeof fallback, "solid%d", w->model.solid_count);
	const char* name = d->name ? d->name : fallback;
	if (check_def(w, d, name) != DRAPE_OK) return none;
	if (w->model.solid_count == w->model.solid_capacity) {
		int32_t cap = w->model.solid_capacity ? 2 * w->model.solid_capacity : 4;
		solid_data* p = realloc(w->model.solids, (size_t)cap * sizeof *p);
		if (!p) {
			world_fail_status(w, DRAPE_ERROR_MEMORY, "out of memory adding solid '%s'", name);
			return none;
		}
		w->model.solids = p;
		w->model.solid_capacity = cap;
	}
	solid_data* s = &w->model.solids[w->model.solid_count];
	memset(s, 0, sizeof *s);
	s->name = strdup(name);
	s->kind = d->shape;
	s->thickness = d->thickness;
	s->friction = d->friction;
	s->pose = xform_make(v3_load(d->position), d->rotation[0], d->rotation[1], d->rotation[2], d->rotation[3]);
	s->shape.radius = d->radius;
	s->shape.half_height = d->half_height;
	s->shape.half_extents = v3_load(d->half_extents);
	static const shape_kind kinds[] = {SHAPE_PLANE, SHAPE_PLANE, SHAPE_SPHERE, SHAPE_CAPSULE, SHAPE_CYLINDER, SHAPE_BOX};
	s->shape.kind = kinds[d->shape];
	bool ok = s->name != NULL;
	if (ok && d->pose_count > 0) {
		s->poses = malloc((size_t)d->pose_count * sizeof *s->poses);
		ok = s->poses != NULL;
		if (ok) memcpy(s->poses, d->poses, (size_t)d->pose_count * sizeof *s->poses);
		s->pose_count = d->pose_count;
	}
	if (ok && d->shape == DRAPE_SOLID_MESH) {
		const drape_mesh* m = d->mesh;
		size_t nv = (size_t)m->vertex_count, nt = (size_t)m->triangle_count;
		s->vertex_count = m->vertex_count;
		s->triangle_count = m->triangle_count;
		s->triangles = malloc(3 * nt * sizeof *s->triangles);
		s->rest = malloc(3 * nv * sizeof *s->rest);
		s->v0 = malloc(nv * sizeof *s->v0);
		s->v1 = malloc(nv * sizeof *s->v1);
		s->boxes = malloc(nt * sizeof *s->boxes);
		ok = s->triangles && s->rest && s->v0 && s->v1 && s->boxes;
		if (ok) {
			memcpy(s->rest, m->positions, 3 * nv * sizeof *s->rest);
			for (size_t t = 0; t < nt; ++t) {
				/* flip_normals: reverse the winding once, so every later use sees outward normals */
				s->triangles[3 * t] = m->triangles[3 * t];
				s->triangles[3 * t + 1] = m->triangles[3 * t + (d->flip_normals ? 2 : 1)];
				s->triangles[3 * t + 2] = m->triangles[3 * t + (d->flip_normals ? 1 : 2)];
			}
		}
		if (ok && d->frame_count > 0) {
			s->frames = malloc((size_t)d->frame_count * 3 * nv * sizeof *s->frames);
			s->frame_times = malloc((size_t)d->frame_count * sizeof *s->frame_times);
			ok = s->frames && s->frame_times;
			for (int32_t f = 0; ok && f < d->frame_count; ++f) {
				memcpy(&s->frames[(size_t)f * 3 * nv], d->mesh_frames[f], 3 * nv * sizeof(double));
				s->frame_times[f] = d->frame_times[f];
			}
			s->frame_count = d->frame_count;
		}
	}
	if (ok && d->shape == DRAPE_SOLID_MESH) ok = check_closed(w, s, d->sides, name);
	if (!ok) {
		solid_free(s);
		world_fail_status(w, DRAPE_ERROR_MEMORY, "out of memory adding solid '%s'", name);
		return none;
	}
	w->model.dirty = true;
	drape_solid_id id = {w->model.solid_count++};
	return id;
}

int32_t drape_solid_count(const drape_world* w)
{
	API_REQUIRE(w != NULL, 0);
	return w->model.solid_count;
}

int32_t drape_solid_vertex_count(const drape_world* w, drape_solid_id id)
{
	API_REQUIRE(w != NULL, 0);
	API_REQUIRE(id.index >= 0 && id.index < w->model.solid_count, 0);
	const solid_data* sd = &w->model.solids[id.index];
	return sd->kind == DRAPE_SOLID_MESH ? sd->vertex_count : 0;
}

int32_t drape_solid_triangle_count(const drape_world* w, drape_solid_id id)
{
	API_REQUIRE(w != NULL, 0);
	API_REQUIRE(id.index >= 0 && id.index < w->model.solid_count, 0);
	const solid_data* sd = &w->model.solids[id.index];
	return sd->kind == DRAPE_SOLID_MESH ? sd->triangle_count : 0;
}

bool drape_solid_is_character(const drape_world* w, drape_solid_id id)
{
	API_REQUIRE(w != NULL, false);
	API_REQUIRE(id.index >= 0 && id.index < w->model.solid_count, false);
	return w->model.solids[id.index].character != NULL;
}

drape_status drape_solid_set_hold(drape_world* w, drape_solid_id id, double hold)
{
	API_REQUIRE(w != NULL, DRAPE_ERROR_INVALID);
	API_REQUIRE(id.index >= 0 && id.index < w->model.solid_count, DRAPE_ERROR_INVALID);
	if (!w->model.solids[id.index].character) return world_fail(w, "solid %d is not a character", id.index);
	if (!(isfinite(hold) && hold >= 0.0)) return world_fail(w, "hold must be finite and >= 0 s, got %g", hold);
	solid_data* sd = &w->model.solids[id.index];
	drape_character_set_hold(sd->character, hold);
	/* poses skinned with the old hold are stale: a step after this call, and a resumed run that
	 * restores the hold (world_state.c), skin both ends afresh */
	sd->posed0 = sd->posed1 = NAN;
	return DRAPE_OK;
}
