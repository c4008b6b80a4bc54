/* The viewer's on-screen text, in the built-in font (view_font.h) drawn as quads with OpenGL 2.1,
 * so the viewer needs no font library. */
#ifndef DRAPE_VIEW_HUD_H
#define DRAPE_VIEW_HUD_H

/* Draws `line_count` lines at the top left of a width x height framebuffer over a translucent
 * dark band. Needs a current OpenGL context; leaves the GL state as it found it. */
void view_hud_draw(int width, int height, const char* const* lines, int line_count, int scale);

#endif
