// assimp's reading of a character file without its OpenGEX reader (assimp_read.h says why).
#include "assimp_read.h"

#include <assimp/BaseImporter.h>
#include <assimp/Importer.hpp>
#include <assimp/scene.h>

#include <cstdio>
#include <new>

struct assimp_file {
	Assimp::Importer importer;
};

extern "C" const aiScene* assimp_read(const char* path, unsigned flags, assimp_file** file, char* err, size_t err_size)
{
	*file = nullptr;
	try {
		assimp_file* f = new assimp_file;
		*file = f;
		// Unregistered, the reader is no longer the Importer's to delete.
		if (Assimp::BaseImporter* ogex = f->importer.GetImporter("ogex")) {
			if (f->importer.UnregisterLoader(ogex) == AI_SUCCESS) delete ogex;
		}
		const aiScene* s = f->importer.ReadFile(path, flags);
		if (!s || !s->mRootNode) {
			std::snprintf(err, err_size, "%s", s ? "the file holds no scene (no root node)" : f->importer.GetErrorString());
			return nullptr;
		}
		return s;
	} catch (const std::bad_alloc&) {
		std::snprintf(err, err_size, "out of memory");
	} catch (...) {
		std::snprintf(err, err_size, "assimp failed");
	}
	return nullptr;
}

extern "C" void assimp_release(assimp_file* file) { delete file; }
