/* Validated access to cJSON trees for scene files. cJSON keeps no source positions, so an error
 * is located by walking the (already validated) source text to the offending member: the tree
 * path gives the ordinal of each member, and valid JSON can be skipped value by value. */
#include "scene_json.h"

#include "core.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------------
 * Source positions */

static void line_col(const char* text, long offset, long* line, long* col)
{
	long l = 1, start = 0;
	for (long i = 0; i < offset && text[i]; ++i) {
		if (text[i] == '\n') {
			++l;
			start = i + 1;
		}
	}
	*line = l;
	*col = offset - start + 1;
}

/* cJSON treats every byte <= 32 as whitespace; the scanner must agree with it. */
static long skip_ws(const char* t, long p)
{
	while (t[p] && (unsigned char)t[p] <= 32) ++p;
	return p;
}

static long skip_string(const char* t, long p)
{
	if (t[p] != '"') return -1;
	for (++p; t[p] && t[p] != '"'; ++p)
		if (t[p] == '\\' && !t[++p]) return -1;
	return t[p] == '"' ? p + 1 : -1;
}

static long skip_value(const char* t, long p);

/* Skips the members or elements of an object or array whose opening bracket is at p. */
static long skip_container(const char* t, long p)
{
	bool object = t[p] == '{';
	char close = object ? '}' : ']';
	p = skip_ws(t, p + 1);
	if (t[p] == close) return p + 1;
	for (;;) {
		if (object) {
			p = skip_string(t, p);
			if (p < 0) return -1;
			p = skip_ws(t, p);
			if (t[p] != ':') return -1;
			p = skip_ws(t, p + 1);
		}
		p = skip_value(t, p);
		if (p < 0) return -1;
		p = skip_ws(t, p);
		if (t[p] == close) return p + 1;
		if (t[p] != ',') return -1;
		p = skip_ws(t, p + 1);
	}
}

static long skip_value(const char* t, long p)
{
	char ch = t[p];
	if (ch == '{' || ch == '[') return skip_container(t, p);
	if (ch == '"') return skip_string(t, p);
	if (ch >= 'a' && ch <= 'z') {
		while (t[p] >= 'a' && t[p] <= 'z') ++p;
		return p;
	}
	if (ch == '-' || (ch >= '0' && ch <= '9')) {
		/* The characters cJSON hands to strtod. */
		while (t[p] && strchr("0123456789+-eE.", t[p])) ++p;
		return p;
	}
	return -1;
}

static int ordinal_of(const cJSON* parent, const cJSON* item)
{
	int k = 0;
	for (const cJSON* c = parent->child; c; c = c->next, ++k)
		if (c == item) return k;
	return -1;
}

/* Offset of the value of `at` in the text; *report gets where a message about it should point:
 * the member's key inside an object, else the value itself. -1 when it cannot be found. */
static long locate(const char* t, const jnode* at, long* report)
{
	if (!at->parent) {
		long p = 0;
		if ((unsigned char)t[0] == 0xEF && (unsigned char)t[1] == 0xBB && (unsigned char)t[2] == 0xBF) p = 3;
		p = skip_ws(t, p);
		*report = p;
		return p;
	}
	long ignored;
	long p = locate(t, at->parent, &ignored);
	int ordinal = ordinal_of(at->parent->item, at->item);
	if (p < 0 || ordinal < 0 || (t[p] != '{' && t[p] != '[')) return -1;
	bool object = t[p] == '{';
	p = skip_ws(t, p + 1);
	for (int k = 0; k <= ordinal; ++k) {
		long key = p;
		if (object) {
			p = skip_string(t, p);
			if (p < 0) return -1;
			p = skip_ws(t, p);
			if (t[p] != ':') return -1;
			p = skip_ws(t, p + 1);
		}
		if (k == ordinal) {
			*report = key;
			return p;
		}
		p = skip_value(t, p);
		if (p < 0) return -1;
		p = skip_ws(t, p);
		if (t[p] != ',') return -1;
		p = skip_ws(t, p + 1);
	}
	return -1;
}

/* ---------------------------------------------------------------------------------------------
 * Messages */

jnode json_node(const jnode* parent, const cJSON* item)
{
	jnode n = {item, parent};
	return n;
}

static size_t path_append(const jnode* at, char* buf, size_t size, size_t used)
{
	if (!at || !at->parent) return used;
	used = path_append(at->parent, buf, size, used);
	int n;
	if (cJSON_IsArray(at->parent->item))
		n = snprintf(buf + used, size - used, "[%d]", ordinal_of(at->parent->item, at->item));
	else
		n = snprintf(buf + used, size - used, "%s%s", used > 0 ? "." : "",
			     at->item->string ? at->item->string : "?");
	if (n < 0) return used;
	used += (size_t)n;
	return used < size ? used : size - 1;
}

void json_path(const jnode* at, char* buf, size_t size)
{
	if (size == 0) return;
	buf[0] = '\0';
	path_append(at, buf, size, 0);
}

