/* libFuzzer target: a panel outline from a DXF-AAMA file (src/garment/dxf_aama.cpp through
 * Debian's dxflib, src/io/scene_dxf.c; docs/garments.md, "Patterns from DXF-AAMA"). The input is
 * the DXF file; a fixed scene names its piece FRONT (then BACK) as one flat panel of a garment, so a read
 * piece goes on through notch insertion, the simplicity check and the garment's meshing as a
 * user's file would. The triangle size is coarse (15 cm: a few dozen triangles a panel, a third of an
 * execution at 5 cm): meshing is fuzz_scene's, the file is this one's. */
#include "io/scene.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The file lives in a directory of this process's own (fuzzers may run side by side), removed at
 * exit; the scene is named as if it sat beside it. */
static char dir[4096], dxf_path[4200], scene_path[4200];

int LLVMFuzzerInitialize(int* argc, char*** argv);
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static void remove_dir(void)
{
	unlink(dxf_path);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int* argc, char*** argv)
{
	(void)argc;
	(void)argv;
	const char* tmp = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/drape-fuzz-dxf-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror("fuzz_dxf: mkdtemp");
		exit(1);
	}
	snprintf(dxf_path, sizeof dxf_path, "%s/pattern.dxf", dir);
	snprintf(scene_path, sizeof scene_path, "%s/fuzz_input.json", dir);
	atexit(remove_dir);
	return 0;
}

/* Loads the scene with the panel read from piece `piece`; aborts on a broken promise. */
static void load_piece(const char* piece)
{
	char text[512];
	snprintf(text, sizeof text,
		 "{\"cloths\": [{\"name\": \"panel\", \"garment\": {\"triangle_size\": 0.15, \"panels\": [\n"
		 " {\"name\": \"p\", \"outline\": {\"dxf\": \"pattern.dxf\", \"piece\": \"%s\"},\n"
		 "  \"flat\": {\"center\": [0, 0, 1], \"normal\": [0, -1, 0]}}]}}]}\n",
		 piece);
	scene s;
	char err[1024] = "";
	bool ok = scene_load_text(text, scene_path, &s, err, sizeof err);
	/* A refusal says why and names the scene file (the loader's rule: file, reason). */
	if (!ok && !strstr(err, "fuzz_input.json")) {
		fprintf(stderr, "fuzz_dxf: refusal without the file's name: '%s'\n", err);
		abort();
	}
	if (ok) {
		if (s.cloth_count != 1) abort();
		scene_free(&s);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	FILE* f = fopen(dxf_path, "wb");
	if (!f) abort();
	if (size && fwrite(data, 1, size, f) != size) abort();
	if (fclose(f) != 0) abort();
	/* FRONT and BACK: the seeds hold a piece of each kind of boundary under these names, an
	 * LWPOLYLINE with bulges and notches (FRONT) and an old-style POLYLINE of VERTEXes (BACK). */
	load_piece("FRONT");
	load_piece("BACK");
	return 0;
}
