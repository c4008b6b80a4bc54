/* `--set key.path=value` overrides of a scene file (docs/batch.md, docs/scene-format.md): each is
 * applied to the parsed JSON tree before validation, so an override is checked exactly like the
 * same value written in the file (unknown keys get the loader's "did you mean" suggestion). */
#include "io/scene_set.h"

#include "io/scene_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool fail(const json_ctx* c, const char* set, const char* what)
{
	snprintf(c->err, c->err_size, "--set '%s': %s", set, what);
	return false;
}

/* A whole decimal number (an array index), or -1. */
static long index_of(const char* seg)
{
	if (!*seg) return -1;
	for (const char* p = seg; *p; ++p)
		if (!isdigit((unsigned char)*p)) return -1;
	return strlen(seg) > 9 ? 1000000000L : strtol(seg, NULL, 10);
}

/* The value as JSON when it parses as JSON (5000, true, [0, 0, -9.81], "text"), else as a
 * string, so that name=cotton needs no quotes. */
static cJSON* parse_value(const char* text)
{
	const char* end = NULL;
	cJSON* v = cJSON_ParseWithOpts(text, &end, true);
	return v ? v : cJSON_CreateString(text);
}

static bool apply_one(const json_ctx* c, cJSON* root, const char* set)
{
	const char* eq = strchr(set, '=');
	if (!eq || eq == set) return fail(c, set, "expected KEY.PATH=VALUE");
	size_t key_len = (size_t)(eq - set);
	char* key = malloc(key_len + 1);
	if (!key) return fail(c, set, "out of memory");
	memcpy(key, set, key_len);
	key[key_len] = '\0';
	cJSON* node = root;
	char path[512] = "", msg[700];
	bool ok = true;
	char* save = NULL;
	char* seg = strtok_r(key, ".", &save);
	if (!seg) ok = fail(c, set, "empty key");
	while (ok && seg) {
		char* next = strtok_r(NULL, ".", &save);
		cJSON* child = NULL;
		if (cJSON_IsArray(node)) {
			long i = index_of(seg);
			int n = cJSON_GetArraySize(node);
			if (i < 0) {
				snprintf(msg, sizeof msg, "'%s' is an array: expected an index (0, 1, ...), got '%s'", path, seg);
				ok = fail(c, set, msg);
				break;
			}
			if (i >= n) {
				snprintf(msg, sizeof msg, "index %ld out of range (%s has %d element%s)", i, path, n,
					 n == 1 ? "" : "s");
				ok = fail(c, set, msg);
				break;
			}
			child = cJSON_GetArrayItem(node, (int)i);
			if (!next) {
				cJSON* v = parse_value(eq + 1);
				ok = v && cJSON_ReplaceItemInArray(node, (int)i, v);
				if (!ok) fail(c, set, "out of memory");
				break;
			}
		} else if (cJSON_IsObject(node)) {
			child = cJSON_GetObjectItemCaseSensitive(node, seg);
			if (!next) {
				cJSON* v = parse_value(eq + 1);
				ok = v && (child ? cJSON_ReplaceItemInObjectCaseSensitive(node, seg, v)
						 : cJSON_AddItemToObject(node, seg, v));
				if (!ok) fail(c, set, "out of memory");
				break;
			}
			/* A missing object on the way is made, so `wind.velocity=[1,0,0]` works on a file
			 * without "wind"; an unknown key is then refused by the validator. */
			if (!child) {
				child = cJSON_AddObjectToObject(node, seg);
				if (!child) {
					ok = fail(c, set, "out of memory");
					break;
				}
			}
		} else {
			snprintf(msg, sizeof msg, "'%s' is %s, not an object or array: nothing inside it to set",
				 path[0] ? path : "the scene", json_type_name(node));
			ok = fail(c, set, msg);
			break;
		}
		size_t used = strlen(path);
		snprintf(path + used, sizeof path - used, "%s%s", used ? "." : "", seg);
		node = child;
		seg = next;
	}
	free(key);
	return ok;
}

bool scene_apply_sets(const json_ctx* c, cJSON* root, const char* const* sets, int32_t count)
{
	for (int32_t i = 0; i < count; ++i)
		if (!apply_one(c, root, sets[i])) return false;
	return true;
}

bool scene_keep_sets(const json_ctx* c, scene* s, const char* const* sets, int32_t count)
{
	if (count <= 0) return true;
	s->sets = calloc((size_t)count, sizeof *s->sets);
	if (!s->sets) return fail(c, sets[0], "out of memory");
	for (int32_t i = 0; i < count; ++i) {
		s->sets[i] = scene_copy_string(sets[i]);
		if (!s->sets[i]) return fail(c, sets[i], "out of memory");
		s->set_count = i + 1;
	}
	return true;
}

void scene_blame_set(char* err, size_t err_size, const char* const* sets, int32_t count)
{
	for (int32_t i = 0; i < count; ++i) {
		/* "cloths.0.material.stretch=..." names "cloths[0].material.stretch" in messages. */
		char path[512];
		size_t n = 0;
		for (const char* p = sets[i]; *p && *p != '=' && n + 4 < sizeof path; ++p) {
			if (*p == '.' && isdigit((unsigned char)p[1])) {
				path[n++] = '[';
				for (++p; isdigit((unsigned char)*p) && n + 2 < sizeof path; ++p) path[n++] = *p;
				path[n++] = ']';
				--p;
			} else {
				path[n++] = *p;
			}
		}
		path[n] = '\0';
		size_t used = strlen(err);
		if (n > 0 && strstr(err, path) && used + 1 < err_size) {
			snprintf(err + used, err_size - used, " (set by --set '%s')", sets[i]);
			return;
		}
	}
}
