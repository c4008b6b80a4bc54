/* Loading a character with assimp (docs/characters.md): the node hierarchy as joints with their rest
 * transforms (renamed to drape's names, joint_map.c), one animation's keys (none: a static body),
 * and either the file's skinned meshes (glTF 2.0, FBX, Collada; bones' offset matrices are the
 * inverse bind matrices; weights normalised), its plain meshes fixed to their nodes when none is
 * skinned (a posed body: Collada, .blend, OBJ), or, for skeleton-only files such as BVH motion
 * capture, the generated mannequin (src/character/mannequin.h) skinned in the rest pose. assimp
 * gives the data; drape evaluates poses and skinning itself (pose.c). */
#include "character.h"

#include "assimp_read.h"
#include "bvh_check.h"
#include "core.h"
#include "file_text.h"
#include "gltf_check.h"
#include "mannequin.h"

#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Joints beyond this are refused: pose.c keeps per-joint matrices on the stack. */
#define CHARACTER_MAX_JOINTS 256
/* The rest skeleton's height (lowest to highest joint) that "scale": "auto" gives: the CMU subject
 * of BVH/01_01.bvh at 0.0618 m per file unit, a 1.73 m body (docs/mannequin.md). */
#define AUTO_SKELETON_HEIGHT 1.590

typedef struct importer {
	const drape_character_def* def;
	const struct aiScene* scene;
	drape_character* c;
	const struct aiNode** nodes; /* joint i's node */
	char* err;
	size_t err_size;
} importer;

