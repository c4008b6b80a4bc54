/* Saves the current OpenGL framebuffer as a PNG file (`drape view --screenshot`). */
#ifndef DRAPE_VIEW_SCREENSHOT_H
#define DRAPE_VIEW_SCREENSHOT_H

#include <stdbool.h>
#include <stddef.h>

/* Reads the width x height back buffer (call before swapping) and writes it as 8-bit RGB PNG. */
bool view_screenshot(const char* path, int width, int height, char* err, size_t err_size);

#endif
