/* HUD text for `drape view`: the built-in font (view_font.c) drawn as OpenGL 2.1 quads. */
#include "view_hud.h"
#include "view_font.h"

#include <GLFW/glfw3.h>

#include <string.h>

enum { GLYPH_W = VIEW_GLYPH_W, GLYPH_H = VIEW_GLYPH_H, ADVANCE = VIEW_GLYPH_ADVANCE, LINE = 10 };

static void draw_text(const char* s, int x0, int y0, int scale)
{
	for (int i = 0; s[i]; ++i) {
		uint8_t rows[GLYPH_H];
		if (!view_font_glyph(s[i], rows)) continue;
		int gx = x0 + i * ADVANCE * scale;
		for (int r = 0; r < GLYPH_H; ++r) {
			for (int k = 0; k < GLYPH_W; ++k) {
				if (!(rows[r] >> (GLYPH_W - 1 - k) & 1)) continue;
				int x = gx + k * scale, y = y0 + r * scale;
				glVertex2i(x, y);
				glVertex2i(x + scale, y);
				glVertex2i(x + scale, y + scale);
				glVertex2i(x, y + scale);
			}
		}
	}
}

void view_hud_draw(int width, int height, const char* const* lines, int line_count, int scale)
{
	glPushAttrib(GL_ENABLE_BIT | GL_CURRENT_BIT | GL_COLOR_BUFFER_BIT | GL_TRANSFORM_BIT | GL_VIEWPORT_BIT |
		     GL_POLYGON_BIT);
	glViewport(0, 0, width, height);
	glDisable(GL_DEPTH_TEST);
	glDisable(GL_LIGHTING);
	glDisable(GL_TEXTURE_2D);
	glDisable(GL_CULL_FACE);
	glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
	glEnable(GL_BLEND);
	glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
	glMatrixMode(GL_PROJECTION);
	glPushMatrix();
	glLoadIdentity();
	glOrtho(0.0, width, height, 0.0, -1.0, 1.0); /* y down, in framebuffer pixels */
	glMatrixMode(GL_MODELVIEW);
	glPushMatrix();
	glLoadIdentity();

	const int margin = 4 * scale;
	int band_w = 0;
	for (int l = 0; l < line_count; ++l) {
		int w = view_text_width(lines[l], scale);
		if (w > band_w) band_w = w;
	}
	int band_h = line_count * LINE * scale + 2 * margin - (LINE - GLYPH_H) * scale;
	glBegin(GL_QUADS);
	glColor4f(0.0f, 0.0f, 0.0f, 0.55f);
	glVertex2i(0, 0);
	glVertex2i(band_w + 2 * margin, 0);
	glVertex2i(band_w + 2 * margin, band_h);
	glVertex2i(0, band_h);
	glColor4f(1.0f, 1.0f, 0.85f, 1.0f);
	for (int l = 0; l < line_count; ++l) draw_text(lines[l], margin, margin + l * LINE * scale, scale);
	glEnd();

	glPopMatrix();
	glMatrixMode(GL_PROJECTION);
	glPopMatrix();
	glPopAttrib();
}