static bool fail(importer* im, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(importer* im, const char* fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return core_fail(im->err, im->err_size, "%s: %s", im->def->file, msg);
}

static int32_t count_nodes(const struct aiNode* n)
{
	int32_t k = 1;
	for (unsigned i = 0; i < n->mNumChildren; ++i) k += count_nodes(n->mChildren[i]);
	return k;
}

/* Depth-first, so every parent precedes its children. */
static bool add_joints(importer* im, const struct aiNode* n, int32_t parent)
{
	drape_character* c = im->c;
	int32_t i = c->joint_count++;
	character_joint* j = &c->joints[i];
	j->parent = parent;
	j->name = strdup(n->mName.data);
	j->file_name = strdup(n->mName.data);
	im->nodes[i] = n;
	if (!j->name || !j->file_name) return fail(im, "%s", "out of memory");
	struct aiVector3D s, p;
	struct aiQuaternion q;
	aiDecomposeMatrix(&n->mTransformation, &s, &q, &p);
	double t[3] = {p.x, p.y, p.z}, sc[3] = {s.x, s.y, s.z}, r[4] = {q.w, q.x, q.y, q.z};
	memcpy(j->rest.t, t, sizeof t);
	memcpy(j->rest.s, sc, sizeof sc);
	memcpy(j->rest.q, r, sizeof r);
	memcpy(j->dress_q, r, sizeof r);
	j->inverse_bind = affine_identity();
	for (unsigned k = 0; k < n->mNumChildren; ++k)
		if (!add_joints(im, n->mChildren[k], i)) return false;
	return true;
}

/* By the file's name: channels and bones name the file's nodes. */
static int32_t joint_index(const drape_character* c, const char* name)
{
	for (int32_t i = 0; i < c->joint_count; ++i)
		if (strcmp(c->joints[i].file_name, name) == 0) return i;
	return -1;
}

/* The clip the def asks for; NULL with *none set for a file without animations, which is a body
 * that stands still (or moves by keyframes) unless the def names a clip. */
static const struct aiAnimation* pick_animation(importer* im, bool* none)
{
	const struct aiScene* s = im->scene;
	const drape_character_def* d = im->def;
	*none = false;
	if (s->mNumAnimations == 0) {
		if (file_has_extension(d->file, ".bvh"))
			fail(im, "%s", "has no motion (a BVH file needs a MOTION section with frames)");
		else if (d->animation)
			fail(im, "has no animation, so none named '%s'", d->animation);
		else if (d->animation_index > 0)
			fail(im, "animation index %d does not exist (it has no animation)", (int)d->animation_index);
		else
			*none = true;
		return NULL;
	}
	if (d->animation) {
		for (unsigned i = 0; i < s->mNumAnimations; ++i)
			if (strcmp(s->mAnimations[i]->mName.data, d->animation) == 0) return s->mAnimations[i];
		char names[256] = "";
		size_t used = 0;
		for (unsigned i = 0; i < s->mNumAnimations && used < 200; ++i) {
			int k = snprintf(names + used, sizeof names - used, "%s'%.40s'", i ? ", " : "", s->mAnimations[i]->mName.data);
			if (k > 0) used += (size_t)k;
		}
		fail(im, "no animation named '%s' (it has %s)", d->animation, names);
		return NULL;
	}
	if (d->animation_index < 0 || (unsigned)d->animation_index >= s->mNumAnimations) {
		fail(im, "animation index %d does not exist (it has %u animation%s)", (int)d->animation_index, s->mNumAnimations,
		     s->mNumAnimations == 1 ? "" : "s");
		return NULL;
	}
	return s->mAnimations[d->animation_index];
}

static double* alloc_doubles(size_t n, bool* ok)
{
	double* p = malloc((n ? n : 1) * sizeof *p);
	if (!p) *ok = false;
	return p;
}

static bool load_clip(importer* im)
{
	bool none;
	const struct aiAnimation* a = pick_animation(im, &none);
	if (!a) return none;
	/* assimp leaves ticks per second 0 when the file does not say; 25 is its documented default. */
	double tps = a->mTicksPerSecond > 0.0 ? a->mTicksPerSecond : 25.0;
	double first = INFINITY;
	int32_t keys = 0;
	for (unsigned k = 0; k < a->mNumChannels; ++k) {
		const struct aiNodeAnim* ch = a->mChannels[k];
		if (ch->mNumRotationKeys > 0) first = fmin(first, ch->mRotationKeys[0].mTime);
		if (ch->mNumPositionKeys > 0) first = fmin(first, ch->mPositionKeys[0].mTime);
		keys += (int32_t)(ch->mNumRotationKeys > ch->mNumPositionKeys ? ch->mNumRotationKeys : ch->mNumPositionKeys);
	}
	if (a->mNumChannels == 0 || keys <= (int32_t)a->mNumChannels || !isfinite(first))
		return fail(im, "animation '%s' has no frames (at least two keys are needed)", a->mName.data);
	drape_character* c = im->c;
	c->duration = a->mDuration / tps;
	bool ok = true;
	for (unsigned k = 0; k < a->mNumChannels && ok; ++k) {
		const struct aiNodeAnim* ch = a->mChannels[k];
		int32_t i = joint_index(c, ch->mNodeName.data);
		if (i < 0) continue; /* a channel for a node the hierarchy lacks animates nothing */
		joint_channel* jc = &c->joints[i].channel;
		/* Channels name nodes, and a name two nodes share finds the first: a BVH with two joints
		 * of one name gave that joint a second channel, whose keys replaced (and leaked) the
		 * first's while the other joint stood still (fuzzing, finding 18). */
		if (jc->pos_time)
			return fail(im, "animation '%s' has two channels for joint '%s' (two nodes share the name, or a channel "
				    "is repeated)", a->mName.data, ch->mNodeName.data);
		jc->pos_count = (int32_t)ch->mNumPositionKeys;
		jc->rot_count = (int32_t)ch->mNumRotationKeys;
		jc->scl_count = (int32_t)ch->mNumScalingKeys;
		jc->pos_time = alloc_doubles(ch->mNumPositionKeys, &ok);
		jc->pos = alloc_doubles(3 * (size_t)ch->mNumPositionKeys, &ok);
		jc->rot_time = alloc_doubles(ch->mNumRotationKeys, &ok);
		jc->rot = alloc_doubles(4 * (size_t)ch->mNumRotationKeys, &ok);
		jc->scl_time = alloc_doubles(ch->mNumScalingKeys, &ok);
		jc->scl = alloc_doubles(3 * (size_t)ch->mNumScalingKeys, &ok);
		if (!ok) break;
		for (unsigned q = 0; q < ch->mNumPositionKeys; ++q) {
			const struct aiVectorKey* key = &ch->mPositionKeys[q];
			jc->pos_time[q] = (key->mTime - first) / tps;
			double v[3] = {key->mValue.x, key->mValue.y, key->mValue.z};
			memcpy(&jc->pos[3 * q], v, sizeof v);
		}
		for (unsigned q = 0; q < ch->mNumRotationKeys; ++q) {
			const struct aiQuatKey* key = &ch->mRotationKeys[q];
			jc->rot_time[q] = (key->mTime - first) / tps;
			double r[4] = {key->mValue.w, key->mValue.x, key->mValue.y, key->mValue.z};
			double n = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
			for (int e = 0; e < 4; ++e) jc->rot[4 * q + e] = n > 0.0 ? r[e] / n : (e == 0);
		}
		for (unsigned q = 0; q < ch->mNumScalingKeys; ++q) {
			const struct aiVectorKey* key = &ch->mScalingKeys[q];
			jc->scl_time[q] = (key->mTime - first) / tps;
			double v[3] = {key->mValue.x, key->mValue.y, key->mValue.z};
			memcpy(&jc->scl[3 * q], v, sizeof v);
		}
		/* The root motion joint: the topmost joint whose translation is animated. */
		if (ch->mNumPositionKeys > 1 && (c->root < 0 || i < c->root)) c->root = i;
	}
	if (!ok) return fail(im, "%s", "out of memory reading the animation");
	return true;
}

/* Each mesh's instances: the joints (nodes) that hold it, when no mesh is skinned. */
static int32_t mesh_instances(const importer* im, unsigned mesh, int32_t* nodes, int32_t max)
{
	int32_t k = 0;
	for (int32_t i = 0; i < im->c->joint_count; ++i)
		for (unsigned m = 0; m < im->nodes[i]->mNumMeshes; ++m)
			if (im->nodes[i]->mMeshes[m] == mesh && k < max) nodes[k++] = i;
	return k;
}

/* A mesh's bones: the joints and weights of its vertices, at most four each. */
static bool load_bones(importer* im, const struct aiMesh* mesh, int32_t v0)
{
	drape_character* c = im->c;
	for (unsigned b = 0; b < mesh->mNumBones; ++b) {
		const struct aiBone* bone = mesh->mBones[b];
		int32_t j = joint_index(c, bone->mName.data);
		if (j < 0) return fail(im, "bone '%s' names no node of the hierarchy", bone->mName.data);
		const struct aiMatrix4x4* o = &bone->mOffsetMatrix;
		affine ib = {{o->a1, o->a2, o->a3, o->a4, o->b1, o->b2, o->b3, o->b4, o->c1, o->c2, o->c3, o->c4}};
		/* a corrupt inverse bind matrix reads as NaN, as positions do (fuzzing, finding 17) */
		for (int e = 0; e < 12; ++e)
			if (!isfinite(ib.m[e]))
				return fail(im, "bone '%s' has an inverse bind matrix that is not finite", bone->mName.data);
		c->joints[j].inverse_bind = ib;
		for (unsigned w = 0; w < bone->mNumWeights; ++w) {
			double weight = bone->mWeights[w].mWeight;
			/* assimp (5.2) passes on a glTF skin whose joint and weight accessors are longer
			 * than the positions: ids past the mesh's vertices (found by fuzz_character) */
			if (bone->mWeights[w].mVertexId >= mesh->mNumVertices)
				return fail(im, "bone '%s' weights vertex %u of mesh '%s', which has %u vertices", bone->mName.data,
					    bone->mWeights[w].mVertexId, mesh->mName.data, mesh->mNumVertices);
			int32_t v = v0 + (int32_t)bone->mWeights[w].mVertexId;
			if (weight == 0.0) continue; /* no influence; a bad weight is kept for character_normalise_skin */
			int k = 0;
			while (k < 4 && c->skin_weight[4 * v + k] != 0.0) ++k;
			if (k == 4) return fail(im, "a vertex of mesh '%s' has more than four bone influences", mesh->mName.data);
			c->skin_joint[4 * v + k] = j;
			c->skin_weight[4 * v + k] = weight;
		}
	}
	return true;
}

/* A vertex's place and skin: vertices equal in all of it move as one. */
typedef struct weld_key {
	double p[3], w[4];
	int32_t j[4], index;
} weld_key;

static int compare_skin(const weld_key* x, const weld_key* y)
{
	for (int k = 0; k < 3; ++k)
		if (x->p[k] != y->p[k]) return x->p[k] < y->p[k] ? -1 : 1;
	for (int k = 0; k < 4; ++k) {
		if (x->j[k] != y->j[k]) return x->j[k] < y->j[k] ? -1 : 1;
		if (x->w[k] != y->w[k]) return x->w[k] < y->w[k] ? -1 : 1;
	}
	return 0;
}

static int compare_weld(const void* a, const void* b)
{
	const weld_key *x = a, *y = b;
	int c = compare_skin(x, y);
	return c ? c : (x->index < y->index ? -1 : x->index > y->index);
}

/* Meshes repeat a vertex wherever its uv or normal changes or a material ends (HUMAN.blend comes as
 * two meshes split by material; the FBX rig of assimp-testmodels repeats every vertex per face):
 * drape needs only the place and the skin, so vertices equal in both become one and the body
 * closes. Triangles that collapse are dropped. */
static bool weld_vertices(drape_character* c)
{
	int32_t n = c->vertex_count;
	weld_key* keys = malloc((size_t)n * sizeof *keys);
	int32_t* first_of = malloc((size_t)n * sizeof *first_of);
	int32_t* to = malloc((size_t)n * sizeof *to);
	if (!keys || !first_of || !to) {
		free(keys), free(first_of), free(to);
		return false;
	}
	for (int32_t v = 0; v < n; ++v) {
		memcpy(keys[v].p, &c->rest[3 * (size_t)v], sizeof keys[v].p);
		memcpy(keys[v].j, &c->skin_joint[4 * (size_t)v], sizeof keys[v].j);
		memcpy(keys[v].w, &c->skin_weight[4 * (size_t)v], sizeof keys[v].w);
		keys[v].index = v;
	}
	qsort(keys, (size_t)n, sizeof *keys, compare_weld);
	/* every vertex to the first (lowest-numbered) of its place, then the kept ones renumbered */
	for (int32_t i = 0, first = 0; i < n; ++i) {
		if (i > 0 && compare_skin(&keys[i], &keys[i - 1]) != 0) first = i;
		first_of[keys[i].index] = keys[first].index;
	}
	int32_t kept = 0;
	for (int32_t v = 0; v < n; ++v) {
		if (first_of[v] != v) continue;
		memmove(&c->rest[3 * (size_t)kept], &c->rest[3 * (size_t)v], 3 * sizeof *c->rest);
		memmove(&c->skin_joint[4 * (size_t)kept], &c->skin_joint[4 * (size_t)v], 4 * sizeof *c->skin_joint);
		memmove(&c->skin_weight[4 * (size_t)kept], &c->skin_weight[4 * (size_t)v], 4 * sizeof *c->skin_weight);
		to[v] = kept++;
	}
	for (int32_t v = 0; v < n; ++v) to[v] = to[first_of[v]];
	int32_t t_kept = 0;
	for (int32_t t = 0; t < c->triangle_count; ++t) {
		int32_t a = to[c->triangles[3 * t]], b = to[c->triangles[3 * t + 1]], d = to[c->triangles[3 * t + 2]];
		if (a == b || b == d || a == d) continue;
		c->triangles[3 * t_kept] = a, c->triangles[3 * t_kept + 1] = b, c->triangles[3 * t_kept + 2] = d;
		++t_kept;
	}
	c->vertex_count = kept;
	c->triangle_count = t_kept;
	free(keys);
	free(first_of);
	free(to);
	return true;
}

/* The file's meshes, merged into one: the skinned ones (bones' offset matrices are the inverse
 * binds), or, when none is skinned, every mesh fixed to the node that holds it (weight 1 on that
 * joint, its vertices in the node's frame): a posed body that stands still or moves by keyframes. */
static bool load_meshes(importer* im)
{
	const struct aiScene* s = im->scene;
	drape_character* c = im->c;
	bool skinned = false;
	for (unsigned m = 0; m < s->mNumMeshes; ++m) skinned = skinned || s->mMeshes[m]->mNumBones > 0;
	int32_t nv = 0, nt = 0, inst[64];
	for (unsigned m = 0; m < s->mNumMeshes; ++m) {
		const struct aiMesh* mesh = s->mMeshes[m];
		if (skinned && mesh->mNumBones == 0) continue;
		int32_t copies = skinned ? 1 : mesh_instances(im, m, inst, 64);
		nv += copies * (int32_t)mesh->mNumVertices;
		nt += copies * (int32_t)mesh->mNumFaces;
	}
	if (nv == 0 || nt == 0)
		return fail(im, "%s", "has no mesh with triangles (use \"body\": \"mannequin\" for a skeleton-only file)");
	c->vertex_count = nv;
	c->triangle_count = nt;
	c->rest = calloc(3 * (size_t)nv, sizeof *c->rest);
	c->triangles = calloc(3 * (size_t)nt, sizeof *c->triangles);
	c->skin_joint = calloc(4 * (size_t)nv, sizeof *c->skin_joint);
	c->skin_weight = calloc(4 * (size_t)nv, sizeof *c->skin_weight);
	if (!c->rest || !c->triangles || !c->skin_joint || !c->skin_weight) return fail(im, "%s", "out of memory");
	int32_t v0 = 0, t0 = 0;
	for (unsigned m = 0; m < s->mNumMeshes; ++m) {
		const struct aiMesh* mesh = s->mMeshes[m];
		if (skinned && mesh->mNumBones == 0) continue;
		int32_t copies = skinned ? 1 : mesh_instances(im, m, inst, 64);
		for (int32_t copy = 0; copy < copies; ++copy) {
			for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
				double p[3] = {mesh->mVertices[v].x, mesh->mVertices[v].y, mesh->mVertices[v].z};
				/* assimp passes a buffer's bytes on as floats unchecked: a misaligned or
				 * corrupt accessor reads as NaN or 1e38 (fuzzing, finding 11) */
				if (!(isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2])))
					return fail(im, "mesh '%s' vertex %u has a position that is not a finite number", mesh->mName.data, v);
				memcpy(&c->rest[3 * (size_t)(v0 + (int32_t)v)], p, sizeof p);
				if (!skinned) {
					c->skin_joint[4 * (size_t)(v0 + (int32_t)v)] = inst[copy];
					c->skin_weight[4 * (size_t)(v0 + (int32_t)v)] = 1.0;
				}
			}
			for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
				if (mesh->mFaces[f].mNumIndices != 3)
					return fail(im, "mesh '%s' has a face that is not a triangle", mesh->mName.data);
				for (int k = 0; k < 3; ++k)
					c->triangles[3 * (size_t)(t0 + (int32_t)f) + k] = v0 + (int32_t)mesh->mFaces[f].mIndices[k];
			}
			if (skinned && !load_bones(im, mesh, v0)) return false;
			v0 += (int32_t)mesh->mNumVertices;
			t0 += (int32_t)mesh->mNumFaces;
		}
	}
	char why[256];
	if (!character_normalise_skin(c, why, sizeof why) || !character_check_skin(c, why, sizeof why))
		return fail(im, "%s", why);
	if (!weld_vertices(c)) return fail(im, "%s", "out of memory");
	/* Welding drops triangles whose corners coincide; a mesh of nothing else is no body (fuzzing:
	 * a glTF whose positions all read as one point). */
	if (c->triangle_count == 0)
		return fail(im, "has no triangle with three distinct corners (its %d triangles collapse when equal vertices are "
			    "welded)", (int)nt);
	return true;
}

