/* `drape view --screenshot`: glReadPixels of the back buffer, written with app/png_write.c. */
#include "view_screenshot.h"

#include "png_write.h"

#include <GLFW/glfw3.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool view_screenshot(const char* path, int width, int height, char* err, size_t err_size)
{
	if (width <= 0 || height <= 0) {
		snprintf(err, err_size, "cannot write screenshot '%s': the window has no area", path);
		return false;
	}
	const size_t row = 3 * (size_t)width;
	uint8_t* rgb = malloc(row * ((size_t)height + 1)); /* one spare row for the flip */
	if (!rgb) {
		snprintf(err, err_size, "cannot write screenshot '%s': out of memory", path);
		return false;
	}
	glPixelStorei(GL_PACK_ALIGNMENT, 1);
	glReadBuffer(GL_BACK);
	glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, rgb);
	/* OpenGL's rows run bottom to top, PNG's top to bottom. */
	uint8_t* spare = rgb + row * (size_t)height;
	for (int y = 0; y < height / 2; ++y) {
		uint8_t* a = rgb + row * (size_t)y;
		uint8_t* b = rgb + row * (size_t)(height - 1 - y);
		memcpy(spare, a, row);
		memcpy(a, b, row);
		memcpy(b, spare, row);
	}
	bool ok = png_write_rgb(path, rgb, width, height, err, err_size);
	free(rgb);
	return ok;
}
