/* PNG output through libpng: 8-bit RGB, written to a temporary file and renamed into place so
 * that no reader ever sees a half-written image. */
#ifndef DRAPE_APP_PNG_WRITE_H
#define DRAPE_APP_PNG_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* rgb: 3 * width * height bytes, top row first. False with one sentence in err. */
bool png_write_rgb(const char* path, const uint8_t* rgb, int width, int height, char* err, size_t err_size);

#endif
