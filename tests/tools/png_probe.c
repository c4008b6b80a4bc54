/* Test helper for tests/render_test.sh: reads PNGs with libpng and prints what the render tests
 * check, so the shell test needs no image tools.
 *   png_probe FILE          "WIDTH HEIGHT WARM COOL": the image size, and how many pixels are
 *                           strongly red/orange (the cloth's front colour) or blue (its back)
 *   png_probe FILE1 FILE2   how many pixels differ by more than 8 in some channel */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char* load(const char* path, int* w, int* h)
{
	png_image img;
	memset(&img, 0, sizeof img);
	img.version = PNG_IMAGE_VERSION;
	if (!png_image_begin_read_from_file(&img, path)) {
		fprintf(stderr, "png_probe: cannot read %s: %s\n", path, img.message);
		return NULL;
	}
	img.format = PNG_FORMAT_RGB;
	unsigned char* rgb = malloc(PNG_IMAGE_SIZE(img));
	if (!rgb || !png_image_finish_read(&img, NULL, rgb, 0, NULL)) {
		fprintf(stderr, "png_probe: cannot decode %s\n", path);
		free(rgb);
		png_image_free(&img);
		return NULL;
	}
	*w = (int)img.width;
	*h = (int)img.height;
	return rgb;
}

/* Saturated (max - min > 45% of max), not dark, and the dominant channel red or blue. */
static int classify(const unsigned char* p)
{
	int r = p[0], g = p[1], b = p[2];
	int mx = r > g ? (r > b ? r : b) : (g > b ? g : b), mn = r < g ? (r < b ? r : b) : (g < b ? g : b);
	if (mx < 40 || (mx - mn) * 100 < 45 * mx) return 0;
	if (r == mx && r > g + 30) return 1;
	if (b == mx && b > r + 20) return 2;
	return 0;
}

int main(int argc, char** argv)
{
	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: png_probe FILE [OTHER]\n");
		return 2;
	}
	int w, h, w2, h2;
	unsigned char* a = load(argv[1], &w, &h);
	if (!a) return 1;
	if (argc == 2) {
		long warm = 0, cool = 0;
		for (long i = 0; i < (long)w * h; ++i) {
			int c = classify(a + 3 * i);
			warm += c == 1;
			cool += c == 2;
		}
		printf("%d %d %ld %ld\n", w, h, warm, cool);
		free(a);
		return 0;
	}
	unsigned char* b = load(argv[2], &w2, &h2);
	if (!b) {
		free(a);
		return 1;
	}
	if (w != w2 || h != h2) {
		fprintf(stderr, "png_probe: sizes differ\n");
		free(a);
		free(b);
		return 1;
	}
	long differ = 0;
	for (long i = 0; i < (long)w * h; ++i)
		for (int k = 0; k < 3; ++k)
			if (abs(a[3 * i + k] - b[3 * i + k]) > 8) {
				differ++;
				break;
			}
	printf("%ld\n", differ);
	free(a);
	free(b);
	return 0;
}
