/* A panel's outline from an SVG file (docs/garments.md, "Patterns from SVG"; docs/scene-format.md):
 * `"outline": {"svg": "pattern.svg", "id": "front"}`. libxml2 reads the XML and finds the <path>
 * by its id; its `d` is read by garment/svg_path.c, in metres through the document's size and
 * viewBox (y up). The two helpers shared with scene_dxf.c read an outline reference and check the
 * outline read is simple. */
#include "scene_internal.h"

#include "garment/svg_path.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PX_METRES (0.0254 / 96.0) /* CSS: 96 px to the inch */

static bool is_name(const xmlNode* n, const char* name)
{
	return n->type == XML_ELEMENT_NODE && strcmp((const char*)n->name, name) == 0;
}

/* The element with id `id`, in document order, without recursion (deep files do not overflow). */
static xmlNode* find_id(xmlNode* root, const char* id)
{
	xmlNode* n = root;
	while (n) {
		if (n->type == XML_ELEMENT_NODE) {
			xmlChar* v = xmlGetProp(n, (const xmlChar*)"id");
			bool hit = v && strcmp((const char*)v, id) == 0;
			xmlFree(v);
			if (hit) return n;
		}
		if (n->children && n->type == XML_ELEMENT_NODE) {
			n = n->children;
			continue;
		}
		while (n && !n->next && n != root) n = n->parent;
		if (!n || n == root) return NULL;
		n = n->next;
	}
	return NULL;
}

/* An SVG length in metres ("210mm", "8.5in", "600" = px); false for %, em and unknown units. */
static bool length_metres(const char* s, double* out)
{
	char* end;
	double v = strtod(s, &end);
	if (end == s || !isfinite(v) || v <= 0.0) return false;
	while (*end == ' ') end++;
	static const struct {
		const char* unit;
		double metres;
	} units[] = {{"", PX_METRES}, {"px", PX_METRES}, {"pt", 0.0254 / 72.0}, {"pc", 0.0254 / 6.0},
		     {"mm", 0.001},   {"cm", 0.01},       {"in", 0.0254}};
	for (size_t k = 0; k < sizeof units / sizeof units[0]; ++k)
		if (strcmp(end, units[k].unit) == 0) {
			*out = v * units[k].metres;
			return true;
		}
	return false;
}

/* Reads a list of translate(tx [ty]) into t (user units); false for any other transform. */
static bool read_translate(const char* s, double t[2])
{
	for (;;) {
		while (*s == ' ' || *s == ',' || *s == '\t' || *s == '\n' || *s == '\r') s++;
		if (!*s) return true;
		if (strncmp(s, "translate", 9) != 0) return false;
		s += 9;
		while (*s == ' ') s++;
		if (*s++ != '(') return false;
		char* end;
		double v[2] = {0.0, 0.0};
		v[0] = strtod(s, &end);
		if (end == s) return false;
		s = end;
		while (*s == ' ' || *s == ',') s++;
		if (*s != ')') {
			v[1] = strtod(s, &end);
			if (end == s) return false;
			s = end;
			while (*s == ' ') s++;
		}
		if (*s++ != ')' || !isfinite(v[0]) || !isfinite(v[1])) return false;
		t[0] += v[0], t[1] += v[1];
	}
}

/* The document's user units in metres (width/height over the viewBox, uniform unless
 * preserveAspectRatio="none"; px without a viewBox), origin at the viewBox's bottom left. */
static const char* document_map(xmlNode* root, svg_map* map)
{
	xmlChar* w = xmlGetProp(root, (const xmlChar*)"width");
	xmlChar* h = xmlGetProp(root, (const xmlChar*)"height");
	xmlChar* vb = xmlGetProp(root, (const xmlChar*)"viewBox");
	xmlChar* par = xmlGetProp(root, (const xmlChar*)"preserveAspectRatio");
	const char* why = NULL;
	double wm = 0.0, hm = 0.0, box[4] = {0.0, 0.0, 0.0, 0.0};
	if (w && !length_metres((const char*)w, &wm)) why = "the svg element's width is not a length in px, pt, pc, mm, cm or in";
	if (h && !length_metres((const char*)h, &hm)) why = "the svg element's height is not a length in px, pt, pc, mm, cm or in";
	if (!why && vb) {
		const char* s = (const char*)vb;
		for (int k = 0; k < 4 && !why; ++k) {
			while (*s == ' ' || *s == ',') s++;
			char* end;
			box[k] = strtod(s, &end);
			if (end == s || !isfinite(box[k])) why = "the svg element's viewBox is not four numbers";
			s = end;
		}
		if (!why && !(box[2] > 0.0 && box[3] > 0.0)) why = "the svg element's viewBox has no area";
	}
	map->scale[0] = map->scale[1] = PX_METRES;
	map->origin[0] = 0.0;
	map->origin[1] = hm > 0.0 ? hm / PX_METRES : 0.0;
	if (!why && vb) {
		if (!w && !h) wm = box[2] * PX_METRES, hm = box[3] * PX_METRES;
		if (!w) wm = hm * box[2] / box[3];
		if (!h) hm = wm * box[3] / box[2];
		const double sx = wm / box[2], sy = hm / box[3];
		const bool none = par && strncmp((const char*)par, "none", 4) == 0;
		map->scale[0] = none ? sx : fmin(sx, sy);
		map->scale[1] = none ? sy : fmin(sx, sy);
		map->origin[0] = box[0];
		map->origin[1] = box[1] + box[3];
	}
	xmlFree(w);
	xmlFree(h);
	xmlFree(vb);
	xmlFree(par);
	return why;
}

