/* assimp's reading of a character file behind a C interface (assimp_read.cpp; docs/characters.md,
 * "Reading"): assimp's own importers, less the OpenGEX reader, whose parser (assimp 5.2's
 * openddl-parser) runs past its buffer on a malformed file. assimp hands every file that the
 * importer for its extension does not claim to the importers that recognise its content, and the
 * OpenGEX reader claims any file whose first 200 bytes hold "metric" (docs/reliability.md, finding
 * 16). */
#ifndef DRAPE_CHARACTER_ASSIMP_READ_H
#define DRAPE_CHARACTER_ASSIMP_READ_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct aiScene;
typedef struct assimp_file assimp_file;

/* The scene of path read with the post-processing flags (aiProcess_*), owned by *file, which
 * assimp_release frees (also after a failure, where it may hold a scene without a root node).
 * NULL on failure, with assimp's reason (or "out of memory") in err. */
const struct aiScene* assimp_read(const char* path, unsigned flags, assimp_file** file, char* err, size_t err_size);
void assimp_release(assimp_file* file);

#ifdef __cplusplus
}
#endif
#endif
