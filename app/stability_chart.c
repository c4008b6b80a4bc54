/* The PNG chart of `drape stability` (cairo): one group of bars per setting, one bar per scheme,
 * on a log axis of k / sqrt(m/k_s); the paper's values (ADI Cloth sec. 6.3-6.4) as black marks. */
#include "stability_report.h"

#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define W 1100
#define H 620
#define LEFT 90.0
#define RIGHT 250.0
#define TOP 50.0
#define BOTTOM 70.0
#define HALF_TURN 3.14159265358979323846

static const double colours[DRAPE_INTEGRATOR_COUNT][3] = {
	{0.12, 0.47, 0.71}, {0.84, 0.15, 0.16}, {1.00, 0.50, 0.05}, {0.55, 0.34, 0.29},
	{0.74, 0.74, 0.13}, {0.17, 0.63, 0.17}, {0.58, 0.40, 0.74}, {0.09, 0.75, 0.81},
};

typedef struct axis {
	double lo, hi; /* log10 range */
} axis;

static double ypos(const axis* a, double k)
{
	double f = (log10(k) - a->lo) / (a->hi - a->lo);
	return H - BOTTOM - f * (H - TOP - BOTTOM);
}

static void text(cairo_t* cr, double x, double y, const char* s, double align)
{
	cairo_text_extents_t e;
	cairo_text_extents(cr, s, &e);
	cairo_move_to(cr, x - align * e.width - e.x_bearing, y);
	cairo_show_text(cr, s);
}