/* File -> drape: scale, the up axis turned to +z (y up: (x, y, z) -> (x, -z, y), a proper rotation
 * that keeps handedness), then the placement. */
static void set_to_world(drape_character* c, const drape_character_def* d, double scale)
{
	affine a = {{scale, 0, 0, d->position[0], 0, scale, 0, d->position[1], 0, 0, scale, d->position[2]}};
	if (d->up == 'y') {
		affine b = {{scale, 0, 0, d->position[0], 0, 0, -scale, d->position[1], 0, scale, 0, d->position[2]}};
		a = b;
		c->up[0] = 0.0, c->up[1] = 1.0, c->up[2] = 0.0;
	} else {
		c->up[0] = 0.0, c->up[1] = 0.0, c->up[2] = 1.0;
	}
	c->to_world = a;
}

static bool build_mannequin(importer* im)
{
	drape_character* c = im->c;
	const drape_character_def* d = im->def;
	affine* g = malloc((size_t)c->joint_count * sizeof *g);
	mannequin_joint* mj = malloc((size_t)c->joint_count * sizeof *mj);
	if (!g || !mj) {
		free(g);
		free(mj);
		return fail(im, "%s", "out of memory");
	}
	character_rest_globals(c, g);
	double scale = d->scale;
	if (scale == 0.0) {
		double lo = INFINITY, hi = -INFINITY;
		for (int32_t i = 0; i < c->joint_count; ++i) {
			double h = g[i].m[3] * c->up[0] + g[i].m[7] * c->up[1] + g[i].m[11] * c->up[2];
			lo = fmin(lo, h);
			hi = fmax(hi, h);
		}
		scale = hi > lo ? AUTO_SKELETON_HEIGHT / (hi - lo) : 1.0;
	}
	set_to_world(c, d, scale);
	for (int32_t i = 0; i < c->joint_count; ++i) {
		double p[3] = {g[i].m[3], g[i].m[7], g[i].m[11]};
		mj[i].name = c->joints[i].name;
		mj[i].parent = c->joints[i].parent;
		affine_apply(&c->to_world, p, mj[i].pos);
	}
	mannequin_mesh m;
	char why[256];
	bool ok = mannequin_build(mj, c->joint_count, d->cell_size, &m, why, sizeof why);
	free(mj);
	if (!ok) {
		free(g);
		/* The body needs drape's (CMU) names: say how a skeleton named otherwise gets them. */
		const char* hint = strstr(why, "no joint named")
					   ? " (drape reads CMU, Biovision and Mixamo joint names; give a joint_map for others)"
					   : "";
		return fail(im, "cannot build the mannequin body: %s%s", why, hint);
	}
	/* The body is made in drape's frame; skinning works in the file's, so take it back. */
	affine back = affine_inverse(c->to_world);
	c->vertex_count = m.vertex_count;
	c->triangle_count = m.triangle_count;
	c->rest = m.positions;
	c->triangles = m.triangles;
	c->skin_joint = m.joints;
	c->skin_weight = m.weights;
	for (int32_t v = 0; v < c->vertex_count; ++v) {
		double p[3];
		affine_apply(&back, &c->rest[3 * v], p);
		memcpy(&c->rest[3 * v], p, sizeof p);
	}
	for (int32_t i = 0; i < c->joint_count; ++i) c->joints[i].inverse_bind = affine_inverse(g[i]);
	free(g);
	return true;
}

