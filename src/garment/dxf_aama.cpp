// DXF-AAMA pattern pieces (ASTM D6673; docs/garments.md, "Patterns from DXF-AAMA") through Debian's
// dxflib: a creation adapter collects the named block's boundary polyline (layer 1), grain line
// (layer 7) and notches (layer 4); the file's $INSUNITS gives metres.
#include "dxf_aama.h"

#include <dxflib/dl_creationadapter.h>
#include <dxflib/dl_dxf.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

namespace {

struct reader : DL_CreationAdapter {
	std::string want;
	std::vector<std::string> pieces;
	bool in_piece = false, in_boundary = false, found = false;
	int boundaries = 0;
	bool closed = false;
	int insunits = 0;
	std::vector<double> xyb, notches;
	double grain[2] = {0.0, 0.0};
	bool has_grain = false;

	std::string layer() { return getAttributes().getLayer(); }
	void addBlock(const DL_BlockData& d) override
	{
		in_piece = false;
		if (d.name.empty() || d.name[0] == '*') return; // model and paper space
		pieces.push_back(d.name);
		in_piece = d.name == want;
		found = found || in_piece;
	}
	void endBlock() override { in_piece = in_boundary = false; }
	void addPolyline(const DL_PolylineData& d) override
	{
		in_boundary = in_piece && layer() == "1";
		if (!in_boundary) return;
		boundaries++;
		closed = (d.flags & 1) != 0;
	}
	void addVertex(const DL_VertexData& d) override
	{
		if (!in_boundary || boundaries > 1) return;
		xyb.insert(xyb.end(), {d.x, d.y, d.bulge});
	}
	void endEntity() override { in_boundary = false; }
	void addLine(const DL_LineData& d) override
	{
		if (!in_piece) return;
		if (layer() == "7" && !has_grain) {
			grain[0] = d.x2 - d.x1, grain[1] = d.y2 - d.y1;
			has_grain = true;
		} else if (layer() == "4") {
			notches.insert(notches.end(), {d.x1, d.y1, d.x2, d.y2});
		}
	}
	void addPoint(const DL_PointData& d) override
	{
		if (in_piece && layer() == "4") notches.insert(notches.end(), {d.x, d.y, d.x, d.y});
	}
	void setVariableInt(const std::string& key, int value, int) override
	{
		if (key == "$INSUNITS") insunits = value;
	}
};

double insunits_metres(int u)
{
	switch (u) {
	case 1: return 0.0254; // inches
	case 2: return 0.3048; // feet
	case 4: return 0.001;  // millimetres
	case 5: return 0.01;   // centimetres
	case 6: return 1.0;    // metres
	default: return 0.0;
	}
}

// dxflib allocates the vertices, knots and edges an entity declares (LWPOLYLINE's group 90, SPLINE's
// 72-74, LEADER's 76, HATCH's 91 and 93) as it reads the count, before any of them: a 100-byte file
// declaring 66,666,666 vertices took 2 GB (fuzzing, finding 13). Counts beyond any pattern piece
// are refused before dxflib reads the file.
const long MAX_DECLARED = 1000000;

bool declared_counts_ok(const char* path, char* err, size_t err_size)
{
	FILE* f = std::fopen(path, "rb");
	if (!f) return true; // dxflib says it cannot read it
	static const struct {
		const char* entity;
		int code;
	} counts[] = {{"LWPOLYLINE", 90}, {"SPLINE", 72}, {"SPLINE", 73}, {"SPLINE", 74},
		      {"LEADER", 76},     {"HATCH", 91},  {"HATCH", 93}};
	char code_line[4096], value[4096];
	std::string entity;
	long line = 0;
	bool ok = true;
	while (ok && std::fgets(code_line, sizeof code_line, f) && std::fgets(value, sizeof value, f)) {
		line += 2;
		const long code = std::strtol(code_line, nullptr, 10);
		char* end = value + std::strlen(value);
		while (end > value && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' ')) *--end = '\0';
		const char* v = value;
		while (*v == ' ') ++v;
		if (code == 0) {
			entity = v;
			continue;
		}
		for (const auto& c : counts)
			if (code == c.code && entity == c.entity) {
				const double n = std::strtod(v, nullptr);
				if (!(n >= 0.0 && n <= (double)MAX_DECLARED)) {
					std::snprintf(err, err_size,
						      "line %ld: a %s declares %g items in group %d (drape reads 0 to %ld)",
						      line, c.entity, n, c.code, MAX_DECLARED);
					ok = false;
				}
			}
	}
	std::fclose(f);
	return ok;
}

