/* Wavefront OBJ reader: positions (v), rest coordinates (vt) and polygons (f), keeping the
 * position and uv index of every corner apart so that seams survive (paper footnote 3). Cloth
 * needs a vt at every corner; solids (obj_read_geometry) need only positions and faces. */
#define _POSIX_C_SOURCE 200809L
#include "obj_read.h"
#include "embedded.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Growable arrays of the mesh being read. */
typedef struct obj_reader {
	const char* path;
	long line;
	char* err;
	size_t err_size;
	bool need_uv; /* every corner must have a vt (cloth); else vt are optional and dropped */
	double* positions;
	int32_t vertex_count, vertex_cap;
	double* uvs;
	int32_t uv_count, uv_cap;
	int32_t* tris;    /* 3 vertex indices per triangle */
	int32_t* tri_uvs; /* 3 uv indices per triangle */
	int32_t tri_count, tri_cap;
	/* Corners of the face being read, reused from face to face. */
	int32_t* corner_v;
	int32_t* corner_vt;
	int32_t corner_cap;
	bool oom;
} obj_reader;

/* Statements that carry nothing drape uses (normals, grouping, materials, display hints, point
 * and line elements): skipped. */
static const char* const obj_ignored[] = {
	"vn",     "o",      "g",   "s",          "usemtl",    "mtllib", "l",        "p",        "mg",
	"usemap", "maplib", "lod", "shadow_obj", "trace_obj", "bevel",  "c_interp", "d_interp", NULL,
};

/* Free-form geometry: legal OBJ, but not a polygon mesh, so it gets a clearer message than an
 * unknown word. */
static const char* const obj_freeform[] = {
	"vp",   "cstype", "deg",  "bmat", "step", "curv", "curv2", "surf",  "parm",
	"trim", "hole",   "scrv", "sp",   "end",  "con",  "ctech", "stech", NULL,
};

static bool in_list(const char* const* list, const char* word)
{
	for (; *list; ++list)
		if (strcmp(*list, word) == 0) return true;
	return false;
}

static bool obj_fail(obj_reader* r, const char* fmt, ...)
{
	if (r->err && r->err_size > 0) {
		int n = r->line > 0 ? snprintf(r->err, r->err_size, "%s:%ld: ", r->path, r->line)
				    : snprintf(r->err, r->err_size, "%s: ", r->path);
		if (n >= 0 && (size_t)n < r->err_size) {
			va_list args;
			va_start(args, fmt);
			vsnprintf(r->err + n, r->err_size - (size_t)n, fmt, args);
			va_end(args);
		}
	}
	return false;
}

/* Room for one more item of `size` bytes at the end of `data` (the vertex and uv arrays).
 * Returns the (possibly moved) array, or NULL with the message set. */
static void* grow(obj_reader* r, void* data, int32_t* cap, int32_t count, size_t size)
{
	if (count < *cap) return data;
	if (count >= INT32_MAX / 4) {
		obj_fail(r, "too many elements for one mesh");
		return NULL;
	}
	int32_t next = *cap > 0 ? 2 * *cap : 64;
	void* p = realloc(data, size * (size_t)next);
	if (!p) {
		r->oom = true;
		obj_fail(r, "out of memory");
		return NULL;
	}
	*cap = next;
	return p;
}

static void obj_reader_free(obj_reader* r)
{
	free(r->positions);
	free(r->uvs);
	free(r->tris);
	free(r->tri_uvs);
	free(r->corner_v);
	free(r->corner_vt);
}

static bool parse_number(obj_reader* r, const char* tok, const char* what, double* out)
{
	char* end = NULL;
	errno = 0;
	double x = strtod(tok, &end);
	if (end == tok || *end != '\0') return obj_fail(r, "malformed number '%s' in %s", tok, what);
	/* strtod reads "nan", "inf" and overflows such as 1e400 to inf: none is a usable coordinate. */
	if (!isfinite(x)) return obj_fail(r, "non-finite number '%s' in %s", tok, what);
	*out = x;
	return true;
}

