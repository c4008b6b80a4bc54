/* libFuzzer target: the scene JSON loader (src/io/scene*.c) on arbitrary text, through
 * scene_load_text, the in-memory entry that drape_scene_load reads files into. */
#include "io/scene.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The text is named as if it sat in scenes/, so the seeds' relative mesh and pattern files
 * resolve and the OBJ, garment and solid loaders behind the JSON are reached too. */
#define FUZZ_SCENE_PATH DRAPE_SOURCE_DIR "/scenes/fuzz_input.json"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	char* text = malloc(size + 1);
	if (!text) return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	scene s;
	char err[1024];
	bool ok = scene_load_text(text, FUZZ_SCENE_PATH, &s, err, sizeof err);
	free(text);
	/* The loader's contract (io/scene.h): a refusal always says why, and a scene has cloths. */
	if (!ok && err[0] == '\0') abort();
	if (ok) {
		if (s.cloth_count < 1) abort();
		scene_free(&s);
	}
	return 0;
}
