/* DXF-AAMA pattern pieces (ASTM D6673; docs/garments.md, "Patterns from DXF-AAMA") read through
 * Debian's dxflib (C++, dxf_aama.cpp) behind a C interface: a piece is a BLOCK, its boundary the
 * polyline on layer 1, its grain line the LINE on layer 7, its notches the POINTs or LINEs (slits,
 * by their end on the boundary) on layer 4. */
#ifndef DRAPE_GARMENT_DXF_AAMA_H
#define DRAPE_GARMENT_DXF_AAMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dxf_piece {
	double* xyb; /* 3 per boundary vertex: x, y in metres and the bulge to the next vertex */
	int32_t count;
	double* notches; /* 4 per notch, metres, in file order: a slit's two ends (a point twice) */
	int32_t notch_count;
	double grain[2];
	bool has_grain;
} dxf_piece;

/* Reads block `piece` of the DXF file at path; unit_metres > 0 overrides the file's $INSUNITS.
 * False with a message: no such file, a file without pieces, no piece of that name (the names are
 * listed), no closed boundary on layer 1 or two of them, no units. */
bool dxf_aama_read(const char* path, const char* piece, double unit_metres, dxf_piece* out, char* err, size_t err_size);
void dxf_piece_free(dxf_piece* p);

#ifdef __cplusplus
}
#endif
#endif
