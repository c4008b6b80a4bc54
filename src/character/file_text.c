/* What the character importers' checks read of a file (file_text.h). */
#include "file_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

bool file_has_extension(const char* path, const char* ext)
{
	size_t n = strlen(path), e = strlen(ext);
	return n > e && strcasecmp(path + n - e, ext) == 0;
}

char* file_read_all(const char* path, size_t* size, bool* no_memory)
{
	*no_memory = false;
	FILE* f = fopen(path, "rb");
	if (!f) return NULL;
	char* text = NULL;
	long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
	if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && !(text = malloc((size_t)n + 1))) *no_memory = true;
	if (text) {
		if (fread(text, 1, (size_t)n, f) != (size_t)n) {
			free(text);
			text = NULL;
		} else {
			text[n] = '\0';
			*size = (size_t)n;
		}
	}
	fclose(f);
	return text;
}
