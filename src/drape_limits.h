/* What drape accepts (docs/reliability.md, "Limits"). Beyond these a scene asks for something no
 * cloth does (a hundred times Earth's gravity, supersonic wind, a garment 10 km from the origin,
 * cells under 0.1 mm or a hundred times longer than wide, a material a thousand times stiffer than
 * the default, more particles than memory holds); runs
 * that accepted them only ground, so the library refuses them before allocating, with the numbers
 * in the message (drape_limits.c). */
#ifndef DRAPE_DRAPE_LIMITS_H
#define DRAPE_DRAPE_LIMITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LIMIT_ACCELERATION 1000.0   /* m/s^2: |gravity| */
#define LIMIT_AIR_SPEED 100.0	    /* m/s: |wind| + |gust amplitude| (a strong tornado) */
#define LIMIT_SCRIPTED_SPEED 20.0   /* m/s: pins and solids moved by the scene (twice fast_sphere) */
#define LIMIT_COORDINATE 1.0e4	    /* m: |x|, |y|, |z| of any rest or scripted position */
#define LIMIT_EDGE 1.0e-4	    /* m: a cloth's mean rest edge, at least */
#define LIMIT_THICKNESS 0.05	    /* m: the cloth/cloth contact thickness, at most */
#define LIMIT_REST_RATIO 100.0	    /* a cloth's mean edge over its mean rest edge, and back, at most */
#define LIMIT_PANEL 10.0	    /* m: a garment panel's extent along and across its grain */
#define LIMIT_GRID_ASPECT 100.0	    /* a grid cell's long side over its short side, at most */
#define LIMIT_STEPS_PER_FRAME 1.0e5 /* an output frame's duration over max_dt, at most */
#define LIMIT_STIFFNESS 1.0e6	    /* N/m: a material's stretch and shear stiffness (default 1,000 and 10) */
#define LIMIT_DAMPING 1.0e3	    /* N*s/m: a material's stretch and shear damping (default 0.5 and 0.01) */
#define LIMIT_REPULSION 1.0e6	    /* N/m: the cloth/cloth repulsion spring (default 200) */
#define LIMIT_BEND 0.1		    /* N*m: a material's bend_u and bend_v (default 2e-5; a stiff board) */
#define LIMIT_BEND_DAMPING 0.01	    /* N*m*s: a material's bend damping (default 2e-7) */
#define LIMIT_NEWTON_ITERATIONS 100 /* Newton iterations per step (default 1; docs/integrators.md) */
/* Bytes a particle costs at least (measured: 4.35 KB on the figure-2 sheet at 10K and 40K
 * particles, block-Jacobi, one thread). */
#define LIMIT_BYTES_PER_PARTICLE 4000.0

/* False, with the reason in why, when `particles` more particles (on top of `existing`) would not
 * fit in this machine's physical memory. */
bool limits_memory(int64_t particles, int64_t existing, char* why, size_t why_size);

/* False, with the reason, when any coordinate of the n points is beyond LIMIT_COORDINATE. */
bool limits_positions(const double* xyz, int64_t n, char* why, size_t why_size);

#endif