bool stability_chart_png(const stab_report* r, const char* path, char* err, size_t err_size)
{
	const drape_stab_options* o = &r->options;
	axis ax = {floor(log10(o->k_min) - 0.3), ceil(log10(o->k_max) + 0.3)};
	cairo_surface_t* surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
	cairo_t* cr = cairo_create(surf);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);

	/* Grid lines and labels at 1-2-5 values. */
	cairo_set_font_size(cr, 13);
	for (double d = pow(10.0, ax.lo); d <= pow(10.0, ax.hi) * 1.0001; d *= 10.0) {
		const double m[3] = {1, 2, 5};
		for (int i = 0; i < 3; ++i) {
			double k = m[i] * d;
			if (log10(k) > ax.hi + 1e-9) break;
			double y = ypos(&ax, k);
			cairo_set_source_rgb(cr, i == 0 ? 0.75 : 0.9, i == 0 ? 0.75 : 0.9, i == 0 ? 0.75 : 0.9);
			cairo_set_line_width(cr, 1.0);
			cairo_move_to(cr, LEFT, y);
			cairo_line_to(cr, W - RIGHT, y);
			cairo_stroke(cr);
			char lab[32];
			snprintf(lab, sizeof lab, "%g", k);
			cairo_set_source_rgb(cr, 0, 0, 0);
			text(cr, LEFT - 8, y + 4, lab, 1.0);
		}
	}
	/* The search range's ends. */
	cairo_set_source_rgb(cr, 0.4, 0.4, 0.4);
	double dash[2] = {5, 4};
	cairo_set_dash(cr, dash, 2, 0);
	for (int e = 0; e < 2; ++e) {
		double y = ypos(&ax, e ? o->k_max : o->k_min);
		cairo_move_to(cr, LEFT, y);
		cairo_line_to(cr, W - RIGHT, y);
		cairo_stroke(cr);
	}
	cairo_set_dash(cr, NULL, 0, 0);

	/* Bars. */
	const double group_w = (W - LEFT - RIGHT) / DRAPE_STAB_SETTING_COUNT;
	const double bar_w = (group_w - 24.0) / DRAPE_INTEGRATOR_COUNT;
	const double base = H - BOTTOM;
	for (int s = 0; s < DRAPE_STAB_SETTING_COUNT; ++s) {
		double gx = LEFT + s * group_w + 12.0;
		for (int i = 0; i < DRAPE_INTEGRATOR_COUNT; ++i) {
			const stab_cell* c = &r->cell[i][s];
			double x = gx + i * bar_w;
			if (!c->wanted) continue;
			const drape_stab_limit* l = &c->limit;
			double k = l->kind == DRAPE_STAB_LIMIT_ABOVE ? o->k_max : l->k;
			double y = ypos(&ax, k);
			cairo_set_source_rgb(cr, colours[i][0], colours[i][1], colours[i][2]);
			cairo_rectangle(cr, x + 1, y, bar_w - 2, base - y);
			cairo_fill(cr);
			cairo_set_source_rgb(cr, 0, 0, 0);
			cairo_set_font_size(cr, 11);
			if (l->kind == DRAPE_STAB_LIMIT_ABOVE) {
				/* An arrow: stable over the whole range. */
				double cx = x + 0.5 * bar_w;
				cairo_move_to(cr, cx - 0.35 * bar_w, y);
				cairo_line_to(cr, cx, y - 12);
				cairo_line_to(cr, cx + 0.35 * bar_w, y);
				cairo_close_path(cr);
				cairo_set_source_rgb(cr, colours[i][0], colours[i][1], colours[i][2]);
				cairo_fill(cr);
			} else if (l->kind == DRAPE_STAB_LIMIT_BELOW) {
				cairo_set_source_rgb(cr, 0.8, 0, 0);
				text(cr, x + 0.5 * bar_w, y - 4, "x", 0.5);
			} else {
				char lab[16];
				snprintf(lab, sizeof lab, "%.2g", l->k);
				cairo_save(cr);
				cairo_move_to(cr, x + 0.5 * bar_w + 4, y - 4);
				cairo_rotate(cr, -HALF_TURN / 2);
				cairo_show_text(cr, lab);
				cairo_restore(cr);
			}
			/* The paper's value. */
			double p = drape_stab_paper_limit((drape_integrator)i, (drape_stab_setting)s);
			if (!isnan(p)) {
				double py = ypos(&ax, isinf(p) ? o->k_max : p);
				cairo_set_source_rgb(cr, 0, 0, 0);
				cairo_set_line_width(cr, 3.0);
				cairo_move_to(cr, x - 1, py);
				cairo_line_to(cr, x + bar_w + 1, py);
				cairo_stroke(cr);
				if (isinf(p)) {
					cairo_set_font_size(cr, 10);
					text(cr, x + 0.5 * bar_w, py - 14, "inf", 0.5);
				}
			}
		}
		cairo_set_source_rgb(cr, 0, 0, 0);
		cairo_set_font_size(cr, 15);
		const char* desc[DRAPE_STAB_SETTING_COUNT] = {"rod, PDE (1D)", "rod, chain (1D)", "sheet, in plane (2D)", "sheet, 3D"};
		text(cr, LEFT + (s + 0.5) * group_w, base + 22, drape_stab_setting_name((drape_stab_setting)s), 0.5);
		cairo_set_font_size(cr, 12);
		text(cr, LEFT + (s + 0.5) * group_w, base + 40, desc[s], 0.5);
	}
	/* Axes. */
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_set_line_width(cr, 1.5);
	cairo_move_to(cr, LEFT, TOP);
	cairo_line_to(cr, LEFT, base);
	cairo_line_to(cr, W - RIGHT, base);
	cairo_stroke(cr);
	cairo_set_font_size(cr, 14);
	cairo_save(cr);
	cairo_move_to(cr, 24, H / 2 + 140);
	cairo_rotate(cr, -HALF_TURN / 2);
	cairo_show_text(cr, "largest stable step k / sqrt(m / k_s)  (log)");
	cairo_restore(cr);
	cairo_set_font_size(cr, 16);
	char title[256];
	snprintf(title, sizeof title, "Stability limits (ADI Cloth sec. 6.3-6.5), grid %d, trials of max(%g s, %d steps)", o->grid,
		 o->time, o->min_steps);
	text(cr, LEFT, 30, title, 0.0);

	/* Legend. */
	double lx = W - RIGHT + 20, ly = TOP + 10;
	cairo_set_font_size(cr, 13);
	for (int i = 0; i < DRAPE_INTEGRATOR_COUNT; ++i) {
		cairo_set_source_rgb(cr, colours[i][0], colours[i][1], colours[i][2]);
		cairo_rectangle(cr, lx, ly + 22 * i - 11, 16, 14);
		cairo_fill(cr);
		cairo_set_source_rgb(cr, 0, 0, 0);
		text(cr, lx + 24, ly + 22 * i, drape_integrator_name((drape_integrator)i), 0.0);
	}
	ly += 22 * DRAPE_INTEGRATOR_COUNT + 16;
	cairo_set_line_width(cr, 3.0);
	cairo_move_to(cr, lx, ly - 4);
	cairo_line_to(cr, lx + 16, ly - 4);
	cairo_stroke(cr);
	text(cr, lx + 24, ly, "paper's value", 0.0);
	cairo_set_font_size(cr, 12);
	text(cr, lx, ly + 22, "arrow: stable up to the", 0.0);
	text(cr, lx, ly + 38, "range's end (dashed)", 0.0);
	text(cr, lx, ly + 56, "x: unstable at its start", 0.0);

	cairo_destroy(cr);
	cairo_surface_flush(surf);
	char tmp[4096];
	bool ok = false;
	if (snprintf(tmp, sizeof tmp, "%s.tmp", path) < (int)sizeof tmp) {
		cairo_status_t st = cairo_surface_write_to_png(surf, tmp);
		if (st == CAIRO_STATUS_SUCCESS && rename(tmp, path) == 0) ok = true;
		else {
			snprintf(err, err_size, "cannot write %s: %s", path,
				 st == CAIRO_STATUS_SUCCESS ? "rename failed" : cairo_status_to_string(st));
			remove(tmp);
		}
	} else {
		snprintf(err, err_size, "PNG path too long: %s", path);
	}
	cairo_surface_destroy(surf);
	/* Free cairo's and fontconfig's caches, so leak checkers see a clean exit (the chart is drawn
	 * once per process). */
	cairo_debug_reset_static_data();
	FcFini();
	return ok;
}
