/* A shipped scene loaded and built for a benchmark on a chosen thread count (drape bench --character,
 * --garments). */
#ifndef DRAPE_APP_BENCH_SCENE_H
#define DRAPE_APP_BENCH_SCENE_H

#include "drape.h"

/* scenes/NAME.json from the source tree, into *s, and its world on `threads` threads; NULL with
 * the message on stderr (and *s destroyed, NULL) on failure. */
drape_world* bench_scene_world(const char* name, int threads, drape_scene** s);

#endif