static bool check_def(const drape_character_def* d, char* err, size_t err_size)
{
	if (!d || d->cookie != DRAPE_COOKIE) return core_fail(err, err_size, "character def not initialised with drape_default_character_def()");
	if (!d->file) return core_fail(err, err_size, "character: no file given");
	if (!(isfinite(d->time_scale) && d->time_scale > 0.0)) return core_fail(err, err_size, "%s: time_scale must be > 0", d->file);
	if (!(isfinite(d->scale) && d->scale >= 0.0)) return core_fail(err, err_size, "%s: scale must be > 0 (or 0 for automatic)", d->file);
	if (!(isfinite(d->hold) && d->hold >= 0.0) || !(isfinite(d->blend) && d->blend >= 0.0))
		return core_fail(err, err_size, "%s: hold and blend must be >= 0 s", d->file);
	if (!(isfinite(d->start) && d->start >= 0.0)) return core_fail(err, err_size, "%s: start must be >= 0 s", d->file);
	if (!isfinite(d->dress_angle) || fabs(d->dress_angle) > 90.0)
		return core_fail(err, err_size, "%s: dress_angle must be within [-90, 90] degrees", d->file);
	if (d->skinning != DRAPE_SKINNING_LINEAR && d->skinning != DRAPE_SKINNING_DUAL_QUATERNION)
		return core_fail(err, err_size, "%s: skinning must be linear or dual_quaternion", d->file);
	if (d->up != 'y' && d->up != 'z') return core_fail(err, err_size, "%s: up must be 'y' or 'z'", d->file);
	for (int k = 0; k < 3; ++k)
		if (!isfinite(d->position[k])) return core_fail(err, err_size, "%s: position is not finite", d->file);
	if (d->joint_map_count < 0 || (d->joint_map_count > 0 && !d->joint_map))
		return core_fail(err, err_size, "%s: joint_map_count is %d with %s joint_map", d->file, (int)d->joint_map_count,
				 d->joint_map ? "a" : "no");
	if (d->keyframe_count < 0 || (d->keyframe_count > 0 && !d->keyframes))
		return core_fail(err, err_size, "%s: keyframe_count is %d with %s keyframes", d->file, (int)d->keyframe_count,
				 d->keyframes ? "" : "no");
	return true;
}

