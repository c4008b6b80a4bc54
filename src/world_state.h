/* The state a world carries from one step to the next, written to and read back from a file, so
 * that a run killed at any moment continues bit-identically from its last frame (drape resume;
 * docs/reliability.md, "Resume"). */
#ifndef DRAPE_WORLD_STATE_H
#define DRAPE_WORLD_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct drape_world drape_world;

/* False with the reason when a world holds state this file cannot carry (user springs). */
bool world_state_supported(const drape_world* w, char* why, size_t why_size);

/* Called before each output frame's steps: the cholesky preconditioner's factor, kept across steps
 * and not saved, is made afresh at a frame's first step, so that a resumed run (whose world has
 * no factor yet) and an uninterrupted one take the same steps. */
void world_state_frame_start(drape_world* w);

/* Time, positions, velocities, the step controller, the warm start, BDF2's history, the solid
 * contacts, the constraints' activation and forces, the intersection count; with seams, the sewn
 * topology (merged seams, masses, elements); animated characters' holds. */
bool world_state_write(drape_world* w, FILE* f);

/* Into a world built from the same scene and not yet stepped: prepares it as its first step
 * would, then replaces that state. False with the reason on a mismatch or a short file. */
bool world_state_read(drape_world* w, FILE* f, char* err, size_t err_size);

#endif