/* Reads "v x y z [w]" (or "v x y z r g b", a common vertex-colour extension). */
static bool read_vertex(obj_reader* r, char** tok, int n)
{
	if (n != 3 && n != 4 && n != 6)
		return obj_fail(r, "vertex (v) needs 3 coordinates x y z (optionally w), got %d number%s", n,
				n == 1 ? "" : "s");
	double* grown = grow(r, r->positions, &r->vertex_cap, r->vertex_count, 3 * sizeof(double));
	if (!grown) return false;
	r->positions = grown;
	double* p = r->positions + 3 * (size_t)r->vertex_count;
	for (int k = 0; k < n; ++k) {
		double x;
		if (!parse_number(r, tok[k], "vertex (v)", &x)) return false;
		if (k < 3) p[k] = x;
	}
	++r->vertex_count;
	return true;
}

/* Reads "vt u v [w]". */
static bool read_texcoord(obj_reader* r, char** tok, int n, double uv_scale)
{
	if (n != 2 && n != 3)
		return obj_fail(r, "texture coordinate (vt) needs 2 numbers u v (optionally w), got %d", n);
	double* grown = grow(r, r->uvs, &r->uv_cap, r->uv_count, 2 * sizeof(double));
	if (!grown) return false;
	r->uvs = grown;
	double* p = r->uvs + 2 * (size_t)r->uv_count;
	for (int k = 0; k < n; ++k) {
		double x;
		if (!parse_number(r, tok[k], "texture coordinate (vt)", &x)) return false;
		if (k < 2) p[k] = x * uv_scale;
		if (k < 2 && !isfinite(p[k]))
			return obj_fail(r, "texture coordinate '%s' times uv_scale %g is out of range", tok[k],
					uv_scale);
	}
	++r->uv_count;
	return true;
}

/* Parses one OBJ index ("12" or "-3") of `len` bytes at s; zero and malformed indices fail. */
static bool parse_index(obj_reader* r, const char* s, size_t len, int corner, long* out)
{
	char buf[32];
	if (len == 0 || len >= sizeof buf) return obj_fail(r, "face corner %d: malformed index", corner);
	memcpy(buf, s, len);
	buf[len] = '\0';
	char* end = NULL;
	errno = 0;
	long x = strtol(buf, &end, 10);
	if (end == buf || *end != '\0' || errno == ERANGE)
		return obj_fail(r, "face corner %d: malformed index '%s'", corner, buf);
	if (x == 0) return obj_fail(r, "face corner %d: index 0 is not valid (OBJ indices start at 1)", corner);
	*out = x;
	return true;
}

/* Turns a 1-based or negative (relative to the end) OBJ index into a 0-based one, checking that
 * the element was defined earlier in the file, as OBJ requires. */
static bool resolve_index(obj_reader* r, long x, int32_t count, const char* one, const char* many, int32_t* out)
{
	long abs_index = x > 0 ? x : (long)count + x + 1;
	if (abs_index >= 1 && abs_index <= count) {
		*out = (int32_t)(abs_index - 1);
		return true;
	}
	const char* rel = x < 0 ? " (relative)" : "";
	if (count == 0) return obj_fail(r, "face refers to %s %ld%s but no %s are defined so far", one, x, rel, many);
	return obj_fail(r, "face refers to %s %ld%s but only %d %s %s defined so far", one, x, rel, (int)count,
			count == 1 ? one : many, count == 1 ? "is" : "are");
}

/* Room for n corners of the face being read. */
static bool reserve_corners(obj_reader* r, int n)
{
	if (n <= r->corner_cap) return true;
	int32_t* cv = realloc(r->corner_v, sizeof(int32_t) * (size_t)n);
	if (cv) r->corner_v = cv;
	int32_t* cvt = cv ? realloc(r->corner_vt, sizeof(int32_t) * (size_t)n) : NULL;
	if (cvt) r->corner_vt = cvt;
	if (!cv || !cvt) {
		r->oom = true;
		return obj_fail(r, "out of memory");
	}
	r->corner_cap = n;
	return true;
}

/* Room for `extra` more triangles (vertex and uv indices grow together). */
static bool reserve_triangles(obj_reader* r, int32_t extra)
{
	if ((int64_t)r->tri_count + extra <= r->tri_cap) return true;
	if ((int64_t)r->tri_count + extra > INT32_MAX / 4) return obj_fail(r, "too many triangles for one mesh");
	int32_t next = r->tri_cap > 0 ? r->tri_cap : 64;
	while (next < r->tri_count + extra) next *= 2;
	int32_t* t = realloc(r->tris, sizeof(int32_t) * 3 * (size_t)next);
	if (t) r->tris = t;
	int32_t* tu = t ? realloc(r->tri_uvs, sizeof(int32_t) * 3 * (size_t)next) : NULL;
	if (tu) r->tri_uvs = tu;
	if (!t || !tu) {
		r->oom = true;
		return obj_fail(r, "out of memory");
	}
	r->tri_cap = next;
	return true;
}

