/* The step's workspace (world_data.h, world_workspace): built from the model at each topology
 * change, with one init and one free, and reused by every step (docs/architecture.md, "The
 * world's three parts"). */
#ifndef DRAPE_WORKSPACE_H
#define DRAPE_WORKSPACE_H

#include "../world_data.h"

/* (Re)builds the workspace after a topology change: colourings, the matrix pattern and its slots,
 * the preconditioner, tensor bending's matrix, the strain limiter's scratch, the cloth/cloth
 * detector, and the arena of arrays; resets the state's per-particle arrays (no contacts, no
 * warm start, no BDF2 history). On failure everything is freed and the world's error says why. */
drape_status workspace_prepare(drape_world* w);

/* Frees all of it (also what a failed workspace_prepare had built); the world keeps its model and
 * its x and v. */
void workspace_free(drape_world* w);

#endif
