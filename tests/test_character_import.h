/* The "character" suite's cases on characters as users bring them (tests/test_character_import.c). */
#ifndef DRAPE_TEST_CHARACTER_IMPORT_H
#define DRAPE_TEST_CHARACTER_IMPORT_H

void test_character_weights_normalised(void);
void test_character_fbx_rig(void);
void test_character_static_body(void);
void test_character_static_weld(void);
void test_character_joint_maps(void);
void test_character_biovision_mannequin(void);
void test_character_keyframe_interpolation(void);
void test_character_scene_keyframes(void);

#endif
