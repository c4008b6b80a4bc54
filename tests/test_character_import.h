/* The "character" suite's cases on characters as users bring them (tests/test_character_import.c). */
#ifndef DRAPE_TEST_CHARACTER_IMPORT_H
#define DRAPE_TEST_CHARACTER_IMPORT_H

#include "drape.h"

/* tests/test_character.c: a chain of joints along x, joint k at local offset (len, 0, 0) from its
 * parent, with the caller's vertices and 4 influences each; identity placement, z up. */
drape_character* test_chain(int joints, double len, int verts, const double* rest, const int32_t* j, const double* w);
/* A one-thread world with a grid cloth (g) and the character as a solid (friction 0.5). */
drape_world* cloth_on_character(const drape_grid_def* g, const drape_character* c);
/* Steps frames of 1/30 s, adding the frames with solid contacts to *touched and the penetrating
 * particles of every frame to *penetrating. */
void run_frames(drape_world* w, int frames, int* touched, int* penetrating);

void test_character_weights_normalised(void);
void test_character_fbx_rig(void);
void test_character_static_body(void);
void test_character_static_weld(void);
void test_character_joint_maps(void);
void test_character_biovision_mannequin(void);
void test_character_keyframe_interpolation(void);
void test_character_scene_keyframes(void);

#endif
