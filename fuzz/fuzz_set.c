/* libFuzzer target: `--set key.path=value` overrides (src/io/scene_set.c), one per input line,
 * applied to the built-in figure 2 sheet and validated, as `drape run --set` does. */
#include "io/embedded.h"
#include "io/scene.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_MAX_SETS 16

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	char* text = malloc(size + 1);
	if (!text) return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	const char* sets[FUZZ_MAX_SETS];
	int32_t count = 0;
	for (char* line = text; line && count < FUZZ_MAX_SETS;) {
		char* nl = strchr(line, '\n');
		if (nl) *nl = '\0';
		sets[count++] = line;
		line = nl ? nl + 1 : NULL;
	}
	scene s;
	char err[1024];
	bool ok = scene_load_text_set(embedded_text("figure2_sheet.json"), EMBEDDED_PREFIX "figure2_sheet.json", sets,
				      count, &s, err, sizeof err);
	if (!ok && err[0] == '\0') abort();
	if (ok) {
		/* summary.json records exactly the overrides given. */
		if (s.set_count != count) abort();
		for (int32_t i = 0; i < count; ++i)
			if (strcmp(s.sets[i], sets[i]) != 0) abort();
		scene_free(&s);
	}
	free(text);
	return 0;
}
