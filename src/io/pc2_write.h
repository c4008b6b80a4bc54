/* Writes a PC2 point cache (the format of 3ds Max's Point Cache 2 modifier, read by Blender's Mesh
 * Cache modifier and Houdini) one sample at a time, into path + ".tmp" renamed over path at the end. */
#ifndef DRAPE_PC2_WRITE_H
#define DRAPE_PC2_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* File layout (all little-endian): "POINTCACHE2\0", int32 version (1), int32 point count,
 * float32 start frame, float32 sample rate (frames between samples), int32 sample count, then
 * per sample per point float32 x, y, z. */
#define PC2_HEADER_SIZE 32

typedef struct pc2_writer pc2_writer;

/* Creates path + ".tmp" and writes the header with 0 samples. NULL with a message on failure. */
pc2_writer* pc2_writer_begin(const char* path, int32_t point_count, double start_frame, double sample_rate, char* err,
			     size_t err_size);
/* Appends one sample: 3 * point_count doubles, stored as float32. No allocation. */
bool pc2_writer_add(pc2_writer* w, const double* positions, char* err, size_t err_size);
/* Patches the sample count into the header, closes and renames over path; frees w either way. */
bool pc2_writer_finish(pc2_writer* w, char* err, size_t err_size);
/* Removes the temporary file and frees w (NULL is fine). */
void pc2_writer_abort(pc2_writer* w);
int32_t pc2_writer_samples(const pc2_writer* w);

#endif
