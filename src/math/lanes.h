/* Four doubles in one vector (GCC's vector extension) for the step's element kernels
 * (step/explicit_triangles.c, step/implicit_triangles.c, step/bend_tensor_assemble.c) and the
 * PCG's product (solver/bsr_packed.c): each lane does one scalar loop's
 * operations in that loop's order, and a lane's add, multiply or divide is the scalar operation's
 * IEEE result (no contraction: -ffp-contract=off), so the bits are the scalar code's whatever
 * width the compiler gives the vector: AVX where the processor has it (a kernel's LANES_AVX clone,
 * chosen at run time by lanes_avx), else pairs of SSE2 registers. */
#ifndef DRAPE_LANES_H
#define DRAPE_LANES_H

#include "vec3.h"

#include <stdbool.h>
#include <string.h>

typedef double d4 __attribute__((vector_size(32)));
typedef long long i4 __attribute__((vector_size(32)));

/* A vector read through memcpy (an unaligned load): a macro, since a function taking or returning
 * a vector of four doubles would have an ABI that depends on the target. */
#define D4_AT(r, p) memcpy(&(r), (p), sizeof(d4))
/* A vector of three written as a line of four doubles (x, y, z, 0) at l: the layout the kernels
 * read with one D4_AT (the tensor bending's rows, the PCG's product). */
static inline void lanes_line(double* l, vec3 a)
{
	l[0] = a.x;
	l[1] = a.y;
	l[2] = a.z;
	l[3] = 0.0;
}

/* r where the lane's mask (a comparison's result) is set, else +0. */
#define D4_KEEP(r, mask) ((d4)((i4)(r) & (mask)))

/* A kernel's body, inlined into its two clones: LANES_AVX for processors with AVX, the other for
 * the rest. */
#define LANES_INLINE static inline __attribute__((always_inline))
#if defined(__x86_64__) || defined(__i386__)
#define LANES_AVX __attribute__((target("avx")))
static inline bool lanes_avx(void) { return __builtin_cpu_supports("avx"); }
/* The end of an AVX clone: the upper halves cleared (vzeroupper) for the SSE code after it. GCC 12
 * usually inserts it, but left it out of a first version of step/implicit_triangles.c's clone
 * (which called SSE functions in its loop), and the SSE code after it (the rest of the assembly,
 * the coarse setup, the PCG) ran 10 % slower on the figure 1 drape; a clone calls no function
 * of its own and ends with this. */
#define LANES_AVX_END() __builtin_ia32_vzeroupper()
#else
/* elsewhere the two clones are one target's: the compiler's own vectors */
#define LANES_AVX
#define LANES_AVX_END() ((void)0)
static inline bool lanes_avx(void) { return false; }
#endif

#endif
