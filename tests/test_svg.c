/* Patterns from SVG (docs/garments.md, "Patterns from SVG"): the path-data reader against hand-worked
 * outlines for every command letter, circular and elliptical arcs by where their flattened points
 * lie, bad path data with its offset, and scene panels from an SVG file: the same mesh as the same
 * outline typed as JSON, and each bad file named with its line. */
#include "test_io.h"

#include "garment/garment.h"
#include "garment/svg_path.h"
#include "io/scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const svg_map mm = {{0.0, 0.0}, {0.001, 0.001}}; /* x_m = x / 1000, y_m = -y / 1000 */

static pattern_point* read_ok(const char* d, int32_t* n)
{
	pattern_point* p = NULL;
	char err[256] = "";
	bool ok = svg_path_read(d, &mm, &p, n, err, sizeof err);
	CHECK(ok);
	if (!ok) fprintf(stderr, "  %s: %s\n", d, err);
	return p;
}

static void check_point(const pattern_point* p, double x, double y, const char* corner)
{
	CHECK_NEAR(p->at[0], x * 0.001, 1e-15);
	CHECK_NEAR(p->at[1], -y * 0.001, 1e-15);
	CHECK(corner ? p->corner && strcmp(p->corner, corner) == 0 : p->corner == NULL);
}

static void check_ctrl(const pattern_point* p, int k, double x, double y)
{
	CHECK_NEAR(p->ctrl[2 * k], x * 0.001, 1e-15);
	CHECK_NEAR(p->ctrl[2 * k + 1], -y * 0.001, 1e-15);
}

/* M, L, H, V in both cases, and Z closing with a straight piece. */
static void test_lines(void)
{
	int32_t n = 0;
	pattern_point* p = read_ok("M 0,0 L 10 0 h 10 V 10 l -5 5 H 10 v -5 z", &n);
	CHECK(n == 7);
	if (n == 7) {
		const double xy[7][2] = {{0, 0}, {10, 0}, {20, 0}, {20, 10}, {15, 15}, {10, 15}, {10, 10}};
		const char* names[7] = {"p0", "p1", "p2", "p3", "p4", "p5", "p6"};
		for (int i = 0; i < 7; ++i) {
			check_point(&p[i], xy[i][0], xy[i][1], names[i]);
			CHECK(p[i].curve == CURVE_LINE);
		}
	}
	free(p);
	/* m: its first pair absolute, the next ones relative linetos; a last point on the start is the start */
	p = read_ok("m10 10 20 0 0 20 -20 0 0-20Z", &n);
	CHECK(n == 4);
	if (n == 4) {
		check_point(&p[0], 10, 10, "p0");
		check_point(&p[1], 30, 10, "p1");
		check_point(&p[2], 30, 30, "p2");
		check_point(&p[3], 10, 30, "p3");
	}
	free(p);
	/* SVG's number grammar: "1.5.5" is 1.5 then .5, exponents, signs as separators */
	p = read_ok("M0 0L1.5.5L1e1-2E0L-.5+3z", &n);
	CHECK(n == 4);
	if (n == 4) {
		check_point(&p[1], 1.5, 0.5, "p1");
		check_point(&p[2], 10, -2, "p2");
		check_point(&p[3], -0.5, 3, "p3");
	}
	free(p);
}

/* C, S (reflecting C's second control), Q, T (reflecting Q's), and their relative forms. */
static void test_beziers(void)
{
	int32_t n = 0;
	pattern_point* p = read_ok("M0 0C0-10 10-10 10 0s10 10 10 0Q20-10 30 0T40 0q5 10 10 0t10 0L60 20H0z", &n);
	CHECK(n == 9);
	if (n != 9) {
		free(p);
		return;
	}
	CHECK(p[0].curve == CURVE_CUBIC);
	check_ctrl(&p[0], 0, 0, -10);
	check_ctrl(&p[0], 1, 10, -10);
	check_point(&p[1], 10, 0, "p1");
	CHECK(p[1].curve == CURVE_CUBIC);
	check_ctrl(&p[1], 0, 10, 10); /* 2 (10, 0) - (10, -10) */
	check_ctrl(&p[1], 1, 20, 10);
	check_point(&p[2], 20, 0, "p2");
	CHECK(p[2].curve == CURVE_QUAD);
	check_ctrl(&p[2], 0, 20, -10);
	check_point(&p[3], 30, 0, "p3");
	CHECK(p[3].curve == CURVE_QUAD);
	check_ctrl(&p[3], 0, 40, 10); /* 2 (30, 0) - (20, -10) */
	check_point(&p[4], 40, 0, "p4");
	CHECK(p[4].curve == CURVE_QUAD);
	check_ctrl(&p[4], 0, 45, 10);
	check_point(&p[5], 50, 0, "p5");
	CHECK(p[5].curve == CURVE_QUAD);
	check_ctrl(&p[5], 0, 55, -10); /* 2 (50, 0) - (45, 10) */
	check_point(&p[6], 60, 0, "p6");
	CHECK(p[6].curve == CURVE_LINE);
	check_point(&p[7], 60, 20, "p7");
	check_point(&p[8], 0, 20, "p8");
	CHECK(p[8].curve == CURVE_LINE); /* H0 then z: the closing piece is straight */
	free(p);
	/* S after a line reflects nothing: its first control is the current point */
	p = read_ok("M0 0L10 0S20 10 20 20L0 20z", &n);
	CHECK(n == 4 && p[1].curve == CURVE_CUBIC);
	if (n == 4) check_ctrl(&p[1], 0, 10, 0);
	free(p);
}