static bool read_face(obj_reader* r, char** tok, int n)
{
	if (n < 3) return obj_fail(r, "face has %d corner%s; it needs at least 3", n, n == 1 ? "" : "s");
	if (!reserve_corners(r, n)) return false;

	for (int k = 0; k < n; ++k) {
		const char* s = tok[k];
		const char* slash1 = strchr(s, '/');
		const char* slash2 = slash1 ? strchr(slash1 + 1, '/') : NULL;
		if (slash2 && strchr(slash2 + 1, '/'))
			return obj_fail(r, "face corner %d: malformed corner '%s'", k + 1, s);
		long iv, ivt = 0;
		if (!parse_index(r, s, slash1 ? (size_t)(slash1 - s) : strlen(s), k + 1, &iv)) return false;
		size_t vt_len = slash1 ? (slash2 ? (size_t)(slash2 - slash1 - 1) : strlen(slash1 + 1)) : 0;
		/* "7/" is no corner shape of OBJ (that is "7", "7/2", "7//3" or "7/2/3"). */
		if (slash1 && !slash2 && vt_len == 0 && !r->need_uv)
			return obj_fail(r, "face corner %d: malformed corner '%s'", k + 1, s);
		if (vt_len == 0 && r->need_uv)
			return obj_fail(
				r, "face corner %d has no texture coordinate (vt): drape needs rest (u,v) coordinates",
				k + 1);
		if (vt_len > 0 && !parse_index(r, slash1 + 1, vt_len, k + 1, &ivt)) return false;
		if (slash2) {
			/* Normals are not used, but a corrupt normal index still means a corrupt file. */
			long ivn;
			if (slash2[1] != '\0' && !parse_index(r, slash2 + 1, strlen(slash2 + 1), k + 1, &ivn))
				return false;
		}
		if (!resolve_index(r, iv, r->vertex_count, "vertex", "vertices", &r->corner_v[k])) return false;
		/* Without a vt (geometry only) the corner's uv index is a placeholder, dropped at the end. */
		r->corner_vt[k] = -1;
		if (vt_len > 0 &&
		    !resolve_index(r, ivt, r->uv_count, "texture coordinate", "texture coordinates", &r->corner_vt[k]))
			return false;
		for (int m = 0; m < k; ++m)
			if (r->corner_v[m] == r->corner_v[k])
				return obj_fail(r, "face uses vertex %d twice", (int)r->corner_v[k] + 1);
	}

	/* A fan around the first corner: exact for the convex polygons that pattern tools export. */
	if (!reserve_triangles(r, n - 2)) return false;
	for (int k = 1; k + 1 < n; ++k) {
		int32_t* t = r->tris + 3 * (size_t)r->tri_count;
		int32_t* tu = r->tri_uvs + 3 * (size_t)r->tri_count;
		t[0] = r->corner_v[0], t[1] = r->corner_v[k], t[2] = r->corner_v[k + 1];
		tu[0] = r->corner_vt[0], tu[1] = r->corner_vt[k], tu[2] = r->corner_vt[k + 1];
		++r->tri_count;
	}
	return true;
}

/* Splits `line` in place into whitespace-separated tokens, dropping a '#' comment. Returns the
 * token count; *tokens is grown as needed. */
static int tokenize(char* line, char*** tokens, int* cap)
{
	char* hash = strchr(line, '#');
	if (hash) *hash = '\0';
	int n = 0;
	char* p = line;
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n' || *p == '\f' || *p == '\v') ++p;
		if (!*p) break;
		if (n == *cap) {
			int next = *cap > 0 ? 2 * *cap : 16;
			char** grown = realloc(*tokens, sizeof(char*) * (size_t)next);
			if (!grown) return -1;
			*tokens = grown;
			*cap = next;
		}
		(*tokens)[n++] = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n' && *p != '\f' && *p != '\v') ++p;
		if (*p) *p++ = '\0';
	}
	return n;
}

