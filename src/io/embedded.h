/* Scene files compiled into the program (scenes/figure1_drape.json, its cylinder.obj, and
 * scenes/figure2_sheet.json), so the built-in default and the benchmark work from any directory.
 * They are addressed as "<built-in>/NAME". */
#ifndef DRAPE_EMBEDDED_H
#define DRAPE_EMBEDDED_H

#include <stdio.h>

#define EMBEDDED_PREFIX "<built-in>/"

/* The text of built-in file NAME, or NULL. */
const char* embedded_text(const char* name);

/* Opens "<built-in>/NAME" for reading, or any other path from the file system. */
FILE* embedded_or_file_open(const char* path);

#endif
