/* What the character importers' checks read of a file before assimp does (gltf_check.c,
 * bvh_check.c, import.c): its extension and its whole text. */
#ifndef DRAPE_CHARACTER_FILE_TEXT_H
#define DRAPE_CHARACTER_FILE_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* Whether path ends in ext (".bvh"), ignoring case. */
bool file_has_extension(const char* path, const char* ext);

/* The whole file, NUL-terminated, its length in *size; NULL if it cannot be read (*no_memory:
 * for want of memory). The caller frees it. */
char* file_read_all(const char* path, size_t* size, bool* no_memory);

#endif
