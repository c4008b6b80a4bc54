/* A check of glTF files before assimp reads them (gltf_check.c): what assimp 5.2 crashes on. */
#ifndef DRAPE_CHARACTER_GLTF_CHECK_H
#define DRAPE_CHARACTER_GLTF_CHECK_H

#include <stdbool.h>
#include <stddef.h>

/* False, with the reason in why, for a .gltf or .glb file that assimp 5.2 would crash on or hand
 * to another importer: one whose JSON does not parse to an object with asset.version, a skin
 * without inverseBindMatrices, an accessor or buffer view outside what holds it, an animation
 * channel without a target node (or when there was no memory to read it: "out of memory ...").
 * True for any other file, and for one that cannot be read here (assimp then says why). */
bool character_gltf_importable(const char* path, char* why, size_t why_size);

#endif
