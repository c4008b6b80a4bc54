/* drape_scene, the public handle of a loaded scene (include/drape.h), shared by the public job
 * calls (src/io/job.c, src/io/run_job.c). */
#ifndef DRAPE_IO_SCENE_HANDLE_H
#define DRAPE_IO_SCENE_HANDLE_H

#include "io/scene.h"

struct drape_scene {
	scene s;
};

#endif
