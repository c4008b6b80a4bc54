/* Video from rendered frames by piping raw RGB to Debian's ffmpeg: MP4 (H.264, yuv420p) or GIF
 * (one palette made for the whole clip). Written as PATH.tmp and renamed when ffmpeg succeeds. */
#ifndef DRAPE_APP_VIDEO_H
#define DRAPE_APP_VIDEO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum video_format { VIDEO_NONE, VIDEO_MP4, VIDEO_GIF } video_format;

typedef struct video video;

/* True if an executable `ffmpeg` is on PATH. */
bool video_ffmpeg_available(void);

/* Starts ffmpeg writing `path`; NULL with one sentence in err. */
video* video_open(const char* path, video_format format, int width, int height, double fps, char* err, size_t err_size);

/* One frame, 3 * width * height bytes, top row first. */
bool video_write(video* v, const uint8_t* rgb, char* err, size_t err_size);

/* Ends the stream, waits for ffmpeg and renames the file into place (or removes it when
 * `keep` is false or anything failed). Frees v. */
bool video_close(video* v, bool keep, char* err, size_t err_size);

#endif
