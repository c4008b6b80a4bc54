/* PNG output through libpng (8-bit RGB, default compression), via PATH.tmp and rename(). */
#include "png_write.h"

#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

/* The part that may longjmp back on a libpng error; kept apart so no local of the caller is
 * live across the jump. */
static bool write_stream(FILE* f, const uint8_t* rgb, int width, int height)
{
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	if (!png) return false;
	png_infop info = png_create_info_struct(png);
	if (!info || setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, info ? &info : NULL);
		return false;
	}
	png_init_io(png, f);
	png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
		     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (int y = 0; y < height; ++y) png_write_row(png, (png_const_bytep)(rgb + 3 * (size_t)width * (size_t)y));
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	return true;
}

bool png_write_rgb(const char* path, const uint8_t* rgb, int width, int height, char* err, size_t err_size)
{
	char tmp[4200];
	if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
		snprintf(err, err_size, "the image path '%s' is too long", path);
		return false;
	}
	FILE* f = fopen(tmp, "wb");
	if (!f) {
		snprintf(err, err_size, "cannot write '%s': %s", tmp, strerror(errno));
		return false;
	}
	bool ok = write_stream(f, rgb, width, height);
	int saved = errno;
	if (fclose(f) != 0 && ok) ok = false, saved = errno;
	if (ok && rename(tmp, path) != 0) ok = false, saved = errno;
	if (!ok) {
		snprintf(err, err_size, "cannot write '%s': %s", path, saved ? strerror(saved) : "libpng failed");
		remove(tmp);
	}
	return ok;
}
