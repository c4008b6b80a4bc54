/* A small built-in 5x7 bitmap font for the viewer's HUD: upper case, digits and common
 * punctuation; lower case is shown as upper case. No OpenGL here. */
#ifndef DRAPE_VIEW_FONT_H
#define DRAPE_VIEW_FONT_H

#include <stdbool.h>
#include <stdint.h>

enum { VIEW_GLYPH_W = 5, VIEW_GLYPH_H = 7, VIEW_GLYPH_ADVANCE = 6 };

/* Rows of character c, top first, bit 4 the leftmost column; false (and blank rows) for
 * characters the font lacks. */
bool view_font_glyph(char c, uint8_t rows[VIEW_GLYPH_H]);
/* Width in pixels of s drawn at `scale` pixels per font pixel. */
int view_text_width(const char* s, int scale);

#endif
