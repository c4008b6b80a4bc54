/* The public debug-draw interface (include/drape.h, as Box2D's b2World_Draw): a world's cloths,
 * solids (tessellated by draw_shapes.c), plane frames and contacts handed to the caller's
 * callbacks, so that a renderer (app/draw.c) needs nothing of the world's insides. */
#include "api_assert.h"
#include "draw_shapes.h"
#include "world.h"

#include <math.h>

drape_debug_draw drape_default_debug_draw(void)
{
	drape_debug_draw d = {0};
	d.plane_half = 1.0;
	return d;
}

static void draw_cloths(const drape_world* w, const drape_debug_draw* d)
{
	for (int32_t c = 0; c < w->model.cloth_count; ++c) {
		const cloth_data* cd = &w->model.cloths[c];
		/* vec3 is three packed doubles: the particle array is the positions array as it is */
		d->draw_cloth((drape_cloth_id){c}, &w->state.x[cd->first_vertex].x, cd->mesh.vertex_count, cd->mesh.triangles,
			      cd->mesh.triangle_count, d->context);
	}
}

static bool is_plane(const solid_data* sd) { return sd->kind != DRAPE_SOLID_MESH && sd->shape.kind == SHAPE_PLANE; }

static drape_status draw_solids(const drape_world* w, const drape_debug_draw* d)
{
	draw_geometry g = {0};
	drape_status status = DRAPE_OK;
	vec3 focus = v3_load(d->plane_focus);
	for (int32_t s = 0; s < w->model.solid_count; ++s) {
		const solid_data* sd = &w->model.solids[s];
		geometry_clear(&g);
		if (!geometry_add_solid(&g, sd, d->time, focus, d->plane_half)) {
			status = DRAPE_ERROR_MEMORY;
			break;
		}
		d->draw_solid((drape_solid_id){s}, is_plane(sd), g.positions, g.normals, g.vertex_count, g.indices, g.index_count,
			      d->context);
	}
	geometry_free(&g);
	return status;
}

static void draw_planes(const drape_world* w, const drape_debug_draw* d)
{
	for (int32_t s = 0; s < w->model.solid_count; ++s) {
		const solid_data* sd = &w->model.solids[s];
		if (!is_plane(sd)) continue;
		xform x = solid_pose_at(sd, d->time);
		double origin[3];
		v3_store(x.p, origin);
		d->draw_plane((drape_solid_id){s}, origin, x.q, d->context);
	}
}

/* Contacts are known only while the topology they were found on stands (!dirty). */
static void draw_contacts(const drape_world* w, const drape_debug_draw* d)
{
	if (w->state.contacts && !w->model.dirty && w->model.solid_count > 0)
		for (int32_t i = 0; i < w->model.particle_count; ++i)
			if (w->state.contacts[i].solid >= 0) d->draw_point(&w->state.x[i].x, DRAPE_DEBUG_SOLID_CONTACT, d->context);
	for (int32_t r = 0; r < w->state.repulsion_count; ++r)
		for (int k = 0; k < 4; ++k) {
			int32_t i = w->state.repulsions[r].node[k];
			if (w->state.repulsions[r].weight[k] != 0.0 && i >= 0 && i < w->model.particle_count)
				d->draw_point(&w->state.x[i].x, DRAPE_DEBUG_CLOTH_CONTACT, d->context);
		}
}

drape_status drape_world_draw(const drape_world* w, const drape_debug_draw* d)
{
	API_REQUIRE(w != NULL && d != NULL, DRAPE_ERROR_INVALID);
	if (d->draw_cloths && d->draw_cloth) draw_cloths(w, d);
	drape_status status = DRAPE_OK;
	if (d->draw_solids && d->draw_solid) status = draw_solids(w, d);
	if (d->draw_planes && d->draw_plane) draw_planes(w, d);
	if (d->draw_contacts && d->draw_point) draw_contacts(w, d);
	return status;
}

void drape_world_get_bounds(const drape_world* w, double time, double lo[3], double hi[3])
{
	API_REQUIRE_VOID(w != NULL && lo != NULL && hi != NULL);
	vec3 a = v3(INFINITY, INFINITY, INFINITY), b = v3(-INFINITY, -INFINITY, -INFINITY);
	for (int32_t i = 0; i < w->model.particle_count; ++i) {
		vec3 p = w->state.x[i];
		if (!v3_isfinite(p)) continue;
		a = v3(fmin(a.x, p.x), fmin(a.y, p.y), fmin(a.z, p.z));
		b = v3(fmax(b.x, p.x), fmax(b.y, p.y), fmax(b.z, p.z));
	}
	for (int32_t s = 0; s < w->model.solid_count; ++s) solid_draw_bounds(&w->model.solids[s], time, &a, &b);
	v3_store(a, lo);
	v3_store(b, hi);
}

void drape_world_get_gravity(const drape_world* w, double gravity[3])
{
	API_REQUIRE_VOID(w != NULL && gravity != NULL);
	for (int k = 0; k < 3; ++k) gravity[k] = w->def.gravity[k];
}
