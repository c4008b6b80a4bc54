/* Patterns from DXF-AAMA (docs/garments.md, "Patterns from DXF-AAMA"): files written by an
 * independent writer (Debian's python3-ezdxf, tests/aama_dxf.py) read as panels: a piece with an
 * arc, a grain line and three notches (one on a vertex) meshes exactly as the same outline typed in metres, an
 * old-style POLYLINE piece likewise, a seam names a notch, and each bad file is refused with the
 * file, the piece and the reason. */
#include "test_io.h"

#include "io/scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char* const around = "'around': {'axis': [[0, 0, 0], [0, 0, 1]], 'radius': 0.2, 'side': '%s'}";

static bool write_files(const scratch* s)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "/usr/bin/python3 %s/tests/aama_dxf.py %s", DRAPE_SOURCE_DIR, s->dir);
	return system(cmd) == 0;
}

static bool load(const scratch* s, const char* front, const char* back, scene* out, char* err, size_t size)
{
	char json[8192], a[256], b[256];
	snprintf(a, sizeof a, around, "front");
	snprintf(b, sizeof b, around, "back");
	snprintf(json, sizeof json,
		 "{'cloths': [{'name': 'g', 'garment': {'triangle_size': 0.03, 'panels': [{'name': 'front', %s, %s}, "
		 "{'name': 'back', %s, %s}], 'seams': [{'name': 's1', 'ease': 0.2, 'a': {'panel': 'front', 'from': 'n2', 'to': 'p0'}, "
		 "'b': {'panel': 'back', 'from': 'p1', 'to': 'p0', 'direction': 'backward'}}, {'name': 's2', 'ease': 0.2, "
		 "'a': {'panel': 'front', 'from': 'n1', 'to': 'p2'}, 'b': {'panel': 'back', 'from': 'p2', 'to': 'p3'}}]}}]}",
		 front, a, back, b);
	memset(out, 0, sizeof *out);
	return scene_load_text(q(json), scratch_path(s, "scene.json"), out, err, size);
}

static void test_round_trip(void)
{
	scratch s;
	scratch_open(&s);
	CHECK(write_files(&s));
	/* the source's points in mm, in outline order with the notches where they split the edges */
	const double mm = 0.001;
	char front[2048], back[1024], err[1024] = "";
	snprintf(front, sizeof front,
		 "'grain': [0, 300], 'outline': [{'at': [0, 0], 'corner': 'p0'}, {'at': [%.17g, 0], 'corner': 'n0'}, "
		 "{'at': [%.17g, 0], 'corner': 'p1'}, {'at': [%.17g, %.17g], 'corner': 'n1'}, {'at': [%.17g, %.17g], "
		 "'corner': 'p2', 'arc': 0.25}, {'at': [0, %.17g], 'corner': 'n2'}]",
		 120 * mm, 300 * mm, 300 * mm, 250 * mm, 300 * mm, 400 * mm, 400 * mm);
	snprintf(back, sizeof back,
		 "'outline': [{'at': [0, 0], 'corner': 'p0'}, {'at': [%.17g, 0], 'corner': 'p1'}, {'at': [%.17g, %.17g], "
		 "'corner': 'p2'}, {'at': [0, %.17g], 'corner': 'p3'}]",
		 300 * mm, 300 * mm, 400 * mm, 400 * mm);
	scene a, b;
	bool ok_a = load(&s, "'outline': {'dxf': 'aama.dxf', 'piece': 'FRONT'}", "'outline': {'dxf': 'aama.dxf', 'piece': 'BACK'}",
			 &a, err, sizeof err);
	CHECK(ok_a);
	if (!ok_a) fprintf(stderr, "  %s\n", err);
	bool ok_b = load(&s, front, back, &b, err, sizeof err);
	CHECK(ok_b);
	if (!ok_b) fprintf(stderr, "  %s\n", err);
	if (ok_a && ok_b) {
		const drape_mesh* ma = &a.cloths[0].mesh;
		const drape_mesh* mb = &b.cloths[0].mesh;
		CHECK(ma->vertex_count > 100 && ma->vertex_count == mb->vertex_count && ma->triangle_count == mb->triangle_count);
		double worst = 0.0, worst_uv = 0.0;
		for (int32_t i = 0; ma->vertex_count == mb->vertex_count && i < 3 * ma->vertex_count; ++i)
			worst = fmax(worst, fabs(ma->positions[i] - mb->positions[i]));
		for (int32_t i = 0; ma->uv_count == mb->uv_count && i < 2 * ma->uv_count; ++i)
			worst_uv = fmax(worst_uv, fabs(ma->uvs[i] - mb->uvs[i]));
		CHECK(worst < 1e-12 && worst_uv < 1e-12 && ma->uv_count == mb->uv_count);
		/* the seams from notches n2 (on a vertex) and n1 (a slit) pair as the typed ones do */
		CHECK(a.seam_count == 2 && a.seams[0].pair_count == b.seams[0].pair_count && a.seams[0].pair_count >= 10 &&
		      a.seams[1].pair_count == b.seams[1].pair_count && a.seams[1].pair_count >= 5);
	}
	if (ok_a) scene_free(&a);
	if (ok_b) scene_free(&b);
	/* a unitless file with the units given */
	ok_a = load(&s, "'outline': {'dxf': 'aama.dxf', 'piece': 'FRONT'}",
		    "'outline': {'dxf': 'nounits.dxf', 'piece': 'BACK', 'units': 'mm'}", &a, err, sizeof err);
	CHECK(ok_a);
	if (ok_a) scene_free(&a);
	scratch_close(&s);
}