/* The parser behind both entry points; need_uv says whether every corner must carry a vt. */
static drape_status obj_read(const char* path, double uv_scale, bool need_uv, drape_mesh* out, char* err,
			     size_t err_size)
{
	if (out) memset(out, 0, sizeof *out);
	obj_reader r;
	memset(&r, 0, sizeof r);
	r.path = path ? path : "(null)";
	r.err = err;
	r.err_size = err_size;
	r.need_uv = need_uv;
	if (!path || !out) {
		obj_fail(&r, "NULL path or output mesh");
		return DRAPE_ERROR_INVALID;
	}
	if (!isfinite(uv_scale) || !(uv_scale > 0.0)) {
		obj_fail(&r, "uv_scale must be finite and > 0, got %g", uv_scale);
		return DRAPE_ERROR_INVALID;
	}
	FILE* f = embedded_or_file_open(path);
	if (!f) {
		obj_fail(&r, "cannot open: %s", strerror(errno));
		return DRAPE_ERROR_INVALID;
	}

	char* line = NULL;
	size_t line_cap = 0;
	char** tok = NULL;
	int tok_cap = 0;
	bool ok = true;
	for (;;) {
		errno = 0;
		ssize_t len = getline(&line, &line_cap, f);
		if (len < 0) {
			if (ferror(f)) ok = obj_fail(&r, "read error: %s", strerror(errno ? errno : EIO));
			break;
		}
		++r.line;
		if ((size_t)len != strlen(line)) {
			ok = obj_fail(&r, "contains a NUL byte: not a text OBJ file");
			break;
		}
		int n = tokenize(line, &tok, &tok_cap);
		if (n < 0) {
			r.oom = true;
			ok = obj_fail(&r, "out of memory");
			break;
		}
		if (n == 0) continue;
		const char* kw = tok[0];
		if (strcmp(kw, "v") == 0)
			ok = read_vertex(&r, tok + 1, n - 1);
		else if (strcmp(kw, "vt") == 0)
			ok = read_texcoord(&r, tok + 1, n - 1, uv_scale);
		else if (strcmp(kw, "f") == 0)
			ok = read_face(&r, tok + 1, n - 1);
		else if (in_list(obj_ignored, kw))
			ok = true;
		else if (in_list(obj_freeform, kw))
			ok = obj_fail(&r,
				      "'%s' is free-form geometry, which is not supported: drape needs a polygon mesh",
				      kw);
		else
			ok = obj_fail(&r, "unknown statement '%s'", kw);
		if (!ok) break;
	}
	free(line);
	free(tok);
	fclose(f);

	if (ok && r.tri_count == 0) {
		r.line = 0;
		ok = obj_fail(&r, need_uv ? "no faces (f): drape needs a triangle mesh with texture coordinates"
					  : "no faces (f): a solid mesh needs triangles");
	}
	if (!ok) {
		obj_reader_free(&r);
		return r.oom ? DRAPE_ERROR_MEMORY : DRAPE_ERROR_INVALID;
	}

	free(r.corner_v);
	free(r.corner_vt);
	if (!need_uv) {
		/* Corners may mix v and v/vt: no uv set is complete, so none is kept. */
		free(r.uvs);
		free(r.tri_uvs);
		r.uvs = NULL;
		r.tri_uvs = NULL;
		r.uv_count = 0;
	}
	out->vertex_count = r.vertex_count;
	out->positions = r.positions;
	out->uv_count = r.uv_count;
	out->uvs = r.uvs;
	out->triangle_count = r.tri_count;
	out->triangles = r.tris;
	out->triangle_uvs = r.tri_uvs;
	return DRAPE_OK;
}

drape_status drape_mesh_load_obj(const char* path, double uv_scale, drape_mesh* out, char* err, size_t err_size)
{
	return obj_read(path, uv_scale, true, out, err, err_size);
}

drape_status drape_mesh_load_obj_geometry(const char* path, drape_mesh* out, char* err, size_t err_size)
{
	return obj_read(path, 1.0, false, out, err, err_size);
}

bool obj_read_geometry(const char* path, drape_mesh* out, char* err, size_t err_size)
{
	return obj_read(path, 1.0, false, out, err, err_size) == DRAPE_OK;
}
