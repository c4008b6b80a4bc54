/* Typed, validated access to a parsed cJSON tree for the scene loader: every failure is reported
 * as "file:line: json.path: message", with the line found by re-scanning the source text. */
#ifndef DRAPE_SCENE_JSON_H
#define DRAPE_SCENE_JSON_H

#include "drape.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where messages go and what they refer to. */
typedef struct json_ctx {
	const char* text; /* the parsed source, to turn a tree position into a line number */
	const char* file; /* names the source in messages */
	char* err;
	size_t err_size;
	/* Set to DRAPE_ERROR_MEMORY by a failure that was an allocation's (scene_out_of_memory); NULL
	 * where nobody asks. */
	drape_status* status;
} json_ctx;

/* A position in the tree: cJSON items know neither their parent nor their index, so validators
 * pass this chain down to name the JSON path of whatever is wrong. */
typedef struct jnode {
	const cJSON* item;
	const struct jnode* parent; /* NULL at the root */
} jnode;

/* Parses `text` (strict: nothing but whitespace after the value). On a syntax error returns NULL
 * with "file:line:col: JSON syntax error near '...'" in ctx->err. */
cJSON* json_parse(const json_ctx* c);

/* Writes "file[:line]: path: message" to ctx->err (`at` may be NULL for the whole file) and
 * returns false, so validators can `return json_fail(...)`. */
bool json_fail(const json_ctx* c, const jnode* at, const char* fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

/* The JSON path of `at` ("cloths[0].pins[2].vertex"), written to buf. */
void json_path(const jnode* at, char* buf, size_t size);

jnode json_node(const jnode* parent, const cJSON* item);

/* `at` must be an object whose keys are all in `keys` (NULL-terminated) and appear once each.
 * Unknown keys are reported with the closest known key when one is near. */
bool json_check_object(const json_ctx* c, const jnode* at, const char* const* keys);

/* The member `key` of an object, or NULL. Case-sensitive. */
const cJSON* json_get(const jnode* obj, const char* key);

/* Conversions of one item, with messages naming it. */
bool json_number(const json_ctx* c, const jnode* at, double* out); /* finite number */
bool json_integer(const json_ctx* c, const jnode* at, int64_t lo, int64_t hi, int32_t* out);
bool json_bool(const json_ctx* c, const jnode* at, bool* out);
bool json_string(const json_ctx* c, const jnode* at, const char** out); /* non-empty */
bool json_vector(const json_ctx* c, const jnode* at, int n, double* out);
bool json_array(const json_ctx* c, const jnode* at, int* count); /* any array */

/* "a number", "an array", ... for messages about a value of the wrong type. */
const char* json_type_name(const cJSON* j);

/* Range checks on a number already read from `at`. */
bool json_positive(const json_ctx* c, const jnode* at, double x);    /* x > 0 */
bool json_nonnegative(const json_ctx* c, const jnode* at, double x); /* x >= 0 */

/* Optional members: leave *out unchanged when the key is absent. */
bool json_opt_number(const json_ctx* c, const jnode* obj, const char* key, double* out);
bool json_opt_positive(const json_ctx* c, const jnode* obj, const char* key, double* out);
bool json_opt_nonnegative(const json_ctx* c, const jnode* obj, const char* key, double* out);
/* >= 0 and at most limit (drape_limits.h), in unit. */
bool json_opt_at_most(const json_ctx* c, const jnode* obj, const char* key, double limit, const char* unit, double* out);
bool json_opt_vector(const json_ctx* c, const jnode* obj, const char* key, int n, double* out);

#endif
