/* libFuzzer target: the SVG path-data reader (src/garment/svg_path.c), the `d` of a panel's
 * outline from an SVG file, and the flattening and simplicity check of what it reads. */
#include "garment/garment.h"
#include "garment/svg_path.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	char* d = malloc(size + 1);
	if (!d) return 0;
	memcpy(d, data, size);
	d[size] = '\0';
	static const svg_map map = {{0.0, 1000.0}, {0.001, 0.001}};
	pattern_point* p = NULL;
	int32_t n = -1;
	char err[256];
	if (svg_path_read(d, &map, &p, &n, err, sizeof err)) {
		/* what a successful read promises: points in metres, finite, the first one a named vertex */
		if (n < 1 || !p || !p[0].corner || strcmp(p[0].corner, "p0") != 0) abort();
		for (int32_t i = 0; i < n; ++i)
			if (!isfinite(p[i].at[0]) || !isfinite(p[i].at[1])) abort();
		/* the flattening's crossing check is quadratic in the polyline: small outlines only */
		if (n <= 32) {
			pattern_panel panel = {.name = "fuzz", .points = p, .point_count = n, .grain = {1, 0}};
			double* xy = NULL;
			int32_t m = 0, *starts = NULL;
			if (pattern_flatten(&panel, &xy, &m, &starts, err, sizeof err) && m < n) abort();
			free(xy);
			free(starts);
		}
	} else if (p || n != 0 || strncmp(err, "offset ", 7) != 0) {
		abort(); /* a failure hands back nothing and says where */
	}
	free(p);
	free(d);
	return 0;
}
