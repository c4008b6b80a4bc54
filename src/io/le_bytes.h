/* Little-endian encoding for the binary exporters (PC2, GLB), independent of the host's order. */
#ifndef DRAPE_LE_BYTES_H
#define DRAPE_LE_BYTES_H

#include <stdint.h>
#include <string.h>

static inline void le_put_u32(unsigned char* p, uint32_t v)
{
	p[0] = (unsigned char)(v & 0xff);
	p[1] = (unsigned char)((v >> 8) & 0xff);
	p[2] = (unsigned char)((v >> 16) & 0xff);
	p[3] = (unsigned char)((v >> 24) & 0xff);
}

static inline void le_put_f32(unsigned char* p, float x)
{
	uint32_t u;
	memcpy(&u, &x, sizeof u);
	le_put_u32(p, u);
}

#endif
