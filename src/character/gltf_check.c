/* glTF files that assimp 5.2 (Debian's) crashes on, refused before it reads them
 * (docs/reliability.md, "Fuzzing", findings 8, 12, 14 and 16). A skin without `inverseBindMatrices` is valid
 * glTF 2.0 (identity matrices are meant), but assimp's glTF2 importer dereferences the missing
 * accessor: a segmentation fault in aiImportFile, found by fuzz_character
 * (tests/fuzz_regressions/character/). Reading the JSON here costs one parse of the file's text,
 * small beside assimp's own. */
#include "gltf_check.h"
#include "file_text.h"

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static uint32_t read_u32(const unsigned char* p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A number-valued key of an object, or fallback when absent or not a number. */
static double number_or(const cJSON* o, const char* key, double fallback)
{
	const cJSON* n = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsNumber(n) ? n->valuedouble : fallback;
}

/* An index-valued key, -1 when absent or out of int's range. */
static int index_or_none(const cJSON* o, const char* key)
{
	const double d = number_or(o, key, -1.0);
	return d >= 0.0 && d < 2147483647.0 ? (int)d : -1;
}

/* Bytes of one element of an accessor, 0 when its type or component type is unknown. */
static double element_bytes(const cJSON* accessor)
{
	const int component = index_or_none(accessor, "componentType");
	const double size = component == 5120 || component == 5121 ? 1.0
			    : component == 5122 || component == 5123 ? 2.0
			    : component == 5125 || component == 5126 ? 4.0
								     : 0.0;
	const cJSON* t = cJSON_GetObjectItemCaseSensitive(accessor, "type");
	if (!cJSON_IsString(t)) return 0.0;
	static const struct {
		const char* name;
		double count;
	} types[] = {{"SCALAR", 1}, {"VEC2", 2}, {"VEC3", 3}, {"VEC4", 4}, {"MAT2", 4}, {"MAT3", 9}, {"MAT4", 16}};
	for (size_t k = 0; k < sizeof types / sizeof types[0]; ++k)
		if (strcmp(t->valuestring, types[k].name) == 0) return size * types[k].count;
	return 0.0;
}

/* glTF 2.0 requires every accessor's elements inside its buffer view and every view inside its
 * buffer; assimp 5.2 reads them without checking, past the end of its copy of the buffer (a
 * heap-buffer-overflow in aiImportFile, fuzzing finding 12). Accessors or views whose sizes are
 * missing are left to assimp, which refuses them. Returns false with why for the first outside. */
static bool accessors_inside(const cJSON* root, char* why, size_t why_size)
{
	const cJSON* buffers = cJSON_GetObjectItemCaseSensitive(root, "buffers");
	const cJSON* views = cJSON_GetObjectItemCaseSensitive(root, "bufferViews");
	int i = 0;
	const cJSON* view;
	cJSON_ArrayForEach(view, views)
	{
		const cJSON* buffer = cJSON_GetArrayItem(buffers, index_or_none(view, "buffer"));
		const double end = number_or(view, "byteOffset", 0.0) + number_or(view, "byteLength", 0.0);
		const double length = number_or(buffer, "byteLength", -1.0);
		if (buffer && length >= 0.0 && end > length) {
			snprintf(why, why_size,
				 "bufferViews[%d] ends at byte %.0f of a buffer of %.0f bytes (assimp 5.2 reads past the buffer)", i,
				 end, length);
			return false;
		}
		++i;
	}
	i = 0;
	const cJSON* accessor;
	cJSON_ArrayForEach(accessor, cJSON_GetObjectItemCaseSensitive(root, "accessors"))
	{
		const cJSON* v = cJSON_GetArrayItem(views, index_or_none(accessor, "bufferView"));
		const double bytes = element_bytes(accessor), count = number_or(accessor, "count", 0.0);
		/* Both are required; assimp reads an accessor without them with sizes of its own,
		 * again past the buffer (finding 12's second input). */
		if (bytes == 0.0) {
			snprintf(why, why_size, "accessors[%d] has no valid componentType and type (glTF 2.0 requires them)", i);
			return false;
		}
		if (v && count >= 1.0) {
			const double stride = number_or(v, "byteStride", bytes);
			const double end = number_or(accessor, "byteOffset", 0.0) + (count - 1.0) * stride + bytes;
			const double length = number_or(v, "byteLength", -1.0);
			if (length >= 0.0 && end > length) {
				snprintf(why, why_size,
					 "accessors[%d] ends at byte %.0f of a buffer view of %.0f bytes (assimp 5.2 reads past the "
					 "buffer)",
					 i, end, length);
				return false;
			}
		}
		++i;
	}
	return true;
}

/* glTF 2.0 lets an animation channel's target leave out `node` (the channel is then to be ignored),
 * but assimp 5.2 reads the missing node as the first node it has loaded: it animates that node, or,
 * when no scene, skin or channel loaded one, indexes an empty list (a null read in aiImportFile,
 * fuzzing finding 14). drape cannot tell which the file meant, so a channel without a target node
 * is refused. Returns false with why for the first such channel. */
static bool channels_have_nodes(const cJSON* root, char* why, size_t why_size)
{
	/* glTF 1.0's animations are an object whose channels name their node by "id": not checked */
	const cJSON* animations = cJSON_GetObjectItemCaseSensitive(root, "animations");
	if (!cJSON_IsArray(animations)) return true;
	int a = 0;
	const cJSON* animation;
	cJSON_ArrayForEach(animation, animations)
	{
		int c = 0;
		const cJSON* channel;
		cJSON_ArrayForEach(channel, cJSON_GetObjectItemCaseSensitive(animation, "channels"))
		{
			const cJSON* target = cJSON_GetObjectItemCaseSensitive(channel, "target");
			if (cJSON_IsObject(channel) && !cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(target, "node"))) {
				snprintf(why, why_size,
					 "animations[%d].channels[%d] has no target node, which the glTF importer of assimp "
					 "(5.2) applies to another node or crashes on",
					 a, c);
				return false;
			}
			++c;
		}
		++a;
	}
	return true;
}