/* The outline from the path: false with a message naming the SVG file, its line and the id. */
static bool read_outline(const json_ctx* c, const jnode* n, const char* file, const char* path, const char* id,
			 pattern_point** points, int32_t* count)
{
	xmlDoc* doc = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	if (!doc) {
		const xmlError* e = xmlGetLastError();
		char msg[256];
		snprintf(msg, sizeof msg, "%s", e && e->message ? e->message : "cannot read the file\n");
		msg[strcspn(msg, "\n")] = '\0';
		return json_fail(c, n, "%s:%d: not an SVG file: %s", file, e ? e->line : 0, msg);
	}
	xmlNode* root = xmlDocGetRootElement(doc);
	bool ok = false;
	svg_map map;
	const char* why = root && is_name(root, "svg") ? document_map(root, &map) : "the root element is not <svg>";
	xmlNode* el = why ? NULL : find_id(root, id);
	xmlChar* d = NULL;
	double t[2] = {0.0, 0.0};
	if (why) {
		json_fail(c, n, "%s:%ld: %s", file, root ? xmlGetLineNo(root) : 0L, why);
	} else if (!el) {
		json_fail(c, n, "%s: no element with id '%s'", file, id);
	} else if (!is_name(el, "path")) {
		json_fail(c, n, "%s:%ld: element '%s' is a <%s>, not a <path> (Inkscape: Path > Object to Path)", file,
			  xmlGetLineNo(el), id, (const char*)el->name);
	} else if (!(d = xmlGetProp(el, (const xmlChar*)"d"))) {
		json_fail(c, n, "%s:%ld: path '%s' has no path data ('d')", file, xmlGetLineNo(el), id);
	} else {
		ok = true;
		for (xmlNode* a = el; ok && a && a->type == XML_ELEMENT_NODE; a = a->parent) {
			xmlChar* tr = xmlGetProp(a, (const xmlChar*)"transform");
			if (tr && !read_translate((const char*)tr, t))
				ok = json_fail(c, n, "%s:%ld: transform '%s': only translate() is read; apply other transforms to "
						     "the path in the editor",
					       file, xmlGetLineNo(a), (const char*)tr);
			xmlFree(tr);
		}
		/* translate(t): user point u lands at u + t */
		map.origin[0] -= t[0], map.origin[1] -= t[1];
		char msg[256];
		if (ok && !svg_path_read((const char*)d, &map, points, count, msg, sizeof msg))
			ok = json_fail(c, n, "%s:%ld: path '%s' d: %s", file, xmlGetLineNo(el), id, msg);
	}
	xmlFree(d);
	xmlFreeDoc(doc);
	return ok;
}

bool scene_outline_ref(const json_ctx* c, const jnode* n, const char* const* names, const char* v[2])
{
	for (int k = 0; k < 2; ++k) {
		const cJSON* item = json_get(n, names[k]);
		if (!item) return json_fail(c, n, "missing required key '%s'", names[k]);
		jnode in = json_node(n, item);
		if (!json_string(c, &in, &v[k])) return false;
	}
	return true;
}

bool scene_outline_simple(const json_ctx* c, const jnode* n, const pattern_panel* p, const char* file, const char* what)
{
	double* xy;
	int32_t* starts;
	int32_t m;
	char msg[512];
	if (!pattern_flatten(p, &xy, &m, &starts, msg, sizeof msg)) return json_fail(c, n, "%s: %s: %s", file, what, msg);
	free(xy);
	free(starts);
	return true;
}

bool scene_load_svg_outline(const json_ctx* c, const jnode* n, pattern_panel* p, pattern_point** points)
{
	static const char* const keys[] = {"svg", "id", NULL};
	const char* v[2];
	if (!json_check_object(c, n, keys) || !scene_outline_ref(c, n, keys, v)) return false;
	char* path = scene_file_path(c->file, v[0]);
	if (!path) return scene_out_of_memory(c);
	int32_t count = 0;
	bool ok = read_outline(c, n, v[0], path, v[1], points, &count);
	free(path);
	if (!ok) return false;
	p->points = *points;
	p->point_count = count;
	/* Checked here, so that a crossing names the SVG file and the path's corners. */
	char what[300];
	snprintf(what, sizeof what, "path '%.256s'", v[1]);
	return scene_outline_simple(c, n, p, v[0], what);
}
