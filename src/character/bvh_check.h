/* A check of BVH files before assimp reads them (bvh_check.c): the frame count it allocates by. */
#ifndef DRAPE_CHARACTER_BVH_CHECK_H
#define DRAPE_CHARACTER_BVH_CHECK_H

#include <stdbool.h>
#include <stddef.h>

/* False, with the reason in why, for a BVH file (a .bvh, or any file whose first word is
 * HIERARCHY) whose MOTION declares a frame count that is not a whole number, or more frames than
 * the values after "Frame Time" hold for its channels (or when there was no memory to read it:
 * "out of memory ..."). True for any other file, for a BVH whose MOTION section assimp will refuse
 * on its own before it allocates, and for one that cannot be read here (assimp then says why). */
bool character_bvh_importable(const char* path, char* why, size_t why_size);

#endif