bool json_fail(const json_ctx* c, const jnode* at, const char* fmt, ...)
{
	if (!c->err || c->err_size == 0) return false;
	char path[256];
	json_path(at, path, sizeof path);
	long line = 0, col = 0, report = -1;
	if (at && at->parent && c->text && locate(c->text, at, &report) >= 0) line_col(c->text, report, &line, &col);
	int n;
	if (line > 0)
		n = snprintf(c->err, c->err_size, "%s:%ld: %s%s", c->file, line, path, path[0] ? ": " : "");
	else
		n = snprintf(c->err, c->err_size, "%s: %s%s", c->file, path, path[0] ? ": " : "");
	if (n >= 0 && (size_t)n < c->err_size) {
		va_list args;
		va_start(args, fmt);
		vsnprintf(c->err + n, c->err_size - (size_t)n, fmt, args);
		va_end(args);
	}
	return false;
}

cJSON* json_parse(const json_ctx* c)
{
	const char* end = NULL;
	cJSON* root = cJSON_ParseWithOpts(c->text, &end, 1);
	if (root) return root;

	long len = (long)strlen(c->text);
	long offset = end ? (long)(end - c->text) : 0;
	if (offset < 0 || offset > len) offset = 0;
	bool at_end = offset >= len;
	if (at_end) {
		/* Point at the last real character, where the text was cut short. */
		offset = len > 0 ? len - 1 : 0;
		while (offset > 0 && (unsigned char)c->text[offset] <= 32) --offset;
	}
	/* cJSON sometimes stops one past the offending token (a trailing comma in an object ends
	 * up after the '}'); a message about whitespace helps nobody, so step back to the token. */
	if (!at_end && (unsigned char)c->text[offset] <= 32)
		while (offset > 0 && (unsigned char)c->text[offset] <= 32) --offset;
	/* cJSON stops on the second character of a comment opener; point at the first. */
	if (offset > 0 && c->text[offset - 1] == '/' && (c->text[offset] == '/' || c->text[offset] == '*')) --offset;
	long line, col;
	line_col(c->text, offset, &line, &col);
	if (skip_ws(c->text, 0) >= len) {
		snprintf(c->err, c->err_size, "%s:1:1: JSON syntax error: the text is empty", c->file);
	} else if (at_end) {
		snprintf(c->err, c->err_size, "%s:%ld:%ld: JSON syntax error: unexpected end of text", c->file, line,
			 col);
	} else {
		char near[24];
		size_t k = 0;
		while (k + 1 < sizeof near && c->text[offset + (long)k] &&
		       (unsigned char)c->text[offset + (long)k] >= 32)
			near[k] = c->text[offset + (long)k], ++k;
		near[k] = '\0';
		const char* hint =
			(near[0] == '/' && (near[1] == '/' || near[1] == '*')) ? " (JSON has no comments)" : "";
		snprintf(c->err, c->err_size, "%s:%ld:%ld: JSON syntax error near '%s'%s", c->file, line, col, near,
			 hint);
	}
	return NULL;
}

/* ---------------------------------------------------------------------------------------------
 * Keys */

const char* json_type_name(const cJSON* j)
{
	if (cJSON_IsNumber(j)) return "a number";
	if (cJSON_IsString(j)) return "a string";
	if (cJSON_IsBool(j)) return "a boolean";
	if (cJSON_IsNull(j)) return "null";
	if (cJSON_IsArray(j)) return "an array";
	if (cJSON_IsObject(j)) return "an object";
	return "an invalid value";
}

static bool wrong_type(const json_ctx* c, const jnode* at, const char* expected)
{
	if (cJSON_IsString(at->item))
		return json_fail(c, at, "expected %s, got a string (\"%.40s\")", expected, at->item->valuestring);
	return json_fail(c, at, "expected %s, got %s", expected, json_type_name(at->item));
}

bool json_check_object(const json_ctx* c, const jnode* at, const char* const* keys)
{
	if (!cJSON_IsObject(at->item)) return wrong_type(c, at, "an object");
	for (const cJSON* m = at->item->child; m; m = m->next) {
		jnode mn = json_node(at, m);
		bool known = false;
		for (const char* const* k = keys; *k; ++k)
			if (strcmp(*k, m->string) == 0) known = true;
		if (!known) {
			/* Suggest the nearest key, but only when it is a plausible typo rather than a
			 * different word: within 3 edits and fewer edits than the key is long. */
			int32_t key_count = 0;
			while (keys[key_count]) ++key_count;
			const char* best = drape_closest_name(m->string, keys, key_count);
			if (best) return json_fail(c, &mn, "unknown key (did you mean '%s'?)", best);
			char list[256];
			size_t used = 0;
			list[0] = '\0';
			for (const char* const* k = keys; *k && used + 1 < sizeof list; ++k) {
				int n = snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "", *k);
				if (n < 0) break;
				used += (size_t)n;
			}
			return json_fail(c, &mn, "unknown key (valid keys here: %s)", list);
		}
		for (const cJSON* e = at->item->child; e != m; e = e->next)
			if (strcmp(e->string, m->string) == 0) return json_fail(c, &mn, "duplicate key");
	}
	return true;
}

