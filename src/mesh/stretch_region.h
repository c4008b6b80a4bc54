/* Eq. 10's b_u, b_v over a box of the rest (u, v) plane, as a scene's `stretch_regions` give them:
 * cuffs, waistbands and gathers (sec. 8), with an optional linear taper back to 1 beyond the box
 * (docs/scene-format.md, docs/garments.md "Tapered regions"). */
#ifndef DRAPE_STRETCH_REGION_H
#define DRAPE_STRETCH_REGION_H

#include <stdint.h>

typedef struct stretch_region {
	double lo[2], hi[2]; /* the box in (u, v) */
	double bu, bv;
	/* u and v distances beyond the box over which b returns linearly to 1; 0 along an axis: the
	 * region ends at the box there */
	double taper[2];
} stretch_region;

/* How much of the region's b applies at (u, v): 1 in the box (closed), falling linearly to 0 at
 * the taper's outer edge, 0 beyond it and, along an axis without a taper, outside the box. */
double stretch_region_weight(const stretch_region* r, double u, double v);

/* b[0], b[1] (b_u, b_v) of a triangle whose rest centroid is (u, v): 1, then each region in turn
 * where its weight is positive, b = 1 + w (b_region - 1) (later regions win). */
void stretch_regions_apply(const stretch_region* r, int32_t count, double u, double v, double b[2]);

#endif