/* The flattened outline's points of edge e (pattern_flatten's), into pts; returns their count. */
static int32_t edge_points(const pattern_point* p, int32_t n, int32_t e, double** xy, int32_t** starts)
{
	pattern_panel panel = {.name = "t", .points = p, .point_count = n, .grain = {1, 0}};
	int32_t m = 0;
	char err[256];
	bool ok = pattern_flatten(&panel, xy, &m, starts, err, sizeof err);
	CHECK(ok);
	if (!ok) {
		fprintf(stderr, "  %s\n", err);
		return 0;
	}
	return (e + 1 < n ? (*starts)[e + 1] : m) - (*starts)[e];
}

/* A: circular arcs become drape arcs bulging the way SVG's flags say once y points up, large ones
 * in two halves; elliptical ones cubic Beziers on the ellipse. */
static void test_arcs(void)
{
	int32_t n = 0;
	double* xy = NULL;
	int32_t* st = NULL;
	/* half circle from (0, 0) to (20, 0) about (10, 0), sweep 1: through (10, -10), y up (10, 10) mm */
	pattern_point* p = read_ok("M0 0A10 10 0 0 1 20 0L20 30L0 30z", &n);
	CHECK(n == 4 && p[0].curve == CURVE_ARC);
	int32_t k = n == 4 ? edge_points(p, n, 0, &xy, &st) : 0;
	CHECK(k > 2);
	if (k > 2) {
		CHECK_NEAR(xy[2 * (st[0] + k / 2)], 0.010, 1e-9);
		CHECK_NEAR(xy[2 * (st[0] + k / 2) + 1], 0.010, 1e-9);
	}
	free(xy), free(st), free(p);
	/* relative, large, sweep 0: 270 degrees of radius 10 from (0, 0) to (10, 10) about (0, 10) (the
	 * other centre, (10, 0), would take the small arc or sweep 1): two drape arcs, the inner point
	 * unnamed; every flattened point 10 mm from (0, 10), y up (0, -10) mm */
	p = read_ok("M0 0a10 10 0 1 0 10 10L10 0z", &n);
	CHECK(n == 4 && p[0].curve == CURVE_ARC && p[1].curve == CURVE_ARC && p[1].corner == NULL);
	if (n == 4) {
		check_point(&p[2], 10, 10, "p1");
		double worst = 0.0;
		for (int e = 0; e < 2; ++e) {
			k = edge_points(p, n, e, &xy, &st);
			for (int32_t i = 0; i < k; ++i)
				worst = fmax(worst, fabs(hypot(xy[2 * (st[e] + i)], xy[2 * (st[e] + i) + 1] + 0.010) - 0.010));
			free(xy), free(st);
		}
		CHECK(worst < 1e-12);
	}
	free(p);
	/* ellipse rx 20, ry 10 from (0, 0) to (40, 0), sweep 1: two cubic quarters, the inner point at
	 * (20, -10) (y up: (20, 10) mm), every flattened point on the ellipse within 3e-4 of its size */
	p = read_ok("M0 0A20 10 0 0 1 40 0L40 30L0 30z", &n);
	CHECK(n == 5 && p[0].curve == CURVE_CUBIC && p[1].curve == CURVE_CUBIC);
	if (n == 5) {
		check_point(&p[1], 20, -10, NULL);
		check_point(&p[2], 40, 0, "p1");
		double worst = 0.0;
		for (int e = 0; e < 2; ++e) {
			k = edge_points(p, n, e, &xy, &st);
			for (int32_t i = 0; i < k; ++i) {
				const double x = (xy[2 * (st[e] + i)] - 0.020) / 0.020, y = xy[2 * (st[e] + i) + 1] / 0.010;
				worst = fmax(worst, fabs(hypot(x, y) - 1.0));
			}
			free(xy), free(st);
		}
		CHECK(worst < 3e-4);
	}
	free(p);
	/* rotated 90 degrees, rx 20 along y and ry 10 along -x: from (0, 0) to (0, 40) through (10, 20) or
	 * (-10, 20); sweep 1 turns -y towards +x, so round by x = 10 */
	p = read_ok("M0 0A20 10 90 0 1 0 40L-30 40L-30 0z", &n);
	CHECK(n == 5);
	if (n == 5) check_point(&p[1], 10, 20, NULL);
	free(p);
	/* zero radius: a straight piece */
	p = read_ok("M0 0A0 5 0 0 1 10 0L10 10z", &n);
	CHECK(n == 3 && p[0].curve == CURVE_LINE);
	free(p);
}

