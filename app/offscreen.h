/* An OpenGL context with no window, display or GPU needed: EGL on Mesa's surfaceless platform
 * (llvmpipe when there is no GPU), drawing into a multisampled framebuffer object whose image
 * is read back as RGB rows, top row first. */
#ifndef DRAPE_APP_OFFSCREEN_H
#define DRAPE_APP_OFFSCREEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct offscreen offscreen;

/* Creates the context and a width x height framebuffer and makes them current. NULL with one
 * sentence in err when no context can be had. */
offscreen* offscreen_create(int width, int height, char* err, size_t err_size);

/* Resolves the multisampled image and reads it into rgb (3 * width * height bytes, top row
 * first). False with a message on a GL error. */
bool offscreen_read(offscreen* o, uint8_t* rgb, char* err, size_t err_size);

/* The renderer's name (e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"), for messages. */
const char* offscreen_renderer(const offscreen* o);

void offscreen_destroy(offscreen* o);

#endif
