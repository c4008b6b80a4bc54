/* BVH files whose frame count makes assimp 5.2 (Debian's) allocate without bound, refused before
 * it reads them (docs/reliability.md, "Fuzzing", finding 19). assimp's BVH reader takes the count
 * after "Frames:" as a float cast to unsigned and allocates that many keys for every node before
 * it reads one value: "Frames: -2" asked for 4,294,967,294 keys of 24 bytes (96 GB: an abort
 * under the sanitizers, found by fuzz_character), and a count larger than the file holds is
 * allocated before the reader finds the file too short. So the count must be a whole number that
 * the values after "Frame Time" cover, one per channel per frame: what assimp allocates is then
 * bounded by the file's size. The words are split as assimp's reader splits them (at white space,
 * a brace a word of its own when it starts one). */
#include "bvh_check.h"
#include "file_text.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct word {
	const char* p; /* NULL at the end of the text */
	size_t n;
} word;

/* The next word from *at (NUL-terminated text). */
static word next_word(const char** at)
{
	const char* p = *at;
	while (*p && isspace((unsigned char)*p)) ++p;
	word w = {NULL, 0};
	if (!*p) {
		*at = p;
		return w;
	}
	w.p = p;
	if (*p == '{' || *p == '}') ++p;
	else
		while (*p && !isspace((unsigned char)*p)) ++p;
	w.n = (size_t)(p - w.p);
	*at = p;
	return w;
}

static bool word_is(word w, const char* s)
{
	return w.p && w.n == strlen(s) && memcmp(w.p, s, w.n) == 0;
}

/* A word read as a number the way assimp does (all of it, or not a number: NAN). */
static double word_number(word w)
{
	char buf[64];
	if (!w.p || w.n == 0 || w.n >= sizeof buf) return NAN;
	memcpy(buf, w.p, w.n);
	buf[w.n] = '\0';
	char* end;
	double v = strtod(buf, &end);
	return *end == '\0' ? v : NAN;
}

/* Whether the file's first word is HIERARCHY: assimp gives a file of another extension that no
 * importer claims to the reader whose word it starts with. */
static bool starts_as_bvh(const char* path)
{
	char head[64] = "";
	FILE* f = fopen(path, "rb");
	if (!f) return false;
	size_t n = fread(head, 1, sizeof head - 1, f);
	fclose(f);
	head[n] = '\0';
	const char* at = head;
	return word_is(next_word(&at), "HIERARCHY");
}

static bool refuse(char* why, size_t why_size, const char* fmt, ...) __attribute__((format(printf, 3, 4)));
static bool refuse(char* why, size_t why_size, const char* fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (why && why_size > 0) vsnprintf(why, why_size, fmt, ap);
	va_end(ap);
	return false;
}

bool character_bvh_importable(const char* path, char* why, size_t why_size)
{
	if (!file_has_extension(path, ".bvh") && !starts_as_bvh(path)) return true;
	size_t size;
	bool no_memory;
	char* text = file_read_all(path, &size, &no_memory);
	if (no_memory) return refuse(why, why_size, "%s", "out of memory reading the file");
	if (!text) return true;
	/* The hierarchy's channels: CHANNELS and their count, wherever they are before MOTION. */
	const char* at = text;
	double channels = 0.0;
	bool ok = true, motion = false;
	for (word w = next_word(&at); w.p; w = next_word(&at)) {
		if (word_is(w, "MOTION")) {
			motion = true;
			break;
		}
		if (!word_is(w, "CHANNELS")) continue;
		const double k = word_number(next_word(&at));
		if (!(k >= 0.0 && k < 1e6)) break; /* assimp refuses it before MOTION */
		channels += floor(k);
	}
	/* "Frames:" N "Frame" "Time:" T, then the values: assimp refuses a file that differs here
	 * before it allocates, except in N. */
	word count = {NULL, 0};
	if (motion && word_is(next_word(&at), "Frames:")) {
		count = next_word(&at);
		if (!(word_is(next_word(&at), "Frame") && word_is(next_word(&at), "Time:") && next_word(&at).p))
			count.p = NULL;
	}
	if (count.p) {
		bool whole = true;
		for (size_t i = 0; i < count.n; ++i) whole = whole && isdigit((unsigned char)count.p[i]);
		const int shown = (int)(count.n < 40 ? count.n : 40);
		if (!whole) {
			ok = refuse(why, why_size, "MOTION's frame count '%.*s' is not a whole number", shown, count.p);
		} else {
			const double frames = word_number(count);
			double values = 0.0;
			while (next_word(&at).p) values += 1.0;
			if (frames > 0.0 && channels == 0.0)
				ok = refuse(why, why_size, "MOTION declares %.*s frames but the hierarchy has no CHANNELS", shown, count.p);
			else if (!(frames * channels <= values))
				ok = refuse(why, why_size,
					    "MOTION declares %.*s frames of %.0f channels, %.0f values, but the file holds %.0f after "
					    "'Frame Time'",
					    shown, count.p, channels, frames * channels, values);
		}
	}
	free(text);
	return ok;
}
