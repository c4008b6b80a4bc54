/* Numbers as text for the frame writers, byte for byte what printf's "%.9g", "%.6f" and "%lld"
 * print, in about 40 % of snprintf's time (docs/caches.md, "OBJ frames"): a figure 1 drape run spent
 * more time in fprintf than in its cloth/solid contact. */
#ifndef DRAPE_TEXT_NUMBER_H
#define DRAPE_TEXT_NUMBER_H

#include <stddef.h>
#include <stdint.h>

/* Each writes at most TEXT_NUMBER_MAX bytes and a terminating NUL to out, and returns the length
 * (without the NUL). */
#define TEXT_NUMBER_MAX 32

size_t text_g9(double v, char* out);  /* "%.9g" */
size_t text_f6(double v, char* out);  /* "%.6f", for |v| < 1e15 (else as printf, which may be longer) */
size_t text_i64(int64_t v, char* out); /* "%lld" */

#endif