const cJSON* json_get(const jnode* obj, const char* key)
{
	return cJSON_GetObjectItemCaseSensitive(obj->item, key);
}

/* ---------------------------------------------------------------------------------------------
 * Values */

bool json_number(const json_ctx* c, const jnode* at, double* out)
{
	if (!cJSON_IsNumber(at->item)) return wrong_type(c, at, "a number");
	double x = at->item->valuedouble;
	/* JSON has no NaN or Inf literals, but 1e400 overflows to inf. */
	if (!isfinite(x)) return json_fail(c, at, "must be a finite number, got %g (out of range for a double)", x);
	*out = x;
	return true;
}

bool json_integer(const json_ctx* c, const jnode* at, int64_t lo, int64_t hi, int32_t* out)
{
	double x;
	if (!cJSON_IsNumber(at->item)) return wrong_type(c, at, "an integer");
	if (!json_number(c, at, &x)) return false;
	if (x != floor(x)) return json_fail(c, at, "expected an integer, got %.17g", x);
	if (x < (double)lo) return json_fail(c, at, "must be >= %lld, got %.17g", (long long)lo, x);
	if (x > (double)hi) return json_fail(c, at, "must be <= %lld, got %.17g", (long long)hi, x);
	*out = (int32_t)x;
	return true;
}

bool json_bool(const json_ctx* c, const jnode* at, bool* out)
{
	if (!cJSON_IsBool(at->item)) return wrong_type(c, at, "true or false");
	*out = cJSON_IsTrue(at->item);
	return true;
}

bool json_string(const json_ctx* c, const jnode* at, const char** out)
{
	if (!cJSON_IsString(at->item)) return wrong_type(c, at, "a string");
	if (at->item->valuestring[0] == '\0') return json_fail(c, at, "must not be empty");
	*out = at->item->valuestring;
	return true;
}

bool json_array(const json_ctx* c, const jnode* at, int* count)
{
	if (!cJSON_IsArray(at->item)) return wrong_type(c, at, "an array");
	*count = cJSON_GetArraySize(at->item);
	return true;
}

bool json_vector(const json_ctx* c, const jnode* at, int n, double* out)
{
	char what[48];
	snprintf(what, sizeof what, "an array of %d numbers", n);
	if (!cJSON_IsArray(at->item)) return wrong_type(c, at, what);
	int size = cJSON_GetArraySize(at->item);
	if (size != n) return json_fail(c, at, "expected %s, got %d element%s", what, size, size == 1 ? "" : "s");
	int k = 0;
	for (const cJSON* e = at->item->child; e; e = e->next, ++k) {
		jnode en = json_node(at, e);
		if (!json_number(c, &en, &out[k])) return false;
	}
	return true;
}

bool json_positive(const json_ctx* c, const jnode* at, double x)
{
	return x > 0.0 ? true : json_fail(c, at, "must be > 0, got %g", x);
}

bool json_nonnegative(const json_ctx* c, const jnode* at, double x)
{
	return x >= 0.0 ? true : json_fail(c, at, "must be >= 0, got %g", x);
}

bool json_opt_number(const json_ctx* c, const jnode* obj, const char* key, double* out)
{
	const cJSON* m = json_get(obj, key);
	if (!m) return true;
	jnode mn = json_node(obj, m);
	return json_number(c, &mn, out);
}

bool json_opt_positive(const json_ctx* c, const jnode* obj, const char* key, double* out)
{
	const cJSON* m = json_get(obj, key);
	if (!m) return true;
	jnode mn = json_node(obj, m);
	double x;
	if (!json_number(c, &mn, &x) || !json_positive(c, &mn, x)) return false;
	*out = x;
	return true;
}

bool json_opt_nonnegative(const json_ctx* c, const jnode* obj, const char* key, double* out)
{
	const cJSON* m = json_get(obj, key);
	if (!m) return true;
	jnode mn = json_node(obj, m);
	double x;
	if (!json_number(c, &mn, &x) || !json_nonnegative(c, &mn, x)) return false;
	*out = x;
	return true;
}

bool json_opt_at_most(const json_ctx* c, const jnode* obj, const char* key, double limit, const char* unit, double* out)
{
	const cJSON* m = json_get(obj, key);
	if (!m) return true;
	jnode mn = json_node(obj, m);
	double x;
	if (!json_number(c, &mn, &x) || !json_nonnegative(c, &mn, x)) return false;
	if (!(x <= limit))
		return json_fail(c, &mn, "%g %s is beyond drape's range (%g %s, docs/reliability.md)", x, unit, limit, unit);
	*out = x;
	return true;
}

bool json_opt_vector(const json_ctx* c, const jnode* obj, const char* key, int n, double* out)
{
	const cJSON* m = json_get(obj, key);
	if (!m) return true;
	jnode mn = json_node(obj, m);
	return json_vector(c, &mn, n, out);
}
