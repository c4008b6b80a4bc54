/* Results of `drape stability` and what the paper reports (Boxerman 2003, sec. 6.3-6.5), shared by
 * the table, the CSV and the PNG chart. */
#ifndef DRAPE_APP_STABILITY_REPORT_H
#define DRAPE_APP_STABILITY_REPORT_H

#include "drape.h"
#include "drape_stability.h"

#include <stdbool.h>

typedef struct stab_cell {
	bool wanted; /* asked for on the command line */
	drape_stab_limit limit;
} stab_cell;

typedef struct stab_report {
	stab_cell cell[DRAPE_INTEGRATOR_COUNT][DRAPE_STAB_SETTING_COUNT];
	drape_stab_options options;
} stab_report;

/* Draws the chart as PNG to path (written whole, or not at all); false with a message in err. */
bool stability_chart_png(const stab_report* r, const char* path, char* err, size_t err_size);

#endif