/* Bad path data: the reason and the byte offset. */
static void test_bad_data(void)
{
	static const struct {
		const char* d;
		const char* msg;
	} cases[] = {
		{"M0 0L10 0L10 10", "offset 15: the path is not closed"},
		{"M0 0L10 x", "offset 8: expected a number, got 'x'"},
		{"L0 0L1 0L1 1z", "offset 0: path data must start with M"},
		{"", "offset 0: empty path data"},
		{"M0 0L1 0L1 1zM5 5L6 5L6 6z", "offset 13: more path data after Z"},
		{"M0 0L1 0M5 5L6 5z", "offset 8: a second subpath ('M')"},
		{"M0 0A1 1 0 2 0 1 1z", "offset 11: expected an arc flag 0 or 1"},
		{"M0 0L1 0#", "offset 8: unexpected '#'"},
		{"M0 0L1e999 0L1 1z", "offset 5: number '1e999' out of range"},
		{"M0 0L1 0L", "offset 9: expected a number, got the end"},
		{"M0 0 nan 0 1 1z", "offset 5: unexpected 'n'"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
		pattern_point* p = (pattern_point*)&cases; /* must come back NULL */
		int32_t n = 7;
		char err[256] = "";
		CHECK(!svg_path_read(cases[i].d, &mm, &p, &n, err, sizeof err));
		CHECK(p == NULL && n == 0);
		CHECK_HAS(err, cases[i].msg);
	}
}

/* A document 200 x 100 mm with a viewBox in mm, a layer translated as Inkscape writes it, and two
 * panels: the front's outline as straight pieces, curves and an arc, the back a rectangle. */
static const char* const svg_doc =
	"<?xml version=\"1.0\"?>\n"
	"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"200mm\" height=\"100mm\" viewBox=\"0 0 200 100\">\n"
	"  <g id=\"layer1\" transform=\"translate(10, 5)\">\n"
	"    <path id=\"front\" d=\"M 0 80 H 60 C 70 60 70 30 60 10 Q 30 -5 0 10 A 40 40 0 0 1 0 80 Z\"/>\n"
	"    <path id=\"back\" d=\"M 100 80 h 60 v -70 h -60 z\"/>\n"
	"    <rect id=\"box\" x=\"0\" y=\"0\" width=\"5\" height=\"5\"/>\n"
	"    <path id=\"bow\" d=\"M 0 0 L 30 30 L 30 0 L 0 30 Z\"/>\n"
	"    <path id=\"bad\"\n d=\"M 0 0 L 30 x Z\"/>\n"
	"  </g>\n"
	"</svg>\n";

/* The same front in metres, typed as JSON: (x + 10) / 1000, (100 - (y + 5)) / 1000; the arc from
 * (10, 15) to (10, 85) of radius 40 mm, sweep 1 (clockwise once y is up): bulge -tan(theta / 4). */
static void front_json(char* buf, size_t size)
{
	const double half = asin(35.0 / 40.0), bulge = -tan(0.5 * half);
	snprintf(buf, size,
		 "{'name': 'front', 'outline': [{'at': [0.01, 0.015], 'corner': 'p0'}, {'at': [0.07, 0.015], 'corner': 'p1', "
		 "'cubic': [[0.08, 0.035], [0.08, 0.065]]}, {'at': [0.07, 0.085], 'corner': 'p2', 'quad': [0.04, 0.1]}, "
		 "{'at': [0.01, 0.085], 'corner': 'p3', 'arc': %.17g}], 'around': {'axis': [[0, 0, 0], [0, 0, 1]], "
		 "'radius': 0.1, 'side': 'front'}}",
		 bulge);
}

static const char* const back_svg = "{'name': 'back', 'outline': {'svg': 'p.svg', 'id': 'back'}, 'around': {'axis': "
				    "[[0, 0, 0], [0, 0, 1]], 'radius': 0.1, 'side': 'back'}}";
static const char* const seams = "'seams': [{'name': 's', 'a': {'panel': 'front', 'from': 'p0', 'to': 'p1'}, 'b': "
				 "{'panel': 'back', 'from': 'p1', 'to': 'p0', 'direction': 'backward'}}]";

static bool load(const scratch* s, const char* front, const char* back, scene* out, char* err, size_t size)
{
	char json[4096];
	snprintf(json, sizeof json, "{'cloths': [{'name': 'g', 'garment': {'triangle_size': 0.01, 'panels': [%s, %s], %s}}]}",
		 front, back, seams);
	memset(out, 0, sizeof *out);
	return scene_load_text(q(json), scratch_path(s, "scene.json"), out, err, size);
}

/* The front read from the SVG meshes exactly as the same outline typed in metres. */
static void test_svg_scene_round_trip(void)
{
	scratch s;
	scratch_open(&s);
	write_text(scratch_path(&s, "p.svg"), svg_doc);
	char typed[2048], err[1024] = "";
	front_json(typed, sizeof typed);
	scene a, b;
	const char* from_svg = "{'name': 'front', 'outline': {'svg': 'p.svg', 'id': 'front'}, 'around': {'axis': [[0, 0, 0], "
			       "[0, 0, 1]], 'radius': 0.1, 'side': 'front'}}";
	bool ok_a = load(&s, from_svg, back_svg, &a, err, sizeof err);
	CHECK(ok_a);
	if (!ok_a) fprintf(stderr, "  %s\n", err);
	bool ok_b = load(&s, typed, back_svg, &b, err, sizeof err);
	CHECK(ok_b);
	if (!ok_b) fprintf(stderr, "  %s\n", err);
	if (ok_a && ok_b) {
		const drape_mesh* ma = &a.cloths[0].mesh;
		const drape_mesh* mb = &b.cloths[0].mesh;
		CHECK(ma->vertex_count > 50 && ma->vertex_count == mb->vertex_count && ma->triangle_count == mb->triangle_count);
		double worst = 0.0;
		for (int32_t i = 0; ma->vertex_count == mb->vertex_count && i < 3 * ma->vertex_count; ++i)
			worst = fmax(worst, fabs(ma->positions[i] - mb->positions[i]));
		CHECK(worst < 1e-12);
		/* the seam p0 -> p1 (60 mm) pairs as many vertices on both panels */
		CHECK(a.seam_count == 1 && a.seams[0].pair_count == b.seams[0].pair_count && a.seams[0].pair_count >= 6);
	}
	if (ok_a) scene_free(&a);
	if (ok_b) scene_free(&b);
	scratch_close(&s);
}

/* Bad SVG panels: the scene's place, the SVG file, its line, the id and the reason. */
static void test_svg_scene_errors(void)
{
	scratch s;
	scratch_open(&s);
	write_text(scratch_path(&s, "p.svg"), svg_doc);
	write_text(scratch_path(&s, "broken.svg"), "<svg>\n<path id='front' d='M0 0'>\n</svg>\n");
	write_text(scratch_path(&s, "scaled.svg"),
		   "<svg width='100%' viewBox='0 0 10 10'><path id='front' d='M0 0H5V5z'/></svg>");
	write_text(scratch_path(&s, "turned.svg"),
		   "<svg><g transform='rotate(30)'><path id='front' d='M0 0H5V5z'/></g></svg>");
	static const struct {
		const char* file;
		const char* id;
		const char* msg;
	} cases[] = {
		{"p.svg", "frnt", "cloths[0].garment.panels[0].outline: p.svg: no element with id 'frnt'"},
		{"p.svg", "box", "p.svg:6: element 'box' is a <rect>, not a <path>"},
		{"p.svg", "bad", "p.svg:9: path 'bad' d: offset 11: expected a number, got 'x'"},
		{"p.svg", "bow", "p.svg: path 'bow': panel 'front': the outline crosses itself (its edge from point 0 (p0) to 1 (p1) meets the edge from point 2 (p2) to 3 (p3)"},
		{"broken.svg", "front", "broken.svg:4: not an SVG file"},
		{"missing.svg", "front", "missing.svg"},
		{"scaled.svg", "front", "width is not a length"},
		{"turned.svg", "front", "transform 'rotate(30)': only translate() is read"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
		char front[512], err[1024] = "";
		snprintf(front, sizeof front,
			 "{'name': 'front', 'outline': {'svg': '%s', 'id': '%s'}, 'around': {'axis': [[0, 0, 0], [0, 0, 1]], "
			 "'radius': 0.1}}",
			 cases[i].file, cases[i].id);
		scene sc;
		CHECK(!load(&s, front, back_svg, &sc, err, sizeof err));
		CHECK_HAS(err, cases[i].msg);
		CHECK_HAS(err, "scene.json:1: ");
	}
	scratch_close(&s);
}

const test_case svg_tests[] = {
	{"path_lines_and_closing", test_lines},
	{"path_beziers_and_reflections", test_beziers},
	{"path_arcs_circular_and_elliptical", test_arcs},
	{"path_bad_data_with_offset", test_bad_data},
	{"scene_svg_outline_matches_typed", test_svg_scene_round_trip},
	{"scene_svg_errors_named", test_svg_scene_errors},
	{NULL, NULL},
};