static void test_errors(void)
{
	scratch s;
	scratch_open(&s);
	CHECK(write_files(&s));
	static const struct {
		const char* outline;
		const char* msg;
	} cases[] = {
		{"{'dxf': 'empty.dxf', 'piece': 'FRONT'}", "panels[0].outline: empty.dxf: no pieces"},
		{"{'dxf': 'aama.dxf', 'piece': 'SLEEVE'}", "aama.dxf: no piece 'SLEEVE' (its pieces: FRONT, BACK)"},
		{"{'dxf': 'bad.dxf', 'piece': 'BOW'}",
		 "bad.dxf: piece 'BOW': panel 'front': the outline crosses itself (its edge from point 0 (p0) to 1 (p1) meets the "
		 "edge from point 2 (p2) to 3 (p3)"},
		{"{'dxf': 'bad.dxf', 'piece': 'STRAY'}", "bad.dxf: piece 'STRAY': notch n0 at (0.15, 0.01) m is not on the boundary"},
		{"{'dxf': 'bad.dxf', 'piece': 'OPEN'}", "bad.dxf: piece 'OPEN': its boundary on layer 1 is not closed"},
		{"{'dxf': 'nounits.dxf', 'piece': 'BACK'}", "nounits.dxf: the file's units ($INSUNITS 0)"},
		{"{'dxf': 'aama.dxf', 'piece': 'BACK', 'units': 'yd'}", "outline.units: unknown units 'yd'"},
		{"{'dxf': 'missing.dxf', 'piece': 'BACK'}", "missing.dxf: cannot read the DXF file"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
		char front[512], err[1024] = "";
		snprintf(front, sizeof front, "'outline': %s", cases[i].outline);
		scene sc;
		CHECK(!load(&s, front, "'outline': {'dxf': 'aama.dxf', 'piece': 'BACK'}", &sc, err, sizeof err));
		CHECK_HAS(err, cases[i].msg);
		CHECK_HAS(err, "scene.json:1: ");
	}
	scratch_close(&s);
}

const test_case dxf_tests[] = {
	{"aama_pieces_match_typed_outlines", test_round_trip},
	{"aama_errors_named", test_errors},
	{NULL, NULL},
};
