/* Cloth/solid contact (sec. 2.4, 5.4, 6, 6.2): which particles touch which solid, the contact
 * constraints they get in the modified PCG, release when the constraint force turns attractive,
 * and static/sliding friction. */
#ifndef DRAPE_CONTACT_H
#define DRAPE_CONTACT_H

#include <stdbool.h>
#include <stdint.h>

#include "../math/mat3.h"

enum { PINCH_PRESSED = 1, PINCH_UNPRESSED = 2 };

typedef struct contact {
	int32_t solid;        /* -1: the particle touches nothing */
	bool sticking;        /* static friction holds: all three directions locked (sec. 5.4) */
	uint8_t pinched;      /* PINCH_PRESSED: caught in a cloth/cloth crossing, and in a cloth/cloth
			       * pair since: slides, held a hair outside the bare surface (collide/contact.c) */
	double normal_force;  /* N, from the last accepted step: scales the sliding friction */
	double slip_speed;    /* m/s, tangential speed relative to the surface after the last step */
	bool slip_growing;    /* the slip sped up in the last step (or the contact just broke away) */
	vec3 break_dir;       /* where a contact that just broke away will slide: against the static
			       * friction force that held it */
	bool caught;          /* caught crossing after this step's solve: not released again in it
			       * (with contact bounds: its bound's floor is infinite in the next pass) */
	/* This step's plane: the particle ends the step on the plane through point_end + thickness
	 * normal, moving with the solid's surface velocity along the normal. */
	vec3 normal;
	vec3 point_end;
	vec3 surface_velocity;
	/* The side of two-sided solid side_solid the particle is on (+1 or -1; 0: none known): taken
	 * when it comes within the solid's thickness, kept while it stays there, whatever side of the
	 * surface it ends a step on (docs/collide.md, "Open meshes: both sides"). */
	int32_t side_solid;
	signed char side;
} contact;

/* What the contact bounds (drape_world_def.contact_bounds; docs/solver.md, "Contacts inside the
 * solve") keep of particle i within one step, beside its contact: a workspace array, not the
 * state, since nothing of it outlives the step (a checkpoint, written between steps, has none). */
typedef struct contact_trial {
	int32_t near; /* this step: the solid of the particle's free contact bound, -1 if none (within
		       * NEAR_REACH thicknesses, not in contact; the plane is the contact's) */
	/* Changed by this attempt's solve (contacts_settle_bounds), undone by the next
	 * contacts_prepare unless contacts_commit accepted the step: a rejected attempt's contact set
	 * does not carry into its retry. */
	int32_t attempt_solid; /* the solid of the contact the attempt released */
	bool attempt_taken_in, attempt_released;
} contact_trial;

typedef struct drape_world drape_world;

/* Before a step of size h, with the solids placed for it (solids_begin_step): keeps or drops
 * existing contacts, finds new ones (particles within the thickness, or whose path x + h v
 * crosses a solid), and adds their constraint directions to the filter, z and y; with contact
 * bounds (drape_world_def.contact_bounds) as held bounds of the solve, and particles near a solid
 * but not in contact as free bounds (call after constraints_prepare). */
void contacts_prepare(drape_world* w, double h);

/* Marks particle i's contact, if it has one and is not marked yet, as pinched: cloth layers
 * between solid surfaces need the room the solid's thickness takes (collide/cloth_contact.c).
 * Returns whether it changed; the constraints must then be made again (contacts_constrain). */
bool contact_pinch(drape_world* w, int32_t i);

/* Re-adds the constraints of every current contact (and with contact bounds, the free bounds of
 * near particles) (after constraints_prepare ran
 * again because the contact set changed within a step). */
void contacts_constrain(drape_world* w, double h);

/* After a solve: releases contacts whose constraint force pulls the particle onto the solid
 * (sec. 5.4: release when the force turns attractive) by more than the noise floor (contact.c,
 * RELEASE_FLOOR). Returns how many; the step must then be solved again without them. Without
 * contact bounds only. */
int32_t contacts_release_pulling(drape_world* w, double h);

/* After a solve with contact bounds (pcg_solve_bounded): contacts whose bound the solve released
 * end (sec. 5.4's release, within the solve), particles whose free bound it took in begin a
 * contact (sliding in this step, sticking from the next if they arrived slow). Returns how many
 * were released. */
int32_t contacts_settle_bounds(drape_world* w);

/* After a solve: contacts whose particle would end the step inside the solid all the same (their
 * plane, the surface's tangent plane at the step's start carried to its end, strayed from a curved
 * surface or from a fold of a body closing over it) take their plane from the surface at the
 * step's end, under where the particle would end (docs/collide.md, "Contacts end outside"). Not
 * for two-sided solids, which have no inside (a held particle crosses one back to its side). Run
 * before contacts_catch_crossings. Returns how many; the constraints must then be made again
 * (contacts_constrain) and the step solved again. */
int32_t contacts_catch_sunk(drape_world* w, double h);

/* After a solve: particles without a contact whose proposed path x -> x1 crosses a solid get one.
 * Returns how many were added (the step must then be solved again). */
int32_t contacts_catch_crossings(drape_world* w, double h);

/* After an accepted step, from the constraint forces e / h: release contacts whose normal force
 * pulls beyond the noise floor, switch sticking ones whose tangential force exceeds mu times the
 * normal force to sliding, and let sliding ones that have (nearly) stopped stick again. Returns
 * how many were released. */
int32_t contacts_commit(drape_world* w, double h);

/* Sliding friction of particle i (sec. 5.4): a force of magnitude mu * normal force against the
 * slip, and its velocity derivative for the implicit system. Returns false if it has none. */
bool contact_friction(const drape_world* w, int32_t i, double h, vec3* f, mat3* dfdv);

#endif
