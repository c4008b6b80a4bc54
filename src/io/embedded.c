/* The built-in scene files (CMakeLists.txt generates their bytes), read through fmemopen so the
 * OBJ and scene readers treat them exactly like files. */
#include "embedded.h"

#include <string.h>

typedef struct embedded_file {
	const char* name;
	const char* data;
	size_t size;
} embedded_file;

#include "embedded_files.h"

const char* embedded_text(const char* name)
{
	for (size_t i = 0; i < sizeof embedded_files / sizeof embedded_files[0]; ++i)
		if (strcmp(embedded_files[i].name, name) == 0) return embedded_files[i].data;
	return NULL;
}

FILE* embedded_or_file_open(const char* path)
{
	size_t n = strlen(EMBEDDED_PREFIX);
	if (strncmp(path, EMBEDDED_PREFIX, n) != 0) return fopen(path, "rb");
	for (size_t i = 0; i < sizeof embedded_files / sizeof embedded_files[0]; ++i)
		if (strcmp(embedded_files[i].name, path + n) == 0)
			return fmemopen((void*)embedded_files[i].data, embedded_files[i].size, "rb");
	return NULL;
}