bool character_gltf_importable(const char* path, char* why, size_t why_size)
{
	bool glb = file_has_extension(path, ".glb");
	if (!glb && !file_has_extension(path, ".gltf")) return true;
	size_t size = 0;
	bool no_memory;
	char* data = file_read_all(path, &size, &no_memory);
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
		if (size < 12 || memcmp(b, "glTF", 4) != 0) {
			free(data);
			snprintf(why, why_size, "is not a binary glTF file (it does not start with \"glTF\")");
			return false;
		}
		/* glTF 1.0's binary layout (KHR_binary_glTF) has no JSON chunk: left to assimp */
		if (size < 20 || memcmp(b + 16, "JSON", 4) != 0 || read_u32(b + 12) > size - 20) {
			free(data);
			return true;
		}
		json = data + 20;
		json_size = read_u32(b + 12);
	}
	cJSON* root = cJSON_ParseWithLength(json, json_size);
	free(data);
	/* A file assimp's glTF importers do not recognise is offered to every other importer by its
	 * content: an 8-byte "metric-," went to the OpenGEX reader, whose parser ran past the end of its
	 * buffer (a heap-buffer-overflow, fuzzing finding 16). A .gltf or .glb is read as glTF or not
	 * at all: its JSON must parse to an object whose asset has a version (glTF 1.0 and 2.0 require
	 * both). */
	const cJSON* asset = cJSON_GetObjectItemCaseSensitive(root, "asset");
	const cJSON* version = cJSON_GetObjectItemCaseSensitive(asset, "version");
	if (!cJSON_IsObject(root) || !cJSON_IsObject(asset) || !(cJSON_IsString(version) || cJSON_IsNumber(version))) {
		snprintf(why, why_size, "is not a glTF file: %s",
			 !cJSON_IsObject(root) ? "its JSON does not parse to an object" : "it has no asset.version");
		cJSON_Delete(root);
		return false;
	}
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
	if (ok) ok = accessors_inside(root, why, why_size);
	if (ok) ok = channels_have_nodes(root, why, why_size);
	cJSON_Delete(root);
	return ok;
}