drape_character* character_load(const drape_character_def* d, character_error_at* at, char* err, size_t err_size)
{
	character_error_at unused;
	if (!at) at = &unused;
	at->what = CHARACTER_INPUT_FILE, at->index = 0;
	if (!check_def(d, err, err_size)) return NULL;
	FILE* f = fopen(d->file, "rb");
	if (!f) {
		core_fail(err, err_size, "%s: cannot read: %s", d->file, strerror(errno));
		return NULL;
	}
	fclose(f);
	char why[256];
	if (!character_gltf_importable(d->file, why, sizeof why) || !character_bvh_importable(d->file, why, sizeof why)) {
		core_fail(err, err_size, "%s: %s", d->file, why);
		return NULL;
	}
	assimp_file* file;
	char reason[512];
	const struct aiScene* s = assimp_read(d->file, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices |
						 aiProcess_LimitBoneWeights | aiProcess_SortByPType,
					      &file, reason, sizeof reason);
	if (!s) {
		core_fail(err, err_size, "%s: assimp cannot read it: %s", d->file, reason);
		assimp_release(file);
		return NULL;
	}
	importer im = {d, s, calloc(1, sizeof(drape_character)), NULL, err, err_size};
	drape_character* c = im.c;
	bool ok = c != NULL;
	if (!ok) core_fail(err, err_size, "%s: out of memory", d->file);
	int32_t nodes = ok ? count_nodes(s->mRootNode) : 0;
	if (ok && nodes > CHARACTER_MAX_JOINTS) {
		ok = fail(&im, "%d nodes: more than the %d joints drape poses", (int)nodes, CHARACTER_MAX_JOINTS);
	}
	if (ok) {
		c->root = -1;
		c->hold = d->hold;
		c->blend = d->blend;
		c->start = d->start;
		c->time_scale = d->time_scale;
		c->loop = d->loop;
		c->keep_root_motion = d->keep_root_motion;
		c->skinning = d->skinning;
		c->joints = calloc((size_t)nodes, sizeof *c->joints);
		im.nodes = calloc((size_t)nodes, sizeof *im.nodes);
		ok = c->joints && im.nodes ? add_joints(&im, s->mRootNode, -1) : fail(&im, "%s", "out of memory");
	}
	ok = ok && load_clip(&im);
	/* Map and keyframe errors name the entry (at) without the file: the caller says where. */
	if (ok && !character_map_joints(c, d, at, err, err_size)) {
		ok = false;
		if (at->what == CHARACTER_INPUT_FILE) fail(&im, "%s", err);
	}
	/* A BVH file is a skeleton and its motion; assimp adds a stick mesh for display, not a body. */
	bool skeleton_only = file_has_extension(d->file, ".bvh") || d->mannequin;
	if (ok) {
		if (skeleton_only) {
			set_to_world(c, d, 1.0);
			ok = build_mannequin(&im);
		} else {
			set_to_world(c, d, d->scale > 0.0 ? d->scale : 1.0);
			ok = load_meshes(&im);
		}
	}
	assimp_release(file);
	free(im.nodes);
	if (ok && c->start > c->duration && !c->loop) {
		core_fail(err, err_size, "%s: start %g s is past the clip's end (%g s)", d->file, c->start, c->duration);
		ok = false;
	}
	if (ok) {
		ok = character_set_dress_pose(c, d->dress_angle * 3.14159265358979323846 / 180.0) ||
		     core_fail(err, err_size, "%s: out of memory", d->file);
		ok = ok && character_set_keyframes(c, d->keyframes, d->keyframe_count, at, err, err_size);
	}
	if (ok && c->skinning == DRAPE_SKINNING_DUAL_QUATERNION) {
		char why[256];
		ok = character_check_rigid(c, why, sizeof why) || core_fail(err, err_size, "%s: %s", d->file, why);
	}
	if (!ok) {
		drape_character_destroy(c);
		return NULL;
	}
	return c;
}

drape_character* drape_character_load(const drape_character_def* d, char* err, size_t err_size)
{
	character_error_at at;
	drape_character* c = character_load(d, &at, err, err_size);
	if (!c && at.what != CHARACTER_INPUT_FILE && err && err_size > 0) {
		/* name the file and the entry in front of a map or keyframe message */
		bool map = at.what == CHARACTER_INPUT_MAP_NAME || at.what == CHARACTER_INPUT_MAP_JOINT;
		char* inner = strdup(err);
		if (inner) snprintf(err, err_size, "%s: %s[%d]: %s", d->file, map ? "joint_map" : "keyframes", (int)at.index, inner);
		free(inner);
	}
	return c;
}
