/* Stretch regions (eq. 10's b_u, b_v; docs/garments.md, "Tapered regions"). A box alone makes b
 * jump at its edge, and the edges shared by the triangles either side cannot have both rest
 * lengths: with b_v = 0.8 they settle near 0.9 of the plain one, 10 % compression in the plain
 * row next to the box. A taper spreads the jump over several rows. */
#include "stretch_region.h"

double stretch_region_weight(const stretch_region* r, double u, double v)
{
	const double p[2] = {u, v};
	double out = 0.0; /* the largest share of a taper crossed, over the axes */
	for (int a = 0; a < 2; ++a) {
		const double d = p[a] < r->lo[a] ? r->lo[a] - p[a] : p[a] > r->hi[a] ? p[a] - r->hi[a] : 0.0;
		if (d == 0.0) continue;
		if (!(r->taper[a] > 0.0) || d >= r->taper[a]) return 0.0;
		const double s = d / r->taper[a];
		out = s > out ? s : out;
	}
	return 1.0 - out;
}

void stretch_regions_apply(const stretch_region* r, int32_t count, double u, double v, double b[2])
{
	b[0] = b[1] = 1.0;
	for (int32_t k = 0; k < count; ++k) {
		const double w = stretch_region_weight(&r[k], u, v);
		if (w > 0.0) {
			b[0] = 1.0 + w * (r[k].bu - 1.0);
			b[1] = 1.0 + w * (r[k].bv - 1.0);
		}
	}
}
