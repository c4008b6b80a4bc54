/* Garments from sewing patterns (sec. 8; docs/garments.md): panels are closed 2D outlines in
 * metres with a grain line; each is meshed (warp-aligned grid inside, constrained Delaunay band
 * along the outline, uv = pattern coordinates in the grain frame), placed around an axis in 3D,
 * and its seams turned into particle pairs for drape_seam_add. */
#ifndef DRAPE_GARMENT_H
#define DRAPE_GARMENT_H

#include "drape.h"

#include "../mesh/stretch_region.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How an outline point continues to the next one. */
typedef enum pattern_curve {
	CURVE_LINE = 0,
	CURVE_QUAD,  /* ctrl[0..1]: the control point */
	CURVE_CUBIC, /* ctrl[0..3]: two control points */
	CURVE_ARC,   /* bulge: tan(angle / 4); > 0 turns counter-clockwise about the centre, bulging to the
		      * right of the chord (outwards on a counter-clockwise outline; DXF's convention) */
} pattern_curve;

typedef struct pattern_point {
	double at[2];
	const char* corner; /* name, or NULL; not owned */
	pattern_curve curve;
	double ctrl[4];
	double bulge;
} pattern_point;


typedef struct pattern_panel {
	const char* name;
	const pattern_point* points;
	int32_t point_count;
	double grain[2]; /* warp direction in pattern coordinates (need not be unit) */
	/* Placement: wrapped around the axis p0 -> p1 at `radius`; pattern x runs counter-clockwise
	 * about the axis, pattern y along it. The panel's bounding-box centre lands at `angle`
	 * (radians from `front`, towards front x axis) and `offset` (m along the axis from its
	 * midpoint). */
	double axis[2][3];
	double front[3];
	double radius;
	double top_radius; /* radius at the panel's top (largest pattern y), linear in between: a
			    * cone for flared panels; <= 0: the same as radius */
	double angle;
	double offset;
	/* Or flat (when `flat`): the panel lies in the plane through plane_center facing plane_normal,
	 * pattern y along plane_up (made perpendicular to the normal), pattern x along up x normal;
	 * the bounding-box centre lands on plane_center. */
	bool flat;
	double plane_center[3];
	double plane_normal[3];
	double plane_up[3];
	const stretch_region* regions;
	int32_t region_count;
} pattern_panel;

typedef struct pattern_seam_side {
	const char* panel;
	const char* from;
	const char* to;
	bool backward; /* walk the outline against its point order */
} pattern_seam_side;

typedef struct pattern_seam {
	const char* name;
	pattern_seam_side side[2];
	double ease; /* m: how much longer one side may be than the other */
} pattern_seam;

typedef struct garment_def {
	const pattern_panel* panels;
	int32_t panel_count;
	const pattern_seam* seams;
	int32_t seam_count;
	double triangle_size; /* m: grid spacing, the legs of the interior right triangles */
} garment_def;

typedef struct garment {
	drape_mesh mesh;       /* all panels, unmerged; one uv per vertex */
	double* stretch_scale; /* 2 * triangle_count (b_u, b_v) */
	int32_t* panel_first_vertex;   /* panel_count + 1 */
	int32_t* panel_first_triangle; /* panel_count + 1 */
	int32_t** seam_pairs;  /* per seam: 2 * seam_pair_count[s] vertex indices */
	int32_t* seam_pair_count;
	char** seam_names; /* garment_from_mesh only (NULL from garment_build: the def names them) */
	int32_t panel_count, seam_count;
} garment;

/* Meshes and places every panel and pairs every seam. False with a message naming the panel or
 * seam: an outline that crosses itself, a seam naming a missing panel or corner, seam lengths
 * that differ beyond the ease, a panel too small for the triangle size. */
bool garment_build(const garment_def* def, garment* out, char* err, size_t err_size);
void garment_free(garment* g);

/* Where pattern point q of panel p goes in 3D: wrapped around p's axis (docs/garments.md);
 * center and size are the panel's bounding box in pattern coordinates. */
void garment_wrap(const pattern_panel* p, const double center[2], const double size[2], const double q[2], double out[3]);
/* False with a message naming the panel if its `around` is unusable. */
bool garment_check_placement(const pattern_panel* p, char* err, size_t err_size);

/* around.bone (garment_bone.c, docs/garments.md "Placing on a bone"): the clearances between the
 * body's widest extent around the axis and the panel at its bottom and top, whether `front`
 * was given (else the body's front, from its hip joints), whether the axis is the vertical
 * through the bone's joint instead of the bone's line, which way pattern y runs along it, and how
 * far the axis is moved towards the front. */
#define BONE_CLEARANCE 0.02 /* m: around.clearance's default */
typedef enum bone_direction {
	BONE_UP,	   /* pattern y runs up the body (the default) */
	BONE_HEAD_TO_TAIL, /* from the joint to its child: a sleeve drawn with its cap at y = 0 */
	BONE_TAIL_TO_HEAD,
} bone_direction;
typedef struct bone_fit {
	double clearance, top_clearance;
	bool front_given;
	bool vertical;
	bone_direction direction;
	double forward; /* m the axis is moved towards the body's front */
} bone_fit;

/* Sets p's axis (bone's head to tail in the pose at time 0, or the vertical through its joint,
 * pointing as `direction` says, moved `forward`), front and radii (the largest distance from the
 * axis of the body's vertices within the panel's span, counting the bone's own arm or leg, or for
 * a trunk bone all but the arms, plus the clearances). p's outline and offset must be set. False
 * with a message naming the panel: an unknown bone, one of no length without `vertical`, no hip
 * joints for the front, no body along the span. */
bool garment_place_on_bone(pattern_panel* p, const drape_character* c, const char* bone, const bone_fit* fit, char* err,
			   size_t err_size);

/* Sets p flat (docs/garments.md "Placing on a bone"): in the vertical plane facing the body's front
 * turned by `angle` about the vertical, `fit->clearance` beyond the body's extent that way within
 * the panel's footprint (its bounding box centred on the vertical through the bone's joint, p's
 * offset above the joint; counting the body as garment_place_on_bone does). False with a message
 * naming the panel: an unknown bone, no hip joints for the front, no body behind the panel. */
bool garment_place_flat_on_bone(pattern_panel* p, const drape_character* c, const char* bone, const bone_fit* fit,
				double angle, char* err, size_t err_size);

/* A garment from a mesh whose uv is its pattern (what pattern tools export: several uv per seam
 * vertex, garment_obj.c). Its uv charts (triangles connected through shared uv) are the panels,
 * placed by panels[k] in chart order (outline and regions unused); every vertex that several
 * charts share (or one chart through different uv) is split and sewn back by seams, one per pair
 * of charts ("A+B" from the panels' names). uv must already be in metres. */
bool garment_from_mesh(const drape_mesh* mesh, const pattern_panel* panels, int32_t panel_count, garment* out, char* err,
		       size_t err_size);

/* Helpers shared with the tests: the outline of a panel flattened into a polyline (curves split
 * finely), its signed area and length. */
bool pattern_flatten(const pattern_panel* p, double** xy, int32_t* count, int32_t** edge_start, char* err, size_t err_size);
double polygon_area(const double* xy, int32_t count);
double polygon_length(const double* xy, int32_t count);

#endif