bool read(const char* path, const char* piece, double unit, dxf_piece* out, char* err, size_t err_size)
{
	if (!declared_counts_ok(path, err, err_size)) return false;
	reader r;
	r.want = piece;
	DL_Dxf dxf;
	if (!dxf.in(path, &r)) {
		snprintf(err, err_size, "cannot read the DXF file");
		return false;
	}
	if (r.pieces.empty()) {
		snprintf(err, err_size, "no pieces (a DXF-AAMA file has a BLOCK per pattern piece)");
		return false;
	}
	if (!r.found) {
		std::string names;
		for (size_t i = 0; i < r.pieces.size() && i < 20; ++i) names += (i ? ", " : "") + r.pieces[i];
		snprintf(err, err_size, "no piece '%s' (its pieces: %s)", piece, names.c_str());
		return false;
	}
	if (r.boundaries != 1) {
		snprintf(err, err_size, "piece '%s' has %d boundary polylines on layer 1, not one", piece, r.boundaries);
		return false;
	}
	size_t n = r.xyb.size() / 3;
	if (n > 1 && r.xyb[0] == r.xyb[3 * (n - 1)] && r.xyb[1] == r.xyb[3 * (n - 1) + 1]) {
		n--, r.closed = true; // the last vertex repeats the first
		r.xyb.resize(3 * n);
	}
	if (!r.closed) {
		snprintf(err, err_size, "piece '%s': its boundary on layer 1 is not closed", piece);
		return false;
	}
	if (unit <= 0.0) unit = insunits_metres(r.insunits);
	if (unit <= 0.0) {
		snprintf(err, err_size, "the file's units ($INSUNITS %d) are not in, ft, mm, cm or m; give 'units'", r.insunits);
		return false;
	}
	for (size_t i = 0; i < r.xyb.size(); ++i)
		if (i % 3 != 2) r.xyb[i] *= unit;
	for (double& v : r.notches) v *= unit;
	out->count = (int32_t)n;
	out->notch_count = (int32_t)(r.notches.size() / 4);
	out->xyb = (double*)malloc((r.xyb.size() + 1) * sizeof(double));
	out->notches = (double*)malloc((r.notches.size() + 1) * sizeof(double));
	if (!out->xyb || !out->notches) {
		snprintf(err, err_size, "out of memory");
		return false;
	}
	if (!r.xyb.empty()) memcpy(out->xyb, r.xyb.data(), r.xyb.size() * sizeof(double));
	if (!r.notches.empty()) memcpy(out->notches, r.notches.data(), r.notches.size() * sizeof(double));
	out->grain[0] = r.grain[0], out->grain[1] = r.grain[1];
	out->has_grain = r.has_grain;
	return true;
}

} // namespace

extern "C" bool dxf_aama_read(const char* path, const char* piece, double unit_metres, dxf_piece* out, char* err,
			      size_t err_size)
{
	memset(out, 0, sizeof *out);
	bool ok = false;
	try {
		ok = read(path, piece, unit_metres, out, err, err_size);
	} catch (const std::bad_alloc&) {
		snprintf(err, err_size, "out of memory");
	} catch (...) {
		snprintf(err, err_size, "dxflib could not read the file");
	}
	if (!ok) dxf_piece_free(out);
	return ok;
}

extern "C" void dxf_piece_free(dxf_piece* p)
{
	free(p->xyb);
	free(p->notches);
	memset(p, 0, sizeof *p);
}
