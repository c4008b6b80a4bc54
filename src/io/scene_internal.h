/* Shared between the scene loader's files: the loader state, the pin expansion and the solids. */
#ifndef DRAPE_SCENE_INTERNAL_H
#define DRAPE_SCENE_INTERNAL_H

#include "scene.h"
#include "scene_json.h"

#include "../mesh/stretch_region.h"

typedef struct loader {
	json_ctx c;
	scene* s; /* being filled; freed whole on failure */
	int32_t constraint_cap;
	const drape_world* world; /* a scene entry's world (scene_entry.c): its character solids are
				   * what a garment's around.bone finds besides the scene's; NULL for a file */
} loader;

/* Loads one element of "cloths" into s->cloths[index] (its pins, and a garment's seams, are
 * appended to s). */
bool scene_load_cloth(loader* L, const jnode* n, int32_t index);
/* Refuses cloth `index` (its scene node n) when it starts on the wrong side of an earlier cloth of
 * another layer (scene_layers.c). */
bool scene_check_layer_order(loader* L, const jnode* n, int32_t index);
/* Checks every cloth's "tucked_into" once all cloths are loaded (cloths: the "cloths" array):
 * the garment it names exists, is of a higher layer, and lies over the cloth's hem (scene_layers.c). */
bool scene_check_tucks(loader* L, const jnode* cloths);
/* Loads one element of "solids" into s->solids[index]. */
bool scene_load_solid(loader* L, const jnode* n, int32_t index);
/* What a scene has before its file is read: the world's defaults with gravity along -Z, and the
 * sewing defaults (docs/scene-format.md). */
void scene_set_defaults(scene* s);

/* A loader reading `text` (messages start with `file`, relative files are found beside it) into s. */
void scene_loader_init(loader* L, scene* s, const char* text, const char* file, char* err, size_t err_size);

/* Expands one entry of cloths[cloth].pins into per-particle constraints appended to s. */
bool scene_load_pin(loader* L, const jnode* pin, int32_t cloth);

/* Loads the optional top-level "solids" array into s->solids. */
bool scene_load_solids(loader* L, const jnode* root);
void scene_solid_free(scene_solid* solid);

/* Loads a character solid's `character` object (scene_character.c): the animated, skinned body. */
bool scene_load_character(const json_ctx* c, const jnode* sn, scene_solid* so);

/* A panel's `"outline": {"svg": FILE, "id": ID}` (scene_svg.c): reads the SVG path into *points (one
 * malloc'd block, freed by the caller) and p's points, and checks the outline is simple. */
struct pattern_panel;
struct pattern_point;
bool scene_load_svg_outline(const json_ctx* c, const jnode* n, struct pattern_panel* p, struct pattern_point** points);
/* An outline file reference's two required strings, keys[0] and keys[1] (the file, the element). */
bool scene_outline_ref(const json_ctx* c, const jnode* n, const char* const* keys, const char* v[2]);
/* Checks an outline read from a file is simple (pattern_flatten), naming the file and `what` in it. */
bool scene_outline_simple(const json_ctx* c, const jnode* n, const struct pattern_panel* p, const char* file, const char* what);
/* `"outline": {"dxf": FILE, "piece": NAME, "units": U}` (scene_dxf.c): the same for a DXF-AAMA piece,
 * whose grain line (if it has one) becomes p's grain unless the panel gives `grain`. */
bool scene_load_dxf_outline(const json_ctx* c, const jnode* n, struct pattern_panel* p, struct pattern_point** points);

/* Loads cloths[index].garment (scene_garment.c): the cloth's mesh, b_u/b_v and its seams. */
bool scene_load_garment(loader* L, const jnode* n, int32_t index);

/* The world settings (scene_world.c): read the keys of "gravity", "wind", "cloth_contact" and
 * "solver" into w (types only), then, once the output's fps is known, default max_dt to a frame and
 * check everything with drape_world_def_check, blaming the key at fault. */
bool scene_read_world(const json_ctx* c, const jnode* root, drape_world_def* w);
bool scene_check_world(const json_ctx* c, const jnode* root, double fps, drape_world_def* w);

/* Reports an allocation failure ("file: out of memory") and returns false. */
bool scene_out_of_memory(const json_ctx* c);
/* A call the loader made failed with `status` (DRAPE_ERROR_INVALID where the call returns a bool
 * or a handle) and `msg`: notes an allocation failure for the load's status (core_failure_status
 * for the calls that report with a message only: garment meshing, OBJ geometry, characters). */
void scene_note_failure(const json_ctx* c, drape_status status, const char* msg);
/* One stretch_regions entry ({"uv_min", "uv_max", "bu", "bv", "taper"}; docs/scene-format.md). */
bool scene_load_stretch_region(const json_ctx* c, const jnode* n, stretch_region* r);
/* A malloc'd copy of s, or NULL. */
char* scene_copy_string(const char* s);
/* Mesh files are found relative to the scene file's directory: the malloc'd path, or NULL. */
char* scene_file_path(const char* scene_path, const char* file);

#endif
