/* glTF files that assimp 5.2 (Debian's) crashes on, refused before it reads them
 * (docs/reliability.md, "Fuzzing", finding 8). A skin without `inverseBindMatrices` is valid
 * glTF 2.0 (identity matrices are meant), but assimp's glTF2 importer dereferences the missing
 * accessor: a segmentation fault in aiImportFile, found by fuzz_character
 * (tests/fuzz_regressions/character/). Reading the JSON here costs one parse of the file's text,
 * small beside assimp's own. */
#include "gltf_check.h"

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool has_extension(const char* path, const char* ext)
{
	size_t n = strlen(path), e = strlen(ext);
	return n > e && strcasecmp(path + n - e, ext) == 0;
}

/* The whole file, NUL-terminated; NULL if it cannot be read (*no_memory: for want of memory). */
static char* read_all(const char* path, size_t* size, bool* no_memory)
{
	*no_memory = false;
	FILE* f = fopen(path, "rb");
	if (!f) return NULL;
	char* text = NULL;
	long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
	if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && !(text = malloc((size_t)n + 1))) *no_memory = true;
	if (text) {
		if (fread(text, 1, (size_t)n, f) != (size_t)n) {
			free(text);
			text = NULL;
		} else {
			text[n] = '\0';
			*size = (size_t)n;
		}
	}
	fclose(f);
	return text;
}

static uint32_t read_u32(const unsigned char* p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

bool character_gltf_importable(const char* path, char* why, size_t why_size)
{
	bool glb = has_extension(path, ".glb");
	if (!glb && !has_extension(path, ".gltf")) return true;
	size_t size = 0;
	bool no_memory;
	char* data = read_all(path, &size, &no_memory);
	if (no_memory) {
		snprintf(why, why_size, "out of memory reading the file");
		return false;
	}
	if (!data) return true;
	const char* json = data;
	size_t json_size = size;
	if (glb) {
		/* header (magic, version, length), then the JSON chunk: its length, "JSON", the text */
		const unsigned char* b = (const unsigned char*)data;
		if (size < 20 || memcmp(b, "glTF", 4) != 0 || memcmp(b + 16, "JSON", 4) != 0 || read_u32(b + 12) > size - 20) {
			free(data);
			return true;
		}
		json = data + 20;
		json_size = read_u32(b + 12);
	}
	cJSON* root = cJSON_ParseWithLength(json, json_size);
	free(data);
	bool ok = true;
	const cJSON* skins = cJSON_GetObjectItemCaseSensitive(root, "skins");
	int i = 0;
	const cJSON* skin;
	cJSON_ArrayForEach(skin, skins)
	{
		if (cJSON_IsObject(skin) && !cJSON_GetObjectItemCaseSensitive(skin, "inverseBindMatrices")) {
			snprintf(why, why_size,
				 "skins[%d] has no inverseBindMatrices, which the glTF importer of assimp (5.2) crashes on; "
				 "re-export the file with them (identity matrices if the mesh is bound in the rest pose)",
				 i);
			ok = false;
			break;
		}
		++i;
	}
	cJSON_Delete(root);
	return ok;
}
